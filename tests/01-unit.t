#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit tests: the C tools' parsers and option helpers, the tools'
# behaviour in throwaway netns, the statistics and the point arithmetic.
set -u
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/tests/lib.sh"

out=$LAB_BUILD/tools

# "ok N what" / "not ok N what" from a TAP producer -> our lines
retag()
{
	sed -n "s/^ok [0-9]* \(.*\)/ok - $1: \1/p; s/^not ok [0-9]* \(.*\)/not ok - $1: \1/p"
}

check "lab tools build with -Werror" make -s -C "$LAB_TOP/lab/tools" OUT="$out"
make -s -C "$LAB_TOP/lab/tools" OUT="$out" check 2>>"$T_LOG" | retag unit
[ "${PIPESTATUS[0]}" = 0 ] || t_result 1 "unit: C unit test binaries failed"
bash "$LAB_TOP/tests/unit/test_tools.sh" "$out" 2>>"$T_LOG" | retag tools
[ "${PIPESTATUS[0]}" = 0 ] || t_result 1 "tools: test_tools.sh failed"
bash "$LAB_TOP/tests/unit/test_stats.sh" 2>>"$T_LOG"
bash "$LAB_TOP/tests/unit/test_scan_console.sh" 2>>"$T_LOG"
