#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Upstream's own code as the control: the 6.1 variants (lab/kernel/variants,
# tree=6.1) boot, and under the flood v6.1, which still ships Eric
# Dumazet's fix, hands NET_RX to ksoftirqd/0 while v6.1-revert (the v6.5
# revert, d15121be7485, applied) runs it in irq context; v6.1+threaded
# (6.1's sysfs switch) runs it in the napi thread.  One short point each.
# Then vanilla+no-fair-server, 6.12 without its fair deadline server.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

RUN=$LAB_BUILD/test-runs/upstream
rm -rf "$RUN"
check "make kernels VARIANTS='v6.1 v6.1-revert'" make -s -C "$LAB_TOP" kernels VARIANTS="v6.1 v6.1-revert"
check "make initramfs" make -s -C "$LAB_TOP" initramfs
# twice the knee of the default fixed-speed guest, as in e2e/22-series: a
# guest past its knee, not starved; no latency pass (nothing here reads it)
rate=16000
check "lab/run --upstream: the three 6.1 variants, one short point at $rate pps" \
	"$LAB_TOP/lab/run" --upstream -v "" -r "$rate" --lat-rates "" -n 1 -W 1 -w 2 --no-plot -o "$RUN"

# a column of variant $1's throughput row
col()
{
	awk -F, -v v="$1" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v && $c["pass"] == "tput" { print $c[n]; exit }' "$RUN/points.csv"
}

# <variant> <expr over k (ksoftirqd %), i (softirq in irq context %), n
# (napi threads %)>: where the NET_RX work ran
work_in()
{
	local k i n

	k=$(col "$1" ksoftirqd_cpu) i=$(col "$1" softirq_irqctx_cpu) n=$(col "$1" napi_cpu)
	echo "$1 at $rate pps: ksoftirqd=$k irqctx=$i napi=$n" >>"$T_LOG"
	[ -n "$k" ] && [ -n "$i" ] && [ -n "$n" ] &&
		awk -v k="$k" -v i="$i" -v n="$n" "BEGIN { exit !($2) }"
}

for v in v6.1-revert v6.1 v6.1+threaded; do
	check "$v: booted a 6.1 kernel" \
		bash -c "tr -d '\r' <'$RUN/guests/$v-r1/console.log' | grep -q 'lab: boot release=6\.1\.[0-9]*-$(variant_kernel "$v") '"
done
check "every 6.1 guest: timer on the IO-APIC, eth0's queues on MSI (acpi=noirq)" \
	guest_irqs_ok "$RUN"/guests/*/console.log
check "every 6.1 guest: the softirq, sched, irq and napi tracepoints in tracefs, off" \
	guest_traceable "$RUN"/guests/*/console.log
check "v6.1: under the flood ksoftirqd/0 carries NET_RX (> 25 % of the CPU, < 10 % in irq context)" \
	work_in v6.1 'k > 25 && i < 10'
check "v6.1-revert: NET_RX runs in irq context (> 25 %), not in ksoftirqd (< 10 %)" \
	work_in v6.1-revert 'i > 25 && k < 10'
threaded_61()
{
	tr -d '\r' <"$RUN/guests/v6.1+threaded-r1/console.log" |
		grep -q 'lab: set sysfs:threaded=1 readback=1 ok' &&
		work_in v6.1+threaded 'n > 25 && k < 10'
}
check "v6.1+threaded: the sysfs switch read back, NET_RX in the napi thread (> 25 %)" threaded_61
check "params.json records the tree of each variant's kernel" \
	test "$(jq -r '.kernels["v6.1-revert"].tree' "$RUN/params.json")" = 6.1
check "the guests' consoles are clean" \
	bash -c "test -s '$RUN/health.txt' && ! grep -v '^ok' '$RUN/health.txt'"

# 6.12's fair deadline server off (lab/ablations/no-fair-server): the
# control for vanilla's starved SCHED_FIFO sampler at 6x the knee, which
# e2e/20-lab often shows (a race there: the sampler waits runnable about
# half of the point); 6.1, without the server, does not starve it.
NFS=$LAB_BUILD/test-runs/no-fair-server
rm -rf "$NFS"
check "make kernels VARIANTS=vanilla+no-fair-server" make -s -C "$LAB_TOP" kernels VARIANTS=vanilla+no-fair-server
check "check-tree: the fair server starts with runtime 0 in vanilla+no-fair-server" \
	bash -c "'$LAB_TOP/lab/kernel/check-tree' '$LAB_KBUILD/v/vanilla+no-fair-server' vanilla+no-fair-server 2>&1 | grep -q \"fair server's runtime is 0 as expected\""
refuse "check-tree refuses vanilla's tree under that name (the server on)" \
	"the fair server starts with runtime '50 " "$LAB_TOP/lab/kernel/check-tree" "$LAB_KBUILD/linux" vanilla+no-fair-server
check "lab/run vanilla+no-fair-server, one point at 48000 pps" \
	"$LAB_TOP/lab/run" -v vanilla+no-fair-server -r 48000 --lat-rates "" -n 1 -W 1 -w 2 --no-plot -o "$NFS"
check "vanilla+no-fair-server: the console says the server is off" \
	bash -c "tr -d '\r' <'$NFS/guests/vanilla+no-fair-server-r1/console.log' | grep -q 'sched: fair server disabled (lab ablation)'"
check "vanilla+no-fair-server at 48000 pps: not starved, NET_RX in irq context (> 25 %), the sampler waited < 10 %" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++; ok += $c["starved"] == 0 && $c["softirq_irqctx_cpu"] > 25 && $c["sampler_wait_pct"] != "" && $c["sampler_wait_pct"] < 10 }
		END { exit !(n == 1 && ok == 1) }' "$NFS/points.csv"
# one variant, one repetition: half a balanced block (its rates ascend;
# a second repetition would descend), and the report says so
check "vanilla+no-fair-server, 1 repetition: params.json and the report call the order not balanced" \
	bash -c "jq -e '.order_balanced == false' '$NFS/params.json' >/dev/null &&
		grep -q 'variant order from a Williams design, not balanced: 1 repetition is not a whole number of blocks of 2' '$NFS/report.md'"
# The scheduler ablation's slice (sched:slice, README's 6.1 section) is
# 6.12's: 6.1's CFS has no per-task slice, reads back 0, and the run stops
# at the guest's refusal rather than measure a setting that did not take.
rm -rf "$LAB_BUILD/test-runs/slice-6.1"
printf '%s\t%s\t%s\n' v6.1+slice3ms v6.1 sched:slice=3000000 >"$LAB_BUILD/test-runs/defences-6.1"
refuse "a 6.1 guest refuses an EEVDF slice, and the run stops" \
	"the guest refused sched:slice=3000000: sched:slice=3000000 readback=0 pid=[0-9]+ comm=ksoftirqd/0 FAIL" \
	env LAB_DEFENCES_FILE="$LAB_BUILD/test-runs/defences-6.1" "$LAB_TOP/lab/run" -v v6.1+slice3ms -r 16000 \
	--lat-rates "" -n 1 -W 1 -w 2 --speed native -o "$LAB_BUILD/test-runs/slice-6.1"
refuse "UPSTREAM must be 0 or 1" "UPSTREAM='2' must be 0 or 1" \
	env UPSTREAM=2 "$LAB_TOP/lab/run" -o "$LAB_BUILD/test-runs/never"
