# SPDX-License-Identifier: GPL-2.0
"""Hand-made points.csv rows for the analysis's tests: point.awk's header,
every column 0 but those given, five repetitions by default; a list gives
one value per repetition."""

import os
import subprocess

import analyze
import points as P
from rules import read_rules

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
RULES = read_rules(os.path.join(TOP, "lab", "lib", "rules.tsv"))


def point_header():
    awk = ["awk", "-v", "header=1"] + sum((["-f", os.path.join(TOP, f)] for f in (
        "lab/lib/stats.awk", "lab/lib/snapshot.awk", "lab/exp/rx/point.awk")), [])
    out = subprocess.run(awk, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL,
                         env=dict(os.environ, LAB_RULES=os.path.join(TOP, "lab/lib/rules.tsv")))
    return tuple(out.stdout.strip().split(","))


HEADER = point_header()


def rows(variant, rate, reps=5, pass_="tput", **cols):
    """The rows of one (variant, rate): offered = the rate, books closed,
    on the clock, the host able to deliver 4x; cols override, a list per
    repetition."""
    out = []
    for i in range(reps):
        r = {c: "0" for c in HEADER}
        r.update(variant=variant, rep=str(i + 1), rate_target=str(rate), offered_pps=str(rate),
                 closure_ok="1", gate_clock="1", host_ceiling_pps=str(4 * rate), window_clock_err_pct="0", starve_wait_share="1",
                 probe_lost_bounded="none" if pass_ == "lat" else "", starved="0")
        r["pass"] = pass_
        for k, v in cols.items():
            x = v[i] if isinstance(v, (list, tuple)) else v
            r[k] = "" if x is None else str(x)
        out.append(r)
    return out


def lat_rows(variant, rate, p99, loss=0.0, bounded="none", ap99=None, reps=5, **cols):
    """Latency-pass rows; the answered probes' p99 is the p99 unless ap99
    gives it (a p99 among the lost probes is the timeout)."""
    return rows(variant, rate, reps, "lat", probe_p99_us=p99, probe_sent=400, probe_loss_pct=loss,
                probe_lost_bounded=bounded, probe_ap99_us=p99 if ap99 is None else ap99, **cols)


def without(all_rows, col):
    """The rows of an older format, without column col."""
    return [{k: v for k, v in r.items() if k != col} for r in all_rows]


def run(all_rows, params=None, latency=True):
    p = {"speed": "native", "accel": "tcg"}
    p.update(params or {})
    return P.Run("/nonexistent", p, tuple(all_rows), HEADER, latency)


def judge(all_rows, rules=RULES, params=None):
    r = run(all_rows, params)
    variants = P.variants_in_order(P.by_pass(r.rows, "tput"))
    return analyze.judge_run(r, variants, rules)


def claim(j, cid, tree="6.12"):
    for t, cs in j.claims_by_tree:
        if t == tree:
            for c in cs:
                if c.id == cid:
                    return c
    raise KeyError(cid)


def rules_with(**values):
    """Today's rules with some values changed (dots as __)."""
    v = dict(RULES.values)
    v.update({k.replace("__", "."): x for k, x in values.items()})
    return type(RULES)(v, RULES.version, "test", "test")
