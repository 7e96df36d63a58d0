#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The setting variants (lab/exp/rx/defences): one short boot per kind of
# setting (sysfs, sysctl, socket option, scheduling class, receiver mode,
# EEVDF slice),
# each setting read back in the guest, recorded in params.json, and the
# report's defences section worded from the numbers.  Bad settings are
# refused before anything boots (tests/behaviour/run-input.t).
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

RUN=$LAB_BUILD/test-runs/defences
rm -rf "$RUN"
KINDS="vanilla+defer-irqs vanilla+small-budget vanilla+busy-poll threaded-napi+fifo vanilla+recvmmsg ksoftirqd-fix+slice3ms"
check "make initramfs" make -s -C "$LAB_TOP" initramfs
check "lab/run: vanilla and one setting variant per kind of setting, one point each" \
	"$LAB_TOP/lab/run" -v "vanilla $KINDS" -r 16000 --lat-rates 16000 -n 1 -W 1 -w 2 -o "$RUN"

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
check "ksoftirqd-fix+slice3ms: the receiver and ksoftirqd/0 run with a 3 ms slice" \
	bash -c "tr -d '\\r' <'$RUN/guests/ksoftirqd-fix+slice3ms-r1/console.log' | grep -a 'lab: set sched:slice=3000000 readback=3000000 pid=[0-9]* comm=[^ ]* ok' | sed 's/.*comm=\\([^ ]*\\) ok/\\1/' | sort | paste -sd' ' | grep -qx 'ksoftirqd/0 udp_sink'"
check "vanilla+recvmmsg: the receiver read with recvmmsg" \
	bash -c "tr -d '\\r' <'$RUN/guests/vanilla+recvmmsg-r1/console.log' | grep -q 'udp_sink: port=9000 rcvbuf=[0-9]* mode=recvmmsg'"
check "vanilla (no settings) boots without any lab: set line" \
	bash -c "! grep -aq 'lab: set ' '$RUN/guests/vanilla-r1/console.log'"
check "points.csv: a throughput and a latency row per variant" \
	test "$(($(wc -l <"$RUN/points.csv") - 1))" = 14
# (threaded-napi, the kernel threaded-napi+fifo boots, is not in this run:
# its sentence says so)
check "report: a defences section with a row per variant and a sentence per defence" \
	bash -c "grep -q '^## Livelock defences at the verdict point' '$RUN/report.md' &&
		[ \$(grep -c '^| vanilla+\\|^| threaded-napi+\\|^| ksoftirqd-fix+' '$RUN/report.md') -ge 6 ] &&
		[ \$(grep -c '^- .* delivers [0-9.]*× \\|^- .*: no verdict point\\|^- .*: not measured beside ' '$RUN/report.md') = 6 ] &&
		grep -q '^- threaded-napi+fifo: \\(not measured beside threaded-napi\\|no verdict point\\)' '$RUN/report.md'"
