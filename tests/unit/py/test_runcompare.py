# SPDX-License-Identifier: GPL-2.0
"""lab/compare's statistics (lab/lib/py/runcompare.py): the Mann-Whitney
distribution, the Hodges-Lehmann ratio of two independent samples and its
interval, the params.json changes."""

import unittest

import runcompare as C


class MannWhitney(unittest.TestCase):
    def test_counts(self):
        """U's null distribution: n = m = 2 (6 orderings), n = 1, m = 3, and sums C(n + m, n)"""
        self.assertEqual(C.u_counts(2, 2), (1, 1, 2, 1, 1))
        self.assertEqual(C.u_counts(1, 3), (1, 1, 1, 1))
        import math
        for n, m in ((3, 4), (6, 6), (10, 10)):
            self.assertEqual(sum(C.u_counts(n, m)), math.comb(n + m, n))
            c = C.u_counts(n, m)
            self.assertEqual(c, tuple(reversed(c)), "symmetric")

    def test_cdf(self):
        """P(U <= 0) = 1 / C(n + m, n): n = m = 6, 1/924"""
        self.assertAlmostEqual(C.u_cdf(6, 6, 0), 1 / 924)


class HodgesLehmann(unittest.TestCase):
    def test_scaled(self):
        """B = 2 x A: the ratio is 2, its interval holds 2, coverage >= 95 % with 6 and 6"""
        a = [100, 104, 98, 101, 97, 103]
        r = C.hl_ratio(a, [2 * x for x in a], 0.95)
        self.assertAlmostEqual(r.est, 2.0)
        self.assertTrue(r.lo <= 2.0 <= r.hi)
        self.assertGreaterEqual(r.cov, 0.95)
        self.assertEqual((r.n, r.m), (6, 6))

    def test_interval_order_statistics(self):
        """k from the distribution: n = m = 6 at 95 % is d(6)..d(31) of the 36 ratios, P(U <= 5) = 0.0206 (the tables' critical U of 5; coverage 95.9 %)"""
        a = [1, 2, 3, 4, 5, 6]
        b = [10, 20, 30, 40, 50, 60]
        r = C.hl_ratio(a, b, 0.95)
        d = sorted(y / x for x in a for y in b)
        self.assertEqual((r.lo, r.hi), (d[5], d[30]))
        self.assertAlmostEqual(r.cov, 1 - 2 * C.u_cdf(6, 6, 5))
        self.assertGreaterEqual(r.cov, 0.95)

    def test_small_and_none(self):
        """one sample each: the one ratio, coverage 0; an empty side or a non-positive value: None"""
        r = C.hl_ratio([4], [6], 0.95)
        self.assertEqual((r.est, r.lo, r.hi, r.cov), (1.5, 1.5, 1.5, 0.0))
        self.assertIsNone(C.hl_ratio([], [1], 0.95))
        self.assertIsNone(C.hl_ratio([0, 1], [1, 2], 0.95))


class Params(unittest.TestCase):
    def test_changes(self):
        """params.json changes: differing keys, a key on one side only; the run's id and seed are not changes"""
        a = {"run": "1", "lat_seed": 5, "lab_commit": "aaa", "speed": "icount:4", "x": 1}
        b = {"run": "2", "lat_seed": 6, "lab_commit": "bbb", "speed": "icount:4", "y": 2}
        self.assertEqual(C.params_changes(a, b),
                         (("lab_commit", '"aaa"', '"bbb"'), ("x", "1", "null"), ("y", "null", "2")))


if __name__ == "__main__":
    unittest.main()
