# SPDX-License-Identifier: GPL-2.0
"""The rest of lab/analyze on hand-made runs: the rules file, the rate
gates and the verdict rate, the MLFRR, the CPU books, summary.csv,
verdicts.json and a run judged under its own rules beside today's."""

import csv
import io
import json
import os
import shutil
import tempfile
import unittest

import analyze
import points as P
from labrows import HEADER, RULES, TOP, judge, rows
from rules import RulesError, parse_rules


def summary_set():
    """a and b: 30k both idle (a loses 1 % in rep 1), 100k both saturated,
    300k b saturated but a's generator 3 % short, unlimited never a verdict
    rate; rep 3 of b at 100k: books open."""
    out = []
    for v in ("a", "b"):
        out += rows(v, 30000, 3, delivered_pps=30000, idle_cpu=50, gen_err_pct=0.1,
                    loss_pct=[1.0, 0.2, 0.2])
        out += rows(v, 100000, 3, delivered_pps=[1000, 2000, 3000], recv_cpu=[10, 20, 30],
                    idle_cpu=[2, 3, 4], gen_err_pct=-0.3, loss_pct=50,
                    closure_ok=[1, 1, 0] if v == "b" else 1, closure_pct=[0.5, 0.5, -8] if v == "b" else 0.5)
        out += rows(v, 300000, 3, delivered_pps=1000, idle_cpu=1, gen_err_pct=-3 if v == "a" else 0,
                    loss_pct=99)
        out += rows(v, 0, 3, offered_pps=900000, delivered_pps=1000, gen_err_pct=None, loss_pct=99)
    return out


def write_run(d, all_rows, params):
    with open(os.path.join(d, "points.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for r in all_rows:
            w.writerow([r[c] for c in HEADER])
    with open(os.path.join(d, "params.json"), "w") as f:
        json.dump(params, f)


class Rules(unittest.TestCase):
    def test_file(self):
        """rules: today's file has a version, every claim a region, no rule twice"""
        self.assertTrue(RULES.version.isdigit() and int(RULES.version) >= 5, RULES.version)
        for c in ("claim.dumazet", "claim.abeni", "claim.mogul", "claim.revert_latency",
                  "claim.revert_loss", "claim.revert_throughput", "claim.paolo",
                  "claim.napi_alone", "claim.revert_busy"):
            self.assertIsNotNone(RULES.region(c), c)
        self.assertEqual(RULES.region("claim.mogul"), (0.8, float("inf")))

    def test_errors(self):
        """rules: a value that is no number, a rule given twice, a missing rule: one clear error each"""
        with self.assertRaisesRegex(RulesError, "rule 'x' has no number: 'five'"):
            parse_rules("x\tfive\ttext\n", "t")
        with self.assertRaisesRegex(RulesError, "rule 'x' given twice"):
            parse_rules("x\t1\ta\nx\t2\tb\n", "t")
        with self.assertRaisesRegex(RulesError, "no rule 'y' in t"):
            parse_rules("x\t1\ta\n", "t")["y"]

    def test_version_one(self):
        """rules: a file without a version line is version 1, without regions"""
        r = parse_rules("claim.dumazet\t2\tx\n", "old")
        self.assertEqual((r.version, r.region("claim.dumazet")), ("1", None))

    def test_no_threshold_in_code(self):
        """rules: no comparison in lab/lib/py against a number other than 0 and 1 (every gate and threshold is a rule)"""
        import re
        pat = re.compile(r"(<=?|>=?|==)\s*-?(?!0\b|1\b)\d")
        found = []
        for name in sorted(os.listdir(os.path.join(TOP, "lab", "lib", "py"))):
            if name.endswith(".py"):
                with open(os.path.join(TOP, "lab", "lib", "py", name)) as f:
                    for n, line in enumerate(f, 1):
                        if pat.search(line.split("#")[0]):
                            found.append(f"{name}:{n}: {line.strip()}")
        self.assertEqual(found, [])


class Gates(unittest.TestCase):
    def test_verdict_rate(self):
        """verdict rate: the highest rate every variant passes its gates at (100k: a's generator is 3 % off at 300k)"""
        self.assertEqual(judge(summary_set()).vrate, 100000)

    def test_setting_variant(self):
        """verdict rate: a setting variant does not choose it: with a the setting variant of kernel b, 300k"""
        j = judge(summary_set(), params={"kernels": {"b": {}, "a": {"kernel": "b", "settings": "x"}}})
        self.assertEqual((j.choosers, j.vrate), (("b",), 300000))

    def test_host_gates(self):
        """verdict rate: a host ceiling below the offered rate, or a guest off its clock, in 2 of 3 repetitions of b at 100k: no verdict rate"""
        for col, val in (("host_ceiling_pps", 50000), ("qemu_vcpu_blocked_pct", 30)):
            r = summary_set()
            for x in r:
                if x["rate_target"] == "100000" and x["variant"] == "b" and x["rep"] != "1":
                    x[col] = str(val)
            self.assertIsNone(judge(r).vrate, col)

    def test_starved_point_clock(self):
        """gates: a starved fixed-speed point is judged on its A..B clock: -0.5 % kept, -12 % lost"""
        import gates as G
        r = rows("vanilla", 300000, 2, starved=1, clock_err_pct=[-0.5, -12], qemu_vcpu_run_pct=None)
        self.assertEqual([G.point_clock_kept(x, RULES, True) for x in r], [True, False])

    def test_host_stalled_starved_point(self):
        """gates: a starved point whose sampler waited < gate.starved_wait_share of --starve was the host's stall: off its clock at fixed and native speed, under rules 5, not 4"""
        import gates as G
        r = rows("vanilla", 300000, 3, starved=1, clock_err_pct=-0.5, qemu_vcpu_run_pct=None,
                 starve_wait_share=[0.95, 0.49, None])
        for fixed in (True, False):
            self.assertEqual([G.point_clock_kept(x, RULES, fixed) for x in r], [True, False, True], fixed)
        g = G.point_gate(r[1], RULES, True)
        self.assertIn("starved by the host", g.why)
        v4 = dict(RULES.values)
        del v4["gate.starved_wait_share"]
        old = type(RULES)(v4, "4", "v4", "test")
        self.assertEqual([G.point_clock_kept(x, old, True) for x in r], [True, True, True])


class Summary(unittest.TestCase):
    def summary(self, all_rows, params=None):
        with tempfile.TemporaryDirectory() as d:
            write_run(d, all_rows, params or {"speed": "native"})
            a = analyze.analyze(d, RULES)
            files = analyze.outputs(a, "test")
        return list(csv.DictReader(io.StringIO(files["summary.csv"]))), files

    def test_summary(self):
        """summary.csv: verdict rate, MLFRR bracket, delivered median [min-max], receiver CPU, books withheld"""
        s, _ = self.summary(summary_set())
        a, b = s
        self.assertEqual((a["verdict_rate"], a["mlfrr_lo"], a["mlfrr_hi"]), ("100000", "30000", "100000"))
        self.assertEqual((a["delivered_pps"], a["delivered_lo"], a["delivered_hi"]), ("2000", "1000", "3000"))
        self.assertEqual(a["recv_cpu"], "20")
        self.assertEqual((b["recv_cpu"], b["recv_cpu_lo"], b["recv_cpu_hi"]), ("15", "10", "20"))

    def test_books(self):
        """books: a row whose books do not close keeps its idle and run delay, gives no CPU share"""
        r = rows("x", 1000, 1, closure_ok=0, idle_cpu=10, recv_wait_pct=20, recv_cpu=40, ksoftirqd_cpu=5)[0]
        self.assertEqual((P.share(r, "idle_cpu"), P.share(r, "recv_wait_pct")), (10.0, 20.0))
        self.assertEqual((P.share(r, "recv_cpu"), P.share(r, "ksoftirqd_cpu")), (None, None))

    def test_verdicts_json(self):
        """verdicts.json: rules version and hash, the verdict rate, every claim with metric, threshold, region, verdict"""
        _, files = self.summary(summary_set())
        v = json.loads(files["verdicts.json"])
        self.assertEqual((v["format"], v["rules_version"], v["rules_sha"], v["verdict_rate"]),
                         (1, RULES.version, RULES.sha, 100000))
        self.assertEqual([c["verdict"] for c in v["claims"]], [])      # no claim variants
        self.assertEqual([(e["variant"], e["against"]) for e in v["variants"]], [("a", []), ("b", [])])
        self.assertEqual(v["chosen_by"], ["a", "b"])

    def test_deterministic(self):
        """analysis: the same run twice gives the same files, byte for byte"""
        from test_claims import base
        _, f1 = self.summary(base())
        _, f2 = self.summary(base())
        self.assertEqual(f1, f2)
        v = json.loads(f1["verdicts.json"])
        d = next(c for c in v["claims"] if c["id"] == "dumazet")
        for k in ("name", "source", "metric", "threshold", "not_reproduced_region", "rates_judged",
                  "n", "ratio", "verdict", "mechanism", "excluded"):
            self.assertIn(k, d)
        self.assertEqual(d["ratio"]["interval"]["coverage"], 0.9375)


class OwnRules(unittest.TestCase):
    def test_side_by_side(self):
        """own rules: a run recorded under other rules is judged under both, side by side, never silently"""
        from test_claims import base
        d = tempfile.mkdtemp()
        try:
            write_run(d, base(), {"speed": "native"})
            with open(os.path.join(TOP, "lab", "lib", "rules.tsv")) as f:
                text = f.read().replace("claim.dumazet\t2\t", "claim.dumazet\t25\t")
            with open(os.path.join(d, "rules.tsv"), "w") as f:
                f.write(text)
            a = analyze.analyze(d, RULES)
            files = analyze.outputs(a, "test")
        finally:
            shutil.rmtree(d)
        v = json.loads(files["verdicts.json"])
        today = next(c for c in v["claims"] if c["id"] == "dumazet")
        own = next(c for c in v["own_rules"]["claims"] if c["id"] == "dumazet")
        self.assertEqual((today["verdict"], own["verdict"], own["threshold"]),
                         ("reproduced", "inconclusive", 25))
        self.assertIn("## Under the run's own rules and under today's", files["report.md"])


class Format(unittest.TestCase):
    def test_newer_refused(self):
        """inputs: a run of a newer results format is refused, naming it; a note is in the report's title"""
        from test_claims import base
        import report
        d = tempfile.mkdtemp()
        try:
            write_run(d, base(), {"format": P.FORMAT + 1})
            with self.assertRaisesRegex(P.InputError, f"results format {P.FORMAT + 1}, newer"):
                P.read_run(d)
            write_run(d, base(), {"format": P.FORMAT, "run": "r1", "note": "my try"})
            a = analyze.analyze(d, RULES)
            self.assertTrue(report.report(a).startswith("# Receive livelock lab: run r1: my try ("))
        finally:
            shutil.rmtree(d)


class Inputs(unittest.TestCase):
    def test_refused(self):
        """inputs: a missing column, a short row, a repeated point, bad JSON: one clear error each"""
        d = tempfile.mkdtemp()
        try:
            cases = (
                ("variant,rep\nx,1\n", "{}", "lacks required column"),
                (",".join(HEADER) + "\n1,2\n", "{}", "has 2 fields, the header has"),
                (",".join(HEADER) + "\n", "{}", "holds no points"),
                ("", "{}", "is empty"),
            )
            for text, params, want in cases:
                with open(os.path.join(d, "points.csv"), "w") as f:
                    f.write(text)
                with open(os.path.join(d, "params.json"), "w") as f:
                    f.write(params)
                with self.assertRaisesRegex(P.InputError, want):
                    P.read_run(d)
            write_run(d, rows("x", 1000, 1), {})
            with open(os.path.join(d, "params.json"), "w") as f:
                f.write('{"run": ')
            with self.assertRaisesRegex(P.InputError, "params.json is not valid JSON"):
                P.read_run(d)
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main()


class Words(unittest.TestCase):
    def test_order(self):
        """report: the order is balanced only in whole blocks of 2n repetitions, and says so"""
        import report
        p = {"variant_order": "williams", "order_balanced": True, "reps": 6}
        self.assertEqual(report.variant_order(p, 3), "variant order from a Williams design, balanced")
        p = {"variant_order": "williams", "order_balanced": False, "reps": 5}
        self.assertIn("5 repetitions are not a whole number of blocks of 6", report.variant_order(p, 3))

    def test_coverage(self):
        """report: the coverage text comes from n (3: 75 %, 5: 94 %, 6: 97 %)"""
        import report
        from stats import median_ci
        for n, want in ((3, "75 %"), (5, "94 %"), (6, "97 %")):
            iv = median_ci(list(range(n)), RULES["stat.ci_coverage"])
            self.assertIn(want, report.coverage_text(n, iv.cov))
