# SPDX-License-Identifier: GPL-2.0
"""The published claims, judged by one rule.

A claim is a ratio paired per repetition (the variants of one repetition
ran minutes apart, interleaved), the order-statistic interval of its
median, a threshold and a not-reproduced region, all from the rules:
entirely past the threshold, the claim holds (reproduced, or partly when
its mechanism gates fail); entirely inside the region, not reproduced;
else inconclusive.  Fewer than claim.min_pairs pairs judge nothing.  A
point or rate left out for any reason but the claim's own definition
makes the claim inconclusive, with the ratio it would have had printed.
0/0 is a ratio of 1 (neither delivered).  Each function takes its inputs
and returns its result."""

from dataclasses import dataclass, field

import gates as G
import points as P
from stats import INF, median, median_ci, ratio

# The claims' variants per kernel tree: control, fix, threaded NAPI.
TREES = (
    ("6.12", "vanilla", "ksoftirqd-fix", "threaded-napi"),
    ("6.1", "v6.1-revert", "v6.1", "v6.1+threaded"),
)

HOLDS, NOT, OPEN = "holds", "not", "open"


@dataclass(frozen=True)
class Pair:
    rep: int
    num: float
    den: float
    value: float


@dataclass(frozen=True)
class Exclusion:
    what: str           # "vanilla rep 3 at 16,000 pps", "rate 16,000 pps"
    why: str


@dataclass(frozen=True)
class Ratio:
    """A paired ratio judged against its threshold and region."""
    pairs: tuple                # of Pair, the ones judged
    interval: object            # stats.Interval or None
    outcome: str                # HOLDS, NOT, OPEN (before exclusions)
    excluded: tuple = ()        # of Exclusion
    all_pairs: tuple = ()       # judged and excluded together
    interval_all: object = None

    @property
    def final(self):
        """The outcome with exclusions: any makes it open."""
        return OPEN if self.excluded else self.outcome


@dataclass(frozen=True)
class Claim:
    id: str
    tree: str
    name: str
    source: str
    published: str
    metric: str
    threshold: float
    direction: str              # ">=" or "<"
    region: object              # (lo, hi) or None
    status: str                 # reproduced partly not-reproduced inconclusive not-measured
    why: str                    # the sentence behind the status
    rates: tuple = ()           # rates judged
    ratio: object = None        # Ratio at the deciding rate (the worst)
    per_rate: tuple = ()        # ((rate, Ratio), ...)
    mechanism: str = ""
    mechanism_ok: object = None
    parts: tuple = ()           # sub-claims (the revert's halves)
    excluded: tuple = ()


def fmt_rate(t):
    return "unlimited" if t == 0 else f"{round(t):,} pps"


def judge(iv, thr, direction, region, min_pairs):
    """HOLDS, NOT or OPEN for an interval of a ratio."""
    if iv is None or iv.n < min_pairs:
        return OPEN
    if direction == ">=":
        if iv.lo >= thr:
            return HOLDS
        if region is None:
            return NOT if iv.hi < thr else OPEN
    else:
        if iv.hi < thr:
            return HOLDS
        if region is None:
            return NOT if iv.lo >= thr else OPEN
    lo, hi = region
    return NOT if lo <= iv.lo and iv.hi <= hi else OPEN


def make_ratio(pairs, excluded_pairs, excluded, thr, direction, region, rules):
    """A Ratio from the judged pairs and the left-out ones."""
    cov = rules["stat.ci_coverage"]
    iv = median_ci([p.value for p in pairs], cov)
    everything = tuple(sorted(pairs + excluded_pairs, key=lambda p: p.rep))
    iv_all = median_ci([p.value for p in everything], cov) if excluded else iv
    return Ratio(tuple(pairs), iv, judge(iv, thr, direction, region, rules["claim.min_pairs"]),
                 tuple(excluded), everything, iv_all)


def rep_rows(groups, variant, t):
    """{rep: row} of (variant, rate t)."""
    return {int(r["rep"]): r for r in groups.get((variant, t), ())}


def pair_up(num_rows, den_rows, num_val, den_val, gate, what):
    """Pairs of the repetitions both sides have; a pair with a side that
    fails its point gate (gate(row) -> why or "") is left out."""
    pairs, out_pairs, out = [], [], []
    for rep in sorted(set(num_rows) & set(den_rows)):
        a, b = num_val(num_rows[rep]), den_val(den_rows[rep])
        if a is None or b is None:
            out.append(Exclusion(f"{what} rep {rep}", "the metric was not measured"))
            continue
        p = Pair(rep, a, b, ratio(a, b))
        why = [w for w in (gate(num_rows[rep]), gate(den_rows[rep])) if w]
        if why:
            out_pairs.append(p)
            out.append(Exclusion(f"{what} rep {rep}", "; ".join(why)))
        else:
            pairs.append(p)
    return pairs, out_pairs, out


def point_why(rules, fixed):
    def why(row):
        g = G.point_gate(row, rules, fixed)
        return "" if g.ok else f"{row['variant']}: {g.why}"
    return why


# ---- peaks ----------------------------------------------------------

def peak_candidates(groups, variant, rules, fixed, lower_bounds):
    """{rep: {rate: delivered}} of the paced points of a variant that can
    set its peak: those that pass their own gates and, with lower_bounds,
    a point on its load whose guest only lost time, at its rate per host
    second (delivered x (1 + window_clock_err_pct / 100)): a lower bound of
    what the fixed-speed guest would have read, which can only raise a
    delivered/peak ratio (Mogul, the livelock of Dumazet's region)."""
    c = {}
    for (v, t), rows in groups.items():
        if v != variant:
            continue
        for r in rows:
            d = P.num(r, "delivered_pps")
            g = G.point_gate(r, rules, fixed)
            if g.ok:
                c.setdefault(int(r["rep"]), {})[t] = d
            elif lower_bounds and g.on_load:
                w = P.num(r, "window_clock_err_pct")
                if w is not None and w < 0:
                    c.setdefault(int(r["rep"]), {})[t] = d * (1 + w / 100)
    return c


def rep_peak_rate(cands, tol):
    """A repetition's peak rate: the lowest paced rate within tol of its
    highest delivered (a plateau's start, not its noise); 0 (unlimited)
    only when no paced rate comes within tol."""
    top = max(cands.values())
    near = [t for t, d in cands.items() if t != 0 and d >= (1 - tol) * top]
    return min(near) if near else 0


def peak_rate(cands, tol):
    """The median over the repetitions of the rate of the peak."""
    rates = [rep_peak_rate(c, tol) for c in cands.values() if c]
    return median(rates) if rates else None


def rep_peak(cands_rep, prate):
    """A repetition's peak (its highest candidate), or None when it has no
    candidate at or below the variant's peak rate: its highest would then
    be an overload point, not a peak."""
    known = any(t <= prate if t and prate else t == prate or not prate for t in cands_rep)
    return max(cands_rep.values()) if known else None


# ---- the claims -------------------------------------------------------

def not_measured(cid, tree, name, source, published, metric, why, rules, thr_rule, direction):
    return Claim(cid, tree, name, source, published, metric, rules[thr_rule], direction,
                 rules.region(thr_rule), "not-measured" if why.startswith("not measured")
                 else "inconclusive", why)


def status_of(outcome, mech_ok):
    if outcome == OPEN:
        return "inconclusive"
    if outcome == NOT:
        return "not-reproduced"
    return "reproduced" if mech_ok else "partly"


def worst(per_rate):
    """The deciding rate of a claim over a region: a rate that is not
    reproduced first, then an open one, then the lowest median."""
    rank = {NOT: 0, OPEN: 1, HOLDS: 2}

    def key(item):
        t, r = item
        return (rank[r.final], r.interval.med if r.interval else INF, t)
    return min(per_rate, key=key)


def combine(per_rate):
    """A claim over several rates holds only if it holds at every one."""
    finals = [r.final for _, r in per_rate]
    if NOT in finals:
        return NOT
    if OPEN in finals:
        return OPEN
    return HOLDS


def livelocked(groups, variant, t, peaks, cands, prate, rules, fixed):
    """variant in livelock at rate t: the median over its repetitions of
    delivered / its own peak below claim.mogul (a region is chosen by
    medians, like the gates; the claim is then judged by intervals)."""
    qs = []
    for rep, row in rep_rows(groups, variant, t).items():
        pk = rep_peak(cands.get(rep, {}), prate)
        d = P.num(row, "delivered_pps")
        if pk is not None and d is not None:
            qs.append(ratio(d, pk))
    m = median(qs)
    return m is not None and m < rules["claim.mogul"]


def rate_validity(gate):
    """The rate gates a claim cannot define away: the generator on target,
    the clock kept, the host able to deliver (saturation is a claim's own
    business: threaded NAPI idling while it loses packets is its failure)."""
    return "; ".join(gate.failures(saturation=False))


def overload_region(groups, van, fix, rules, fixed):
    """vanilla's peak rate and the overload region: the paced rates past
    it at which vanilla is in livelock and the fix was measured."""
    cands = peak_candidates(groups, van, rules, fixed, True)
    prate = peak_rate(cands, rules["claim.peak_tol"])
    region = [t for t in P.rates_sorted(t for (v, t) in groups if v == van)
              if t != 0 and prate is not None and t > prate and (fix, t) in groups
              and livelocked(groups, van, t, None, cands, prate, rules, fixed)]
    return prate, region


def delivered_ratio(groups, num, den, t, rgates, rule, direction, rules, fixed):
    """num/den delivered at rate t, paired per repetition; a rate num was
    not measured at, or whose gates the claim cannot define away fail
    for either side, is an exclusion."""
    pairs, out_pairs, out = pair_up(
        rep_rows(groups, num, t), rep_rows(groups, den, t),
        lambda r: P.num(r, "delivered_pps"), lambda r: P.num(r, "delivered_pps"),
        point_why(rules, fixed), f"{num}/{den} at {fmt_rate(t)}")
    if (num, t) not in groups:
        out.append(Exclusion(f"rate {fmt_rate(t)}", f"{num}: not measured at this rate"))
    for v in (den, num):
        w = rate_validity(rgates[(v, t)]) if (v, t) in rgates else ""
        if w:
            out.append(Exclusion(f"rate {fmt_rate(t)}", f"{v}: {w}"))
    return make_ratio(pairs, out_pairs, out, rules[rule], direction, rules.region(rule), rules)


def dumazet(tree, van, fix, groups, rgates, rules, fixed):
    name = ("Eric Dumazet, commit 4cd13c21b207 \"softirq: Let ksoftirqd do its job\" (v4.9): "
            "deferring softirqs to ksoftirqd/0 under load rescues a flooded UDP receiver")
    pub = ("without the fix the receiver got ~2,000 pps under flood; with it ~900,000 pps, "
           "CPU split ~50/50 between the application and ksoftirqd/0 (bare metal, 2016)")
    metric = f"{fix}/{van} delivered pps, paired per repetition, at every rate of the overload region"
    have = {v for (v, _) in groups}
    if van not in have or fix not in have:
        miss = " and ".join(v for v in (van, fix) if v not in have)
        return not_measured("dumazet", tree, name, "4cd13c21b207", pub, metric,
                            f"not measured in this run (no {miss})", rules, "claim.dumazet", ">=")
    prate, region = overload_region(groups, van, fix, rules, fixed)
    if not region:
        why = (f"no paced rate past {van}'s peak ({fmt_rate(prate or 0)}) at which {van} is in "
               f"livelock (delivered below {rules['claim.mogul']:g} of its peak): no overload region")
        return Claim("dumazet", tree, name, "4cd13c21b207", pub, metric, rules["claim.dumazet"],
                     ">=", rules.region("claim.dumazet"), "inconclusive", why)
    per_rate = [(t, delivered_ratio(groups, fix, van, t, rgates, "claim.dumazet", ">=", rules, fixed))
                for t in region]
    t, r = worst(per_rate)
    outcome = combine(per_rate)
    # the mechanism at the deciding rate: the work in ksoftirqd/0, and the
    # receiver/ksoftirqd split where the books close
    rows = rep_rows(groups, fix, t)
    k = median([x for x in (P.share(x, "ksoftirqd_cpu") for x in rows.values()) if x is not None])
    rc = median([x for x in (P.share(x, "recv_cpu") for x in rows.values()) if x is not None])
    in_thread = sum(1 for x in rows.values()
                    if (P.num(x, "ksoftirqd_cpu") or 0) > (P.num(x, "softirq_irqctx_cpu") or 0))
    thread_ok = k is not None and k >= rules["mech.thread_cpu_pct"]
    lo = rules["mech.split_lo_pct"] / (100 - rules["mech.split_lo_pct"])
    hi = rules["mech.split_hi_pct"] / (100 - rules["mech.split_hi_pct"])
    split = None
    if rows and all(P.books_close(x) for x in rows.values()):
        split = median_ci([ratio(P.num(x, "recv_cpu"), P.num(x, "ksoftirqd_cpu"))
                           for x in rows.values()], rules["stat.ci_coverage"])
    split_ok = split is not None and split.n >= rules["claim.min_pairs"] and \
        split.lo >= lo and split.hi <= hi
    mech = (f"{fix} at {fmt_rate(t)}: receiver {pct(rc)} %, ksoftirqd/0 {pct(k)} % of the CPU, "
            f"NET_RX work in ksoftirqd/0 in {in_thread} of {len(rows)} repetitions")
    mech += (f", receiver/ksoftirqd {fmt_iv(split)}" if split is not None else
             f"; the split is not measurable: the CPU books of {fix} do not close at this rate")
    if not thread_ok:
        mech += f"; ksoftirqd/0 carries less than {rules['mech.thread_cpu_pct']:g} % of the CPU"
    elif not split_ok:
        mech += (f"; the receiver/ksoftirqd split is not within {rules['mech.split_lo_pct']:g}–"
                 f"{rules['mech.split_hi_pct']:g} % across its interval, or not measurable")
    status = status_of(outcome, thread_ok and split_ok)
    why = why_of(status, per_rate, (t, r), f"{fix}/{van} delivered", "the overload region",
                 f"the rates past {van}'s peak ({fmt_rate(prate)}) where it is in livelock")
    return Claim("dumazet", tree, name, "4cd13c21b207", pub, metric, rules["claim.dumazet"], ">=",
                 rules.region("claim.dumazet"), status, why, tuple(region), r, tuple(per_rate),
                 mech, thread_ok and split_ok, excluded=tuple(e for _, x in per_rate for e in x.excluded))


# The mechanisms (params.json kernels.<variant>.has, from lab/kernel/
# variants) that make a kernel variant a middle ground of the debate.
MIDDLE_MECHANISMS = ("bounded-deferral", "per-vector-deferral")


def middle_grounds(variants, kernels):
    """The kernel variants of the run (no settings of their own) whose
    kernel has a middle ground's mechanism, in the run's order."""
    def has(v):
        k = kernels.get(v) or {}
        return set(str(k.get("has") or "").split(",")) & set(MIDDLE_MECHANISMS) and \
            not k.get("settings")
    return tuple(v for v in variants if has(v))


def middle_cure(tree, van, fix, mid, groups, rgates, rules, fixed):
    """A middle ground keeps the fix's cure: its delivered over the fix's,
    paired per repetition, at every rate of the overload region."""
    name = (f"{mid}, a middle ground of the debate, keeps the cure: it delivers as much as "
            f"{fix} wherever {van} is in livelock")
    src = "issue 38: Jakub Kicinski's bounded deferral, Frederic Weisbecker's per-vector deferral"
    pub = "(no published number: the designs were never measured beside the fix)"
    metric = f"{mid}/{fix} delivered pps, paired per repetition, at every rate of the overload region"
    rule = "claim.middle_cure"
    have = {v for (v, _) in groups}
    miss = [v for v in (van, fix, mid) if v not in have]
    if miss:
        return not_measured(f"middle-cure:{mid}", tree, name, src, pub, metric,
                            f"not measured in this run (no {' and '.join(miss)})", rules, rule, ">=")
    prate, region = overload_region(groups, van, fix, rules, fixed)
    if not region:
        return Claim(f"middle-cure:{mid}", tree, name, src, pub, metric, rules[rule], ">=",
                     rules.region(rule), "inconclusive",
                     f"no paced rate past {van}'s peak ({fmt_rate(prate or 0)}) at which {van} is "
                     f"in livelock: no overload region")
    per_rate = [(t, delivered_ratio(groups, mid, fix, t, rgates, rule, ">=", rules, fixed))
                for t in region]
    t, r = worst(per_rate)
    status = status_of(combine(per_rate), True)
    why = why_of(status, per_rate, (t, r), f"{mid}/{fix} delivered", "the overload region",
                 f"the rates past {van}'s peak ({fmt_rate(prate)}) where it is in livelock")
    return Claim(f"middle-cure:{mid}", tree, name, src, pub, metric, rules[rule], ">=",
                 rules.region(rule), status, why, tuple(region), r, tuple(per_rate),
                 excluded=tuple(e for _, x in per_rate for e in x.excluded))


def abeni(tree, napi, groups, rgates, rules, fixed, vrate):
    name = ("Paolo Abeni, threaded NAPI poll loop proposal (netdev, 2016, reported by LWN): "
            "NAPI polling in a kernel thread keeps the delivered rate up under overload")
    pub = "with threaded NAPI the delivered rate stays stable around the peak under overload (no collapse)"
    metric = f"{napi}'s lowest delivered / its own peak over every paced rate past its peak, per repetition"
    if napi not in {v for (v, _) in groups}:
        return not_measured("abeni", tree, name, "LWN 2016", pub, metric,
                            f"not measured in this run (no {napi})", rules, "claim.abeni", ">=")
    cands = peak_candidates(groups, napi, rules, fixed, False)
    prate = peak_rate(cands, rules["claim.peak_tol"])
    past = [t for t in P.rates_sorted(t for (v, t) in groups if v == napi)
            if t != 0 and prate is not None and t > prate]
    if not past:
        why = (f"{napi} peaks at {fmt_rate(prate or 0)}, the top of the grid: its delivered rate "
               "over its own peak would be 1 by construction, so the rule is not applied")
        return Claim("abeni", tree, name, "LWN 2016", pub, metric, rules["claim.abeni"], ">=",
                     rules.region("claim.abeni"), "inconclusive", why)
    gate = point_why(rules, fixed)
    lows, lows_all, out = {}, {}, []
    for t in past:
        w = rate_validity(rgates[(napi, t)])
        if w:
            out.append(Exclusion(f"rate {fmt_rate(t)}", f"{napi}: {w}"))
        for rep, row in rep_rows(groups, napi, t).items():
            pk = rep_peak(cands.get(rep, {}), prate)
            d = P.num(row, "delivered_pps")
            if pk is None:
                out.append(Exclusion(f"{napi} rep {rep}", "its peak is not known "
                                     "(no point at or below the peak rate passed its gates)"))
                continue
            q = ratio(d, pk)
            lows_all[rep] = min(q, lows_all.get(rep, INF))
            why = gate(row)
            if why:
                out.append(Exclusion(f"{napi} rep {rep} at {fmt_rate(t)}", why))
                continue
            lows[rep] = min(q, lows.get(rep, INF))
    pairs = [Pair(rep, q, 1, q) for rep, q in sorted(lows.items())]
    out_pairs = [Pair(rep, q, 1, q) for rep, q in sorted(lows_all.items()) if rep not in lows]
    r = make_ratio(pairs, out_pairs, dedupe(out), rules["claim.abeni"], ">=",
                   rules.region("claim.abeni"), rules)
    rows = rep_rows(groups, napi, vrate) if vrate else {}
    nc = median([x for x in (P.share(x, "napi_cpu") for x in rows.values()) if x is not None])
    ok = nc is not None and nc >= rules["mech.thread_cpu_pct"]
    mech = (f"at the verdict rate: napi threads {pct(nc)} % of the CPU, NET_RX softirqs "
            f"{num0(median([P.num(x, 'net_rx_softirq_ps') or 0 for x in rows.values()]))}/s"
            if rows else "no verdict rate: the napi threads' share is not measured")
    if not ok:
        mech += f"; the napi threads carry less than {rules['mech.thread_cpu_pct']:g} % of the CPU"
    status = status_of(r.final, ok)
    why = why_of(status, [(0, r)], (0, r), f"{napi}'s lowest delivered/peak", None,
                 f"past its peak ({fmt_rate(prate)}): " + ", ".join(fmt_rate(t) for t in past))
    return Claim("abeni", tree, name, "LWN 2016", pub, metric, rules["claim.abeni"], ">=",
                 rules.region("claim.abeni"), status, why, tuple(past), r, ((0, r),), mech, ok,
                 excluded=r.excluded)


def dedupe(xs):
    seen, out = set(), []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def mogul(tree, van, groups, rgates, rules, fixed, vrate):
    name = ("Mogul & Ramakrishnan, \"Eliminating Receive Livelock in an Interrupt-Driven Kernel\" "
            "(ACM TOCS 1997): interrupt-driven receive processing starves the application under overload")
    pub = "receive livelock: past the MLFRR the delivered rate falls as the offered rate rises, toward zero"
    metric = f"{van} delivered at the verdict rate / its own peak, per repetition"
    if van not in {v for (v, _) in groups}:
        return not_measured("mogul", tree, name, "TOCS 1997", pub, metric,
                            f"not measured in this run (no {van})", rules, "claim.mogul", "<")
    if vrate is None:
        return Claim("mogul", tree, name, "TOCS 1997", pub, metric, rules["claim.mogul"], "<",
                     rules.region("claim.mogul"), "inconclusive", NO_VRATE)
    cands = peak_candidates(groups, van, rules, fixed, True)
    prate = peak_rate(cands, rules["claim.peak_tol"])
    if prate is None or vrate <= prate:
        why = (f"{van} peaks at {fmt_rate(prate or 0)}, not below the verdict rate {fmt_rate(vrate)}: "
               "its delivered rate there over its own peak would be 1 by construction, "
               "so the rule is not applied")
        return Claim("mogul", tree, name, "TOCS 1997", pub, metric, rules["claim.mogul"], "<",
                     rules.region("claim.mogul"), "inconclusive", why)
    gate = point_why(rules, fixed)
    pairs, out_pairs, out = [], [], []
    rows = rep_rows(groups, van, vrate)
    for rep, row in rows.items():
        pk = rep_peak(cands.get(rep, {}), prate)
        d = P.num(row, "delivered_pps")
        if pk is None:
            out.append(Exclusion(f"{van} rep {rep}", "its peak is not known"))
            continue
        p = Pair(rep, d, pk, ratio(d, pk))
        why = gate(row)
        if why:
            out_pairs.append(p)
            out.append(Exclusion(f"{van} rep {rep} at {fmt_rate(vrate)}", why))
        else:
            pairs.append(p)
    r = make_ratio(pairs, out_pairs, out, rules["claim.mogul"], "<", rules.region("claim.mogul"), rules)
    starved = sum(P.is_starved(x) for x in rows.values())
    if starved > rules["mech.starved_share"] * len(rows):
        ok = False
        mech = (f"starved in {starved} of {len(rows)} repetitions (the guest's SCHED_FIFO sampler "
                "could not answer for the starvation timeout): its CPU split is not measured")
    else:
        si = median([x for x in (P.share(x, "softirq_irqctx_cpu") for x in rows.values()) if x is not None])
        rc = median([x for x in (P.share(x, "recv_cpu") for x in rows.values()) if x is not None])
        ok = si is not None and rc is not None and si > rc
        mech = f"softirq in irq context {pct(si)} %, receiver {pct(rc)} % of the CPU"
        if not ok:
            mech += "; softirq in irq context does not take more CPU than the receiver (or not measured)"
    rises = rises_again(groups, van, prate, rules, fixed)
    mech += ("; past its peak the delivered rate does not rise again" if not rises else
             "; past its peak it rises again (> " f"{rules['mech.rise_pct']:g} %) at " +
             ", ".join(fmt_rate(t) for t in rises))
    status = status_of(r.final, ok)
    why = why_of(status, [(vrate, r)], (vrate, r), f"{van} delivered/peak", None,
                 f"the verdict rate {fmt_rate(vrate)}")
    return Claim("mogul", tree, name, "TOCS 1997", pub, metric, rules["claim.mogul"], "<",
                 rules.region("claim.mogul"), status, why, (vrate,), r, ((vrate, r),), mech, ok,
                 excluded=r.excluded)


def rises_again(groups, van, prate, rules, fixed):
    """The paced rates past vanilla's peak whose median delivered (points
    that pass their gates) exceeds the rate before's by mech.rise_pct."""
    out, prev = [], None
    for t in P.rates_sorted(t for (v, t) in groups if v == van):
        if t == 0:
            continue
        ds = [P.num(r, "delivered_pps") for r in groups[(van, t)]
              if G.point_gate(r, rules, fixed).ok]
        m = median(ds)
        if m is None:
            continue
        if prev is not None and t > prate and m > prev * (1 + rules["mech.rise_pct"] / 100):
            out.append(t)
        prev = m
    return out


NO_VRATE = ("no rate at which every claim variant passes the overload gates "
            "(see the gates at every rate): no verdict point")


def revert(tree, van, fix, napi, groups, lgroups, rgates, lgates, rules, fixed, vrate, lrate, latency):
    name = ("Paolo Abeni, commit d15121be7485 (v6.5, May 2023), revert of \"softirq: Let ksoftirqd "
            "do its job\": deferring softirqs to ksoftirqd raises the latency of other softirq users "
            "compared with vanilla and threaded NAPI; threaded NAPI solves the livelock without that cost")
    pub = ("reverted because once ksoftirqd runs, everything else that needs softirqs waits for it "
           "(high latencies); threaded NAPI keeps the flooded receiver alive without deferring the rest")
    src = "d15121be7485"
    have = {v for (v, _) in groups}
    miss = [v for v in (van, fix, napi) if v not in have]
    metric = (f"{fix}'s probe p99 over {van}'s and over {napi}'s at the latency rate, and "
              f"{napi}/{fix} delivered at the verdict rate")
    if miss:
        return not_measured("revert", tree, name, src, pub, metric,
                            f"not measured in this run (no {' and '.join(miss)})", rules,
                            "claim.revert_latency", ">=")
    gate = point_why(rules, fixed)
    thr = rules["claim.revert_throughput"]
    # throughput half
    if vrate is None:
        tput = Claim("revert-throughput", tree, "threaded NAPI cures the livelock as well", src, pub,
                     f"{napi}/{fix} delivered at the verdict rate", thr, ">=",
                     rules.region("claim.revert_throughput"), "inconclusive", NO_VRATE)
    else:
        pairs, out_pairs, out = pair_up(
            rep_rows(groups, napi, vrate), rep_rows(groups, fix, vrate),
            lambda r: P.num(r, "delivered_pps"), lambda r: P.num(r, "delivered_pps"),
            gate, f"{napi}/{fix} at {fmt_rate(vrate)}")
        r = make_ratio(pairs, out_pairs, out, thr, ">=", rules.region("claim.revert_throughput"), rules)
        st = status_of(r.final, True)
        tput = Claim("revert-throughput", tree, "threaded NAPI cures the livelock as well", src, pub,
                     f"{napi}/{fix} delivered at the verdict rate", thr, ">=",
                     rules.region("claim.revert_throughput"), st,
                     why_of(st, [(vrate, r)], (vrate, r), f"{napi}/{fix} delivered", None,
                            f"the verdict rate {fmt_rate(vrate)}"),
                     (vrate,), r, ((vrate, r),), excluded=r.excluded)
    # latency half: the probe's p99 over the answered probes
    lat = latency_part("revert-latency", tree, "the fix's latency cost", src, pub, fix, (van, napi),
                       "probe p99 of the answered probes", p99_answered, "claim.revert_latency",
                       lgroups, lgates, rules, fixed, lrate, latency)
    if latency and not any("probe_ap99_us" in r for rows in lgroups.values() for r in rows):
        lat = Claim(lat.id, tree, lat.name, src, pub, lat.metric, lat.threshold, ">=", lat.region,
                    "not-measured", "not measured in this run (its points.csv has no p99 of the "
                    "answered probes, probe_ap99_us: a run before it was recorded)")
    lat_o = OUTCOME[lat.status]
    tput_o = OUTCOME[tput.status]
    if lat_o == NOT or tput_o == NOT:
        st = "not-reproduced"
    elif lat_o == OPEN:
        st = "inconclusive" if lat.status != "not-measured" else "not-measured"
    else:
        st = "reproduced" if tput_o == HOLDS else "partly"
    why = f"latency half {lat.status}, throughput half {tput.status}"
    if lat_o == OPEN:
        why += "; the revert is not judged while its latency half is not"
    return Claim("revert", tree, name, src, pub, metric, rules["claim.revert_latency"], ">=",
                 rules.region("claim.revert_latency"), st, why, parts=(lat, tput),
                 excluded=lat.excluded + tput.excluded)


OUTCOME = {"reproduced": HOLDS, "partly": HOLDS, "not-reproduced": NOT,
           "inconclusive": OPEN, "not-measured": OPEN}


def p99_answered(row):
    """The probe's p99 over its answered probes alone (probe_ap99_us): a
    latency, never the timeout standing in for the lost probes."""
    return P.num(row, "probe_ap99_us")


def loss_rate(row):
    """(lost + 1) / (sent + 1): a loss of none counts as at most one probe,
    so a ratio against a variant that lost nothing stays finite."""
    sent = P.num(row, "probe_sent")
    loss = P.num(row, "probe_loss_pct")
    if sent is None or loss is None:
        return None
    return (loss / 100 * sent + 1) / (sent + 1)


def latency_part(cid, tree, name, src, pub, fix, others, what, value, rule, lgroups, lgates,
                 rules, fixed, lrate, latency):
    """fix's latency metric over each of the others' at the latency rate:
    holds when it holds against both."""
    metric = f"{fix}'s {what} over " + " and over ".join(f"{o}'s" for o in others) + \
        ", paired per repetition at the latency rate"
    thr, region = rules[rule], rules.region(rule)
    if not latency:
        return Claim(cid, tree, name, src, pub, metric, thr, ">=", region, "not-measured",
                     "not measured in this run (points.csv has no latency probe columns)")
    if lrate is None:
        return Claim(cid, tree, name, src, pub, metric, thr, ">=", region, "not-measured",
                     "not measured in this run (no latency pass)")
    gate = point_why(rules, fixed)
    per = []
    for o in others:
        pairs, out_pairs, out = pair_up(rep_rows(lgroups, fix, lrate), rep_rows(lgroups, o, lrate),
                                        value, value, gate, f"{fix}/{o} at {fmt_rate(lrate)}")
        for v in (fix, o):
            g = lgates.get((v, lrate))
            if g is not None and not g.passes:
                out.append(Exclusion(f"latency pass at {fmt_rate(lrate)}",
                                     f"{v}: {g.why()} (not overloaded like the throughput pass)"))
        per.append((o, make_ratio(pairs, out_pairs, dedupe(out), thr, ">=", region, rules)))
    outcome = combine([(0, r) for _, r in per])
    st = status_of(outcome, True)
    why = "; ".join(f"{fix}/{o} {what} {fmt_ratio(r)}" for o, r in per)
    return Claim(cid, tree, name, src, pub, metric, thr, ">=", region, st, why, (lrate,),
                 per[0][1], tuple(per), excluded=tuple(e for _, r in per for e in r.excluded))


def revert_loss(tree, van, fix, napi, lgroups, lgates, rules, fixed, lrate, latency):
    src = "d15121be7485"
    name = ("the v6.5 revert's latency cost as probe loss: ksoftirqd-fix loses more of the "
            "request/response probes than vanilla and threaded NAPI")
    pub = "(a measure of the same cost as the revert's latency claim; not a published number)"
    have = {v for (v, _) in lgroups}
    if not latency or any(v not in have for v in (van, fix, napi)):
        return Claim("revert-loss", tree, name, src, pub, f"{fix}'s probe loss over the others'",
                     rules["claim.revert_loss"], ">=", rules.region("claim.revert_loss"),
                     "not-measured", "not measured in this run (no latency pass of all three)")
    return latency_part("revert-loss", tree, name, src, pub, fix, (van, napi),
                        "probe loss (lost + 1)/(sent + 1)", loss_rate, "claim.revert_loss",
                        lgroups, lgates, rules, fixed, lrate, latency)


# ---- words -------------------------------------------------------------

def pct(x):
    return "–" if x is None else f"{x:.1f}"


def num0(x):
    return "–" if x is None else f"{x:,.0f}"


def fmt_r(x):
    return "∞" if x == INF else f"{x:.2f}"


def fmt_iv(iv):
    if iv is None:
        return "no pairs"
    if iv.n <= 1:
        return f"{fmt_r(iv.med)} (n=1, no CI)"
    return f"{fmt_r(iv.med)} [{fmt_r(iv.lo)}–{fmt_r(iv.hi)}] ({100 * iv.cov:.0f} % CI, n={iv.n})"


def fmt_ratio(r):
    s = fmt_iv(r.interval)
    if r.excluded:
        s += (f"; with the {len(r.excluded)} left out ({left_out(r.excluded)}): "
              f"{fmt_iv(r.interval_all)}")
    return s


def left_out(excl):
    return "; ".join(f"{e.what}: {e.why}" for e in excl)


def why_of(status, per_rate, deciding, what, region_name, where):
    t, r = deciding
    s = f"{what} {where}"
    if len(per_rate) > 1:
        s += ", " + ", ".join(f"{fmt_rate(x)}: {fmt_ratio(y)}" for x, y in per_rate)
        s += f"; judged at {fmt_rate(t)}"
    else:
        s += ": " + fmt_ratio(r)
    if any(y.excluded for _, y in per_rate) and status == "inconclusive":
        s += " — points or rates were left out for reasons other than the claim's definition, " \
             "so the claim is inconclusive"
    return s


def judge_tree(tree, van, fix, napi, groups, lgroups, rgates, lgates, rules, fixed, vrate, lrate,
               latency):
    """Every claim on one kernel tree's variants."""
    return (dumazet(tree, van, fix, groups, rgates, rules, fixed),
            abeni(tree, napi, groups, rgates, rules, fixed, vrate),
            mogul(tree, van, groups, rgates, rules, fixed, vrate),
            revert(tree, van, fix, napi, groups, lgroups, rgates, lgates, rules, fixed, vrate,
                   lrate, latency),
            revert_loss(tree, van, fix, napi, lgroups, lgates, rules, fixed, lrate, latency))


def claim_variants(variants):
    """The trees whose control is in the run, and the claims' variants."""
    trees = [t for t in TREES if t[1] in variants]
    return trees, [v for t in trees for v in t[1:] if v in variants]
