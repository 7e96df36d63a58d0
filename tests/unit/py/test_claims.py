# SPDX-License-Identifier: GPL-2.0
"""Every claim of lab/lib/py/claims.py reproduced, not reproduced and
inconclusive on hand-made rows, by the one rule: a paired ratio's interval
against the claim's threshold and its not-reproduced region."""

import unittest

from labrows import RULES, claim, judge, lat_rows, rows, rules_with, without


def knee():
    return rows("vanilla", 100000, delivered_pps=90000, recv_cpu=30, softirq_irqctx_cpu=40)


def base(fix300=(40000, 42000, 39000, 41000, 40500)):
    """vanilla livelocks past 100k, the fix ~20x with a 47/53 split,
    threaded-napi keeps 0.9 of its peak."""
    return (knee() +
            rows("vanilla", 300000, delivered_pps=[2000, 2100, 1900, 2200, 1800], recv_cpu=3,
                 softirq_irqctx_cpu=80) +
            rows("ksoftirqd-fix", 100000, delivered_pps=95000) +
            rows("ksoftirqd-fix", 300000, delivered_pps=list(fix300), recv_cpu=40, ksoftirqd_cpu=45) +
            rows("threaded-napi", 100000, delivered_pps=99000) +
            rows("threaded-napi", 300000, delivered_pps=[90000, 91000, 89000, 92000, 90500],
                 napi_cpu=45))


class Dumazet(unittest.TestCase):
    def test_reproduced(self):
        """Dumazet: 20x in every repetition, ksoftirqd busy, 47/53 split -> reproduced"""
        c = claim(judge(base()), "dumazet")
        self.assertEqual(c.status, "reproduced")
        self.assertEqual(round(c.ratio.interval.med, 2), 20.0)
        self.assertEqual((round(c.ratio.interval.lo, 2), round(c.ratio.interval.hi, 2)), (18.64, 22.5))
        self.assertEqual(c.rates, (300000,))

    def test_not_reproduced(self):
        """Dumazet: the fix within 25 % of vanilla (1.0-1.2x) -> not reproduced (inside [0, 1.25])"""
        c = claim(judge(base(fix300=(2000, 2300, 2100, 2400, 2000))), "dumazet")
        self.assertEqual(c.status, "not-reproduced")

    def test_short_of_threshold_outside_region(self):
        """Dumazet: 1.5x, short of 2 but outside the region -> inconclusive, not refuted"""
        c = claim(judge(base(fix300=(3000, 3150, 2850, 3300, 2700))), "dumazet")
        self.assertEqual(c.status, "inconclusive")

    def test_across(self):
        """Dumazet: ratio 1.5..3 across 2 -> inconclusive"""
        r = knee() + rows("vanilla", 300000, delivered_pps=10000, recv_cpu=3) + \
            rows("ksoftirqd-fix", 300000, delivered_pps=[15000, 18000, 25000, 22000, 30000],
                 recv_cpu=40, ksoftirqd_cpu=45)
        self.assertEqual(claim(judge(r), "dumazet").status, "inconclusive")

    def test_both_zero(self):
        """Dumazet: vanilla and the fix both deliver 0 -> a ratio of 1 each (0/0), not reproduced"""
        r = knee() + rows("vanilla", 300000, delivered_pps=0, recv_cpu=3) + \
            rows("ksoftirqd-fix", 300000, delivered_pps=0, recv_cpu=40, ksoftirqd_cpu=45)
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "not-reproduced")
        self.assertEqual(c.ratio.interval.med, 1.0)

    def test_infinite(self):
        """Dumazet: vanilla read nothing in 3 of 5 -> those ratios are +inf, reproduced"""
        r = knee() + rows("vanilla", 300000, delivered_pps=[0, 0, 0, 300, 250], recv_cpu=3) + \
            rows("ksoftirqd-fix", 300000, delivered_pps=15000, recv_cpu=40, ksoftirqd_cpu=45)
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "reproduced")
        self.assertEqual(c.ratio.interval.n, 5)

    def test_four_pairs(self):
        """Dumazet: 20x in 4 repetitions -> inconclusive (fewer than claim.min_pairs)"""
        r = rows("vanilla", 100000, 4, delivered_pps=90000) + \
            rows("vanilla", 300000, 4, delivered_pps=2000, recv_cpu=3) + \
            rows("ksoftirqd-fix", 300000, 4, delivered_pps=40000, recv_cpu=40, ksoftirqd_cpu=45)
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "inconclusive")
        self.assertEqual(c.ratio.interval.n, 4)

    def test_region_is_livelock(self):
        """Dumazet: 1.5x at 200k where vanilla keeps 0.9 of its peak is outside the region -> reproduced at 300k"""
        r = base() + rows("vanilla", 200000, delivered_pps=81000, recv_cpu=20) + \
            rows("ksoftirqd-fix", 200000, delivered_pps=120000, recv_cpu=40, ksoftirqd_cpu=45) + \
            rows("threaded-napi", 200000, delivered_pps=95000, napi_cpu=45)
        c = claim(judge(r), "dumazet")
        self.assertEqual((c.status, c.rates), ("reproduced", (300000,)))

    def test_no_region(self):
        """Dumazet: vanilla never in livelock -> inconclusive, no overload region"""
        r = knee() + rows("vanilla", 200000, delivered_pps=81000) + \
            rows("ksoftirqd-fix", 200000, delivered_pps=120000)
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "inconclusive")
        self.assertIn("no overload region", c.why)

    def test_worst_rate(self):
        """Dumazet: 20x at 300k but within 25 % at 500k -> not reproduced, judged at 500k"""
        r = base() + rows("vanilla", 500000, delivered_pps=20000, recv_cpu=3) + \
            rows("ksoftirqd-fix", 500000, delivered_pps=[21000, 22000, 20500, 23000, 21500],
                 recv_cpu=40, ksoftirqd_cpu=45) + rows("threaded-napi", 500000, delivered_pps=90000)
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "not-reproduced")
        self.assertEqual(c.ratio.interval.n, 5)
        self.assertIn("judged at 500,000 pps", c.why)

    def test_dropped_refuting_rate(self):
        """Dumazet: a refuting rate whose generator missed its target is not dropped: inconclusive, its ratio printed"""
        r = base() + rows("vanilla", 500000, delivered_pps=20000, recv_cpu=3) + \
            rows("ksoftirqd-fix", 500000, delivered_pps=21000, gen_err_pct=-2, recv_cpu=40,
                 ksoftirqd_cpu=45) + rows("threaded-napi", 500000, delivered_pps=90000)
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "inconclusive")
        self.assertIn("generator off target", " ".join(e.why for e in c.excluded))
        self.assertIn("1.05", c.why)

    def test_point_off_load(self):
        """Dumazet: one fix point 20.8 % off its target -> left out, the claim inconclusive with both ratios"""
        r = base()
        for x in r:
            if x["variant"] == "ksoftirqd-fix" and x["rate_target"] == "300000" and x["rep"] == "5":
                x["gen_err_pct"] = "-20.8"
        c = claim(judge(r), "dumazet")
        self.assertEqual(c.status, "inconclusive")
        self.assertEqual((c.ratio.interval.n, c.ratio.interval_all.n), (4, 5))

    def test_mechanism_gate(self):
        """Dumazet: 20x with ksoftirqd/0 at 5 % -> partly; 10/90 split -> partly; books open -> partly"""
        for kw in ({"ksoftirqd_cpu": 5}, {"recv_cpu": 5}, {"closure_ok": [1, 1, 0, 1, 1]}):
            r = knee() + rows("vanilla", 300000, delivered_pps=2000, recv_cpu=3) + \
                rows("ksoftirqd-fix", 300000, delivered_pps=40000,
                     **{"recv_cpu": 40, "ksoftirqd_cpu": 45, **kw})
            self.assertEqual(claim(judge(r), "dumazet").status, "partly", kw)

    def test_not_measured(self):
        """Dumazet: no ksoftirqd-fix in the run -> not measured"""
        r = [x for x in base() if x["variant"] != "ksoftirqd-fix"]
        self.assertEqual(claim(judge(r), "dumazet").status, "not-measured")

    def test_threshold_from_rules(self):
        """Dumazet: the same rows against claim.dumazet 25 -> inconclusive (short of 25, outside the region)"""
        c = claim(judge(base(), rules_with(claim__dumazet=25)), "dumazet")
        self.assertEqual(c.status, "inconclusive")
        self.assertEqual(c.threshold, 25)

    def test_trees_apart(self):
        """Dumazet: 6.12 and 6.1 judged on their own regions: a 6.12 point off its target does not move 6.1's verdict"""
        r = base()
        for x in list(r):
            y = dict(x)
            y["variant"] = {"vanilla": "v6.1-revert", "ksoftirqd-fix": "v6.1",
                            "threaded-napi": "v6.1+threaded"}[x["variant"]]
            r.append(y)
        r += rows("vanilla", 200000, delivered_pps=9000, recv_cpu=5) + \
            rows("ksoftirqd-fix", 200000, delivered_pps=40000, gen_err_pct=2, recv_cpu=40, ksoftirqd_cpu=45) + \
            rows("v6.1-revert", 200000, delivered_pps=20000, recv_cpu=5) + \
            rows("v6.1", 200000, delivered_pps=22000, recv_cpu=40, ksoftirqd_cpu=45)
        j = judge(r)
        self.assertEqual(claim(j, "dumazet", "6.1").status, "not-reproduced")   # 1.1x at 200k
        self.assertEqual(claim(j, "dumazet", "6.12").status, "inconclusive")   # 200k off target


class Abeni(unittest.TestCase):
    def test_reproduced(self):
        """Abeni: threaded-napi at ~0.9 of its peak past it -> reproduced"""
        self.assertEqual(claim(judge(base()), "abeni").status, "reproduced")

    def test_not_reproduced(self):
        """Abeni: threaded-napi collapses to ~0.3 of its peak -> not reproduced (inside [0, 0.5])"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("threaded-napi", 100000, delivered_pps=99000) + \
            rows("threaded-napi", 300000, delivered_pps=[30000, 35000, 28000, 32000, 31000], napi_cpu=45)
        self.assertEqual(claim(judge(r), "abeni").status, "not-reproduced")

    def test_inconclusive(self):
        """Abeni: threaded-napi at 0.6-0.9 of its peak -> inconclusive"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("threaded-napi", 100000, delivered_pps=99000) + \
            rows("threaded-napi", 300000, delivered_pps=[60000, 90000, 70000, 85000, 65000], napi_cpu=45)
        self.assertEqual(claim(judge(r), "abeni").status, "inconclusive")

    def test_idle_collapse(self):
        """Abeni: a collapse past the peak with the guest 20 % idle (a lost wakeup) is the failure itself -> not reproduced"""
        r = base() + rows("threaded-napi", 500000, delivered_pps=[30000, 32000, 29000, 31000, 30500],
                          idle_cpu=20, napi_cpu=10) + \
            rows("vanilla", 500000, delivered_pps=1000) + rows("ksoftirqd-fix", 500000, delivered_pps=40000)
        c = claim(judge(r), "abeni")
        self.assertEqual(c.status, "not-reproduced")
        self.assertEqual(c.rates, (300000, 500000))

    def test_top_of_grid(self):
        """Abeni: its peak at the top of the grid -> inconclusive, 1 by construction"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("threaded-napi", 100000, delivered_pps=50000) + \
            rows("threaded-napi", 300000, delivered_pps=90000, napi_cpu=45)
        c = claim(judge(r), "abeni")
        self.assertEqual(c.status, "inconclusive")
        self.assertIn("1 by construction", c.why)

    def test_plateau(self):
        """Abeni: a plateau from 200k, 1 % higher at 300k -> the peak at 200k (claim.peak_tol), reproduced"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("threaded-napi", 100000, delivered_pps=50000) + \
            rows("threaded-napi", 200000, delivered_pps=90000, napi_cpu=45) + \
            rows("threaded-napi", 300000, delivered_pps=90900, napi_cpu=45)
        c = claim(judge(r), "abeni")
        self.assertEqual((c.status, c.rates), ("reproduced", (300000,)))

    def test_peak_off_clock(self):
        """Abeni: a 150k 'peak' at 100k read by a guest off its clock sets no peak -> reproduced"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("threaded-napi", 100000, delivered_pps=150000, qemu_vcpu_blocked_pct=30) + \
            rows("threaded-napi", 200000, delivered_pps=99000, napi_cpu=45) + \
            rows("threaded-napi", 300000, delivered_pps=90000, napi_cpu=45)
        c = claim(judge(r), "abeni")
        self.assertEqual(c.status, "reproduced")

    def test_mechanism(self):
        """Abeni: 0.9 of its peak with the napi threads at 5 % -> partly"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("threaded-napi", 100000, delivered_pps=99000) + \
            rows("threaded-napi", 300000, delivered_pps=90000, napi_cpu=5)
        self.assertEqual(claim(judge(r), "abeni").status, "partly")


class Mogul(unittest.TestCase):
    def test_reproduced(self):
        """Mogul: vanilla at ~0.02 of its peak, softirq over the receiver -> reproduced"""
        self.assertEqual(claim(judge(base()), "mogul").status, "reproduced")

    def test_not_reproduced(self):
        """Mogul: vanilla at ~0.9 of its peak -> not reproduced (inside [0.8, inf])"""
        r = knee() + rows("vanilla", 300000, delivered_pps=[85000, 80000, 88000, 82000, 84000],
                          recv_cpu=30, softirq_irqctx_cpu=60)
        self.assertEqual(claim(judge(r), "mogul").status, "not-reproduced")

    def test_inconclusive(self):
        """Mogul: vanilla at 0.3-0.7 of its peak -> inconclusive"""
        r = knee() + rows("vanilla", 300000, delivered_pps=[27000, 63000, 40000, 50000, 45000],
                          recv_cpu=30, softirq_irqctx_cpu=60)
        self.assertEqual(claim(judge(r), "mogul").status, "inconclusive")

    def test_starved(self):
        """Mogul: starved in every repetition -> partly: its CPU split is not measured"""
        r = knee() + rows("vanilla", 300000, delivered_pps=[270, 280, 260, 275, 265], starved=1,
                          recv_cpu=None, softirq_irqctx_cpu=None, closure_ok=0, clock_err_pct=0.5)
        c = claim(judge(r, params={"speed": "icount:4"}), "mogul")
        self.assertEqual(c.status, "partly")
        self.assertIn("not measured", c.mechanism)

    def test_starved_off_clock(self):
        """Mogul: a starved point whose guest lost 30 % of its clock over A..B is left out -> inconclusive"""
        r = knee() + rows("vanilla", 300000, delivered_pps=270, starved=1, recv_cpu=None,
                          closure_ok=0, clock_err_pct=[0.5, 0.5, 0.5, 0.5, -30])
        c = claim(judge(r, params={"speed": "icount:4"}), "mogul")
        self.assertEqual(c.status, "inconclusive")
        self.assertIn("off its clock", c.excluded[0].why)

    def test_rises_again(self):
        """Mogul: the receiver out-runs softirq -> partly; the curve rising again is named"""
        r = knee() + rows("vanilla", 300000, delivered_pps=9000, recv_cpu=50, softirq_irqctx_cpu=30) + \
            rows("vanilla", 500000, delivered_pps=20000, recv_cpu=50, softirq_irqctx_cpu=30)
        c = claim(judge(r), "mogul")
        self.assertEqual(c.status, "partly")
        self.assertIn("rises again (> 10 %) at 500,000 pps", c.mechanism)

    def test_peaks_at_verdict_rate(self):
        """Mogul: vanilla peaks at the verdict rate -> inconclusive, 1 by construction"""
        r = rows("vanilla", 100000, delivered_pps=50000) + rows("vanilla", 300000, delivered_pps=90000)
        self.assertIn("1 by construction", claim(judge(r), "mogul").why)

    def test_host_time_bound(self):
        """Mogul: a peak point whose guest only lost time bounds the peak from below at its host-time rate (n=5)"""
        r = rows("vanilla", 100000, delivered_pps=90000, qemu_vcpu_blocked_pct=[0, 0, 0, 0, 30],
                 window_clock_err_pct=[0, 0, 0, 0, -20]) + \
            rows("vanilla", 300000, delivered_pps=2000, recv_cpu=3, softirq_irqctx_cpu=80)
        c = claim(judge(r), "mogul")
        self.assertEqual((c.status, c.ratio.interval.n), ("reproduced", 5))


def with_lat(van, fix, napi, **kw):
    return base() + lat_rows("vanilla", 300000, *van, **kw) + lat_rows("ksoftirqd-fix", 300000, *fix) + \
        lat_rows("threaded-napi", 300000, *napi)


class Revert(unittest.TestCase):
    def test_reproduced(self):
        """revert: fix's p99 3x vanilla's and 6x threaded-napi's, napi delivers 2x the fix -> reproduced"""
        c = claim(judge(with_lat((20000,), (60000,), (10000,))), "revert")
        self.assertEqual(c.status, "reproduced")

    def test_equivalence(self):
        """revert: the same p99 for all three -> not reproduced (inside [0.8, 1.25])"""
        c = claim(judge(with_lat((20000,), (21000,), (19000,))), "revert")
        self.assertEqual(c.status, "not-reproduced")
        self.assertEqual(c.parts[0].status, "not-reproduced")

    def test_inconclusive(self):
        """revert: fix's p99 0.5..3x vanilla's (across 1.25) -> inconclusive, whatever the throughput half says"""
        r = base() + lat_rows("vanilla", 300000, 20000) + \
            lat_rows("ksoftirqd-fix", 300000, [10000, 60000, 60000, 60000, 10000]) + \
            lat_rows("threaded-napi", 300000, 10000)
        c = claim(judge(r), "revert")
        self.assertEqual((c.status, c.parts[1].status), ("inconclusive", "reproduced"))

    def test_one_metric(self):
        """revert: one metric, the answered probes' p99: equal p99s with 4x the loss -> not reproduced (the loss is revert-loss's)"""
        j = judge(with_lat((1000000, 5, "p99+p999+max", 40000), (1000000, 20, "p99+p999+max", 41000),
                           (1000000, 1, "p99+p999+max", 39000)))
        self.assertEqual(claim(j, "revert").status, "not-reproduced")
        self.assertEqual(claim(j, "revert-loss").status, "reproduced")

    def test_older_format(self):
        """revert: a run without the answered probes' p99 -> its latency half not measured, the revert with it"""
        r = without(with_lat((20000,), (60000,), (10000,)), "probe_ap99_us")
        c = claim(judge(r), "revert")
        self.assertEqual((c.status, c.parts[0].status), ("not-measured", "not-measured"))
        self.assertIn("probe_ap99_us", c.parts[0].why)

    def test_nothing_answered(self):
        """revert: a variant none of whose probes were answered has no p99: left out, inconclusive"""
        c = claim(judge(with_lat((20000,), (1000000, 100, "p50+p90+p99+p999+max", ""), (10000,))),
                  "revert")
        self.assertEqual(c.status, "inconclusive")

    def test_lat_gates(self):
        """revert: vanilla's guest 20 % idle in the latency pass -> the latency half inconclusive, its ratio printed"""
        c = claim(judge(with_lat((20000,), (60000,), (10000,), idle_cpu=20)), "revert")
        self.assertEqual(c.status, "inconclusive")
        self.assertIn("not overloaded", " ".join(e.why for e in c.excluded))

    def test_throughput_refutes(self):
        """revert: the latency cost shown but threaded-napi at 0.5 of the fix -> not reproduced"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("ksoftirqd-fix", 300000, delivered_pps=40000, ksoftirqd_cpu=45, recv_cpu=40) + \
            rows("threaded-napi", 100000, delivered_pps=99000) + \
            rows("threaded-napi", 300000, delivered_pps=20000, napi_cpu=45) + \
            lat_rows("vanilla", 300000, 20000) + lat_rows("ksoftirqd-fix", 300000, 60000) + \
            lat_rows("threaded-napi", 300000, 10000)
        c = claim(judge(r), "revert")
        self.assertEqual((c.status, c.parts[1].status), ("not-reproduced", "not-reproduced"))

    def test_throughput_half(self):
        """revert-throughput: threaded-napi at 0.85-0.95 of the fix -> its half inconclusive, the revert partly"""
        r = knee() + rows("vanilla", 300000, delivered_pps=2000) + \
            rows("ksoftirqd-fix", 300000, delivered_pps=40000, ksoftirqd_cpu=45, recv_cpu=40) + \
            rows("threaded-napi", 100000, delivered_pps=99000) + \
            rows("threaded-napi", 300000, delivered_pps=[34000, 38000, 36000, 37000, 35000], napi_cpu=45) + \
            lat_rows("vanilla", 300000, 20000) + lat_rows("ksoftirqd-fix", 300000, 60000) + \
            lat_rows("threaded-napi", 300000, 10000)
        c = claim(judge(r), "revert")
        self.assertEqual((c.status, c.parts[1].status), ("partly", "inconclusive"))

    def test_not_measured(self):
        """revert: no latency pass -> not measured"""
        self.assertEqual(claim(judge(base()), "revert").status, "not-measured")


class RevertLoss(unittest.TestCase):
    def test_reproduced(self):
        """revert-loss: the fix loses 10x the probes of both others -> reproduced"""
        c = claim(judge(with_lat((20000, 1.0), (60000, 10.0), (10000, 1.0))), "revert-loss")
        self.assertEqual(c.status, "reproduced")

    def test_not_reproduced(self):
        """revert-loss: vanilla lost none, fix and napi 20 % each -> not reproduced (napi pays the same)"""
        c = claim(judge(with_lat((40000, 0), (1000000, 20, "p99+p999+max"),
                                 (1000000, 20, "p99+p999+max"))), "revert-loss")
        self.assertEqual(c.status, "not-reproduced")
        self.assertEqual(round(c.per_rate[0][1].interval.med, 2), 81.0)

    def test_inconclusive(self):
        """revert-loss: fix over napi 0.5..2 -> inconclusive"""
        r = base() + lat_rows("vanilla", 300000, 20000, 1.0) + \
            lat_rows("ksoftirqd-fix", 300000, 30000, [5, 20, 5, 20, 12]) + \
            lat_rows("threaded-napi", 300000, 20000, 10)
        self.assertEqual(claim(judge(r), "revert-loss").status, "inconclusive")


def middle(delivered, has="bounded-deferral", name="ksoftirqd-fix+bounded", **kw):
    """base() with a middle ground measured at 100k and 300k"""
    r = base() + rows(name, 100000, delivered_pps=97000) + \
        rows(name, 300000, delivered_pps=delivered, **kw)
    return judge(r, params={"kernels": {name: {"base_version": "6.12.118", "tree": "6.12", "has": has}}})


class MiddleCure(unittest.TestCase):
    def test_reproduced(self):
        """middle cure: 0.95-1.05 of the fix at the overload rate -> reproduced (>= 0.9)"""
        c = claim(middle([40000, 42000, 39000, 41000, 40500]), "middle-cure:ksoftirqd-fix+bounded")
        self.assertEqual(c.status, "reproduced")
        self.assertEqual(c.rates, (300000,))
        self.assertEqual(round(c.ratio.interval.med, 2), 1.0)

    def test_not_reproduced(self):
        """middle cure: a quarter of the fix (vanilla's livelock back) -> not reproduced (inside [0, 0.8])"""
        c = claim(middle([10000, 10500, 9750, 10250, 10125], has="per-vector-deferral",
                         name="per-vector"), "middle-cure:per-vector")
        self.assertEqual(c.status, "not-reproduced")

    def test_inconclusive(self):
        """middle cure: 0.85 of the fix, short of 0.9 but outside the region -> inconclusive"""
        c = claim(middle([34000, 35700, 33150, 34850, 34425]), "middle-cure:ksoftirqd-fix+bounded")
        self.assertEqual(c.status, "inconclusive")

    def test_left_out_point(self):
        """middle cure: one repetition off its load -> inconclusive, the ratio with it printed"""
        c = claim(middle([40000, 42000, 39000, 41000, 40500], gen_err_pct=[0, 0, 0, 0, 9]),
                  "middle-cure:ksoftirqd-fix+bounded")
        self.assertEqual(c.status, "inconclusive")
        self.assertIn("left out", c.why)

    def test_by_mechanism_not_name(self):
        """middle cure: a variant is a middle ground by its kernel's has=, never by its name"""
        j = middle([40000, 42000, 39000, 41000, 40500], has="", name="ksoftirqd-fix+bounded")
        self.assertFalse([c for _, cs in j.claims_by_tree for c in cs if c.id.startswith("middle-")])
        j = middle([40000, 42000, 39000, 41000, 40500], has="per-vector-deferral", name="my-fix")
        self.assertEqual(claim(j, "middle-cure:my-fix").status, "reproduced")

    def test_no_middle_ground(self):
        """middle cure: a run without one has the claims it always had"""
        self.assertEqual([c.id for c in judge(base()).claims_by_tree[0][1]],
                         ["dumazet", "abeni", "mogul", "revert", "revert-loss"])


class VerdictRate(unittest.TestCase):
    def test_extra_variants_do_not_choose(self):
        """verdict rate: an extra variant idle at 300k does not move it; its own gate is shown"""
        r = base() + rows("my-fix", 100000, delivered_pps=99000) + \
            rows("my-fix", 300000, delivered_pps=80000, idle_cpu=20)
        j = judge(r, params={"kernels": {"my-fix": {"base_version": "6.12.118"}}})
        self.assertEqual(j.vrate, 300000)
        e = j.extras[0]
        self.assertEqual((e.variant, e.saturated), ("my-fix", False))
        self.assertEqual([c.against for c in e.comparisons], ["vanilla", "ksoftirqd-fix"])
        self.assertEqual([c.word for c in e.comparisons], ["more", "more"])

    def test_clock_half(self):
        """verdict rate: half the points off their clock is no majority -> the rate fails, no verdict point there"""
        r = [x for x in base() if x["rep"] != "5"]
        for x in r:
            if x["rate_target"] == "300000" and x["variant"] == "vanilla" and x["rep"] in ("1", "2"):
                x["qemu_vcpu_blocked_pct"] = "30"
        j = judge(r)
        self.assertFalse(j.gates[("vanilla", 300000)].clock_kept)
        self.assertEqual(j.vrate, 100000)


if __name__ == "__main__":
    unittest.main()


class Extras(unittest.TestCase):
    def sentence(self, delivered, **kw):
        import compare
        r = base() + rows("vanilla+x", 100000, delivered_pps=99000) + \
            rows("vanilla+x", 300000, delivered_pps=delivered, **kw)
        j = judge(r, params={"kernels": {"vanilla+x": {"kernel": "vanilla", "settings": "sock:x=1"}}})
        return compare.sentence(j.extras[0], RULES, j.vrate, j.lrate)

    def test_words(self):
        """extra variants: more, less, not different, not judged (a point off its load), idle, each worded"""
        self.assertIn("delivers at 300,000 pps 1.50× vanilla [1.50–1.50] (94 % CI, n=5), more",
                      self.sentence([3000, 3150, 2850, 3300, 2700]))
        self.assertIn("× vanilla [0.95–1.05] (94 % CI, n=5), not different at this confidence",
                      self.sentence([2000, 2205, 1805, 2090, 1890]))
        self.assertIn("0.50× vanilla [0.50–0.50] (94 % CI, n=5), less",
                      self.sentence([1000, 1050, 950, 1100, 900]))
        self.assertIn("not judged: 1 left out", self.sentence(3000, gen_err_pct=[0, 0, 0, 0, 9]))
        self.assertIn("not overloaded by this rate", self.sentence(3000, idle_cpu=30))

    def test_kernel_absent(self):
        """extra variants: a setting variant whose kernel is not in the run says so"""
        import compare
        r = base() + rows("threaded-napi+fifo", 300000, delivered_pps=90000)
        r = [x for x in r if x["variant"] != "threaded-napi"]
        j = judge(r, params={"kernels": {"threaded-napi+fifo": {"kernel": "threaded-napi", "settings": "s"}}})
        self.assertTrue(compare.sentence(j.extras[0], RULES, j.vrate, j.lrate).startswith(
            "threaded-napi+fifo: not measured beside threaded-napi at the verdict rate"))

    def test_latency_words(self):
        """extra variants: the latency pass's loss and timer p99, the variant's beside its kernel's"""
        import compare
        r = base() + rows("vanilla+x", 300000, delivered_pps=3000) + \
            lat_rows("vanilla", 300000, 20000, 2.0, tlat_p99_us=9000) + \
            lat_rows("vanilla+x", 300000, 20000, 0.5, tlat_p99_us=3000) + \
            lat_rows("ksoftirqd-fix", 300000, 60000) + lat_rows("threaded-napi", 300000, 10000)
        j = judge(r, params={"kernels": {"vanilla+x": {"kernel": "vanilla", "settings": "sock:x=1"}}})
        self.assertIn("; at 300,000 pps its probes lose 0.5 % (2.0 %), timer p99 3,000 µs (9,000 µs).",
                      compare.sentence(j.extras[0], RULES, j.vrate, j.lrate))
