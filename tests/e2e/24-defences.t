#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The setting variants: every kind of setting (sysfs, sysctl, socket
# option, receiver mode, EEVDF slice, scheduling class of the napi
# threads) applied in a guest and read back there, recorded in
# params.json, and the report's defences section worded from the
# numbers.  Three boots: vanilla; a test variant of vanilla that carries
# one setting of every kind the vanilla kernel takes (the guest applies
# each kind by its own path, so one boot checks them all); threaded-napi
# +fifo, whose napi threads only threaded-napi has.  lab/exp/rx/defences'
# own variants pass the host's checks (tests/behaviour/run-input.t), and
# bad settings are refused there before anything boots.  The guests run at
# TCG's own speed: what is checked is that each setting took, not what
# it does to the flood.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

RUN=$LAB_BUILD/test-runs/defences
rm -rf "$RUN" "$RUN.tsv"
MIX=vanilla+every-kind
MIX_SETTINGS="sysfs:napi_defer_hard_irqs=2 sysfs:gro_flush_timeout=200000 sysctl:net.core.netdev_budget=64 sock:busy_poll=50 recv:mode=recvmmsg sched:slice=3000000"
printf '%s\t%s\t%s\n' "$MIX" vanilla "$MIX_SETTINGS" threaded-napi+fifo threaded-napi sched:napi=fifo:50 >"$RUN.tsv"
export LAB_DEFENCES_FILE=$RUN.tsv
KINDS="$MIX threaded-napi+fifo"
check "make initramfs" make -s -C "$LAB_TOP" initramfs
check "lab/run: vanilla, $MIX and threaded-napi+fifo, a throughput point each" \
	"$LAB_TOP/lab/run" -v "vanilla $KINDS" -r 16000 --lat-rates "" -n 1 -W 1 -w 2 --speed native --no-plot -o "$RUN"

# read_back <variant> <setting>: the guest's "lab: set <setting> ... ok"
# line(s), none FAIL
read_back()
{
	local lines

	lines=$(tr -d '\r' <"$RUN/guests/$1-r1/console.log" | grep -aF "lab: set $2 ")
	printf '%s: %s\n' "$1" "$lines" >>"$T_LOG"
	[ -n "$lines" ] && ! grep -qv ' ok$' <<<"$lines"
}
for v in $KINDS; do
	while read -r s; do
		check "$v: the guest applied and read back $s" read_back "$v" "$s"
	done <<<"$(variant_settings "$v")"
	check "$v: params.json records its kernel and settings" \
		test "$(jq -r --arg v "$v" '.kernels[$v] | "\(.kernel) \(.settings)"' "$RUN/params.json")" = \
		"$(variant_kernel "$v") $(variant_settings "$v" | paste -sd' ')"
done
check "threaded-napi+fifo: every napi thread was made SCHED_FIFO 50" \
	bash -c "tr -d '\\r' <'$RUN/guests/threaded-napi+fifo-r1/console.log' | grep -c 'lab: set sched:napi=fifo:50 readback=fifo:50 pid=[0-9]* comm=napi/[^ ]* ok' | grep -qv '^0$'"
check "$MIX: the receiver and ksoftirqd/0 run with a 3 ms slice" \
	bash -c "tr -d '\\r' <'$RUN/guests/$MIX-r1/console.log' | grep -a 'lab: set sched:slice=3000000 readback=3000000 pid=[0-9]* comm=[^ ]* ok' | sed 's/.*comm=\\([^ ]*\\) ok/\\1/' | sort | paste -sd' ' | grep -qx 'ksoftirqd/0 udp_sink'"
check "$MIX: the receiver read with recvmmsg" \
	bash -c "tr -d '\\r' <'$RUN/guests/$MIX-r1/console.log' | grep -q 'udp_sink: port=9000 rcvbuf=[0-9]* mode=recvmmsg'"
check "vanilla (no settings) boots without any lab: set line" \
	bash -c "! grep -aq 'lab: set ' '$RUN/guests/vanilla-r1/console.log'"
check "points.csv: a throughput row per variant" \
	test "$(($(wc -l <"$RUN/points.csv") - 1))" = 3
# (threaded-napi, the kernel threaded-napi+fifo boots, is not in this run:
# its sentence says so)
# the report's defences section
defences_section()
{
	awk '/^## / { on = $0 ~ /^## Every other variant at the verdict point/ } on' "$RUN/report.md"
}
# a row per variant, a sentence per setting variant
defences_worded()
{
	local s

	s=$(defences_section)
	[ "$(grep -c "^| vanilla \|^| $MIX \|^| threaded-napi+fifo " <<<"$s")" = 3 ] &&
		[ "$(grep -c '^- .* delivers at [0-9,]* pps \([0-9.∞]*× \|no pair with \)\|^- .*: no verdict point\|^- .*: not measured beside ' <<<"$s")" = 2 ] &&
		grep -q '^- threaded-napi+fifo: \(not measured beside threaded-napi\|no verdict point\)' <<<"$s"
}
check "report: a defences section with a row per variant and a sentence per setting variant" defences_worded
# measured beside its kernel at a verdict rate, the sentence carries its
# numbers; a point that failed a gate leaves no pair, and the sentence
# says which and why (CI's host of 2026-12-07: its generator 11.8 % short
# of 16 kpps; the latency pass's wording is tests/unit/py/test_claims.py's,
# the latency probes are e2e/20-lab's)
mix_worded()
{
	local s

	s=$(defences_section | grep "^- $MIX")
	echo "$s" >>"$T_LOG"
	grep -q "^- $MIX: \(no verdict point in this run\|not measured beside vanilla at the verdict rate\)" <<<"$s" ||
		grep -q "^- $MIX delivers at 16,000 pps [0-9.∞]*× vanilla .*; its receiver \(gets [0-9.]* % of the CPU\|.s CPU share is not reported\)" <<<"$s" ||
		grep -q "^- $MIX delivers at 16,000 pps no pair with vanilla, not judged: [0-9]* left out ($MIX/vanilla at 16,000 pps rep 1: .*)" <<<"$s"
}
check "report: $MIX is worded against vanilla, with its receiver's numbers when paired, with what left it out when not" mix_worded
