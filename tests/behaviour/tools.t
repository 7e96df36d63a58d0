#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The C tools' behaviour (root): option handling, the sampler, chanctl,
# threadstat, and flood, latprobe, responder, udp_sink and iperf3 in two
# throwaway network namespaces (tests/behaviour/test_tools.sh).
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

out=$LAB_BUILD/tools
make -s -C "$LAB_TOP/lab/tools" OUT="$out" >>"$T_LOG" 2>&1 ||
	{ t_result 1 "lab tools build"; exit 1; }
bash "$LAB_TOP/tests/behaviour/test_tools.sh" "$out" 2>>"$T_LOG"
