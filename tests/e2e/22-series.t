#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The two series as patches (style, credits, facts, cheap rebuilds) and
# the threaded-NAPI default in a booted guest: napi_threaded=1 reaches
# eth0 (virtio-net, a hardware device) but not the ipip fallback tunnel
# tunl0 (gro_cells), and eth0's "threaded" set to 0 before the first
# ifup keeps it in softirq mode.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

SERIES="series-ksoftirqd-fix series-threaded-napi"

# ---- the patches ----------------------------------------------------------
# Subject of a git format-patch file, unfolded, without "[PATCH n/m] ".
subject()
{
	awk '/^Subject: / { s = $0; getline; while ($0 ~ /^ /) { s = s $0; getline } print s; exit }' "$1" |
		sed 's/^Subject: \[PATCH[^]]*\] //'
}

# git format-patch output, a cover letter, and a series file that lists
# every patch but the cover letter, in file order
series_shape()
{
	local d=$LAB_TOP/$1 want have

	[ -f "$d/0000-cover-letter.patch" ] || return 1
	want=$(cd "$d" && for p in 0*.patch; do [ "${p#0000-}" != "$p" ] || echo "$p"; done)
	have=$(series_patches "$1" | xargs -n1 basename)
	[ -n "$want" ] && [ "$want" = "$have" ] &&
		! grep -L '^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001$' "$d"/0*.patch | grep -q .
}

# Subjects: "subsys: Capitalised imperative", at most 72 columns.
subjects_ok()
{
	local p s rc=0

	for p in "$LAB_TOP/$1"/0*.patch; do
		s=$(subject "$p")
		echo "$(basename "$p"): ${#s} columns: $s" >>"$T_LOG"
		[ ${#s} -le 72 ] || rc=1
		case $p in
		*/0000-cover-letter.patch) ;;
		*) printf '%s\n' "$s" | grep -Eq '^[a-z0-9_/.-]+(: [a-z0-9_/.-]+)*: [A-Z]' || rc=1 ;;
		esac
	done
	return $rc
}

# Date: headers strictly increasing in file order (cover letter first)
dates_in_order()
{
	local p last=0 t

	for p in "$LAB_TOP/$1"/0*.patch; do
		t=$(date -d "$(sed -n 's/^Date: //p' "$p" | head -1)" +%s) || return 1
		echo "$(basename "$p"): $t" >>"$T_LOG"
		[ "$t" -gt "$last" ] || return 1
		last=$t
	done
}

# livelock-lab is the only author and the only one who signs
people_ok()
{
	local p

	for p in "$LAB_TOP/$1"/0*.patch; do
		[ "$(grep -c '^From: ' "$p")" = 1 ] &&
			grep -qx 'From: livelock-lab <livelock-lab@example.org>' "$p" || return 1
		case $p in
		*/0000-cover-letter.patch) ! grep -Eqi '^[a-z-]+-by: ' "$p" || return 1 ;;
		*) [ "$(grep -Eci '^[a-z-]+-by: ' "$p")" = 1 ] &&
			grep -qx 'Signed-off-by: livelock-lab <livelock-lab@example.org>' "$p" || return 1 ;;
		esac
	done
}

for s in $SERIES; do
	check "$s: format-patch output, cover letter, series file lists every patch" series_shape "$s"
	check "$s: subjects 'subsys: Capitalised', <= 72 columns" subjects_ok "$s"
	check "$s: Date: headers in series order" dates_in_order "$s"
	check "$s: livelock-lab is the only author and the only sign-off" people_ok "$s"
done

# The message body of a patch, unwrapped into one line (credits span lines)
body()
{
	sed -n '/^$/,/^---$/p' "$1" | tr '\n' ' ' | tr -s ' '
}
reapply=$(find "$LAB_TOP/series-ksoftirqd-fix" -name '0*-softirq-Reapply-*.patch' | sort | head -1)
credits_ok()
{
	local b

	[ -f "$reapply" ] || return 1
	b=$(body "$reapply")
	grep -qF 'commit 4cd13c21b207 ("softirq: Let ksoftirqd do its job")' <<<"$b" &&
		grep -qF 'commit 3c53776e29f8 ("Mark HI and TASKLET softirq synchronous")' <<<"$b" &&
		grep -qF 'commit 1342d8080f61 ("softirq: Don'"'"'t skip softirq execution when softirq thread is parking")' <<<"$b" &&
		grep -qiF 'commit d15121be7485 ("Revert "softirq: Let ksoftirqd do its job"")' <<<"$b"
}
check "ksoftirqd-fix: one Reapply patch credits 4cd13c21b207, 3c53776e29f8, 1342d8080f61 and the revert by hash and subject" \
	credits_ok
check "ksoftirqd-fix: the kthread patch cites be33db21427c by hash and subject" \
	bash -c "sed -n '/^\$/,/^---\$/p' '$LAB_TOP'/series-ksoftirqd-fix/0001-*.patch | tr '\n' ' ' | tr -s ' ' |
		grep -qF 'commit be33db21427c (\"kthread: unexport __kthread_should_park()\")'"

# Cheap rebuilds: no series touches a header the whole tree includes.
check "no series patch touches include/linux/kthread.h or include/linux/netdevice.h" \
	bash -c "! grep -hE '^diff --git a/include/linux/(kthread|netdevice)\.h' '$LAB_TOP'/series-*/0*.patch '$LAB_TOP'/lab/ablations/*/0*.patch"

# Facts: 3bcb846ca4cf is v4.8 (net-next, after the v4.7 merge window).
facts_files()
{
	ls "$LAB_TOP"/series-*/0*.patch "$LAB_TOP"/lab/ablations/*/0*.patch \
		"$LAB_TOP"/lab/kernel/check-tree "$LAB_TOP"/README.md
}
check "3bcb846ca4cf is never dated v4.7 (it is v4.8)" \
	bash -c "! grep -nE 'net_tx_action\(\)\"?\)?\"?, v4\.7|3bcb846ca4cf.*\(v4\.7\)|^v4\.7\)' $(facts_files | tr '\n' ' ')"
check "3bcb846ca4cf is dated v4.8 in the ablation, check-tree and README" \
	bash -c "grep -q 'v4.8' '$LAB_TOP'/lab/ablations/trylock/0001-*.patch && grep -q 'v4.8' '$LAB_TOP/lab/kernel/check-tree' &&
		grep -q '3bcb846ca4cf.*v4\.8' '$LAB_TOP/README.md'"
check "no claim that the revert's latency cost 'does not show'" \
	bash -c "! cat $(facts_files | tr '\n' ' ') | tr '\n' ' ' | tr -s ' ' | grep -qi 'revert describes does not show'"

# ---- the threaded default in a guest --------------------------------------
RUN=$LAB_BUILD/test-runs/series
rm -rf "$RUN"
check "make kernels VARIANTS=threaded-napi" make -s -C "$LAB_TOP" kernels VARIANTS=threaded-napi
check "make initramfs" make -s -C "$LAB_TOP" initramfs
# napi_threaded=1 comes from lab/kernel/variants; lab_threaded=0 makes the
# guest's init write 0 to eth0's "threaded" before "ip link set eth0 up".
# One rate: the latency pass's default one (--lat-grid 2: twice the knee
# of the default fixed-speed guest, saturated but not starved), which
# lab/run wants among the rates.
rate=16000
check "lab/run: threaded-napi with lab_threaded=0, one short point at $rate pps" \
	"$LAB_TOP/lab/run" -v threaded-napi --cmdline lab_threaded=0 -r "$rate" -n 1 -W 1 -w 2 -o "$RUN"
console=$RUN/guests/threaded-napi-r1/console.log

# console line "lab: <tag> ..." as key=value words
line()
{
	tr -d '\r' <"$console" 2>/dev/null | sed -n "s/^.*lab: $1 //p" | head -1
}
val()
{
	tr ' ' '\n' <<<" $(line "$1")" | sed -n "s/^$2=//p" | head -1
}
echo "boot: $(line boot)" >>"$T_LOG"
echo "up: $(line up)" >>"$T_LOG"

check "the guest booted with napi_threaded=1 and lab_threaded=0" \
	bash -c "tr -d '\r' <'$console' | grep -q 'lab: boot cpus=.* cmdline=.*napi_threaded=1.*lab_threaded=0'"
check "napi_threaded=1: eth0 reads threaded=1 at boot" test "$(val boot threaded)" = 1
check "napi_threaded=1: napi threads for eth0 at boot" \
	bash -c "grep -q 'napi/eth0-' <<<'$(val boot napi_threads)'"
check "napi_threaded=1: no napi thread for anything but eth0 (tunl0, a gro_cells device, has none)" \
	bash -c "! tr ',' '\n' <<<'$(val boot napi_threads)' | grep -v '^napi/eth0-' | grep -q ."
check "napi_threaded=1: the ipip fallback tunnel tunl0 exists and reads threaded=0" \
	test "$(val up tunl0_threaded)" = 0
check "threaded=0 written before the first ifup: eth0 reads 0 once up" test "$(val up threaded)" = 0
# 6.12 keeps a device's napi kthreads when threaded mode is switched off
# (they go only with the NAPI instances), so the mode shows in where the
# receive work runs: NET_RX softirqs, no CPU for the napi threads.
tput()
{
	awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["pass"] == "tput" { print $c[n]; exit }' "$RUN/points.csv"
}
softirq_mode()
{
	local rx napi

	rx=$(tput net_rx_softirq_ps)
	napi=$(tput napi_cpu)
	echo "$rate pps: net_rx_softirq_ps=$rx napi_cpu=$napi" >>"$T_LOG"
	[ -n "$rx" ] && [ -n "$napi" ] && awk -v r="$rx" -v n="$napi" 'BEGIN { exit !(r > 100 && n == 0) }'
}
check "threaded=0 written before the first ifup: under the flood NET_RX runs as softirqs, napi threads get no CPU" \
	softirq_mode
check "the guest's console is clean" \
	bash -c "test -s '$RUN/health.txt' && ! grep -v '^ok' '$RUN/health.txt'"
