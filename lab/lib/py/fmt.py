# SPDX-License-Identifier: GPL-2.0
"""Number formatting of the report and the data files."""

import math


def num(x):
    """A number without exponent or needless digits: 12, 12.5, 1016600."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def thou(x):
    """Packets/s: rounded half to even like printf, thousands separated."""
    return f"{round(x):,}"


def pct1(x):
    """A share of the CPU, one decimal; – for none (books not closed)."""
    return "–" if x is None else f"{x:.1f}"


def ratio(x):
    return "∞" if x == math.inf else f"{x:.2f}"


def target(t):
    return "unlimited" if t == 0 else f"{thou(t)} pps"
