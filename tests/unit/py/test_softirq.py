# SPDX-License-Identifier: GPL-2.0
"""The softirq experiment's claims (lab/lib/py/softirqrun.py) on
hand-made points: paolo-other-users, napi-alone and revert-busy-cpu each
reproduced, not reproduced and inconclusive (a ratio between the
threshold and the region, a point left out: too few samples, a trace that
lost events, a guest off its clock), and the window a trace is cut to."""

import json
import os
import tempfile
import unittest
from collections import Counter

import softirqrun as S
import softirqtrace as T
from rules import read_rules

RULES = read_rules(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "lab", "lib", "rules.tsv"))
REPS = range(1, 7)
RATES = (16000, 48000)


def fig(timer, rcu, block=None, n=1000, napi=None):
    """Figures whose TIMER, RCU and BLOCK waits are n samples of one value
    each (BLOCK's as RCU's unless given; block=False: no BLOCK entries)."""
    block = rcu if block is None else block
    vec = {"TIMER": T.Vector(n, n, [timer] * n, [], Counter()),
           "RCU": T.Vector(n, n, [rcu] * n, [], Counter())}
    if block is not False:
        vec["BLOCK"] = T.Vector(n, n, [block] * n, [], Counter())
    return T.TraceFigures(9_000_000, vec, {"ksoftirqd": [], "napi": []},
                          Counter(napi or {}), 0)


def row(variant, rep, **kw):
    r = {"variant": variant, "rep": str(rep), "gate_clock": "1", "trace_overrun": "0",
         "trace_dropped": "0", "starved": "0", "probe_sent": "1200", "probe_lost": "0"}
    r.update({k: str(v) for k, v in kw.items()})
    return r


def traced(waits, n=1000, **kw):
    """pts of the flooded phases: waits = {variant: (timer, rcu[, block])}."""
    return {("traced", "flood", t, v): {k: S.Point(row(v, k, **kw), fig(*w, n=n)) for k in REPS}
            for t in RATES for v, w in waits.items()}


def busy(p99s, **kw):
    """pts of the busy phases: p99s = {variant: probe p99 µs}."""
    return {("plain", "busy", n, v): {k: S.Point(row(v, k, probe_ap99_us=x, **kw), None)
                                      for k in REPS}
            for n in (1, 2, 4) for v, x in p99s.items()}


def claim(cs, cid):
    return next(c for c in cs if c.id == cid and c.tree == "6.12")


class Paolo(unittest.TestCase):
    def test_reproduced(self):
        """paolo: the fix's TIMER and RCU waits 3x vanilla's and threaded NAPI's: reproduced"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (300, 600),
                                   "threaded-napi": (100, 200)}), RULES), "paolo-other-users")
        self.assertEqual((c.status, c.ratio.interval.med), ("reproduced", 3.0))
        self.assertEqual(len(c.per_rate), 2 * 3 * 2)

    def test_not_reproduced(self):
        """paolo: the fix as fast as both (ratio 1): not reproduced"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (100, 200),
                                   "threaded-napi": (100, 200)}), RULES), "paolo-other-users")
        self.assertEqual(c.status, "not-reproduced")

    def test_between(self):
        """paolo: 1.5x, between the region and the threshold: inconclusive"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (150, 300),
                                   "threaded-napi": (100, 200)}), RULES), "paolo-other-users")
        self.assertEqual(c.status, "inconclusive")

    def test_refuted_against_one(self):
        """paolo: 3x vanilla but as fast as threaded NAPI: not reproduced (it must hold against both)"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (300, 600),
                                   "threaded-napi": (300, 600)}), RULES), "paolo-other-users")
        self.assertEqual(c.status, "not-reproduced")

    def test_too_few_samples(self):
        """paolo: 999 TIMER entries in a window judge nothing: inconclusive, the would-be ratio kept"""
        pts = traced({"vanilla": (100, 200), "threaded-napi": (100, 200)})
        pts.update(traced({"ksoftirqd-fix": (300, 600)}, n=999))
        c = claim(S.claims(pts, RULES), "paolo-other-users")
        self.assertEqual(c.status, "inconclusive")
        self.assertTrue(any("softirq.min_samples" in e.why for e in c.excluded))
        self.assertEqual(c.ratio.interval_all.med, 3.0)

    def test_trace_lost_events(self):
        """paolo: a trace that dropped events is left out: inconclusive"""
        pts = traced({"vanilla": (100, 200), "threaded-napi": (100, 200)})
        pts.update(traced({"ksoftirqd-fix": (300, 600)}, trace_dropped=5))
        c = claim(S.claims(pts, RULES), "paolo-other-users")
        self.assertEqual(c.status, "inconclusive")
        self.assertTrue(any("lost 5 events" in e.why for e in c.excluded))

    def test_off_clock(self):
        """paolo: a guest that lost its clock is left out: inconclusive"""
        pts = traced({"ksoftirqd-fix": (300, 600), "threaded-napi": (100, 200)})
        pts.update(traced({"vanilla": (100, 200)}, gate_clock=0))
        c = claim(S.claims(pts, RULES), "paolo-other-users")
        self.assertEqual(c.status, "inconclusive")

    def test_block_refutes(self):
        """paolo: TIMER and RCU 3x, BLOCK as fast as both: not reproduced (every user, BLOCK among them)"""
        c = claim(S.claims(traced({"vanilla": (100, 200, 50), "ksoftirqd-fix": (300, 600, 50),
                                   "threaded-napi": (100, 200, 50)}), RULES), "paolo-other-users")
        self.assertEqual(c.status, "not-reproduced")
        self.assertTrue(any(w.startswith("BLOCK ksoftirqd-fix/vanilla") for w, _ in c.per_rate))

    def test_version3_without_block(self):
        """paolo: a run without BLOCK entries: inconclusive under version 4, reproduced under 3's TIMER and RCU"""
        pts = traced({"vanilla": (100, 200, False), "ksoftirqd-fix": (300, 600, False),
                      "threaded-napi": (100, 200, False)})
        c4 = claim(S.claims(pts, RULES), "paolo-other-users")
        v3 = dict(RULES.values)
        del v3["claim.paolo.block"]
        c3 = claim(S.claims(pts, type(RULES)(v3, "3", "v3", "test")), "paolo-other-users")
        self.assertEqual((c4.status, c3.status), ("inconclusive", "reproduced"))
        self.assertIn("BLOCK", c4.name)
        self.assertNotIn("BLOCK", c3.name)

    def test_not_measured(self):
        """paolo: a run without traced windows measures nothing"""
        c = claim(S.claims(busy({"vanilla": 100, "ksoftirqd-fix": 100}), RULES), "paolo-other-users")
        self.assertEqual(c.status, "not-measured")


class NapiAlone(unittest.TestCase):
    def test_reproduced(self):
        """napi-alone: threaded NAPI's waits as vanilla's: reproduced"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (300, 600),
                                   "threaded-napi": (100, 200)}), RULES), "napi-alone")
        self.assertEqual(c.status, "reproduced")

    def test_not_reproduced(self):
        """napi-alone: threaded NAPI's waits 3x vanilla's: not reproduced"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (300, 600),
                                   "threaded-napi": (300, 600)}), RULES), "napi-alone")
        self.assertEqual(c.status, "not-reproduced")

    def test_between(self):
        """napi-alone: 1.5x: inconclusive"""
        c = claim(S.claims(traced({"vanilla": (100, 200), "ksoftirqd-fix": (300, 600),
                                   "threaded-napi": (150, 300)}), RULES), "napi-alone")
        self.assertEqual(c.status, "inconclusive")


class RevertBusy(unittest.TestCase):
    def test_reproduced(self):
        """revert-busy-cpu: the fix's probe p99 3x vanilla's at every busy level: reproduced"""
        c = claim(S.claims(busy({"vanilla": 1000, "ksoftirqd-fix": 3000}), RULES), "revert-busy-cpu")
        self.assertEqual((c.status, c.rates), ("reproduced", (1, 2, 4)))

    def test_not_reproduced(self):
        """revert-busy-cpu: the same p99: not reproduced"""
        c = claim(S.claims(busy({"vanilla": 1000, "ksoftirqd-fix": 1100}), RULES), "revert-busy-cpu")
        self.assertEqual(c.status, "not-reproduced")

    def test_between(self):
        """revert-busy-cpu: 1.5x: inconclusive"""
        c = claim(S.claims(busy({"vanilla": 1000, "ksoftirqd-fix": 1500}), RULES), "revert-busy-cpu")
        self.assertEqual(c.status, "inconclusive")

    def test_few_answers(self):
        """revert-busy-cpu: 999 answered probes judge nothing: inconclusive"""
        pts = busy({"vanilla": 1000})
        pts.update(busy({"ksoftirqd-fix": 3000}, probe_sent=1000, probe_lost=1))
        c = claim(S.claims(pts, RULES), "revert-busy-cpu")
        self.assertEqual(c.status, "inconclusive")
        self.assertTrue(any("999 answered" in e.why for e in c.excluded))

    def test_tree_61(self):
        """revert-busy-cpu on 6.1: v6.1 over v6.1-revert, judged apart from 6.12"""
        cs = S.claims(busy({"v6.1-revert": 1000, "v6.1": 3000, "vanilla": 1000,
                            "ksoftirqd-fix": 1000}), RULES)
        got = {(c.id, c.tree): c.status for c in cs if c.id == "revert-busy-cpu"}
        self.assertEqual(got, {("revert-busy-cpu", "6.12"): "not-reproduced",
                               ("revert-busy-cpu", "6.1"): "reproduced"})


class Outputs(unittest.TestCase):
    def test_verdicts_json(self):
        """verdicts.json: the experiment, the rules' version, the claims paolo-other-users and revert-busy-cpu"""
        pts = traced({"vanilla": (100, 200), "ksoftirqd-fix": (300, 600), "threaded-napi": (100, 200)})
        pts.update(busy({"vanilla": 1000, "ksoftirqd-fix": 3000, "threaded-napi": 1000}))
        cs = S.claims(pts, RULES)
        d = json.loads(S.verdicts_json({"run": "x"}, RULES, RULES, cs, (), "c"))
        self.assertEqual((d["experiment"], d["rules_version"], d["own_rules"]),
                         ("softirq", RULES.version, "the same"))
        self.assertEqual([(c["id"], c["verdict"]) for c in d["claims"]],
                         [("paolo-other-users", "reproduced"), ("napi-alone", "reproduced"),
                          ("revert-busy-cpu", "reproduced")])

    def test_mechanism_split(self):
        """mechanism: NAPI's packets by place; a datagram's share of them"""
        p = S.Point(row("vanilla", 1, delivered_pps=100, win_from_ns=0, win_to_ns=2_000_000_000),
                    fig(1, 1, napi={"irq-tail": 100, "task:udp_sink": 300, "ksoftirqd": 200,
                                    "task:responder": 0}))
        self.assertEqual(S.napi_split(p.fig), {"irq-tail": 100, "receiver": 300, "task": 0,
                                               "ksoftirqd": 200, "napi": 0})
        self.assertEqual(S.per_datagram(p), 3.0)


class Window(unittest.TestCase):
    TRACE = "\n".join([
        "  <idle>-0 [000] d.h2.   10.000000: softirq_raise: vec=1 [action=TIMER]",
        "  <idle>-0 [000] ..s2.   10.000500: softirq_entry: vec=1 [action=TIMER]",
        "  <idle>-0 [000] ..s2.   10.000600: softirq_exit: vec=1 [action=TIMER]",
        "  <idle>-0 [000] d.h2.   10.900000: softirq_raise: vec=1 [action=TIMER]",
        "  <idle>-0 [000] ..s2.   11.000100: softirq_entry: vec=1 [action=TIMER]",
        "  <idle>-0 [000] ..s2.   11.000200: softirq_exit: vec=1 [action=TIMER]",
        "  <idle>-0 [000] d.h2.   12.000000: softirq_raise: vec=1 [action=TIMER]",
        "  <idle>-0 [000] ..s2.   12.000300: softirq_entry: vec=1 [action=TIMER]",
    ])

    def test_window(self):
        """softirqtrace: a window counts its entries, with a raise from before it"""
        f = T.figures(T.parse(self.TRACE), 11_000_000, 11_500_000)
        self.assertEqual(f.vectors["TIMER"].wait_us, [100100])
        self.assertEqual((f.vectors["TIMER"].entries, f.vectors["TIMER"].raises), (1, 0))


class MiddleCost(unittest.TestCase):
    MID = ("per-vector",)

    def cost(self, waits, p99s, **kw):
        pts = traced(dict({"vanilla": (100, 200, 300)}, **waits), **kw)
        pts.update(busy(dict({"vanilla": 5000}, **p99s)))
        return claim(S.claims(pts, RULES, self.MID), "middle-cost:per-vector")

    def test_reproduced(self):
        """middle cost: every vector under the flood and the probe on a busy CPU within 1.1x vanilla: reproduced"""
        c = self.cost({"per-vector": (110, 210, 320)}, {"per-vector": 5500})
        self.assertEqual(c.status, "reproduced")
        self.assertEqual(len(c.per_rate), 2 * 3 + 3)

    def test_not_reproduced(self):
        """middle cost: BLOCK 3x vanilla's under the flood: not reproduced (inside [2, inf])"""
        c = self.cost({"per-vector": (110, 210, 900)}, {"per-vector": 5500})
        self.assertEqual(c.status, "not-reproduced")

    def test_busy_refutes(self):
        """middle cost: the vectors fine, the probe 10x on a busy CPU: not reproduced"""
        c = self.cost({"per-vector": (110, 210, 320)}, {"per-vector": 50000})
        self.assertEqual(c.status, "not-reproduced")

    def test_between(self):
        """middle cost: the probe 1.5x vanilla's, between the threshold and the region: inconclusive"""
        c = self.cost({"per-vector": (110, 210, 320)}, {"per-vector": 7500})
        self.assertEqual(c.status, "inconclusive")

    def test_only_with_rules_of_version_6(self):
        """middle cost: rules without claim.middle_cost (before version 6) judge no such claim"""
        from rules import Rules
        old = Rules({k: v for k, v in RULES.values.items() if not k.startswith("claim.middle_cost")},
                    5, "x", "old")
        pts = traced({"vanilla": (100, 200, 300), "per-vector": (110, 210, 320)})
        self.assertFalse([c for c in S.claims(pts, old, self.MID) if c.id.startswith("middle-")])


if __name__ == "__main__":
    unittest.main()


class LatestRx(unittest.TestCase):
    def write_run(self, root, name, verdict_rate):
        d = os.path.join(root, name)
        os.makedirs(d)
        with open(os.path.join(d, "verdicts.json"), "w", encoding="utf-8") as f:
            json.dump({"verdict_rate": verdict_rate}, f)
        with open(os.path.join(d, "summary.csv"), "w", encoding="utf-8") as f:
            f.write("variant,delivered_pps\nvanilla,241\n")

    def test_skips_runs_without_a_verdict_rate(self):
        """latest_rx: the newest sweep that chose a verdict rate, not a newer one-rate diagnostic run"""
        with tempfile.TemporaryDirectory() as root:
            self.write_run(root, "20261207-120558", 48000)
            self.write_run(root, "20261207-142852", None)
            os.makedirs(os.path.join(root, "softirq-20261207-143954"))
            got = S.latest_rx(root)
        self.assertEqual((got[0], got[1], got[2]["vanilla"]["delivered_pps"]),
                         ("20261207-120558", 48000, "241"))

    def test_none(self):
        """latest_rx: no sweep at all gives None"""
        with tempfile.TemporaryDirectory() as root:
            self.assertIsNone(S.latest_rx(root))
