#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The analysis (lab/analyze, lab/lib/py) on hand-made rows: the rules,
# the gates, the verdict rate, every claim reproduced, not reproduced and
# inconclusive, the extra variants, verdicts.json; Python's unittest
# (tests/unit/py/test_*.py) through tests/unit/py/tap.py.
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
exec python3 "$LAB_TOP/tests/unit/py/tap.py"
