# SPDX-License-Identifier: GPL-2.0
"""Statistics of the lab's analysis: the median and a distribution-free
confidence interval of it from order statistics.

For n samples the interval [x(k), x(n-k+1)] covers the median with
probability 1 - 2 P(Bin(n, 1/2) <= k - 1); k is the largest giving at
least the rules' coverage (rule stat.ci_coverage), or 1 (min..max) when n
is too small, in which case the real coverage is what is reported
(n = 3: 75 %, n = 5: 94 %).  Every function takes its inputs and returns
its result: no state between calls.
"""

import math
from dataclasses import dataclass

INF = math.inf


def median(xs):
    """The median of a sequence of numbers, None for none."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    if n % 2:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def binom_cdf(n, k):
    """P(Bin(n, 1/2) <= k)."""
    return sum(math.comb(n, i) for i in range(0, k + 1)) / 2 ** n


@dataclass(frozen=True)
class Interval:
    """A median with the order-statistic interval around it."""
    med: float
    lo: float
    hi: float
    cov: float      # its coverage, 0 for one sample
    n: int


def median_ci(xs, coverage):
    """The median of xs and its interval at >= coverage where n allows;
    None for no samples."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    k = 1
    while k + 1 <= n / 2 and 1 - 2 * binom_cdf(n, k) >= coverage:
        k += 1
    cov = 1 - 2 * binom_cdf(n, k - 1) if n > 1 else 0.0
    return Interval(median(s), s[k - 1], s[n - k], cov, n)


def ratio(a, b):
    """a / b for a paired ratio: 0/0 is 1 (neither delivered: no
    difference), x/0 is infinity (a receiver that got nothing)."""
    if b <= 0:
        return 1.0 if a <= 0 else INF
    return a / b
