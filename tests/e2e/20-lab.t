#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# End to end: every variant boots under libvirt as a fixed-speed guest
# (the default, icount:4) and takes a short flood at 2x and 6x the knee
# and a latency point (one repetition: the orders of later ones are
# checked without a guest, tests/behaviour/run-input.t); the numbers are
# internally consistent, the CPU books close,
# the clock stays TSC, the gates and the host's QEMU figures are recorded,
# each variant's mechanism is visible, the consoles are clean, and nothing
# is left behind.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
# shellcheck source=lab/lib/guest.sh
. "$LAB_TOP/lab/lib/guest.sh"

RUN=$LAB_BUILD/test-runs/e2e
rm -rf "$RUN"
check "make initramfs" make -s -C "$LAB_TOP" initramfs
# Both rates saturate every variant's fixed-speed guest (16 kpps is 2x its
# knee, 48 kpps 6x), whatever the host; at 48 kpps vanilla starves (no
# task of its guest runs).  schedstats=enable makes the guest count its
# switches to the idle task (idle_entries_ps), which is what the books
# miss (below).
LO=16000
HI=48000
check "lab/run: 3 variants x (2 rates + 1 latency point), short windows, icount:4" \
	env LAT_SEED=6 "$LAB_TOP/lab/run" -v "vanilla ksoftirqd-fix threaded-napi" -r "$LO $HI" \
	--lat-rates "$LO" -n 1 -W 1 -w 2 --starve 3 --cmdline schedstats=enable -o "$RUN"
csv=$RUN/points.csv
check "the run ends with its verdicts, one line each, and where the report is" \
	bash -c "grep -q '^verdict: dumazet (6.12): [a-z-]*' '$T_LOG' && grep -q '^verdict: revert (6.12): ' '$T_LOG' &&
		grep -q '^run: report: .*/e2e/report.md$' '$T_LOG'"
check "params.json: the results format, the rules, QEMU's and libvirt's versions, the host's name" \
	jq -e '.format == 2 and (.rules_sha | length) == 12 and (.qemu_version | test("QEMU")) and
		(.libvirt_version | length) > 0 and (.host_name | length) > 0' "$RUN/params.json"

# value of column <name> for variant <v> at rate <r>, throughput pass,
# repetition 1 (or $REP)
val()
{
	awk -F, -v v="$1" -v r="$2" -v n="$3" -v rep="${REP:-1}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v && $c["rate_target"] == r && $c["rep"] == rep &&
		$c["pass"] == "tput" { print $c[n] }' "$csv"
}

# every row satisfies an awk condition on columns (c["name"]); each
# failing row is printed with the columns the condition names
every_row()
{
	awk -F, -v cond="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
			s = cond
			while (match(s, /c\["[a-z0-9_]+"\]/)) {
				names = names " " substr(s, RSTART + 3, RLENGTH - 5)
				s = substr(s, RSTART + RLENGTH)
			}
			next }
		{ if (!('"$1"')) {
			printf "row %d (%s rep %s %s %s) fails:", NR, $c["variant"], $c["rep"],
				$c["pass"], $c["rate_target"]
			n = split(names, f, " ")
			for (i = 1; i <= n; i++)
				if (!seen[NR, f[i]]++)
					printf " %s=%s", f[i], $c[f[i]]
			print ""
			bad = 1
		} }
		END { exit bad }' "$csv"
}

# every_row_of <csv> <condition>: every_row on another file
every_row_of()
{
	local csv=$1

	every_row "$2"
}

# num <a> <op> <b>: floating comparison, logged
num()
{
	echo "num $1 $2 $3" >>"$T_LOG"
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		if (a == "" || b == "") exit 1
		r = op == "<" ? a < b : op == "<=" ? a <= b : op == ">" ? a > b : op == "=" ? a == b : a >= b
		exit !r }'
}

consistent_rows()
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		d = $c["delivered_total"]; u = $c["udp_in_total"]
		n = $c["nic_rx_total"]; t = $c["tap_tx_total"]; s = $c["sent_total"]
		# the tap also carries the ICMP errors of the host for late probe
		# replies (6 once, the per-peer burst of the ICMP rate limit)
		h = $c["host_icmp_total"]
		if (!(d <= u && u <= n && n <= t && t <= s + h && s > 0 && h ~ /^[0-9]+$/)) {
			print "inconsistent row " NR ": " d " " u " " n " " t " " s " + " h
			bad = 1
		}
	} END { exit bad }' "$csv"
}

check "points.csv has 9 rows (3 variants x 3 points)" test "$(($(wc -l <"$csv") - 1))" = 9
check "6 throughput-pass rows, 3 latency-pass rows" \
	test "$(csv_col "$csv" pass | sort | uniq -c | xargs)" = "3 lat 6 tput"
check "every row: delivered <= UDP InDatagrams <= NIC rx <= tap tx <= sent + the host's ICMP" consistent_rows
check "every row: the guest kept TSC as its clocksource" every_row '$c["clocksource"] == "tsc"'
check "every row not starved: irq time was accounted (IRQ time accounting on)" \
	every_row '$c["starved"] == 1 || $c["irqtime"] == 1'
# The guest's clock against the host's: over A..B (clock_err_pct) and
# over the window the rates come from (window_clock_err_pct), each with
# its snapshots' latencies (up to ~300 ms of a ~6 s point, measured).
# Under icount the guest's clock stands still while QEMU's main loop
# waits for its core (it holds the lock the vCPU needs, and it starts
# the warp of a halted vCPU), so on some hosts a guest that goes idle
# often (1-2 x the knee) strays 10-37 % from the host's clock (README,
# "What the host does to the guest"): such a row must be gated out.  At
# 6 x the knee, where the verdict is taken, every guest not starved
# must keep its speed.  The bound is the rule's (lab/lib/rules.tsv).
CLK=$(awk -F'\t' '$1 == "gate.clock_err_pct" { print $2 }' "$LAB_TOP/lab/lib/rules.tsv")
check "every row not starved: gate_clock 0 where the guest's clock strayed > gate.clock_err_pct = $CLK % from the host's over the window" \
	every_row '$c["starved"] == 1 || ($c["window_clock_err_pct"] != "" &&
		($c["gate_clock"] == 0 || ($c["window_clock_err_pct"] + 0) ^ 2 <= '"$CLK"' ^ 2))'
# And from the window's start to B (the window and the drain, from the
# raw snapshots), not over A..B: a guest that fell behind the host's clock
# while booting (QEMU's "The guest is now late by ...") keeps that lag
# through an idle settle, most likely because icount's sleep advances the
# clock by the real time slept, and makes it up at full speed once busy,
# in the warm-up of the boot's first point: one such A..C ran 0.53 s ahead
# of the host's (A..B +10.15 %), its window -0.17 %.  No rate of a row not
# starved comes from A..B, only totals.
kept_speed_at_hi()
{
	local v rep f e n=0 bad=0

	while read -r v rep; do
		n=$((n + 1))
		f=$RUN/raw/$v-r$rep-tput-$HI.txt
		# the raw file read as point.awk reads it (lab/lib/snapshot.awk)
		e=$(awk -f "$LAB_TOP/lab/lib/snapshot.awk" -f <(echo 'END {
			h = d("t_ns", "tapC", "tapB")
			if (h <= 0 || v["C.t_ns"] == "" || v["B.t_ns"] == "") exit 1
			printf "%.2f", 100 * (d("t_ns", "C", "B") / h - 1) }') "$f") || e=
		echo "$v rep $rep: clock over C..B $e %" >>"$T_LOG"
		awk -v e="$e" -v m="$CLK" 'BEGIN { exit !(e != "" && e * e <= m * m) }' || bad=1
	done < <(awk -F, -v hi="$HI" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["rate_target"] == hi && $c["pass"] == "tput" && $c["starved"] == 0 { print $c["variant"], $c["rep"] }' "$csv")
	[ $n -gt 0 ] && [ $bad = 0 ] &&
		every_row '$c["rate_target"] != '"$HI"' || $c["starved"] == 1 || $c["gate_clock"] == 1'
}
check "rows at $HI pps not starved: the guest kept its speed (gate_clock 1, clock within $CLK % from the window's start to B)" \
	kept_speed_at_hi
check "params.json: host_sched default (SCHED_OTHER), the fixed speed's" \
	test "$(jq -r .host_sched "$RUN/params.json")" = default
check "params.json: speed icount:4, 62.5 M instructions/s, -icount shift=4,align=on,sleep=on, accel tcg" \
	test "$(jq -r '[.speed, .guest_mips, .icount, .accel] | join(" ")' "$RUN/params.json")" = \
	"icount:4 62.5 shift=4,align=on,sleep=on tcg"
check "every guest ran with -icount (the domain XML's QEMU passthrough)" \
	test "$(grep -l "<qemu:arg value='shift=4,align=on,sleep=on'/>" "$RUN"/guests/*/domain.xml | wc -l)" = 3
# At 6x the knee vanilla is in livelock: a few hundred pps of 48,000
# (242 and 273 on two hosts of this kind) and no idle time.  Whether its
# SCHED_FIFO sampler gets a snapshot through within --starve s meanwhile
# is a race, not the claim: a starved row of one host's run had the
# sampler wait runnable 56 % of A..B, and CI's host of 2026-12-07 answered
# C, the window and D.  Either way it is the livelock, and each way has
# its own checks (the starved rows' here, the books' below).  The starved
# path itself, whatever the kernel does, is taken by a stalled guest in
# tests/e2e/25-faults.t.
check "vanilla at 6x the knee: in livelock (delivered < 10 % of offered, idle < 1 %), starved or not" \
	every_row '$c["variant"] != "vanilla" || $c["rate_target"] != '"$HI"' || ($c["delivered_pps"] != "" && $c["offered_pps"] != "" &&
		$c["delivered_pps"] + 0 < 0.1 * $c["offered_pps"] && $c["idle_cpu"] != "" && $c["idle_cpu"] + 0 < 1)'
nstarved=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["starved"] == 1 { n++ } END { print n + 0 }' "$csv")
echo "starved rows: $nstarved" >>"$T_LOG"
if [ "$nstarved" -gt 0 ]; then
	check "starved rows: the receiver's reads before, in and after the window add up to its A..B total" \
		every_row '$c["starved"] != 1 || ($c["starve_head_total"] >= 0 && $c["starve_tail_total"] >= 0 && $c["guest_window_s"] > 0 &&
			(d = $c["starve_head_total"] + $c["delivered_pps"] * $c["guest_window_s"] + $c["starve_tail_total"] - $c["delivered_total"]) <= $c["guest_window_s"] && -d <= $c["guest_window_s"])'
	# 6.12's fair deadline server (README, "Upstream's own code"): the
	# SCHED_FIFO sampler waited runnable through the starvation timeout
	check "starved rows: the SCHED_FIFO sampler waited runnable for most of A..B (sampler_wait_pct > 50)" \
		every_row '$c["starved"] != 1 || $c["sampler_wait_pct"] + 0 > 50'
	check "starved rows: the guest's own starvation (the sampler waited runnable >= gate.starved_wait_share of --starve)" \
		every_row '$c["starved"] != 1 || ($c["starve_wait_share"] != "" && $c["starve_wait_share"] + 0 >= 0.5)'
else
	for what in "the receiver's reads before, in and after the window add up to its A..B total" \
		"the SCHED_FIFO sampler waited runnable for most of A..B (sampler_wait_pct > 50)" \
		"the guest's own starvation (the sampler waited runnable >= gate.starved_wait_share of --starve)"; do
		skip "starved rows: $what" "no row starved in this run (vanilla's sampler answered under the flood); tests/e2e/25-faults.t takes the starved path"
	done
fi
check "ksoftirqd-fix and threaded-napi never starve: the sampler runs beside the flood" \
	every_row '$c["variant"] == "vanilla" || $c["starved"] == 0'
check "ksoftirqd-fix and threaded-napi: the sampler waited runnable < 10 % of every window" \
	every_row '$c["variant"] == "vanilla" || ($c["sampler_wait_pct"] != "" && $c["sampler_wait_pct"] + 0 < 10)'
# The books: task run times + irq + idle + steal against the window.
# They never count time twice, and closure_ok says whether they close
# (+-3 %).  What they miss is the idle task's own time at each switch to
# idle (tick restart, HLT exit: 10-43 µs under TCG, see the iperf3 point
# below), so a guest that goes idle often misses more: near saturation
# (2-5 % idle) 19 of 133 rows of four recorded runs missed 3-14 %, below
# 2 % idle none of 256 missed more than 1.6 %.  So a row may miss 3 %
# plus 300 µs per switch to idle (7x the most measured), no more: a
# saturated guest, which seldom goes idle, must close its books, and a
# part missing from them (hardirq time, say) fails the check on the rows
# that seldom go idle.
check "every row not starved: closure_ok = (|closure_pct| <= 3 %), the residual never above +3 %" \
	every_row '$c["starved"] == 1 || $c["closure_pct"] != "" && $c["closure_pct"] + 0 <= 3 &&
		($c["closure_ok"] == ($c["closure_pct"] + 0 >= -3) || ($c["closure_pct"] + 0 > -3.05 && $c["closure_pct"] + 0 < -2.95))'
check "every row not starved: the books miss at most 3 % + 300 µs per switch to idle" \
	every_row '$c["starved"] == 1 || $c["closure_pct"] + 0 >= -3 - 0.03 * $c["idle_entries_ps"]'
# "seldom" by the switches themselves: one row 1.5 % idle switched to
# idle 174 times a second and missed 283 µs at each (4.9 %)
check "under icount too: every row not starved that seldom goes idle (< 50 switches/s) closes its books within 3 %" \
	every_row '$c["starved"] == 1 || $c["idle_entries_ps"] + 0 >= 50 || $c["closure_ok"] == 1'
check "every row not starved: the host's QEMU main loop, TCG thread and flooder figures are there" \
	every_row '$c["starved"] == 1 || ($c["qemu_main_run_pct"] > 0 && $c["qemu_vcpu_run_pct"] > 0 && $c["flood_run_pct"] > 0)'
check "every row not starved: the host could deliver the offered rate (ceiling >= offered)" \
	every_row '$c["starved"] == 1 || ($c["host_ceiling_pps"] + 0 >= $c["offered_pps"] && $c["gate_host"] == 1)'
check "every paced row: the generator's error and the gate flags are recorded" \
	every_row '$c["gen_err_pct"] != "" && ($c["gate_gen"] == 0 || $c["gate_gen"] == 1) && ($c["gate_idle"] == 0 || $c["gate_idle"] == 1)'
check "every row: the guest settled before its first point (settle time, idle share)" \
	every_row '$c["settle_s"] > 0 && $c["settle_idle"] != ""'
check "latency columns only in the latency pass (and not at a starved point)" \
	every_row '($c["pass"] == "lat" && $c["starved"] == 0) == ($c["probe_sent"] != "")'
# slot = position in the repetition: row 1 of the Williams design, the
# order given (williams 1 or an even repetition's rate order would fail
# these; later rows: tests/behaviour/run-input.t)
check "the variant order is the Williams design's row 1: the order given" \
	test "$(slots "$csv" 1)" = "vanilla=1 ksoftirqd-fix=2 threaded-napi=3 "
check "the rates ascend in rep 1, in every boot" \
	test "$(tput_order "$csv" 1 vanilla)/$(tput_order "$csv" 1 ksoftirqd-fix)/$(tput_order "$csv" 1 threaded-napi)" = "$LO $HI /$LO $HI /$LO $HI "
# The latency pass sits where lat_position (lab/exp/rx/hooks.sh) draws it
# for the repetition: the same place in every boot of it, so that paired
# latency points sit at the same place in their boots.
eval "$(sed -n '/^lat_position()/,/^}/p' "$LAB_TOP/lab/exp/rx/hooks.sh")"
lat_places()
{
	local v want got

	want=$(LAT_SEED=6 REP=1 lat_position 2)
	for v in vanilla ksoftirqd-fix threaded-napi; do
		got=$(awk -F, -v v="$v" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["variant"] == v && $c["rep"] == 1 { p[$c["pos"]] = $c["pass"] }
			END { for (i = 1; i <= 3; i++) if (p[i] == "lat") print i - 1 }' "$csv")
		echo "$v rep 1: latency pass at $got, drawn $want" >>"$T_LOG"
		[ "$got" = "$want" ] || return 1
	done
}
check "the latency pass sits where lat_position draws it, the same place in every boot of the repetition" lat_places
check "params.json records the latency placement seed" test "$(jq -r .lat_seed "$RUN/params.json")" = 6
check "params.json records accelerator, pinning, rcvbuf, payload, kernels" \
	grep -q '"accel": "\(kvm\|tcg\)"' "$RUN/params.json"
for k in vcpu_pin rcvbuf payload series_hash config_hash release lab_commit; do
	check "params.json has $k" grep -q "\"$k\"" "$RUN/params.json"
done
check "params.json: the lab's host processes were kept off the vCPU core ($(jq -r .host_side_cpus "$RUN/params.json"))" \
	test "$(jq -r .host_side_cpus "$RUN/params.json")" = "$([ "$(nproc)" -ge 2 ] && echo "0-$(($(nproc) - 2))" || echo all)"
check "params.json: Williams order, not balanced with 1 repetition of 3 variants" \
	test "$(jq -r '.variant_order + " " + (.order_balanced | tostring)' "$RUN/params.json")" = "williams false"
check "report.md says the order is not balanced" grep -q "Williams design, not balanced: 1 repetition is not a whole number of blocks of 6" "$RUN/report.md"
check "params.json: host_cpus counts every core, not the helper cores the driver pinned itself to" \
	test "$(jq -r .host_cpus "$RUN/params.json")" = "$(nproc)"
check "the vCPU sits on the last host core, apart from the helpers" \
	grep -q "<vcpupin vcpu='0' cpuset='$(($(nproc) - 1))'/>" "$RUN/guests/vanilla-r1/domain.xml"
check "summary.csv has a row per variant" test "$(($(wc -l <"$RUN/summary.csv") - 1))" = 3
check "kernel health: every console clean (no clock demotion either)" \
	bash -c "! grep -v '^ok' '$RUN/health.txt' && test \$(grep -c '^ok' '$RUN/health.txt') = 3"
consoles_on_tsc()
{
	local f

	for f in "$RUN"/guests/*/console.log; do
		tr -d '\r' <"$f" | grep -q 'clocksource: Switched to clocksource tsc$' ||
			{ echo "$f: never switched to tsc" >>"$T_LOG"; return 1; }
	done
}
check "every guest kept TSC: each console switches to tsc (and scan-console saw no demotion)" consoles_on_tsc
check "every guest: timer on the IO-APIC, eth0's queues on MSI (acpi=noirq)" \
	guest_irqs_ok "$RUN"/guests/*/console.log
check "every guest: the softirq, sched, irq and napi tracepoints in tracefs, off" \
	guest_traceable "$RUN"/guests/*/console.log

# Mechanisms.  vanilla and ksoftirqd-fix: no napi threads, NET_RX softirqs
# run; threaded-napi (booted with virtio_net.napi_threaded=1): threads
# exist before user space, sysfs says 1, NET_RX softirqs stay flat, the
# thread works.
boot_facts()
{
	grep -a 'lab: boot release' "$RUN/guests/$1-r1/console.log" | tr -d '\r'
}

boot_fact_is()
{
	boot_facts "$1" | grep -q -- "$2"
}

check "vanilla boots with threaded=0 and no napi thread" \
	boot_fact_is vanilla 'threaded=0 napi_threads=$'
check "threaded-napi boots with threaded=1 and napi/eth0-* threads" \
	boot_fact_is threaded-napi 'threaded=1 napi_threads=napi/eth0-'
check "threaded-napi: napi threads present during the flood" num "$(val threaded-napi $HI napi_threads)" ">=" 1
check "threaded-napi: napi thread carries the receive work (>= 10 % CPU)" \
	num "$(val threaded-napi $HI napi_cpu)" ">=" 10
check "threaded-napi: NET_RX softirqs stay flat (< 1 % of vanilla's at 2x the knee)" \
	num "$(val threaded-napi $HI net_rx_softirq_ps)" "<" "$(awk -v x="$(val vanilla $LO net_rx_softirq_ps)" 'BEGIN { print x / 100 }')"
check "vanilla: NET_RX softirqs run under flood" num "$(val vanilla $LO net_rx_softirq_ps)" ">" 100
check "vanilla: the softirqs run in irq context (>= 50 % of its CPU at 2x the knee)" \
	num "$(val vanilla $LO softirq_irqctx_cpu)" ">=" 50
check "ksoftirqd-fix: ksoftirqd/0 takes the softirq work under overload (>= 10 % CPU)" \
	num "$(val ksoftirqd-fix $HI ksoftirqd_cpu)" ">=" 10
check "ksoftirqd-fix: ksoftirqd/0 CPU rises above vanilla's" \
	num "$(val ksoftirqd-fix $HI ksoftirqd_cpu)" ">" "$(val vanilla $LO ksoftirqd_cpu)"

# The administrator's choice is a choice: threaded-napi booted with
# virtio_net.napi_threaded=0 after its own =1 (the last one wins) must
# look like vanilla: no napi thread, NET_RX softirqs carry the receive work.
# Its results directory is deep on purpose: a UNIX socket path in it
# would pass the 107-byte limit (the guest's channel must not live there).
rm -rf "$RUN-off"
OFF=$RUN-off/a-results-directory-nested-deep-enough-that-no-unix-socket-path-fits-in-it
check "lab/run: threaded-napi with virtio_net.napi_threaded=0 appended" \
	"$LAB_TOP/lab/run" -v threaded-napi --cmdline virtio_net.napi_threaded=0 -r $LO --lat-rates "" \
	-n 1 -W 1 -w 2 --speed native --no-plot -o "$OFF"
check "threaded-napi, parameter off: boots with threaded=0 and no napi thread" \
	bash -c "grep -a 'lab: boot release' '$OFF/guests/threaded-napi-r1/console.log' | tr -d '\r' | grep -q 'threaded=0 napi_threads=\$'"
off_val()
{
	csv=$OFF/points.csv val threaded-napi $LO "$1"
}
check "threaded-napi, parameter off: no napi thread during the flood" \
	num "$(off_val napi_threads)" "=" 0
check "threaded-napi, parameter off: NET_RX softirqs run like vanilla's (> 10 % of its rate)" \
	num "$(off_val net_rx_softirq_ps)" ">" "$(awk -v x="$(val vanilla $LO net_rx_softirq_ps)" 'BEGIN { print x / 10 }')"

# Every datagram user space took is counted twice: by the kernel (UDP
# InDatagrams, counted in recvmsg) and by whoever took it.  udp_sink and
# the responder (which gets probes in the latency pass only) account for
# all of them; iperf3's server for all but its test's opening datagram,
# read before the test counts.
all_datagrams_accounted()
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		x = $c["udp_in_total"] - $c["resp_rx_total"] - $c["delivered_total"]
		if (($c["pass"] == "lat" && $c["resp_rx_total"] <= 0) || x < 0 ||
		    x > ($c["generator"] == "iperf3" ? 2 : 0)) {
			print "row " NR ": udp_in " $c["udp_in_total"] " - responder " \
				$c["resp_rx_total"] " - receiver " $c["delivered_total"] " = " x
			bad = 1
		}
	} END { exit bad }' "$csv"
}
check "every row: UDP InDatagrams = udp_sink's + the responder's datagrams" all_datagrams_accounted

# The iperf3 pair: iperf3's client floods from the netns through the
# same interlock, iperf3's server receives in the guest (a native-speed
# guest: the partly idle point below is one of TCG's speed).  With a socket
# buffer above the guest's rmem_max/wmem_max: iperf3 refuses a test whose
# buffers are cut short, so the run fails unless the guest lifts them.
E2E_CSV=$csv
IP3=$RUN-iperf3
# 10 kpps: the server used ~34 % of the vCPU at 20 kpps, and the guest's
# idle share there followed the host (12-56 % in six runs): half the rate
# keeps the point partly idle on a busier host too.
IP3_LO=10000
rm -rf "$IP3"
# iperf3 3.12's server now and then dies just after the UDP stream
# connects ("select failed: Bad file descriptor", in 1 of 5 runs here,
# the client then failing on its control socket): that one failure, seen
# on the guest's console, gets one more try.
iperf3_run()
{
	local try

	for try in 1 2; do
		rm -rf "$IP3"
		"$LAB_TOP/lab/run" -v vanilla -g iperf3 -b 1048576 -r "$IP3_LO 0" --lat-rates "" -n 1 -W 1 -w 2 \
			--speed native --cmdline schedstats=enable -o "$IP3" && return 0
		grep -aq 'select failed: Bad file descriptor' "$IP3/guests/vanilla-r1/console.log" 2>/dev/null ||
			return 1
		echo "iperf3's server died with 'select failed' (try $try)" >>"$T_LOG"
	done
	return 1
}
check "lab/run -g iperf3 -b 1 MiB: vanilla, 2 rates" iperf3_run
csv=$IP3/points.csv
check "iperf3: points.csv has 2 rows, generator iperf3" \
	test "$(csv_col "$csv" generator | grep -c '^iperf3$')/$(($(wc -l <"$csv") - 1))" = 2/2
check "iperf3: every row: delivered <= UDP InDatagrams <= NIC rx <= tap tx <= sent + the host's ICMP" consistent_rows
check "iperf3: every row: iperf3's own count = UDP InDatagrams - the responder's (+ its opening datagram)" \
	all_datagrams_accounted
check "iperf3: the server's CPU is measured (> 1 % at $IP3_LO pps)" num "$(val vanilla $IP3_LO recv_cpu)" ">" 1
# At 10 kpps the guest is mostly idle: the books then miss the idle
# task's own time at each switch to idle (under TCG ~20-30 µs each: tick
# restart and HLT exit emulated behind QEMU's lock), never count twice.
check "a partly idle point: the books miss time (residual < 0), never count it twice" \
	awk -v x="$(val vanilla $IP3_LO closure_pct)" -v i="$(val vanilla $IP3_LO idle_cpu)" \
	'BEGIN { exit !(i > 20 && x < 0 && x > -40) }'
# (iperf3's server at 10 kpps: 800-900 switches a second, ~100 µs each; udp_sink's
# guest at 20 kpps switched ~9,000 times, 20 µs each)
check "a partly idle point: the guest switched to idle > 100 times a second, missing 1-300 µs each" \
	awk -v n="$(val vanilla $IP3_LO idle_entries_ps)" -v us="$(val vanilla $IP3_LO idle_entry_us)" \
	'BEGIN { print "switches/s " n ", missed per switch " us " µs"; exit !(n > 100 && us >= 1 && us <= 300) }'
check "iperf3: unlimited offers more than $IP3_LO pps" num "$(val vanilla 0 offered_pps)" ">" $IP3_LO
check "iperf3: params.json has the generator and iperf3's version" \
	grep -q '"iperf3": "iperf 3' "$IP3/params.json"
check "iperf3: the client's JSON report kept per point" \
	test "$(find "$IP3/raw" -name '*.iperf3.json' | wc -l)" = 2
check "iperf3: kernel health: console clean" \
	bash -c "! grep -v '^ok' '$IP3/health.txt' && grep -q '^ok' '$IP3/health.txt'"
csv=$E2E_CSV

# The soak of that sweep: at its verdict rate, the receiver sampled, the
# median set against the sweep's, the verdict in the sweep's report.
# A short sweep in which no rate passed every variant's gates (a host that
# starved QEMU or the flooder) has nothing to soak at: the soak must refuse
# it, and soaks a copy of the recorded sweep instead.
rm -rf "$RUN-soak" "$RUN-sweep"
SWEEP=$RUN
if [ -z "$(csv_col "$RUN/summary.csv" verdict_rate | head -1)" ]; then
	refuse "soak: the short sweep (no verdict rate on this host) is refused" "no verdict rate" \
		"$LAB_TOP/lab/soak" --sweep "$RUN" -v vanilla -w 10
	SWEEP=$RUN-sweep
	mkdir -p "$SWEEP"
	cp "$LAB_TOP"/tests/fixtures/run-sample/{points.csv,summary.csv,params.json} "$SWEEP/"
fi
echo "soak of ${SWEEP#"$LAB_BUILD"/}" >>"$T_LOG"
# exit 0 when stationary, else non-zero saying so: either is a verdict
soak_verdict()
{
	local rc=0

	"$LAB_TOP/lab/soak" --sweep "$SWEEP" -v "vanilla ksoftirqd-fix" -W 1 -w 6 --series 1 -o "$RUN-soak" >>"$T_LOG" 2>&1 || rc=$?
	[ "$rc" = 0 ] || tail -1 "$T_LOG" | grep -q "not stationary"
}
check "lab/soak: vanilla and ksoftirqd-fix at a sweep's verdict rate, 6 s sampled every second" soak_verdict
check "soak: the sweep's --starve (params.json starve_s)" \
	test "$(jq -r .starve_s "$RUN-soak/params.json")" = "$(jq -r .starve_s "$SWEEP/params.json")"
check "soak: its points are at the sweep's verdict rate" \
	test "$(csv_col "$RUN-soak/points.csv" rate_target | sort -u)" = "$(csv_col "$SWEEP/summary.csv" verdict_rate | head -1)"
# vanilla is in livelock there, starved or not (above): its flood goes
# on for the window all the same, and a starved row's samples come from
# the receiver's own history
check "soak: vanilla flooded for the whole window (>= 6 s), starved or not" \
	every_row_of "$RUN-soak/points.csv" '$c["variant"] != "vanilla" || $c["window_s"] >= 6'
check "soak: each receiver was sampled along the window (>= 4 samples each)" \
	test "$(for f in "$RUN-soak"/raw/*.series; do [ "$(wc -l <"$f")" -ge 4 ] && echo ok; done | wc -l)" = 2
check "soak: a stationarity verdict per variant, copied into the sweep and its report" \
	bash -c "grep -qE '^soak ksoftirqd-fix: (stationary|NOT stationary): ' '$SWEEP/soak.txt' &&
		grep -qE '^soak vanilla: (stationary|NOT stationary): ' '$SWEEP/soak.txt' && grep -q '^## Soak' '$SWEEP/report.md'"
# The progress line names each variant's own samples' median (it once
# read the alphabetically last .series file: vanilla's, for every variant)
soak_progress_medians()
{
	local v want got

	for v in vanilla ksoftirqd-fix; do
		want=$(sed -n "s/^soak $v: [A-Za-z ]*: \([0-9]*\) pps median over .*/\1/p" "$SWEEP/soak.txt")
		got=$(sed -n "s/^soak: \[[0-9]\/2\] $v soak at [0-9]*: .*, \([0-9]*\) pps median of the samples .*/\1/p" "$T_LOG" | tail -1)
		echo "soak $v: progress line $got pps, soak.txt $want pps" >>"$T_LOG"
		[ -n "$want" ] && [ "$got" = "$want" ] || return 1
	done
}
check "soak: each progress line gives that variant's median of the samples (soak.txt's)" soak_progress_medians
refuse "soak: a sweep without a verdict rate is refused" "no verdict rate|not a finished sweep" \
	"$LAB_TOP/lab/soak" --sweep "$LAB_BUILD" -v vanilla -w 10
refuse "soak: --speed is refused (the sweep's speed is used)" "runs at its sweep's guest speed" \
	"$LAB_TOP/lab/soak" --sweep "$SWEEP" --speed native -v vanilla -w 10

# Cleanup: no netns, no private libvirtd, no QEMU of ours.
check "cleanup: lab netns removed" bash -c "! ip netns list | grep -qw '$LAB_NS'"
check "cleanup: private libvirtd stopped" test ! -e "$LAB_LV/libvirtd.pid"
no_lab_qemu()
{
	! pgrep -f '^[^ ]*qemu-system-x86_64 .*guest=lab-' >/dev/null
}
check "cleanup: no QEMU guest of the lab left" no_lab_qemu

# Latency probes ran in every latency-pass window: the host's
# request/response probe (sent = rate x window) and the guest's timer
# probe; the timer probe was stopped in the throughput pass.
latency_columns_filled()
{
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["pass"] == "lat" {
		if ($c["probe_sent"] < 200 || $c["tlat_n"] < 100 ||
		    $c["probe_p50_us"] !~ /^[0-9.]+$/ || $c["tlat_p99_us"] !~ /^[0-9.]+$/) {
			print "row " NR ": probe_sent=" $c["probe_sent"] " tlat_n=" $c["tlat_n"]
			bad = 1
		}
	} END { exit bad }' "$csv"
}
check "every latency-pass row carries probe and timer latency percentiles" latency_columns_filled
# Where the lost probes went (point.awk): the three parts sum to the loss
# by construction; each must be >= 0, which holds only if the responder's
# reads and its socket's drops (/proc/net/udp) account for no more probes
# than were sent and for at least the answered ones.
check "every latency row: lost probes split into net/socket/reply parts, none negative" \
	every_row '$c["pass"] != "lat" ||
		($c["probe_lost_net"] ~ /^[0-9]+$/ && $c["probe_lost_socket"] ~ /^[0-9]+$/ &&
		 $c["probe_lost_reply"] ~ /^[0-9]+$/)'
check "raw round-trip times kept per latency point" \
	test "$(find "$RUN/raw" -name '*.rtt' | wc -l)" = 3
# The timer probe runs only in the latency pass (cyclictest, started at
# the pass's opening): its sample count stands still over every
# throughput window, and in a latency window every 1 ms boundary is a
# sample or an overrun.
tlat_stopped()
{
	local f c d n=0

	for f in "$RUN"/raw/*-tput-*.txt; do
		c=$(grep -o '\bC\.tlat_count=[0-9]*' "$f" | cut -d= -f2)
		d=$(grep -o '\bD\.tlat_count=[0-9]*' "$f" | cut -d= -f2)
		# a starved point may lack D (or both): it has no window
		if [ -z "$c" ] || [ -z "$d" ]; then continue; fi
		[ "$c" = "$d" ] || return 1
		n=$((n + 1))
	done
	[ $n -gt 0 ]
}
check "the guest's timer probe took no sample in any throughput window" tlat_stopped
# The samples of a window C..D span their boundaries exactly: P periods
# account for P - tail - 2 - lag < n + overruns < P + head + 2 + lag
# (lab/tools/cyclic.h), tail the stall running at D, head the one begun
# before C, lag the periods the log trails the probe at a snapshot.  At D
# the lag only adds to the tail: the window is covered (+15 for the
# 3-decimal guest_window_s and a snapshot's own time).  At C it adds
# samples taken before C; its printer runs SCHED_FIFO above the sampler,
# yet in one livelocked vanilla window it trailed by ~420 ms, so the
# upper bound is only that every sample is from the flood: no more than
# the warm-up's periods before C.  Before the printer ran SCHED_FIFO,
# vanilla's window held 2,042 of 3,493 periods.
WARM_PERIODS=$(jq -r '.warmup_s * 1000' "$RUN/params.json")
check "every latency window: cyclictest's samples + overruns cover the window's 1 ms periods (less its tail stall + 15), none from before the flood" \
	every_row '$c["pass"] != "lat" ||
		($c["tlat_tail_overruns"] ~ /^[0-9]+$/ && $c["tlat_head_overruns"] ~ /^[0-9]+$/ &&
		 $c["tlat_n"] + $c["tlat_overruns"] + $c["tlat_tail_overruns"] + 15 > 1000 * $c["guest_window_s"] &&
		 $c["tlat_n"] + $c["tlat_overruns"] - $c["tlat_head_overruns"] - 15 < 1000 * $c["guest_window_s"] + '"$WARM_PERIODS"')'

