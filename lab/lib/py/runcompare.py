# SPDX-License-Identifier: GPL-2.0
"""Two RX runs side by side (lab/compare A B): per variant and offered
rate, run B's delivered pps, CPU shares and latency against run A's, the
verdicts of both, and what changed in params.json.

The runs are independent samples (no pairing across boots of different
runs), so B against A is the Hodges-Lehmann estimate of the ratio (the
median of the n·m ratios b_j / a_i) with its distribution-free interval
from the Mann-Whitney distribution: the order statistics d(k), d(nm-k+1)
of those ratios cover the true ratio with probability 1 - 2 P(U <= k - 1)
under a shift of the logarithms; k is the largest giving at least the
rules' coverage (stat.ci_coverage), else min..max with the coverage it
has.  Every function takes its inputs and returns its result."""

import json
import os
from dataclasses import dataclass
from functools import lru_cache

import points as P
from fmt import num as fmt_num
from stats import median

# the columns compared besides delivered: CPU shares where the books close,
# and the latency pass's figures
SHARES = ("recv_cpu", "ksoftirqd_cpu", "napi_cpu", "softirq_irqctx_cpu", "idle_cpu")
LATENCY = ("probe_ap99_us", "probe_loss_pct", "tlat_p99_us")
# a log offered axis when the rates span this factor (plots/style.gp's logx)
DECADE = 10
# params.json keys that differ between any two runs by construction
PER_RUN = {"run", "started", "finished", "note", "lat_seed", "duration_s"}


@lru_cache(maxsize=None)
def u_counts(n, m):
    """How many of the C(n + m, n) orderings give each Mann-Whitney U
    (0..n·m), by the recursion on the largest observation."""
    if n == 0 or m == 0:
        return (1,)
    a, b = u_counts(n - 1, m), u_counts(n, m - 1)
    out = [0] * (n * m + 1)
    for u, c in enumerate(a):
        out[u + m] += c
    for u, c in enumerate(b):
        out[u] += c
    return tuple(out)


def u_cdf(n, m, k):
    """P(U <= k) under the null hypothesis."""
    c = u_counts(n, m)
    return sum(c[:k + 1]) / sum(c)


@dataclass(frozen=True)
class Ratio:
    est: float      # Hodges-Lehmann: the median of the n·m ratios
    lo: float
    hi: float
    cov: float
    n: int          # run A's samples
    m: int          # run B's


def hl_ratio(a, b, coverage):
    """B over A for independent samples of positive numbers; None when a
    side has no sample or a value is not positive."""
    if not a or not b or min(a) <= 0 or min(b) <= 0:
        return None
    d = sorted(y / x for x in a for y in b)
    n, m, nm = len(a), len(b), len(d)
    k = 1
    while k + 1 <= nm / 2 and 1 - 2 * u_cdf(n, m, k) >= coverage:
        k += 1
    cov = 1 - 2 * u_cdf(n, m, k - 1) if nm > 1 else 0.0
    return Ratio(median(d), d[k - 1], d[nm - k], cov, n, m)


def values(rows, col, books=False):
    """The numbers of a column over rows; with books, only where the CPU
    books close (points.share)."""
    out = []
    for r in rows:
        x = P.share(r, col) if books else P.num(r, col)
        if x is not None:
            out.append(x)
    return out


def params_changes(pa, pb):
    """(key, A's, B's) for every params.json key whose value differs,
    the per-run ones aside; kernels compared by their hashes and commit."""
    out = []
    for k in sorted(set(pa) | set(pb)):
        if k in PER_RUN:
            continue
        va, vb = pa.get(k), pb.get(k)
        if va != vb:
            out.append((k, json.dumps(va, sort_keys=True), json.dumps(vb, sort_keys=True)))
    return tuple(out)


def read_verdicts(path):
    """{claim id (tree): (verdict, why)} of a run's verdicts.json, None
    when it has none (lab/analyze RUN writes it)."""
    try:
        with open(os.path.join(path, "verdicts.json"), encoding="utf-8") as f:
            v = json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    return {f"{c['id']} ({c.get('tree', '6.12')})": (c["verdict"], c.get("why", ""))
            for c in v.get("claims", [])}


@dataclass(frozen=True)
class Cell:
    variant: str
    rate: int
    col: str
    a: object       # median of A, None without samples
    b: object
    ratio: object   # Ratio or None
    starved_a: int
    starved_b: int


def cells(ra, rb, coverage):
    """Every (variant, rate) both runs measured in their throughput pass,
    and every latency-pass rate: delivered, the CPU shares, the latency."""
    out = []
    ga = P.group(P.by_pass(ra.rows, "tput"))
    gb = P.group(P.by_pass(rb.rows, "tput"))
    for (v, t) in sorted(set(ga) & set(gb), key=lambda k: (k[0], k[1] == 0, k[1])):
        xa, xb = ga[(v, t)], gb[(v, t)]
        sa = sum(P.is_starved(r) for r in xa)
        sb = sum(P.is_starved(r) for r in xb)
        for col, books in (("delivered_pps", False),) + tuple((c, True) for c in SHARES):
            a, b = values(xa, col, books), values(xb, col, books)
            if not a and not b:
                continue
            out.append(Cell(v, t, col, median(a), median(b), hl_ratio(a, b, coverage), sa, sb))
    la = P.group(P.by_pass(ra.rows, "lat"))
    lb = P.group(P.by_pass(rb.rows, "lat"))
    for (v, t) in sorted(set(la) & set(lb), key=lambda k: (k[0], k[1])):
        for col in LATENCY:
            a, b = values(la[(v, t)], col), values(lb[(v, t)], col)
            if not a and not b:
                continue
            out.append(Cell(v, t, col, median(a), median(b), hl_ratio(a, b, coverage), 0, 0))
    return tuple(out)


def ratio_text(r):
    if r is None:
        return "–"
    return (f"{r.est:.3f} [{r.lo:.3f}–{r.hi:.3f}] ({round(r.cov * 100)} %, "
            f"n={r.n}/{r.m})")


def run_label(run):
    p = run.params
    return (f"`{p.get('run', os.path.basename(run.path))}` (lab {p.get('lab_commit', '?')}, "
            f"{p.get('host_name', 'host ?')}, {p.get('accel', '?')} {p.get('speed', '?')}, "
            f"rules {p.get('rules_version', '?')}, {p.get('reps', '?')} repetitions)")


def report(ra, rb, cs, va, vb):
    """compare.md: the two runs, what changed, the verdicts (va, vb of
    read_verdicts), the cells (cs of cells())."""
    lines = ["# Two runs compared", "",
             f"A: {run_label(ra)}  ", f"B: {run_label(rb)}", "",
             "B against A: the Hodges-Lehmann ratio (median of every B/A) with its "
             "distribution-free interval (Mann-Whitney; the runs are independent, "
             "nothing is paired across them).  Medians of each run; CPU shares only "
             "where a point's books close.", "", "## What changed in params.json", ""]
    ch = params_changes(ra.params, rb.params)
    if ch:
        lines += ["| key | A | B |", "|---|---|---|"]
        lines += [f"| {k} | {a} | {b} |" for k, a, b in ch]
    else:
        lines.append("Nothing but the run's own id, times and seed.")
    lines += ["", "## Verdicts", ""]
    if va is None or vb is None:
        missing = " and ".join(x.path for x, v in ((ra, va), (rb, vb)) if v is None)
        lines.append(f"No verdicts.json in {missing}: `lab/analyze RUN` writes it.")
    else:
        lines += ["| claim | A | B |", "|---|---|---|"]
        for k in sorted(set(va) | set(vb)):
            lines.append(f"| {k} | {va.get(k, ('not judged',))[0]} | {vb.get(k, ('not judged',))[0]} |")
    lines += ["", "## Per variant and rate", "",
              "| variant | offered pps | column | A | B | B/A [interval] |",
              "|---|---|---|---|---|---|"]
    for c in cs:
        st = ""
        if c.col == "delivered_pps" and (c.starved_a or c.starved_b):
            st = f" (starved {c.starved_a} / {c.starved_b})"
        rate = "unlimited" if c.rate == 0 else fmt_num(c.rate)
        lines.append(f"| {c.variant} | {rate} | {c.col}{st} | "
                     f"{'–' if c.a is None else fmt_num(c.a)} | "
                     f"{'–' if c.b is None else fmt_num(c.b)} | {ratio_text(c.ratio)} |")
    return "\n".join(lines) + "\n"


def curve_data(ra, rb):
    """compare.dat for plots/compare.gp: one gnuplot index per (run,
    variant), offered against median delivered; and per index its name
    ("A:vanilla"), its colour (the variant's place among both runs') and
    its dash (1 run A, 2 run B)."""
    blocks, names, colours, dashes = [], [], [], []
    order = list(dict.fromkeys(P.variants_in_order(ra.rows) + P.variants_in_order(rb.rows)))
    for tag, dash, run in (("A", 1, ra), ("B", 2, rb)):
        g = P.group(P.by_pass(run.rows, "tput"))
        for v in P.variants_in_order(run.rows):
            pts = sorted((t, median(values(rows, "delivered_pps")))
                         for (vv, t), rows in g.items() if vv == v and t != 0)
            pts = [(t, d) for t, d in pts if d is not None]
            if pts:
                names.append(f"{tag}:{v}")
                colours.append(str(order.index(v) + 1))
                dashes.append(str(dash))
                blocks.append("\n".join(f"{t} {d}" for t, d in pts))
    return "\n\n\n".join(blocks) + "\n", names, colours, dashes


def summary_lines(cs, va, vb):
    """What the terminal shows: delivered B/A per variant at each rate both
    runs have, and every verdict that changed."""
    out = []
    for c in cs:
        if c.col == "delivered_pps":
            rate = "unlimited" if c.rate == 0 else f"{c.rate} pps"
            out.append(f"{c.variant} at {rate}: delivered {fmt_num(c.a or 0)} -> "
                       f"{fmt_num(c.b or 0)}, B/A {ratio_text(c.ratio)}")
    if va and vb:
        for k in sorted(set(va) | set(vb)):
            a, b = va.get(k, ("not judged",))[0], vb.get(k, ("not judged",))[0]
            out.append(f"verdict {k}: {a}" + ("" if a == b else f" -> {b}"))
    return out


def main(argv):
    import argparse
    import sys
    from rules import RulesError, read_rules
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(prog="lab/compare")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rules", default=os.path.join(here, "..", "rules.tsv"))
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args(argv)
    try:
        rules = read_rules(args.rules)
        ra, rb = P.read_run(args.a.rstrip("/")), P.read_run(args.b.rstrip("/"))
    except (P.InputError, RulesError) as e:
        print(f"lab/compare: error: {e}", file=sys.stderr)
        return 1
    for r in (ra, rb):
        if r.params.get("experiment", "rx") != "rx":
            print(f"lab/compare: error: {r.path} is a {r.params['experiment']} run; "
                  "lab/compare compares RX runs", file=sys.stderr)
            return 1
    cov = rules["stat.ci_coverage"]
    dat, names, colours, dashes = curve_data(ra, rb)
    offered = [P.rate(r) for r in ra.rows + rb.rows if P.rate(r)]
    lo, hi = min(offered), max(offered)
    cs = cells(ra, rb, cov)
    va, vb = read_verdicts(ra.path), read_verdicts(rb.path)
    files = {"compare.md": report(ra, rb, cs, va, vb), "compare.dat": dat,
             "meta.gp": (f"xmin = {lo}\nxmax = {hi}\nlogx = {int(hi >= DECADE * lo)}\n"
                         f"variants = \"{' '.join(names)}\"\nnv = {len(names)}\n"
                         f"colours = \"{' '.join(colours)}\"\ndashes = \"{' '.join(dashes)}\"\n"
                         f"run_a = \"{ra.params.get('run', 'A')}\"\n"
                         f"run_b = \"{rb.params.get('run', 'B')}\"\n")}
    for name, text in files.items():
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(text)
    print("\n".join(summary_lines(cs, va, vb)))
    return 0


if __name__ == "__main__":
    import sys
    sys.dont_write_bytecode = True
    sys.exit(main(sys.argv[1:]))
