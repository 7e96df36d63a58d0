#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab/lib/stats.awk and lab/exp/rx/point.awk against inputs whose answers
# are known by hand (the analysis of the rows: tests/unit/analyze.t).
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

stats()
{
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f <(echo "BEGIN { $1 }")
}

expect()
{
	local desc=$1 want=$2 have=$3

	printf '%s: want [%s] have [%s]\n' "$desc" "$want" "$have" >>"$T_LOG"
	t_result "$([ "$want" = "$have" ] && echo 0 || echo 1)" "$desc"
}

expect "median of odd count" 3 \
	"$(stats 'n = split("5 1 3", a, " "); print median(a, n)')"
expect "median of even count" 2.5 \
	"$(stats 'n = split("4 1 3 2", a, " "); print median(a, n)')"
expect "median CI for n=3 is min..max with 75 % coverage" "1 5 0.75" \
	"$(stats 'n = split("5 1 3", a, " "); median(a, n); median_ci(a, n); print ci_lo, ci_hi, ci_cov')"
# n = 10: k = 2 gives 1 - 2 * P(X <= 1) = 0.9785, k = 3 gives 0.8906 < 0.95
expect "median CI for n=10 drops one sample each side (97.9 %)" "2 9 0.979" \
	"$(stats 'n = split("10 9 8 7 6 5 4 3 2 1", a, " "); median(a, n); median_ci(a, n); printf "%s %s %.3f\n", ci_lo, ci_hi, ci_cov')"

raw=$(mktemp)
trap 'rm -rf "$raw" "$raw".*' EXIT
# A point whose answers are known by hand.  Window C..D: 2 s of one CPU
# (hz 100: 200 ticks).  /proc/stat: idle 20 ticks, irq 10 ticks (0.1 s of
# hardirq); PSI irq time 0.4 s, so softirq in irq context is 0.3 s; the
# tasks ran 2 - 0.2 - 0.4 = 1.4 s (receiver 1.0, ksoftirqd 0.2, sampler
# 0.05, others 0.15): the books close exactly.  /proc/stat's softirq
# column (50 ticks) is tick-sampled and not used.
cat >"$raw" <<'RAW'
meta.run=T meta.variant=vanilla meta.rep=1 meta.rate=10000 meta.pass=tput meta.slot=2 meta.settle_s=2.0 meta.settle_idle=97.0
A.t_ns=0 A.clocksource=tsc A.ncpu=1 A.hz=100 A.cpu_user=0 A.cpu_system=0 A.cpu_softirq=0 A.cpu_idle=0 A.nic_rx_packets=0 A.udp_in=0 A.sink_packets=0 A.udp_rcvbuferrors=0
tapA.tap_tx_packets=0 tapA.tap_tx_dropped=0
hostA.qemu_main_run_ns=0
C.t_ns=1000000000 C.clocksource=tsc C.ncpu=1 C.hz=100 C.cpu_user=0 C.cpu_system=0 C.cpu_irq=0 C.cpu_softirq=0 C.cpu_idle=0 C.psi_irq_ok=1 C.psi_irq_us=1000000 C.tasks_run_ns=5000000000 C.nic_rx_packets=1000 C.udp_in=900 C.sink_packets=800 C.sink_run_ns=0 C.sink_wait_ns=0 C.ksoftirqd_run_ns=0 C.sampler_run_ns=0 C.net_rx_softirqs=0 C.udp_rcvbuferrors=0
tapC.t_ns=1000000000 tapC.tap_tx_packets=1000 tapC.tap_tx_dropped=0
hostC.qemu_main_run_ns=0 hostC.qemu_main_wait_ns=0 hostC.flood_run_ns=0
D.t_ns=3000000000 D.clocksource=tsc D.ncpu=1 D.hz=100 D.cpu_user=10 D.cpu_system=110 D.cpu_irq=10 D.cpu_softirq=50 D.cpu_idle=20 D.psi_irq_ok=1 D.psi_irq_us=1400000 D.tasks_run_ns=6400000000 D.nic_rx_packets=21000 D.udp_in=10900 D.sink_packets=10800 D.sink_run_ns=1000000000 D.sink_wait_ns=400000000 D.ksoftirqd_run_ns=200000000 D.sampler_run_ns=50000000 D.net_rx_softirqs=400 D.napi_threads=0 D.udp_rcvbuferrors=10000
tapD.t_ns=3000000000 tapD.tap_tx_packets=19100 tapD.tap_tx_dropped=2000
hostD.qemu_main_run_ns=1000000000 hostD.qemu_main_wait_ns=600000000 hostD.flood_run_ns=500000000
flood.sent=30000 flood.errors=0 flood.rate_pps=10000 flood.batch=1
B.t_ns=4000000000 B.clocksource=tsc B.nic_rx_packets=25000 B.udp_in=12000 B.sink_packets=12000 B.udp_rcvbuferrors=13000
tapB.tap_tx_packets=25000 tapB.tap_tx_dropped=5000
RAW
point()
{
	awk -v header=1 -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk"
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" "$1"
}
point "$raw" >"$raw.csv"
expect "point: offered = tap accepted + tap dropped over the window" 10050 "$(csv_col "$raw.csv" offered_pps)"
expect "point: NIC rx rate" 10000 "$(csv_col "$raw.csv" nic_rx_pps)"
expect "point: delivered rate" 5000 "$(csv_col "$raw.csv" delivered_pps)"
expect "point: softirq share of guest CPU" 25.0 "$(csv_col "$raw.csv" cpu_softirq)"
expect "point: receiver CPU share from run time" 50.0 "$(csv_col "$raw.csv" recv_cpu)"
expect "point: totals from the idle snapshots" "25000,12000,12000" \
	"$(printf '%s,%s,%s' "$(csv_col "$raw.csv" nic_rx_total)" "$(csv_col "$raw.csv" udp_in_total)" "$(csv_col "$raw.csv" delivered_total)")"
expect "point: loss is exact, flood packets that missed the receiver" 60.00 "$(csv_col "$raw.csv" loss_pct)"
expect "point: the books close (residual 0, within +-3 %)" "0.0 1" \
	"$(csv_col "$raw.csv" closure_pct) $(csv_col "$raw.csv" closure_ok)"
expect "point: softirq in irq context = PSI irq time - hardirq, irq time accounted" "15.0 1" \
	"$(csv_col "$raw.csv" softirq_irqctx_cpu) $(csv_col "$raw.csv" irqtime)"
expect "point: where the CPU went (ksoftirqd hardirq idle sampler other)" "10.0 5.0 10.0 2.5 7.5" \
	"$(for k in ksoftirqd_cpu hardirq_cpu idle_cpu sampler_cpu other_cpu; do csv_col "$raw.csv" $k; done | xargs)"
expect "point: receiver's run delay share and CPU per delivered packet" "20.0 100.00" \
	"$(csv_col "$raw.csv" recv_wait_pct) $(csv_col "$raw.csv" recv_us_per_pkt)"
expect "point: gates: generator +0.5 % (on target), guest 10 % idle (not saturated)" "0.50 1 0" \
	"$(csv_col "$raw.csv" gen_err_pct) $(csv_col "$raw.csv" gate_gen) $(csv_col "$raw.csv" gate_idle)"
expect "point: QEMU main loop ran 50 %, waited 30 % of the host window; flooder 25 %" "50.0 30.0 25.0" \
	"$(csv_col "$raw.csv" qemu_main_run_pct) $(csv_col "$raw.csv" qemu_main_wait_pct) $(csv_col "$raw.csv" flood_run_pct)"
# the host's delivery ceiling: 10,000 pps into the guest with the main loop
# busy (run + wait) 80 % of the window: 12,500 pps, above the 10,050 offered
expect "point: host ceiling = NIC rx / main loop busy share, offered within it" "12500 1" \
	"$(csv_col "$raw.csv" host_ceiling_pps) $(csv_col "$raw.csv" gate_host)"
sed 's/hostD.qemu_main_run_ns=1000000000/hostD.qemu_main_run_ns=1400000000/' "$raw" >"$raw.host"
expect "point: main loop busy all the window: ceiling 10,000 below the 10,050 offered, gate_host 0" "10000 0" \
	"$(point "$raw.host" | csv_col /dev/stdin host_ceiling_pps) $(point "$raw.host" | csv_col /dev/stdin gate_host)"
# a fixed-speed guest kept its rate while QEMU's TCG thread had slack
sed 's/meta.slot=2/meta.slot=2 meta.speed=icount:4/; s/hostC.qemu_main_run_ns=0/& hostC.qemu_vcpu_run_ns=0/;
     s/hostD.qemu_main_run_ns=1000000000/& hostD.qemu_vcpu_run_ns=1960000000/' "$raw" >"$raw.slow"
sed 's/hostD.qemu_vcpu_run_ns=1960000000/hostD.qemu_vcpu_run_ns=1000000000/' "$raw.slow" >"$raw.fast"
expect "point: icount guest, TCG thread ran 98 % (no slack): gate_clock 0; 50 %: 1; native: 1" "0 1 1" \
	"$(point "$raw.slow" | csv_col /dev/stdin gate_clock) $(point "$raw.fast" | csv_col /dev/stdin gate_clock) $(csv_col "$raw.csv" gate_clock)"
# native speed: the vCPU thread ran 80 % and waited 5 % of the 2 s window
# while the guest idled 10 %: blocked 5 %, at the gate; ran 70 %: 15 %
sed 's/hostC.qemu_main_run_ns=0/& hostC.qemu_vcpu_run_ns=0 hostC.qemu_vcpu_wait_ns=0/;
     s/hostD.qemu_main_run_ns=1000000000/& hostD.qemu_vcpu_run_ns=1600000000 hostD.qemu_vcpu_wait_ns=100000000/' "$raw" >"$raw.nat"
sed 's/hostD.qemu_vcpu_run_ns=1600000000/hostD.qemu_vcpu_run_ns=1400000000/' "$raw.nat" >"$raw.blocked"
expect "point: native vCPU blocked 5 %: gate_clock 1; blocked 15 %: 0; icount: no blocked share" "5.0 1 15.0 0 |" \
	"$(point "$raw.nat" | csv_col /dev/stdin qemu_vcpu_blocked_pct) $(point "$raw.nat" | csv_col /dev/stdin gate_clock) $(point "$raw.blocked" | csv_col /dev/stdin qemu_vcpu_blocked_pct) $(point "$raw.blocked" | csv_col /dev/stdin gate_clock) |$(point "$raw.fast" | csv_col /dev/stdin qemu_vcpu_blocked_pct)"
# ... and kept its clock: a guest window 15 % shorter than the host's
# (1.7 s of 2 s, the TCG thread with slack) fails; 5 % shorter and 2.5 %
# longer pass (numbers, not strings: "2.50" sorts after "10")
for t in 2700000000 2900000000 3050000000; do
	sed "s/^D.t_ns=3000000000/D.t_ns=$t/" "$raw.fast" >"$raw.w$t"
done
expect "point: icount guest, window -15 % of the host's: gate_clock 0; -5 %: 1; +2.5 %: 1" "-15.00 0 -5.00 1 2.50 1" \
	"$(for t in 2700000000 2900000000 3050000000; do point "$raw.w$t" | csv_col /dev/stdin window_clock_err_pct; point "$raw.w$t" | csv_col /dev/stdin gate_clock; done | xargs)"
sed 's/tapA.tap_tx_packets=0/tapA.t_ns=0 &/; s/tapB.tap_tx_packets=25000/tapB.t_ns=4040000000 &/' "$raw" >"$raw.clk"
expect "point: guest clock 4.00 s against the host's 4.04 s over A..B: -0.99 %" "-0.99" \
	"$(point "$raw.clk" | csv_col /dev/stdin clock_err_pct)"
# A starved point: no answer to C under the flood; the flooder ran 3 s.
# Rates from the A..B totals over those 3 s, no CPU split, idle 0.  The
# receiver's history (every 0.25 s from A): 3,000 read in the flood's
# first second, 750 in the window 1..2.5 s (500 pps), 8,250 in the drain.
series="0,500,1500,2500,3000,3250,3250,3500,3500,3750,3750,3750,12000,12000"
{
	sed -n 1p "$raw" | sed 's/$/ meta.starved=C/'
	grep -E '^(A|tapA|hostA|tapC|hostC|B|tapB)\.' "$raw"
	echo "flood.sent=30000 flood.errors=0 flood.duration_ns=3000000000 flood.rate_pps=10000 flood.batch=1"
	echo "S.from_ns=0 S.step_ns=250000000 S.c=$series S.w0_ns=1000000000 S.w1_ns=2500000000"
} >"$raw.starved"
point "$raw.starved" >"$raw.scsv"
expect "point: starved: offered, NIC rx, socket drops over the flood's 3 s; delivered in its window" "10000 8333 4333 500" \
	"$(for k in offered_pps nic_rx_pps rcvbuf_err_pps delivered_pps; do csv_col "$raw.scsv" $k; done | xargs)"
expect "point: starved: the window, its head and its tail (the drain)" "1.500 3000 8250" \
	"$(for k in guest_window_s starve_head_total starve_tail_total; do csv_col "$raw.scsv" $k; done | xargs)"
sed 's/ S.c=.*//' "$raw.starved" >"$raw.noseries"
refuse "point: a starved point without the receiver's history is refused" "needs the receiver's history" \
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" "$raw.noseries"
sed 's/S.c=[0-9,]*/S.c=0,500,1500/' "$raw.starved" >"$raw.short"
refuse "point: a starved point whose history ends before the window is refused" "window is empty" \
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" "$raw.short"
expect "point: starved: flagged, idle 0, saturated, no CPU split, no closure" "1 0.0 1 || 0" \
	"$(for k in starved idle_cpu gate_idle; do csv_col "$raw.scsv" $k; done | xargs) $(csv_col "$raw.scsv" recv_cpu)|$(csv_col "$raw.scsv" ksoftirqd_cpu)|$(csv_col "$raw.scsv" closure_pct) $(csv_col "$raw.scsv" closure_ok)"
expect "point: starved: totals and loss as at any point" "12000 60.00" \
	"$(csv_col "$raw.scsv" delivered_total) $(csv_col "$raw.scsv" loss_pct)"
grep -v '^B\.' "$raw.starved" >"$raw.nob"
refuse "point: a starved point without its snapshot B is refused" "needs the flooder's duration and snapshots A and B" \
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" "$raw.nob"
expect "point: pass, slot and settling recorded" "tput 2 2.0 97.0" \
	"$(for k in pass slot settle_s settle_idle; do csv_col "$raw.csv" $k; done | xargs)"
expect "point: no latency columns in the throughput pass" "" "$(csv_col "$raw.csv" probe_sent)"
# A doctored snapshot: the receiver's run time includes the softirq time
# run in irq context on its behalf (IRQ time accounting off), so the
# tasks' sum counts it twice.
sed 's/D.tasks_run_ns=6400000000/D.tasks_run_ns=6700000000/; s/D.sink_run_ns=1000000000/D.sink_run_ns=1300000000/' \
	"$raw" >"$raw.doctored"
point "$raw.doctored" >"$raw.dcsv"
expect "point: runtime including softirq time breaks the closure (+15 %, flagged)" "15.0 0" \
	"$(csv_col "$raw.dcsv" closure_pct) $(csv_col "$raw.dcsv" closure_ok)"
sed 's/D.psi_irq_ok=1/D.psi_irq_ok=0/' "$raw" >"$raw.nopsi"
point "$raw.nopsi" >"$raw.ncsv"
expect "point: without PSI the books are not closed (empty, not ok)" ",0" \
	"$(csv_col "$raw.ncsv" closure_pct),$(csv_col "$raw.ncsv" closure_ok)"
sed 's/D.clocksource=tsc/D.clocksource=hpet/' "$raw" >"$raw.cs"
refuse "point: a clocksource change during the point fails it, naming both" \
	"clocksource changed during the point \(tsc at A, hpet at D\)" \
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" "$raw.cs"
refuse "point: a raw file without a window is refused" "missing or empty window" \
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" /dev/null

# A starved point at a fixed speed is gated on the clock it has, A..B:
# the guest's 4.00 s against the host's 4.04 s (-0.99 %) kept it; against
# 4.8 s (-16.7 %) it did not.
sed 's/meta.settle_idle=97.0/& meta.speed=icount:4/; s/tapA.tap_tx_packets=0/tapA.t_ns=0 &/;
     s/tapB.tap_tx_packets=25000/tapB.t_ns=4040000000 &/' "$raw.starved" >"$raw.sclk"
sed 's/tapB.t_ns=4040000000/tapB.t_ns=4800000000/' "$raw.sclk" >"$raw.sslow"
expect "point: starved at a fixed speed: clock -0.99 % over A..B kept (1), -16.67 % lost (0)" "-0.99 1 -16.67 0" \
	"$(for f in "$raw.sclk" "$raw.sslow"; do point "$f" | csv_col /dev/stdin clock_err_pct; point "$f" | csv_col /dev/stdin gate_clock; done | xargs)"
[ "$T_FAILED" = 0 ]
