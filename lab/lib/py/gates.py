# SPDX-License-Identifier: GPL-2.0
"""Gates: is a point at its rate's load and at the guest's speed, is a
rate's guest overloaded, the verdict rate, the latency rate, the MLFRR.
Every gate is judged from the measured columns under the rules given, so
a run can be judged under its own rules and under today's."""

from dataclasses import dataclass

import points as P
from stats import median


@dataclass(frozen=True)
class PointGate:
    on_load: bool
    clock_kept: bool
    why: str            # "" when both hold

    @property
    def ok(self):
        return self.on_load and self.clock_kept


def within(x, bound):
    return -bound <= x <= bound


def point_on_load(row, rules):
    """The generator within gate.point_gen_err_pct of its target (the
    unlimited point has none)."""
    e = P.num(row, "gen_err_pct")
    return e is None or within(e, rules["gate.point_gen_err_pct"])


def own_starvation(row, rules):
    """A point not starved, or starved by the guest's own kernel rather
    than by a host that stalled its vCPU (own_starvation() of lab/lib/stats.awk)."""
    share = P.num(row, "starve_wait_share")
    bound = rules.get("gate.starved_wait_share")
    if not P.is_starved(row) or share is None or bound is None:
        return True
    return share >= bound


def point_clock_kept(row, rules, fixed):
    """The guest kept its speed over the point.  Fixed speed: QEMU's TCG
    thread had slack (ran < gate.tcg_run_pct of the window) and the guest's
    window is within gate.clock_err_pct of the host's; a starved point has
    no window, and is judged on A..B, the clock it does have.  Native
    speed: its vCPU thread was blocked at most gate.vcpu_blocked_pct.  A
    row of an older format without these columns: its recorded
    gate_clock.  A starved point also needs its own starvation: its
    sampler waited runnable at least gate.starved_wait_share of the
    starvation timeout (rules from version 5; a row without the column is
    not judged on it)."""
    if not own_starvation(row, rules):
        return False
    if fixed:
        if P.is_starved(row):
            err = P.num(row, "clock_err_pct")
            run = None
        else:
            err = P.num(row, "window_clock_err_pct")
            run = P.num(row, "qemu_vcpu_run_pct")
        if err is None and "window_clock_err_pct" not in row:
            g = P.num(row, "gate_clock")
            return g is None or g >= 1
        if err is None:
            return False
        return within(err, rules["gate.clock_err_pct"]) and \
            (run is None or run < rules["gate.tcg_run_pct"])
    blocked = P.num(row, "qemu_vcpu_blocked_pct")
    if blocked is None:
        g = P.num(row, "gate_clock")
        return g is None or g >= 1
    return blocked <= rules["gate.vcpu_blocked_pct"]


def point_gate(row, rules, fixed):
    on_load = point_on_load(row, rules)
    clock = point_clock_kept(row, rules, fixed)
    why = []
    if not on_load:
        why.append(f"generator {P.num(row, 'gen_err_pct'):+g} % off its target")
    if not own_starvation(row, rules):
        why.append(f"starved by the host, not its kernel (the sampler waited "
                   f"{P.num(row, 'starve_wait_share'):g} of the timeout)")
    elif not clock:
        why.append("the guest off its clock")
    return PointGate(on_load, clock, "; ".join(why))


@dataclass(frozen=True)
class RateGate:
    """A (variant, rate)'s gates on the medians over its repetitions."""
    idle: float             # medians, None where not measured
    gen_err: float
    clock_share: float      # share of its points on their clock
    ceiling: float
    offered: float
    saturated: bool
    on_target: bool
    clock_kept: bool
    host_delivers: bool
    stress: bool            # the unlimited rate: no target, never a verdict rate

    @property
    def passes(self):
        return (not self.stress and self.saturated and self.on_target and
                self.clock_kept and self.host_delivers)

    def failures(self, saturation=True):
        """The gates the rate fails, in words; without saturation, the ones
        no claim can define away (the generator, the clock, the host)."""
        s = []
        if saturation and not self.saturated:
            s.append("guest not saturated")
        if not self.on_target:
            s.append("generator off target")
        if not self.clock_kept:
            s.append("guest off its clock")
        if not self.host_delivers:
            s.append(f"host ceiling {self.ceiling:,.0f} pps below the offered rate")
        return s

    def why(self):
        if self.stress:
            return "stress point"
        return "fails: " + ", ".join(self.failures())


def col_median(rows, col):
    return median([v for v in (P.num(r, col) for r in rows) if v is not None])


def rate_gate(rows, rules, fixed):
    """The rate gates of one (variant, rate)'s rows: the guest saturated
    (median idle <= gate.idle_pct), the generator on target (median error
    within gate.gen_err_pct), a strict majority (gate.clock_majority) of
    its points on their clock, the offered rate within the host's delivery
    ceiling (not measured: nothing says the host failed).  A starved
    point's idle is 0: its SCHED_FIFO sampler, runnable, did not get the
    CPU for the whole --starve timeout, so the idle task never ran."""
    idle = col_median(rows, "idle_cpu")
    gen = col_median(rows, "gen_err_pct")
    clock = sum(point_clock_kept(r, rules, fixed) for r in rows) / len(rows)
    ceiling = col_median(rows, "host_ceiling_pps")
    offered = col_median(rows, "offered_pps")
    stress = P.rate(rows[0]) == 0
    return RateGate(
        idle, gen, clock, ceiling, offered,
        saturated=idle is not None and idle <= rules["gate.idle_pct"],
        on_target=gen is not None and within(gen, rules["gate.gen_err_pct"]),
        clock_kept=clock > rules["gate.clock_majority"],
        host_delivers=ceiling is None or offered is None or ceiling >= offered,
        stress=stress)


def rate_gates(tput_groups, rules, fixed):
    """{(variant, rate): RateGate} of the throughput pass."""
    return {k: rate_gate(rows, rules, fixed) for k, rows in tput_groups.items()}


def verdict_rate(gates, choosers):
    """The highest paced rate at which every variant in choosers passes its
    rate gates: the same offered load for all, chosen by the guests' state.
    Only the claims' variants choose it (extra variants are measured there,
    their gates shown); None if there is none."""
    rates = {t for (_, t) in gates}
    best = None
    for t in rates:
        if t == 0:
            continue
        if all((v, t) in gates and gates[(v, t)].passes for v in choosers):
            best = t if best is None or t > best else best
    return best


def latency_rate(lat_groups, variants, vrate):
    """The rate of the latency pass the claims read: the verdict rate if
    every variant has a latency point there, else the highest such rate;
    None without a latency pass."""
    common = [t for t in {t for (_, t) in lat_groups}
              if all((v, t) in lat_groups for v in variants)]
    if not common:
        return None
    if vrate in common:
        return vrate
    return max(common)


def mlfrr(tput_groups, variant, rules):
    """Mogul & Ramakrishnan's maximum loss-free receive rate bracketed by
    the grid: (lo, hi), lo the highest rate such that it and every lower
    rate lost < loss.free_pct (median), hi the first that did not."""
    lo = hi = None
    for t in P.rates_sorted(t for (v, t) in tput_groups if v == variant):
        loss = col_median(tput_groups[(variant, t)], "loss_pct")
        if loss is not None and loss < rules["loss.free_pct"]:
            lo = t
        else:
            hi = t
            break
    return lo, hi
