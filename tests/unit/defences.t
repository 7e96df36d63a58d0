#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plots/defences.awk on hand-made points.csv rows: a setting variant's
# sentence against the kernel it boots, paired per repetition under the
# claims' rule, with both passes' numbers; the point gates that keep a
# pair out; the runs it cannot judge.  e2e/24-defences checks the report
# of a real run, whose short points may all fail a gate.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
RATE=16000

# rows <reps> <kernel gate_clock> <defence idle %>: vanilla delivers 1000
# pps and vanilla+x 2000, every repetition, at $RATE in both passes
rows()
{
	local r

	point_header >"$TMP/points.csv"
	for ((r = 1; r <= $1; r++)); do
		point_row variant=vanilla rep="$r" pass=tput rate_target=$RATE delivered_pps=1000 \
			gen_err_pct=0.1 gate_clock="$2" idle_cpu=0.5 recv_cpu=10 recv_wait_pct=40
		point_row variant=vanilla+x rep="$r" pass=tput rate_target=$RATE delivered_pps=2000 \
			gen_err_pct=0.2 gate_clock=1 idle_cpu="$3" recv_cpu=20 recv_wait_pct=30
		point_row variant=vanilla rep="$r" pass=lat rate_target=$RATE probe_loss_pct=8 tlat_p99_us=9000
		point_row variant=vanilla+x rep="$r" pass=lat rate_target=$RATE probe_loss_pct=2 tlat_p99_us=3000
	done >>"$TMP/points.csv"
}

# says <vrate> <lrate> <pattern>: vanilla+x's sentence matches
says()
{
	local line

	line=$(awk -F, -v vrate="$1" -v lrate="$2" -v kernels="vanilla+x=vanilla" \
		-f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/plots/fmt.awk" -f "$LAB_TOP/plots/defences.awk" \
		"$TMP/points.csv" | awk -F'\t' '$1 == "vanilla+x" { print $2 }')
	printf 'want /%s/\nhave  %s\n' "$3" "$line" >>"$T_LOG"
	grep -q -- "$3" <<<"$line"
}

rows 5 1 0.5
check "five pairs at the verdict rate: the ratio, its interval, more" \
	says $RATE $RATE '^vanilla+x delivers 2.00× vanilla at 16,000 pps \[2.00–2.00\], more;'
check "the receiver's CPU and run delay against the kernel's" \
	says $RATE $RATE 'its receiver gets 20.0 % of the CPU (vanilla: 10.0 %) and waits 30.0 % of the window (40.0 %)'
check "the latency pass: probe loss and timer p99 against the kernel's" \
	says $RATE $RATE '; at 16,000 pps its probes lose 2.0 % (8.0 %), timer p99 3,000 µs (9,000 µs)\.$'
check "no latency rate: no latency clause" \
	says $RATE '' 'waits 30.0 % of the window (40.0 %)\.$'
check "no verdict rate: nothing to compare at" \
	says '' $RATE '^vanilla+x: no verdict point in this run, nothing to compare at\.$'

rows 2 1 0.5
check "two pairs: the ratio shown, not judged (claim.min_pairs)" \
	says $RATE $RATE 'delivers 2.00× vanilla at 16,000 pps \[2.00–2.00\], 2 repetitions: not judged (5 needed);'

rows 5 0 0.5
check "the kernel's points off their clock (gate_clock 0): no pair" \
	says $RATE $RATE '^vanilla+x: not measured beside vanilla at the verdict rate\.$'

rows 5 1 40
check "a defence whose guest idles at the verdict rate: said so" \
	says $RATE $RATE '(its guest 40.0 % idle there: not overloaded by this rate)'
