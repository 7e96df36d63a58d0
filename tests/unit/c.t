#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The C tools build with -Werror, and their unit tests (the /proc parsers,
# option helpers, allowlist guard, latency statistics, TX parsers on
# fixture text: tests/unit/test_*.c) pass.
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

out=$LAB_BUILD/tools
check "lab tools build with -Werror" make -s -C "$LAB_TOP/lab/tools" OUT="$out"
make -s -C "$LAB_TOP/lab/tools" OUT="$out" check 2>>"$T_LOG" | sed "s/^\(not \)\{0,1\}ok - /&c: /"
[ "${PIPESTATUS[0]}" = 0 ] || t_result 1 "c: the unit test binaries failed"
