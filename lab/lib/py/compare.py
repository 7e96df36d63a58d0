# SPDX-License-Identifier: GPL-2.0
"""Every variant beyond the claims' (a defence setting, an ablation, one's
own patch) against vanilla and ksoftirqd-fix of its tree, and a setting
variant against the kernel it boots: delivered at the verdict rate as a
paired ratio with its interval, by the claims' pairing, against
compare.ratio.  Extra variants never choose the verdict rate: they are
measured there, their own gates shown."""

from dataclasses import dataclass

import claims as C
import points as P
from stats import median, median_ci


@dataclass(frozen=True)
class Comparison:
    variant: str
    against: str
    rate: int
    interval: object        # of variant/against, stats.Interval or None
    n: int
    word: str               # more, less, not different, not judged, not measured
    excluded: tuple         # of claims.Exclusion


@dataclass(frozen=True)
class Extra:
    variant: str
    kernel: str             # the kernel variant it boots (itself for a kernel)
    settings: str
    comparisons: tuple      # of Comparison
    saturated: object       # its own saturation gate at the verdict rate (None: not measured)
    idle: object
    recv_cpu: object
    recv_cpu_kernel: object
    recv_wait: object
    recv_wait_kernel: object
    lat: object             # (loss, loss_kernel, tlat_p99, tlat_p99_kernel) at the latency rate


def compare(variant, against, groups, t, rules, fixed):
    """variant/against delivered at rate t, paired per repetition."""
    if t is None:
        return Comparison(variant, against, t, None, 0, "not measured", ())
    why = C.point_why(rules, fixed)
    pairs, out_pairs, out = C.pair_up(
        C.rep_rows(groups, variant, t), C.rep_rows(groups, against, t),
        lambda r: P.num(r, "delivered_pps"), lambda r: P.num(r, "delivered_pps"),
        why, f"{variant}/{against} at {C.fmt_rate(t)}")
    if not pairs and not out_pairs:
        return Comparison(variant, against, t, None, 0, "not measured", tuple(out))
    iv = median_ci([p.value for p in pairs], rules["stat.ci_coverage"])
    x = rules["compare.ratio"]
    if iv is None or iv.n < rules["claim.min_pairs"] or out:
        word = "not judged"
    elif iv.lo > x:
        word = "more"
    elif iv.hi < x:
        word = "less"
    else:
        word = "not different at this confidence"
    return Comparison(variant, against, t, iv, len(pairs), word, tuple(out))


def med_share(groups, v, t, col):
    if t is None:
        return None
    return median([x for x in (P.share(r, col) for r in groups.get((v, t), ()))
                   if x is not None])


def extras(variants, claim_vars, kernels, groups, lgroups, rgates, rules, fixed, vrate, lrate):
    """An Extra for every variant that is not a claim's, in run order."""
    out = []
    for v in variants:
        if v in claim_vars:
            continue
        k = kernels.get(v, {}).get("kernel") or v
        tree = C.TREES[1] if k.startswith("v6.1") else C.TREES[0]
        # its kernel first (a setting variant), then the tree's control and fix
        against = ([k] if k != v else []) + [x for x in (tree[1], tree[2]) if x != k]
        comps = tuple(compare(v, a, groups, vrate, rules, fixed) for a in against
                      if a == k or any(x == a for (x, _) in groups))
        g = rgates.get((v, vrate)) if vrate else None
        lat = None
        if lrate is not None and (v, lrate) in lgroups:
            lat = (med_share(lgroups, v, lrate, "probe_loss_pct"),
                   med_share(lgroups, k, lrate, "probe_loss_pct"),
                   med_share(lgroups, v, lrate, "tlat_p99_us"),
                   med_share(lgroups, k, lrate, "tlat_p99_us"))
        out.append(Extra(v, k, kernels.get(v, {}).get("settings", ""), comps,
                         None if g is None else g.saturated, None if g is None else g.idle,
                         med_share(groups, v, vrate, "recv_cpu"), med_share(groups, k, vrate, "recv_cpu"),
                         med_share(groups, v, vrate, "recv_wait_pct"),
                         med_share(groups, k, vrate, "recv_wait_pct"), lat))
    return tuple(out)


def comparison_text(c, rules):
    iv = c.interval
    if iv is None:
        s = f"no pair with {c.against}"
    elif iv.n <= 1:
        s = f"{C.fmt_r(iv.med)}× {c.against} (one pair, no CI)"
    else:
        s = (f"{C.fmt_r(iv.med)}× {c.against} [{C.fmt_r(iv.lo)}–{C.fmt_r(iv.hi)}] "
             f"({100 * iv.cov:.0f} % CI, n={iv.n})")
    if c.word == "not judged":
        if c.excluded:
            return s + f", not judged: {len(c.excluded)} left out ({C.left_out(c.excluded)})"
        return s + f", not judged ({c.n} pairs, {rules['claim.min_pairs']:g} needed)"
    return s + f", {c.word}"


def sentence(e, rules, vrate, lrate):
    """The report's sentence of an extra variant: its delivered rate against
    its kernel (a setting variant) or vanilla first, then the others."""
    if vrate is None:
        return f"{e.variant}: no verdict point in this run, nothing to compare at."
    if not e.comparisons:
        return f"{e.variant}: not measured beside vanilla or ksoftirqd-fix at the verdict rate."
    first, rest = e.comparisons[0], e.comparisons[1:]
    if first.word == "not measured":
        s = f"{e.variant}: not measured beside {first.against} at the verdict rate"
    else:
        s = f"{e.variant} delivers at {C.fmt_rate(vrate)} {comparison_text(first, rules)}"
    for c in rest:
        if c.word == "not measured":
            s += f"; not measured beside {c.against}"
        else:
            s += f"; {comparison_text(c, rules)}"
    if e.saturated is False:
        s += f" (its guest {C.pct(e.idle)} % idle there: not overloaded by this rate)"
    if e.kernel != e.variant:
        if e.recv_cpu is None:
            s += (f"; its receiver's CPU share is not reported (the CPU books do not close) and it "
                  f"waits {C.pct(e.recv_wait)} % of the window ({e.kernel}: {C.pct(e.recv_wait_kernel)} %)")
        else:
            s += (f"; its receiver gets {C.pct(e.recv_cpu)} % of the CPU ({e.kernel}: "
                  f"{C.pct(e.recv_cpu_kernel)} %) and waits {C.pct(e.recv_wait)} % of the window "
                  f"({C.pct(e.recv_wait_kernel)} %)")
    if e.lat is not None and e.lat[0] is not None:
        s += (f"; at {C.fmt_rate(lrate)} its probes lose {C.pct(e.lat[0])} % ({C.pct(e.lat[1])} %), "
              f"timer p99 {C.num0(e.lat[2])} µs ({C.num0(e.lat[3])} µs)")
    return s + "."
