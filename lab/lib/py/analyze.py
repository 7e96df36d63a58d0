# SPDX-License-Identifier: GPL-2.0
"""lab/analyze RUN: the one analysis of an RX run.  Reads points.csv,
params.json and the rules (today's lab/lib/rules.tsv, and the run's own:
its copy in RUN/rules.tsv, or its lab commit's); writes summary.csv,
verdicts.json, report.md and, with --plot-data DIR, the gnuplot data.
Every fact is computed once, by functions that take their inputs and
return their results (lab/lib/py/*.py)."""

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field

import claims as C
import compare
import gates as G
import plotdata
import points as P
import rates as R
import report
import summary
import verdicts
from rules import Rules, RulesError, parse_rules, read_rules

HERE = os.path.dirname(os.path.abspath(__file__))
LAB_TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


@dataclass(frozen=True)
class Judgment:
    """A run judged under one set of rules."""
    rules: Rules
    gates: dict = field(hash=False)         # (variant, rate) -> RateGate, throughput pass
    lat_gates: dict = field(hash=False)     # the same for the latency pass
    vrate: object
    lrate: object
    choosers: tuple                         # the variants whose gates chose the verdict rate
    claims_by_tree: tuple                   # ((tree, (Claim, ...)), ...)
    extras: tuple


@dataclass(frozen=True)
class Analysis:
    run: P.Run
    params: dict = field(hash=False)
    variants: tuple
    today: Judgment
    own: object                             # Judgment under the run's own rules, or None
    rates: tuple                            # of rates.RateRow (today's rules)
    mlfrr: dict = field(hash=False)
    soaks: tuple

    # today's judgment, as the report reads it
    @property
    def vrate(self):
        return self.today.vrate

    @property
    def lrate(self):
        return self.today.lrate

    @property
    def gates(self):
        return self.today.gates

    @property
    def claims_by_tree(self):
        return self.today.claims_by_tree

    @property
    def extras(self):
        return self.today.extras


def choosers_of(variants, params):
    """The variants whose gates choose the verdict rate: the claims'; in a
    run without them, its kernel variants (not the setting variants)."""
    _, cv = C.claim_variants(variants)
    if cv:
        return tuple(cv)
    kernels = params.get("kernels") or {}
    kv = [v for v in variants if not (kernels.get(v) or {}).get("settings")]
    return tuple(kv or variants)


def judge_run(run, variants, rules):
    fixed = P.fixed_speed(run.params)
    tput = P.group(P.by_pass(run.rows, "tput"))
    lat = P.group(P.by_pass(run.rows, "lat"))
    rg = G.rate_gates(tput, rules, fixed)
    lg = G.rate_gates(lat, rules, fixed)
    choosers = choosers_of(variants, run.params)
    vrate = G.verdict_rate(rg, choosers)
    lrate = G.latency_rate(lat, variants, vrate)
    trees, cv = C.claim_variants(variants)
    kernels = run.params.get("kernels") or {}
    mids = C.middle_grounds(variants, kernels)
    by_tree = tuple((t[0], C.judge_tree(t[0], t[1], t[2], t[3], tput, lat, rg, lg, rules, fixed,
                                        vrate, lrate, run.latency) +
                     tuple(C.middle_cure(t[0], t[1], t[2], m, tput, rg, rules, fixed) for m in mids
                           if t is C.TREES[0] and (kernels.get(m) or {}).get("tree", "6.12") == "6.12"))
                    for t in trees)
    extras = compare.extras(variants, cv, run.params.get("kernels") or {}, tput, lat, rg,
                            rules, fixed, vrate, lrate)
    return Judgment(rules, rg, lg, vrate, lrate, choosers, by_tree, extras)


def overlay(own, today):
    """The run's own rules over today's: its values where it has them, and
    today's for the names it lacks (version 1 kept statistical constants
    and some gates in the code, with the values today's file holds).  Its
    claims' regions are its own only: a version without regions judges
    "entirely short of the threshold" as not reproduced."""
    values = {k: v for k, v in today.values.items() if not k.endswith((".nr_lo", ".nr_hi"))}
    values.update(own.values)
    return Rules(values, own.version, own.sha, own.source)


def own_rules(run):
    """The rules the run was recorded under: its copy, or its lab commit's
    from git; None when neither can be read."""
    path = os.path.join(run.path, "rules.tsv")
    if os.path.exists(path):
        return read_rules(path)
    commit = str(run.params.get("lab_commit") or "").replace("-dirty", "")
    if not commit or commit == "unknown":
        return None
    try:
        text = subprocess.run(["git", "-C", LAB_TOP, "show", f"{commit}:lab/lib/rules.tsv"],
                              capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return parse_rules(text, f"lab/lib/rules.tsv at {commit}")


def read_soaks(path):
    out = []
    for name in ("soak.txt", "soak-debug.txt"):
        f = os.path.join(path, name)
        if os.path.exists(f) and os.path.getsize(f):
            with open(f, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
            title = lines[0][2:] if lines and lines[0].startswith("# ") else name
            out.append((title, tuple(x for x in lines if not x.startswith("#"))))
    return tuple(out)


def analyze(path, rules):
    run = P.read_run(path)
    if run.params.get("experiment", "rx") not in ("rx", "soak"):
        raise P.InputError(f"{path} is a {run.params.get('experiment')} run, not an RX run")
    variants = P.variants_in_order(P.by_pass(run.rows, "tput"))
    if not variants:
        raise P.InputError(f"{path}/points.csv has no throughput points")
    today = judge_run(run, variants, rules)
    own = own_rules(run)
    own_j = None
    if own is not None:
        own_j = today if own.sha == rules.sha else judge_run(run, variants, overlay(own, rules))
    tput = P.group(P.by_pass(run.rows, "tput"))
    lat = P.group(P.by_pass(run.rows, "lat"))
    rows = R.rate_rows(tput, lat, variants, today.gates, rules, run.latency)
    ml = {v: G.mlfrr(tput, v, rules) for v in variants}
    return Analysis(run, run.params, variants, today, own_j, rows, ml, read_soaks(path))


def git_commit():
    try:
        return subprocess.run(["git", "-C", LAB_TOP, "describe", "--always", "--dirty"],
                              capture_output=True, text=True, check=True,
                              env=dict(os.environ, GIT_OPTIONAL_LOCKS="0")).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def outputs(a, commit):
    """{file name: text} of everything the analysis writes into the run."""
    probe_ms = a.params.get("probe_timeout_ms")
    files = {
        "summary.csv": summary.summary_csv(a.rates, a.variants, a.vrate, a.mlfrr),
        "verdicts.json": json.dumps(verdicts.verdicts(a, commit), indent=2, ensure_ascii=False) + "\n",
        "report.md": report.report(a),
        "rates.csv": plotdata.rates_csv(a.rates, a.run.latency),
        "rates.dat": plotdata.rates_dat(a.rates, a.variants, a.run.latency),
        "curve.dat": plotdata.curve_dat(a.rates, a.variants),
        "overload.dat": plotdata.overload_dat(a.rates, a.variants, a.vrate),
        "meta.gp": plotdata.meta_gp(a.rates, a.variants, a.vrate, a.lrate, a.run.latency,
                                    probe_ms * 1000 if isinstance(probe_ms, (int, float)) else None),
    }
    if a.run.latency:
        files["tradeoff.dat"] = plotdata.tradeoff_dat(a.rates, a.variants, a.lrate)
    return files


RUN_FILES = ("summary.csv", "verdicts.json", "report.md")


def experiment_of(path):
    """params.json's experiment, "" when it cannot be read (the RX
    analysis then says why)."""
    try:
        return P.read_params(os.path.join(path, "params.json")).get("experiment", "")
    except P.InputError:
        return ""


def softirq_main(args):
    """The softirq experiment's analysis (lab/lib/py/softirqrun.py)."""
    import softirqrun
    path = args.run.rstrip("/")
    try:
        rules = read_rules(args.rules)
        params = P.read_params(os.path.join(path, "params.json"))
        own = own_rules(P.Run(path, params, (), (), False))
        if own is not None and own.sha != rules.sha:
            own = overlay(own, rules)
        files = softirqrun.outputs(path, params, rules, own, git_commit(), os.path.dirname(path))
    except (P.InputError, softirqrun.InputError, RulesError) as e:
        print(f"lab/analyze: error: {e}", file=sys.stderr)
        return 1
    try:
        for name, text in files.items():
            write(os.path.join(args.out or path, name), text)
    except OSError as e:
        print(f"lab/analyze: error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    if args.verdicts:
        for c in json.loads(files["verdicts.json"])["claims"]:
            iv = (c.get("ratio") or {}).get("interval")
            print(f"{c['id']} ({c['tree']}): {c['verdict']}"
                  + (f", {iv['median']} [{iv['lo']}–{iv['hi']}] (n={iv['n']})" if iv else ""))
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="lab/analyze", description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a results directory (lab/run's)")
    ap.add_argument("--rules", default=os.path.join(LAB_TOP, "lab", "lib", "rules.tsv"),
                    help="today's rules (default lab/lib/rules.tsv)")
    ap.add_argument("--out", help="write the run's files here instead of into RUN")
    ap.add_argument("--plot-data", metavar="DIR", help="also write the gnuplot data into DIR")
    ap.add_argument("--verdicts", action="store_true",
                    help="print one line per claim (claim, verdict, ratio and interval)")
    args = ap.parse_args(argv)
    if experiment_of(args.run) == "softirq":
        return softirq_main(args)
    try:
        rules = read_rules(args.rules)
        a = analyze(args.run.rstrip("/"), rules)
    except (P.InputError, RulesError) as e:
        print(f"lab/analyze: error: {e}", file=sys.stderr)
        return 1
    files = outputs(a, git_commit())
    out = args.out or args.run
    try:
        for name in RUN_FILES:
            write(os.path.join(out, name), files[name])
        if args.plot_data:
            for name, text in files.items():
                if name not in RUN_FILES:
                    write(os.path.join(args.plot_data, name), text)
    except OSError as e:
        print(f"lab/analyze: error: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    if args.verdicts:
        for line in verdicts.lines(a):
            print(line)
    return 0
