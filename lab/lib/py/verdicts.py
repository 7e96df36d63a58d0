# SPDX-License-Identifier: GPL-2.0
"""verdicts.json: the run's verdicts, machine-readable (schema:
lab/exp/rx/verdicts.md)."""

import math

import claims as C

FORMAT = 1


def jnum(x):
    """A number for JSON: infinity as the string "inf", floats rounded."""
    if x is None:
        return None
    if x == math.inf:
        return "inf"
    return round(float(x), 6)


def interval(iv):
    if iv is None:
        return None
    return {"median": jnum(iv.med), "lo": jnum(iv.lo), "hi": jnum(iv.hi),
            "coverage": jnum(iv.cov), "n": iv.n}


def ratio_json(r):
    if r is None:
        return None
    d = {"interval": interval(r.interval), "outcome": r.outcome,
         "pairs": [{"rep": p.rep, "num": jnum(p.num), "den": jnum(p.den), "ratio": jnum(p.value)}
                   for p in r.pairs]}
    if r.excluded:
        d["excluded"] = [{"what": e.what, "why": e.why} for e in r.excluded]
        d["interval_with_excluded"] = interval(r.interval_all)
    return d


def claim_json(c):
    region = None if c.region is None else [jnum(c.region[0]), jnum(c.region[1])]
    d = {"id": c.id, "tree": c.tree, "name": c.name, "source": c.source, "metric": c.metric,
         "threshold": jnum(c.threshold), "direction": c.direction, "not_reproduced_region": region,
         "verdict": c.status, "why": c.why, "rates_judged": list(c.rates)}
    if c.ratio is not None:
        d["n"] = c.ratio.interval.n if c.ratio.interval else 0
        d["ratio"] = ratio_json(c.ratio)
    if len(c.per_rate) > 1 or (c.per_rate and not isinstance(c.per_rate[0][0], int)):
        d["per_rate"] = [{"at": k, **ratio_json(r)} for k, r in c.per_rate]
    if c.mechanism:
        d["mechanism"] = c.mechanism
        d["mechanism_holds"] = bool(c.mechanism_ok)
    if c.parts:
        d["parts"] = [claim_json(p) for p in c.parts]
    d["excluded"] = [{"what": e.what, "why": e.why} for e in c.excluded]
    return d


def judgment_json(j):
    return {"rules_version": j.rules.version, "rules_sha": j.rules.sha, "rules_source": j.rules.source,
            "verdict_rate": j.vrate, "latency_rate": j.lrate, "chosen_by": list(j.choosers),
            "claims": [claim_json(c) for _, cs in j.claims_by_tree for c in cs],
            "variants": [extra_json(e) for e in j.extras]}


def extra_json(e):
    return {"variant": e.variant, "kernel": e.kernel, "settings": e.settings,
            "saturated_at_verdict_rate": e.saturated,
            "against": [{"variant": c.against, "rate": c.rate, "interval": interval(c.interval),
                         "word": c.word,
                         "excluded": [{"what": x.what, "why": x.why} for x in c.excluded]}
                        for c in e.comparisons]}


def verdicts(a, commit):
    d = {"format": FORMAT, "run": a.params.get("run"), "run_lab_commit": a.params.get("lab_commit"),
         "analysis_commit": commit, **judgment_json(a.today)}
    if a.own is None:
        d["own_rules"] = None
    elif a.own.rules.sha != a.today.rules.sha:
        d["own_rules"] = judgment_json(a.own)
    else:
        d["own_rules"] = "the same"
    return d


def lines(a):
    """One line per claim for the terminal: claim, verdict, ratio, interval."""
    out = []
    for tree, cs in a.claims_by_tree:
        for c in cs:
            r = c.ratio
            if c.parts:
                r = c.parts[0].ratio
            ratio = C.fmt_iv(r.interval) if r is not None else "no ratio"
            out.append(f"{c.id} ({tree}): {c.status}, {ratio}")
    return out
