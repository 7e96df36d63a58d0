# SPDX-License-Identifier: GPL-2.0
"""The softirq experiment's analysis (lab/softirq, lab/exp/softirq): the
other side of the 2016 debate, judged by the claims' one rule
(lab/lib/py/claims.py) under rules.tsv.

Inputs: a run's points.csv (one row per phase and pass:
lab/exp/softirq/point.awk), params.json and the traced windows' text
(raw/<variant>-r<rep>-<phase><level>-traced.trace), each cut to its
window in guest time (win_from_ns..win_to_ns) by lab/lib/py/softirqtrace.py.

Facts, each computed once:
- per traced point: every vector's first-raise-to-entry waits, run times
  and contexts, the wake-up-to-run of ksoftirqd and the napi threads,
  the packets NAPI polled in each context;
- the claims: paolo (the fix delays TIMER, RCU and, from rules version 4,
  BLOCK, against vanilla and threaded NAPI), napi_alone (threaded NAPI
  does not), revert_busy (the
  fix's request/response p99 with busy loops);
- the tables of the report: per vector, the article's mechanism (NET_RX
  packets per datagram received, and where they were polled), the
  user-visible probes, the busy-CPU workload, tracing's own cost, and
  the benefit (the RX sweep's delivered at its verdict rate) against the
  costs.
Every function takes its inputs and returns its result."""

import csv
import glob
import json
import os
from dataclasses import dataclass

import claims as C
import points as P
import softirqtrace as T
from stats import median, median_ci, ratio

# the other softirq users the report shows; the claims judge those of
# claim_vectors(rules)
VECTORS = ("TIMER", "RCU", "BLOCK")
# per tree: the control, the fix, threaded NAPI (None: not in this experiment)
TREES = (
    ("6.12", "vanilla", "ksoftirqd-fix", "threaded-napi"),
    ("6.1", "v6.1-revert", "v6.1", None),
)
REQUIRED = ("variant rep phase level pass rate_target busy starved delivered_pps "
            "timer_p99_us poll_p99_us rcu_p99_us probe_sent probe_lost probe_ap99_us "
            "trace_overrun trace_dropped win_from_ns win_to_ns gate_clock").split()
# NAPI's polled packets by context, as the report names them
PLACES = (("irq-tail", "hardirq exit"), ("receiver", "the receiver's syscalls"),
          ("task", "other tasks' local_bh_enable()"), ("ksoftirqd", "ksoftirqd"),
          ("napi", "the napi thread"))


class InputError(Exception):
    pass


# ---- inputs -------------------------------------------------------------

def num(row, col):
    x = row.get(col, "")
    if x in ("", "-", None):
        return None
    try:
        return float(x)
    except ValueError:
        return None


def read_rows(path):
    """The rows of a softirq run's points.csv, checked."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path} missing: not a results directory") from None
    if not text.endswith("\n"):
        raise InputError(f"{path}: the last line is incomplete (truncated file?)")
    rows = list(csv.DictReader(text.splitlines()))
    if not rows:
        raise InputError(f"{path} holds no points")
    missing = [c for c in REQUIRED if c not in rows[0]]
    if missing:
        raise InputError(f"{path} lacks {', '.join(missing)}: not a softirq run's points")
    return tuple(rows)


def trace_path(run_path, row):
    return os.path.join(run_path, "raw", f"{row['variant']}-r{row['rep']}-"
                        f"{row['phase']}{row['level']}-traced.trace")


def trace_figures(run_path, row):
    """The traced point's figures over its window, None without a trace."""
    try:
        with open(trace_path(run_path, row), "rb") as f:
            blob = f.read()
    except FileNotFoundError:
        return None
    lo, hi = num(row, "win_from_ns"), num(row, "win_to_ns")
    return T.figures(T.load(blob), lo / 1000 if lo else None, hi / 1000 if hi else None)


@dataclass(frozen=True)
class Point:
    row: dict
    fig: object         # softirqtrace.TraceFigures, traced points only

    @property
    def variant(self):
        return self.row["variant"]

    @property
    def rep(self):
        return int(self.row["rep"])


def points(run_path, rows):
    """{(pass, phase, level, variant): {rep: Point}}"""
    out = {}
    for r in rows:
        fig = trace_figures(run_path, r) if r["pass"] == "traced" else None
        key = (r["pass"], r["phase"], int(float(r["level"])), r["variant"])
        out.setdefault(key, {})[int(r["rep"])] = Point(r, fig)
    return out


def levels(pts, pas, phase, positive=True):
    return tuple(sorted({lv for (p, ph, lv, _) in pts if p == pas and ph == phase
                         and (lv > 0 or not positive)}))


# ---- per point figures --------------------------------------------------

def wait_p99(fig, vec):
    v = fig.vectors.get(vec) if fig else None
    return T.percentile(v.wait_us, 990) if v and v.wait_us else None


def wait_n(fig, vec):
    v = fig.vectors.get(vec) if fig else None
    return len(v.wait_us) if v else 0


def place_of(ctx):
    if ctx in ("irq-tail", "ksoftirqd", "napi"):
        return ctx
    return "receiver" if ctx == "task:udp_sink" else "task"


def napi_split(fig):
    """{place: packets} of NAPI's polls in the window."""
    out = {p: 0 for p, _ in PLACES}
    for ctx, n in (fig.napi_packets.items() if fig else ()):
        out[place_of(ctx)] += n
    return out


def per_datagram(pt):
    """NET_RX packets polled per datagram the receiver read, in the window;
    None for a starved point (its receiver's reads are not known there)."""
    if pt.fig is None or pt.row["starved"] == "1":
        return None
    got = num(pt.row, "delivered_pps")
    secs = (num(pt.row, "win_to_ns") - num(pt.row, "win_from_ns")) / 1e9
    polled = sum(pt.fig.napi_packets.values())
    return ratio(polled, got * secs) if got is not None else None


def trace_why(pt, vec, rules):
    """Why a traced point's wait p99 of vec judges nothing ("" if it does)."""
    why = []
    if pt.fig is None:
        return "no trace"
    lost = (num(pt.row, "trace_overrun") or 0) + (num(pt.row, "trace_dropped") or 0)
    if lost:
        why.append(f"the trace lost {lost:.0f} events")
    n = wait_n(pt.fig, vec)
    if n < rules["softirq.min_samples"]:
        why.append(f"{n} {vec} entries in the window (softirq.min_samples "
                   f"{rules['softirq.min_samples']:.0f})")
    if pt.row.get("gate_clock") != "1":
        why.append("the guest lost its clock")
    return "; ".join(why)


def probe_why(pt, rules):
    why = []
    answered = (num(pt.row, "probe_sent") or 0) - (num(pt.row, "probe_lost") or 0)
    if answered < rules["softirq.min_samples"]:
        why.append(f"{answered:.0f} answered probes (softirq.min_samples "
                   f"{rules['softirq.min_samples']:.0f})")
    if pt.row.get("gate_clock") != "1":
        why.append("the guest lost its clock")
    return "; ".join(why)


# ---- claims -------------------------------------------------------------

def paired(num_pts, den_pts, value, gate, what, rule, direction, rules):
    pairs, out_pairs, out = C.pair_up(num_pts, den_pts, value, value, gate, what)
    return C.make_ratio(pairs, out_pairs, C.dedupe(out), rules[rule], direction,
                        rules.region(rule), rules)


def short(r):
    """A ratio in a few words: its interval, or what it would have been
    with the left-out pairs (listed once, under the report's "Left out")."""
    if not r.excluded:
        return C.fmt_iv(r.interval)
    judged_ = C.fmt_iv(r.interval) if r.pairs else "no pairs"
    return (f"{judged_}; {len(r.all_pairs) - len(r.pairs)} left out, with them "
            f"{C.fmt_iv(r.interval_all)}")


def judged(cid, tree, name, src, pub, metric, rule, direction, rules, per, rates):
    if not per:
        return C.Claim(cid, tree, name, src, pub, metric, rules[rule], direction,
                       rules.region(rule), "not-measured", "not measured in this run")
    outcome = C.combine(per)
    at, r = C.worst(per)
    why = "; ".join(f"{k}: {short(x)}" for k, x in per)
    return C.Claim(cid, tree, name, src, pub, metric, rules[rule], direction,
                   rules.region(rule), C.status_of(outcome, True), why, tuple(rates), r,
                   tuple(per), excluded=tuple(e for _, x in per for e in x.excluded))


def claim_vectors(rules):
    """The vectors claim.paolo and claim.napi_alone judge: TIMER and RCU,
    and BLOCK from rules version 4 (claim.paolo.block 1)."""
    return ("TIMER", "RCU") + (("BLOCK",) if rules.get("claim.paolo.block", 0) else ())


def vector_pairs(num_v, dens, rates, rule, direction, pts, rules):
    """(what, Ratio) of num_v's first-raise-to-entry p99 of each of
    claim_vectors(rules) over each of dens' at each flooded rate."""
    per = []
    for t in rates:
        for vec in claim_vectors(rules):
            for d in dens:
                what = f"{vec} {num_v}/{d} at {C.fmt_rate(t)}"
                per.append((what, paired(
                    pts.get(("traced", "flood", t, num_v), {}), pts.get(("traced", "flood", t, d), {}),
                    lambda p, vec=vec: wait_p99(p.fig, vec),
                    lambda p, vec=vec: trace_why(p, vec, rules), what, rule, direction, rules)))
    return per


def probe_pairs(num_v, den, busy, rule, direction, pts, rules, label=""):
    """(what, Ratio) of num_v's request/response probe p99 (answered) over
    den's at each busy level; label starts each what."""
    per = []
    for n in busy:
        what = f"{label}{num_v}/{den} with {n} busy loop{'s' if n > 1 else ''}"
        per.append((what, paired(pts.get(("plain", "busy", n, num_v), {}),
                                 pts.get(("plain", "busy", n, den), {}),
                                 lambda p: num(p.row, "probe_ap99_us"),
                                 lambda p: probe_why(p, rules), what, rule, direction, rules)))
    return per


def vector_claim(cid, tree, name, src, pub, num_v, dens, rule, direction, pts, rules):
    """num_v's first-raise-to-entry p99 of each of claim_vectors(rules)
    over each of dens' at every flooded rate of the traced pass."""
    rates = levels(pts, "traced", "flood")
    vecs = claim_vectors(rules)
    metric = (f"{num_v}'s first-raise-to-entry p99 of {', '.join(vecs)} (traced windows) over "
              + " and over ".join(f"{d}'s" for d in dens) + ", paired per repetition, "
              "at every flooded rate")
    have = {v for (_, _, _, v) in pts}
    if num_v not in have or any(d not in have for d in dens) or not rates:
        return judged(cid, tree, name, src, pub, metric, rule, direction, rules, [], rates)
    per = vector_pairs(num_v, dens, rates, rule, direction, pts, rules)
    return judged(cid, tree, name, src, pub, metric, rule, direction, rules, per, rates)


def revert_busy(tree, ctl, fix, pts, rules):
    name = ("the v6.5 revert: on a busy CPU with moderate traffic, deferring to ksoftirqd "
            "raises the network's request/response latency")
    src = "d15121be7485 (Jakub Kicinski's report, 2022-12; Jason Xing's Tested-by)"
    pub = ("net-TX stalls of 8 ms or more 1.8/s on loaded web machines; packets 10-70 ms "
           "in ksoftirqd's queue")
    busy = levels(pts, "plain", "busy")
    metric = (f"{fix}'s request/response probe p99 (answered) over {ctl}'s with busy loops and "
              "moderate traffic, paired per repetition, at every busy level")
    have = {v for (_, _, _, v) in pts}
    if fix not in have or ctl not in have or not busy:
        return judged("revert-busy-cpu", tree, name, src, pub, metric, "claim.revert_busy", ">=",
                      rules, [], busy)
    per = probe_pairs(fix, ctl, busy, "claim.revert_busy", ">=", pts, rules)
    return judged("revert-busy-cpu", tree, name, src, pub, metric, "claim.revert_busy", ">=",
                  rules, per, busy)


def middle_cost(tree, ctl, mid, pts, rules):
    """A middle ground removes the fix's cost: its first-raise-to-entry p99
    of claim_vectors(rules) at every flooded rate (traced windows) and its
    request/response probe p99 (answered) at every busy level, each over
    the control's, paired per repetition, all below claim.middle_cost."""
    rule = "claim.middle_cost"
    cid = f"middle-cost:{mid}"
    name = (f"{mid}, a middle ground of the debate, removes the cost: the other softirq users "
            "under the flood and the network on a busy CPU wait no longer than with " + ctl)
    src = "issue 38: Jakub Kicinski's bounded deferral, Frederic Weisbecker's per-vector deferral"
    pub = "(no published number: the designs were never measured beside the fix)"
    flood = levels(pts, "traced", "flood")
    busy = levels(pts, "plain", "busy")
    vecs = claim_vectors(rules)
    metric = (f"{mid}'s first-raise-to-entry p99 of {', '.join(vecs)} at every flooded rate "
              f"(traced windows) and its probe p99 (answered) at every busy level, each over "
              f"{ctl}'s, paired per repetition")
    have = {v for (_, _, _, v) in pts}
    if mid not in have or ctl not in have or not (flood or busy):
        return judged(cid, tree, name, src, pub, metric, rule, "<", rules, [], flood)
    per = (vector_pairs(mid, (ctl,), flood, rule, "<", pts, rules) +
           probe_pairs(mid, ctl, busy, rule, "<", pts, rules, "probe "))
    return judged(cid, tree, name, src, pub, metric, rule, "<", rules, per, flood)


def claims(pts, rules, mids=()):
    """Every claim of the trees the run has, and (rules version 6 on) the
    middle grounds' cost against the first tree's control."""
    out = []
    have = {v for (_, _, _, v) in pts}
    for tree, ctl, fix, napi in TREES:
        if fix not in have:
            continue
        dens = tuple(d for d in (ctl, napi) if d)
        out.append(vector_claim(
            "paolo-other-users", tree,
            "Paolo Abeni, 2016: deferring softirqs to ksoftirqd delays every other softirq user "
            f"({', '.join(claim_vectors(rules))})",
            "LWN, \"Threadable NAPI polling, softirqs, and proper fixes\" (2016)",
            "\"avoid any possible effects on other softirq users\" (no number)",
            fix, dens, "claim.paolo", ">=", pts, rules))
        if napi:
            out.append(vector_claim(
                "napi-alone", tree,
                "threaded NAPI leaves the other softirq users alone under the flood",
                "Paolo Abeni's threaded NAPI (29863d41bb6e)", "(the design's intent; no number)",
                napi, (ctl,), "claim.napi_alone", "<", pts, rules))
        out.append(revert_busy(tree, ctl, fix, pts, rules))
    if rules.get("claim.middle_cost") is not None:
        out.extend(middle_cost(TREES[0][0], TREES[0][1], m, pts, rules) for m in mids)
    return tuple(out)


# ---- tables -------------------------------------------------------------

def med(xs):
    xs = [x for x in xs if x is not None]
    return median(xs) if xs else None


def fmt(x, nd=0):
    if x is None:
        return "–"
    return f"{x:,.{nd}f}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def vector_rows(pts, variants):
    rows = []
    for t in levels(pts, "traced", "flood"):
        for v in variants:
            ps = list(pts.get(("traced", "flood", t, v), {}).values())
            if not ps:
                continue
            row = [v, C.fmt_rate(t), str(len(ps))]
            for vec in VECTORS + ("NET_RX",):
                row += [fmt(med([wait_n(p.fig, vec) for p in ps])),
                        fmt(med([wait_p99(p.fig, vec) for p in ps]))]
            for kind in ("ksoftirqd", "napi"):
                row.append(fmt(med([T.percentile(p.fig.wake_us[kind], 990) if p.fig else None
                                    for p in ps])))
            rows.append(row)
    return table(["variant", "flood", "n"]
                 + [h for vec in VECTORS + ("NET_RX",) for h in (f"{vec} entries", f"{vec} wait p99 µs")]
                 + ["ksoftirqd wake→run p99 µs", "napi wake→run p99 µs"], rows)


def mechanism_rows(pts, variants):
    rows = []
    for t in levels(pts, "traced", "flood"):
        for v in variants:
            ps = list(pts.get(("traced", "flood", t, v), {}).values())
            if not ps:
                continue
            shares = []
            for place, _ in PLACES:
                xs = []
                for p in ps:
                    s = napi_split(p.fig)
                    tot = sum(s.values())
                    xs.append(100 * s[place] / tot if tot else None)
                shares.append(fmt(med(xs), 1))
            rows.append([v, C.fmt_rate(t), fmt(med([per_datagram(p) for p in ps]), 2),
                         str(sum(p.row["starved"] == "1" for p in ps))] + shares)
    return table(["variant", "flood", "polled per datagram read", "starved"]
                 + [f"% in {name}" for _, name in PLACES], rows)


def probe_rows(pts, variants):
    rows = []
    for phase in ("flood", "busy"):
        for lv in levels(pts, "plain", phase, positive=False):
            for v in variants:
                ps = list(pts.get(("plain", phase, lv, v), {}).values())
                if not ps:
                    continue
                where = C.fmt_rate(lv) if phase == "flood" and lv else \
                    ("no flood" if phase == "flood" else f"{lv} busy loop{'s' if lv > 1 else ''}")
                rows.append([v, where, str(len(ps)), fmt(med([num(p.row, "delivered_pps") for p in ps])),
                             str(sum(p.row["starved"] == "1" for p in ps))]
                            + [fmt(med([num(p.row, f"{k}_p99_us") for p in ps]))
                               for k in ("timer", "poll", "rcu", "block")]
                            + [fmt(med([num(p.row, "block_softirq_ps") for p in ps]))])
    return table(["variant", "phase", "n", "delivered pps", "starved", "timer (SO_RCVTIMEO) p99 µs",
                  "poll (hrtimer) p99 µs", "rcu (synchronize_net) p99 µs",
                  "block (4 KiB O_DIRECT read) p99 µs", "BLOCK softirqs/s"], rows)


def busy_rows(pts, variants):
    rows = []
    for lv in levels(pts, "plain", "busy"):
        for v in variants:
            ps = list(pts.get(("plain", "busy", lv, v), {}).values())
            if not ps:
                continue
            rows.append([v, str(lv), str(len(ps))]
                        + [fmt(med([num(p.row, c) for p in ps]), nd) for c, nd in
                           (("probe_p50_us", 0), ("probe_ap99_us", 0), ("probe_p999_us", 0),
                            ("probe_loss_pct", 2), ("delivered_pps", 0), ("spin_iters_ps", 0),
                            ("ksoftirqd_runs_ps", 0), ("ksoftirqd_wait_us", 0),
                            ("napi_runs_ps", 0), ("napi_wait_us", 0))])
    return table(["variant", "busy loops", "n", "probe p50 µs", "probe p99 µs (answered)",
                  "probe p99.9 µs", "probe loss %", "delivered pps", "busy loops' iterations/s",
                  "ksoftirqd runs/s", "ksoftirqd wait per run µs", "napi runs/s",
                  "napi wait per run µs"], rows)


def overhead_rows(pts, variants):
    """Tracing's own cost: the traced window against the untraced one of
    the same phase and boot, as a paired ratio."""
    rows = []
    for (pas, phase, lv, v) in sorted(k for k in pts if k[0] == "traced"):
        plain = pts.get(("plain", phase, lv, v), {})
        traced = pts[(pas, phase, lv, v)]
        cells = []
        for col in ("delivered_pps", "timer_p99_us", "rcu_p99_us", "block_p99_us", "spin_iters_ps"):
            # a column both windows have and the untraced one is not 0 of
            # (a flooded phase has no busy loops: nothing to compare)
            xs = [ratio(num(traced[k].row, col), num(plain[k].row, col)) for k in traced
                  if k in plain and num(traced[k].row, col) is not None
                  and (num(plain[k].row, col) or 0) > 0]
            cells.append(fmt(med(xs), 2))
        rows.append([v, f"{phase} {C.fmt_rate(lv) if phase == 'flood' else lv}"] + cells)
    rows.sort(key=lambda r: (variants.index(r[0]) if r[0] in variants else 99, r[1]))
    return table(["variant", "phase", "delivered traced/untraced", "timer p99 traced/untraced",
                  "rcu p99 traced/untraced", "block p99 traced/untraced",
                  "busy loops traced/untraced"], rows)


def rx_sweep(path):
    """A results directory's verdict rate and summary by variant, None
    unless it is an RX sweep that chose a verdict rate (a run of one rate
    or a diagnostic one has none: its delivered is no benefit figure)."""
    try:
        with open(os.path.join(path, "verdicts.json"), encoding="utf-8") as f:
            v = json.load(f)
        with open(os.path.join(path, "summary.csv"), encoding="utf-8", newline="") as f:
            s = {r["variant"]: r for r in csv.DictReader(f)}
    except (OSError, ValueError):
        return None
    if not v.get("verdict_rate"):
        return None
    return os.path.basename(path), v["verdict_rate"], s


def latest_rx(results_dir):
    """The newest RX sweep with a verdict rate (rx_sweep), or None."""
    for path in sorted(glob.glob(os.path.join(results_dir, "2*")), reverse=True):
        rx = rx_sweep(path)
        if rx is not None:
            return rx
    return None


def tradeoff_rows(pts, variants, rx):
    top = max(levels(pts, "traced", "flood") or (0,))
    busy = min(levels(pts, "plain", "busy") or (0,))
    rows = []
    for v in variants:
        tr = list(pts.get(("traced", "flood", top, v), {}).values())
        bz = list(pts.get(("plain", "busy", busy, v), {}).values())
        benefit = rx[2].get(v, {}).get("delivered_pps") if rx else None
        rows.append([v, benefit or "–"]
                    + [fmt(med([wait_p99(p.fig, vec) for p in tr])) for vec in VECTORS]
                    + [fmt(med([num(p.row, "probe_ap99_us") for p in bz]))])
    rx_name = f"RX sweep {rx[0]}, verdict rate {C.fmt_rate(rx[1])}" if rx and rx[1] else "no RX sweep"
    return table(["variant", f"delivered pps ({rx_name})"]
                 + [f"{vec} wait p99 µs at {C.fmt_rate(top)}" for vec in VECTORS]
                 + [f"probe p99 µs, {busy} busy loop{'s' if busy > 1 else ''}"], rows)


def tradeoff_dat(pts, variants, rx):
    """plots/softirq.gp's data: per variant its benefit (the RX sweep's
    delivered at its verdict rate) and its costs (TIMER, RCU and BLOCK
    wait p99 at the highest flood, the probe p99 with the fewest and the
    most busy loops); NaN where not measured."""
    top = max(levels(pts, "traced", "flood") or (0,))
    bl = levels(pts, "plain", "busy") or (0,)

    def cell(x):
        return "NaN" if x is None else f"{x:.0f}"

    def probe(v, n):
        return med([num(p.row, "probe_ap99_us") for p in pts.get(("plain", "busy", n, v), {}).values()])
    out = [f"# variant delivered_pps timer_wait_p99_us rcu_wait_p99_us block_wait_p99_us "
           f"probe_p99_us_{min(bl)}busy probe_p99_us_{max(bl)}busy (flood {top} pps)"]
    for v in variants:
        tr = list(pts.get(("traced", "flood", top, v), {}).values())
        benefit = rx[2].get(v, {}).get("delivered_pps") if rx else None
        out.append(" ".join([v, cell(float(benefit) if benefit else None)]
                            + [cell(med([wait_p99(p.fig, vec) for p in tr])) for vec in VECTORS]
                            + [cell(probe(v, min(bl))), cell(probe(v, max(bl)))]))
    return "\n".join(out) + "\n"


def summary_csv(pts, variants):
    cols = ("delivered_pps", "timer_p99_us", "poll_p99_us", "rcu_p99_us", "block_p99_us",
            "probe_ap99_us", "spin_iters_ps")
    out = ["variant,phase,level,pass,n,starved," + ",".join(cols) + ","
           + ",".join(f"{vec.lower()}_wait_p99_us" for vec in VECTORS) + ",netrx_per_datagram"]
    for (pas, phase, lv, v) in sorted(pts, key=lambda k: (variants.index(k[3]), k[1], k[2], k[0])):
        ps = list(pts[(pas, phase, lv, v)].values())
        cells = [fmt(med([num(p.row, c) for p in ps]), 1).replace(",", "") for c in cols]
        tr = [fmt(med([wait_p99(p.fig, vec) for p in ps]), 0).replace(",", "") for vec in VECTORS] \
            if pas == "traced" else [""] * len(VECTORS)
        pd = fmt(med([per_datagram(p) for p in ps]), 2) if pas == "traced" else ""
        row = [v, phase, str(lv), pas, str(len(ps)), str(sum(p.row["starved"] == "1" for p in ps))]
        out.append(",".join(row + [c if c != "–" else "" for c in cells]
                            + [c if c != "–" else "" for c in tr] + [pd if pd != "–" else ""]))
    return "\n".join(out) + "\n"


def claim_rows(cs):
    rows = []
    for c in cs:
        r = c.ratio
        rows.append([c.id, c.tree, f"**{c.status}**",
                     C.fmt_iv(r.interval) if r is not None and r.interval else "–",
                     f"{c.direction} {c.threshold:g}",
                     "–" if c.region is None else f"[{c.region[0]:g}, {c.region[1]:g}]"])
    return table(["claim", "tree", "verdict", "deciding ratio [interval] (n)", "threshold",
                  "not reproduced inside"], rows)


def report(run_path, params, rules, own, cs, own_cs, pts, variants, rx):
    p = params
    out = [f"# The softirq experiment: {p.get('run')}"
           + (f" — {p['note']}" if p.get("note") else ""), ""]
    out.append(f"Lab {p.get('lab_commit')}, {p.get('accel')} guest at {p.get('speed')}, "
               f"variants {', '.join(variants)}, {p.get('reps')} repetitions "
               f"(order balanced: {p.get('order_balanced')}); knee {p.get('knee_pps')} pps, "
               f"flooded phases {p.get('flood_rates')} pps, busy phases {p.get('busy')} loops with "
               f"{p.get('traffic_pps')} pps of traffic; windows {p.get('window_s')} s untraced, "
               f"{p.get('trace_window_s')} s traced ({p.get('traced')}); rules version "
               f"{rules.version} ({rules.sha}).")
    out += ["", "## Claims", ""] + claim_rows(cs) + [""]
    for c in cs:
        out.append(f"- **{c.id}** ({c.tree}), {c.status}: {c.name}. Metric: {c.metric}. {c.why}.")
    if own is not None and own.sha != rules.sha:
        out += ["", f"Under the run's own rules (version {own.version}, {own.sha}):", ""] \
            + claim_rows(own_cs)
    out += ["", "## The other softirq users under the flood (traced windows, medians)", "",
            "First raise to entry of each vector (as bcc's softirqslower: the first raise since "
            "the vector's last entry), and how long ksoftirqd and the napi threads waited from "
            "their wake-up to running.", ""] + vector_rows(pts, variants)
    out += ["", "## The article's mechanism: where NET_RX ran (traced windows, medians)", "",
            "NAPI's polled packets per datagram the receiver read in the window, and the share "
            "of them polled on a hardirq's exit, in the receiver's own system calls "
            "(local_bh_enable()), in other tasks, in ksoftirqd and in the napi thread. A starved "
            "window has no read count.", ""] + mechanism_rows(pts, variants)
    out += ["", "## User-visible probes (untraced windows, medians)", "",
            "sirqprobe's calls: a blocking recv() with SO_RCVTIMEO (a timer-wheel timeout, "
            "TIMER_SOFTIRQ), poll() with the same timeout (an hrtimer in hardirq: the control), "
            f"close() of an AF_PACKET socket (synchronize_net(): an RCU grace period); timeout "
            f"{p.get('sirq_timeout_us')} µs; a 4 KiB O_DIRECT read of a virtio-blk disk once per "
            "timeout period (blk-mq completion in BLOCK_SOFTIRQ: two possible CPUs, one online, "
            "one hardware queue), with the BLOCK softirqs /proc/softirqs counted in the window. "
            "A starved guest's probes run late or not at all.", ""] \
        + probe_rows(pts, variants)
    out += ["", "## The revert's workload: busy loops, moderate traffic (untraced, medians)", "",
            "The request/response probe's round trips through the NIC; ksoftirqd's and the napi "
            "threads' runs and their mean wait on the run queue per run, from schedstat "
            "(run_delay over pcount: exact over the window, untraced; the traced windows' "
            "wake→run p99 is in the vectors' table when busy phases are traced).", ""] \
        + busy_rows(pts, variants)
    out += ["", "## What tracing costs (paired per boot, medians of traced/untraced)", "",
            "Traced windows feed no throughput figure; this is their own cost in an "
            "instruction-counted guest.", ""] + overhead_rows(pts, variants)
    out += ["", "## Benefit against cost", "", "![benefit against cost](tradeoff.png)", ""] \
        + tradeoff_rows(pts, variants, rx)
    excl = [e for c in cs for e in c.excluded]
    if excl:
        out += ["", "## Left out (each makes its claim inconclusive)", ""]
        out += [f"- {e.what}: {e.why}" for e in C.dedupe(excl)]
    return "\n".join(out) + "\n"


def verdicts_json(params, rules, own, cs, own_cs, commit):
    import verdicts as V
    d = {"format": V.FORMAT, "experiment": "softirq", "run": params.get("run"),
         "run_lab_commit": params.get("lab_commit"), "analysis_commit": commit,
         "rules_version": rules.version, "rules_sha": rules.sha,
         "claims": [V.claim_json(c) for c in cs]}
    if own is None:
        d["own_rules"] = None
    elif own.sha == rules.sha:
        d["own_rules"] = "the same"
    else:
        d["own_rules"] = {"rules_version": own.version, "rules_sha": own.sha,
                          "claims": [V.claim_json(c) for c in own_cs]}
    return json.dumps(d, indent=2, ensure_ascii=False) + "\n"


def outputs(run_path, params, rules, own, commit, results_dir):
    """{file name: text} of everything the analysis writes into the run."""
    rows = read_rows(os.path.join(run_path, "points.csv"))
    variants = P.variants_in_order(rows)
    pts = points(run_path, rows)
    mids = C.middle_grounds(variants, params.get("kernels") or {})
    cs = claims(pts, rules, mids)
    own_cs = claims(pts, own, mids) if own is not None and own.sha != rules.sha else ()
    rx = latest_rx(results_dir)
    return {
        "summary.csv": summary_csv(pts, variants),
        "verdicts.json": verdicts_json(params, rules, own, cs, own_cs, commit),
        "report.md": report(run_path, params, rules, own, cs, own_cs, pts, variants, rx),
        "tradeoff.dat": tradeoff_dat(pts, variants, rx),
    }
