# SPDX-License-Identifier: GPL-2.0
# One measured point: turns the raw samples of lab/run into one CSV row.
#
# Input: whitespace-separated key=value tokens, keys prefixed by the
# snapshot they come from:
#   A.*  guest snapshot before the flood (pipeline idle)
#   C.*  guest snapshot when the window opens (flood in steady state)
#   D.*  guest snapshot when the window closes
#   B.*  guest snapshot after the flood has drained (pipeline idle)
#   tapA. tapC. tapD. tapB.  host tap counters read just before, with the
#                            host time they were read at (t_ns)
#   hostA. hostC. hostD. hostB.  the host's schedstat of the guest's QEMU
#                            threads and of the flooder (threadstat)
#   flood.*                  the flooder's own report
#   probe.*                  the host's request/response probe over C..D
#                            (latency pass only)
#   tlat.*                   the guest's timer probe, cyclictest, over
#                            C..D by its sample numbers (latency pass
#                            only; lab/tools/cyclic.h)
#   meta.*                   run/variant/rep/rate/generator/pass/slot and
#                            the guest's settling, into the row
# Rates, CPU shares and gates come from C..D, host counters over the
# host's window, guest counters over the guest's; the *_total columns from
# A..B, where every counter sees exactly the packets of this point, so
#   delivered_total <= udp_in_total <= nic_rx_total <= sent_total
# must hold (the lab pins ARP entries on both sides and disables IPv6 on
# the tap, so nothing but flood and probe packets crosses it).
#
# CPU attribution (lab/tools/cpustat.h): the guest window's CPU time is
# split into the receiver, ksoftirqd/0, the napi threads, the sampler, the
# responder, other tasks (all from schedstat run time), softirq run in irq
# context (PSI irq time less hardirq), hardirq (/proc/stat irq), idle
# (/proc/stat idle: NO_HZ idle time) and steal: exact counters only, not
# the tick-sampled /proc/stat user/system/softirq columns (cpu_* columns,
# kept for reference).  closure_pct is how far their sum is from the
# window (0 when the books close); closure_ok is 1 within
# +-books.closure_pct (lab/lib/rules.tsv); both are
# empty without PSI.  irqtime is 1 when irq time was accounted in the
# window (it is not once the kernel has switched IRQ time accounting off,
# and then task run times include the softirq time they were interrupted
# by).  A clocksource that changes between the snapshots fails the point:
# the CPU times would not be comparable.
#
# Gates (the system under test's state, not the generator's setting):
# gen_err_pct is the rate offered at the tap against the target (empty
# for unlimited), gate_gen 1 within +-gate.gen_err_pct; gate_idle 1 when
# the guest was at most gate.idle_pct idle (on_target() and saturated()
# of lab/lib/stats.awk, thresholds in lab/lib/rules.tsv); gate_clock 1 when a fixed-speed guest kept its speed
# (clock_gate(), below); gate_host 1 when the
# offered rate is within the host's delivery ceiling (host_ceiling_pps,
# below); qemu_*_pct and flood_*_pct are the host threads'
# run and wait (runnable, not running) shares of the host window.
#
# With meta.generator=iperf3 the receiver is iperf3's server, which has no
# live counter: delivered over C..D is what the kernel handed to user
# space (UDP InDatagrams, counted in recvmsg) less what the responder took
# (resp_packets); delivered_total is the server's own count of its test
# (iperf3_rx_packets, A..B), and sent_total the netns's IP OutRequests,
# since iperf3's TCP control connection crosses the tap too.  Run after
# lab/lib/snapshot.awk, with -v header=1 to print the header instead.

function per_s(x) { return sprintf("%.0f", x / win) }
# share (%) of the guest's CPU time over the window, from ns
function gshare(ns) { return sprintf("%.1f", 100 * ns / gcpu_ns) }
# share (%) of one host CPU over the host's window, from ns
function hshare(k) { return sprintf("%.1f", 100 * d(k, "hostC", "hostD") / (win * 1e9)) }
function abs(x) { return x < 0 ? -x : x }

BEGIN {
	columns("run variant rep pass slot pos rate_target offered_pps sent_pps tap_drop_pps " \
		"nic_rx_pps nic_drop_pps udp_in_pps rcvbuf_err_pps delivered_pps " \
		"cpu_user cpu_system cpu_irq cpu_softirq cpu_idle cpu_steal " \
		"recv_cpu ksoftirqd_cpu napi_cpu napi_threads net_rx_softirq_ps " \
		"clocksource irqtime closure_pct closure_ok idle_entries_ps idle_entry_us " \
		"sampler_cpu responder_cpu " \
		"softirq_irqctx_cpu hardirq_cpu other_cpu idle_cpu steal_cpu " \
		"recv_wait_pct recv_us_per_pkt recv_utime_pct recv_stime_pct recv_nvcsw_ps " \
		"recv_nivcsw_ps ksoftirqd_wait_pct ksoftirqd_wakeups_ps napi_wait_pct sampler_wait_pct " \
		"gen_err_pct gate_gen gate_idle clock_err_pct window_clock_err_pct gate_clock host_ceiling_pps gate_host qemu_main_run_pct qemu_main_wait_pct " \
		"qemu_vcpu_run_pct qemu_vcpu_wait_pct qemu_vcpu_blocked_pct qemu_other_run_pct qemu_other_wait_pct " \
		"flood_run_pct flood_wait_pct flood_batch settle_s settle_idle " \
		"sent_total tap_tx_total tap_drop_total host_icmp_total nic_rx_total nic_drop_total " \
		"udp_in_total rcvbuf_err_total delivered_total window_s guest_window_s " \
		"probe_sent probe_lost probe_loss_pct probe_p50_us probe_p90_us probe_p99_us " \
		"probe_p999_us probe_max_us probe_ap99_us probe_lost_bounded probe_lost_net probe_lost_socket probe_lost_reply " \
		"tlat_n tlat_p50_us tlat_p90_us tlat_p99_us tlat_p999_us tlat_max_us tlat_overruns " \
		"tlat_head_overruns tlat_tail_overruns " \
		"flood_sent_total loss_pct generator resp_rx_total starved starve_head_total starve_tail_total starve_wait_share")
}

# The clocksource of every snapshot, or fail naming the change.
function clocksource(    s, i, t, cs) {
	split("A C D B", s, " ")
	cs = v["A.clocksource"]
	for (i = 1; i <= 4; i++) {
		t = s[i]
		if (v[t ".clocksource"] == "") {
			print "point.awk: snapshot " t " has no clocksource (sampler too old?)" > "/dev/stderr"
			exit 1
		}
		if (v[t ".clocksource"] != cs) {
			printf "point.awk: the guest's clocksource changed during the point " \
			       "(%s at A, %s at %s): CPU times are not comparable\n",
			       cs, v[t ".clocksource"], t > "/dev/stderr"
			exit 1
		}
	}
	return cs
}

# The CPU attribution over C..D; see the header.
function attribution(    tick, tasks, irq, hard, idle, steal, sum, named, i) {
	tick = 1e9 / v["D.hz"]
	gcpu_ns = gwin * 1e9 * v["D.ncpu"]
	tasks = d("tasks_run_ns", "C", "D")
	hard = d("cpu_irq", "C", "D") * tick
	irq = d("psi_irq_us", "C", "D") * 1000
	idle = (d("cpu_idle", "C", "D") + d("cpu_iowait", "C", "D")) * tick
	steal = d("cpu_steal", "C", "D") * tick
	r["irqtime"] = irq > 0 ? 1 : 0
	r["closure_ok"] = 0
	if (v["C.psi_irq_ok"] + 0 && v["D.psi_irq_ok"] + 0) {
		sum = tasks + irq + idle + steal
		r["closure_pct"] = sprintf("%.1f", 100 * (sum / gcpu_ns - 1))
		r["closure_ok"] = abs(sum / gcpu_ns - 1) <= rule("books.closure_pct") / 100 ? 1 : 0
		r["softirq_irqctx_cpu"] = gshare(irq - hard)
		# what the books miss, per switch to the idle task (µs)
		r["idle_entry_us"] = d("sched_goidle", "C", "D") > 0 ? \
			sprintf("%.1f", (gcpu_ns - sum) / 1000 / d("sched_goidle", "C", "D")) : ""
	}
	r["idle_entries_ps"] = per_gs(d("sched_goidle", "C", "D"))
	named = 0
	split("recv:sink ksoftirqd:ksoftirqd napi:napi sampler:sampler responder:responder", g, " ")
	for (i = 1; i <= 5; i++) {
		split(g[i], kv, ":")
		r[kv[1] "_cpu"] = gshare(d(kv[2] "_run_ns", "C", "D"))
		named += d(kv[2] "_run_ns", "C", "D")
	}
	r["other_cpu"] = gshare(tasks - named)
	r["hardirq_cpu"] = gshare(hard)
	r["idle_cpu"] = gshare(idle)
	r["steal_cpu"] = gshare(steal)

	r["recv_wait_pct"] = gshare(d("sink_wait_ns", "C", "D"))
	r["recv_us_per_pkt"] = d("sink_packets", "C", "D") > 0 ? \
		sprintf("%.2f", d("sink_run_ns", "C", "D") / 1000 / d("sink_packets", "C", "D")) : ""
	r["recv_utime_pct"] = sprintf("%.1f", 100 * d("sink_utime", "C", "D") / v["D.hz"] / gwin)
	r["recv_stime_pct"] = sprintf("%.1f", 100 * d("sink_stime", "C", "D") / v["D.hz"] / gwin)
	r["recv_nvcsw_ps"] = per_gs(d("sink_nvcsw", "C", "D"))
	r["recv_nivcsw_ps"] = per_gs(d("sink_nivcsw", "C", "D"))
	r["ksoftirqd_wait_pct"] = gshare(d("ksoftirqd_wait_ns", "C", "D"))
	r["ksoftirqd_wakeups_ps"] = per_gs(d("ksoftirqd_nvcsw", "C", "D"))
	r["napi_wait_pct"] = gshare(d("napi_wait_ns", "C", "D"))
	r["sampler_wait_pct"] = gshare(d("sampler_wait_ns", "C", "D"))
}

# The guest's clock against the host's over A..B, both ends taken with the
# pipeline idle, and over the window C..D that the rates come from; each
# end carries its snapshot's latency (tens of ms under icount), so both
# are coarse.  gate_clock: the guest kept its speed, i.e. the host gave
# its vCPU the time it needed.  At a fixed speed QEMU's TCG thread sleeps
# whenever the guest runs ahead of the host's clock, so it kept up when
# that thread ran less than gate.tcg_run_pct of the host window
# (meta.speed) and the guest's window is within gate.clock_err_pct of the
# host's; a starved point has no guest window, and is judged on what it
# has, A..B (its clock error and its TCG thread over the point).  The second
# half is measured, not implied: on one host a guest that went idle often
# lost up to 27 % of the window with its TCG thread running 70 %.  A
# starved point also needs its own starvation (own_starvation() of
# lab/lib/stats.awk).
# At native speed the vCPU thread is off the CPU only while the guest
# idles or while it is blocked: qemu_vcpu_blocked_pct is the window less
# its run, its runnable wait and the guest's idle share, and the guest
# kept its speed when that is at most gate.vcpu_blocked_pct.
function clock_gate(    hab, b) {
	hab = d("t_ns", "tapA", "tapB")
	r["clock_err_pct"] = hab > 0 ? sprintf("%.2f", 100 * (d("t_ns", "A", "B") / hab - 1)) : ""
	r["window_clock_err_pct"] = r["starved"] ? "" : sprintf("%.2f", 100 * (gwin / win - 1))
	r["qemu_vcpu_blocked_pct"] = ""
	if (r["starved"] && (v["meta.speed"] == "" || v["meta.speed"] == "native")) {
		r["gate_clock"] = own_starvation(r["starve_wait_share"])
	} else if (r["starved"]) {
		r["gate_clock"] = r["clock_err_pct"] != "" &&
			(r["qemu_vcpu_run_pct"] == "" || r["qemu_vcpu_run_pct"] + 0 < rule("gate.tcg_run_pct")) &&
			abs(r["clock_err_pct"] + 0) <= rule("gate.clock_err_pct") + 0 && own_starvation(r["starve_wait_share"]) ? 1 : 0
	} else if (v["meta.speed"] != "" && v["meta.speed"] != "native") {
		r["gate_clock"] = r["qemu_vcpu_run_pct"] + 0 < rule("gate.tcg_run_pct") &&
			abs(r["window_clock_err_pct"] + 0) <= rule("gate.clock_err_pct") + 0 ? 1 : 0
	} else if (v["hostD.qemu_vcpu_run_ns"] == "" || r["idle_cpu"] == "") {
		r["gate_clock"] = 1
	} else {
		b = 100 - r["qemu_vcpu_run_pct"] - r["qemu_vcpu_wait_pct"] - r["idle_cpu"]
		r["qemu_vcpu_blocked_pct"] = sprintf("%.1f", b < 0 ? 0 : b)
		r["gate_clock"] = r["qemu_vcpu_blocked_pct"] + 0 <= rule("gate.vcpu_blocked_pct") ? 1 : 0
	}
}

# which point this is
function identity() {
	r["run"] = v["meta.run"]; r["variant"] = v["meta.variant"]
	r["rep"] = v["meta.rep"]; r["rate_target"] = v["meta.rate"]
	r["pass"] = v["meta.pass"] == "" ? "tput" : v["meta.pass"]
	r["slot"] = v["meta.slot"]
	r["pos"] = v["meta.pos"]
	r["settle_s"] = v["meta.settle_s"]
	r["settle_idle"] = v["meta.settle_idle"]
}

# the exact A..B totals (both ends idle)
function totals() {
	# everything the host sent the guest: flood and latency probes
	r["sent_total"] = iperf3 ? d("ip_out", "tapA", "tapB") : v["flood.sent"] + v["probe.sent"]
	r["tap_tx_total"] = d("tap_tx_packets", "tapA", "tapB")
	r["tap_drop_total"] = d("tap_tx_dropped", "tapA", "tapB")
	# ICMP errors the host sent the guest (late probe replies), tap_tx's too
	r["host_icmp_total"] = d("icmp_out", "tapA", "tapB")
	r["nic_rx_total"] = d("nic_rx_packets", "A", "B")
	r["nic_drop_total"] = d("nic_rx_dropped", "A", "B") + d("softnet_dropped", "A", "B")
	r["udp_in_total"] = d("udp_in", "A", "B")
	r["rcvbuf_err_total"] = d("udp_rcvbuferrors", "A", "B")
	r["delivered_total"] = d(iperf3 ? "iperf3_rx_packets" : "sink_packets", "A", "B")
	r["resp_rx_total"] = d("resp_packets", "A", "B")
	# Loss of this point, exact: flood packets that never reached the
	# receiver, over the whole flood (A..B, pipeline idle at both ends).
	r["flood_sent_total"] = v["flood.sent"] + 0
	r["loss_pct"] = v["flood.sent"] > 0 ? \
		sprintf("%.2f", 100 * (1 - r["delivered_total"] / v["flood.sent"])) : "100.00"
}

# the generator's error against its target, from r["offered_pps"]
function gen_gate(    t) {
	t = v["meta.rate"] + 0
	r["gen_err_pct"] = t > 0 ? sprintf("%.2f", 100 * (r["offered_pps"] / t - 1)) : ""
	r["gate_gen"] = t > 0 && on_target(r["gen_err_pct"]) ? 1 : 0
}

function gates() {
	gen_gate()
	r["gate_idle"] = saturated(r["idle_cpu"]) ? 1 : 0
	split("qemu_main qemu_vcpu qemu_other flood", h, " ")
	for (i = 1; i <= 4; i++) {
		r[h[i] "_run_pct"] = hshare(h[i] "_run_ns")
		r[h[i] "_wait_pct"] = hshare(h[i] "_wait_ns")
	}
	# The host's delivery ceiling: the rate QEMU's main loop, which moves
	# the packets from the tap into the guest, would deliver if it were
	# busy (running or runnable) all the window at this point's cost per
	# packet the guest took.  Fixed costs count as per-packet ones, so it
	# is an underestimate.  gate_host: the host could have delivered the
	# whole offered rate, so what the guest did not take it refused.
	busy = r["qemu_main_run_pct"] + r["qemu_main_wait_pct"]
	r["host_ceiling_pps"] = busy > 0 ? sprintf("%.0f", r["nic_rx_pps"] * 100 / busy) : ""
	r["gate_host"] = busy <= 0 || r["offered_pps"] + 0 <= r["host_ceiling_pps"] + 0 ? 1 : 0
	clock_gate()
	r["flood_batch"] = v["flood.batch"]
}

# The delivered rate of a starved point, from the receiver's history
# (S.*: lab/exp/rx/flood.sh starved_series) over the window it chose,
# S.w0_ns..S.w1_ns, rounded inwards to the history's steps.  What the
# receiver read before (the flood's first moments) and after (the drain)
# is kept apart in starve_head_total and starve_tail_total.
function starved_delivered(    c, n, step, k1, k2, w) {
	n = split(v["S.c"], c, ",")
	step = v["S.step_ns"]
	if (n < 2 || step <= 0 || v["S.w0_ns"] == "" || v["S.w1_ns"] == "") {
		print "point.awk: a starved point needs the receiver's history and its window" > "/dev/stderr"
		exit 1
	}
	k1 = int((v["S.w0_ns"] - v["S.from_ns"] + step - 1) / step)
	k2 = int((v["S.w1_ns"] - v["S.from_ns"]) / step)
	if (k2 >= n)
		k2 = n - 1
	if (k1 < 0 || k2 <= k1) {
		print "point.awk: a starved point's window is empty (the receiver's history ends too early)" > "/dev/stderr"
		exit 1
	}
	w = c[k2 + 1] - c[k1 + 1]
	r["delivered_pps"] = sprintf("%.0f", w * 1e9 / ((k2 - k1) * step))
	r["starve_head_total"] = c[k1 + 1] - c[1]
	r["starve_tail_total"] = d("sink_packets", "A", "B") - (c[k2 + 1] - c[1])
	r["guest_window_s"] = sprintf("%.3f", (k2 - k1) * step / 1e9)
}

# A starved point (meta.starved: the snapshot, C, D or a sample of the
# window, that the guest could not answer under the flood;
# lab/exp/rx/hooks.sh): no guest window, so no CPU split, no latency and
# no host shares.  What is exact are the A..B totals; the rates divide
# them by the flooder's own duration, all but delivered_pps, which comes
# from the receiver's own history of the window (starved_delivered).
# The guest's CPU did not idle while the sampler's request waited,
# runnable, so idle_cpu is 0 and it is saturated; gate_host passes (the
# host delivered enough to starve it).
function starved_row(    fs, cs, m, kv, i) {
	fs = v["flood.duration_ns"] / 1e9
	if (fs <= 0 || v["A.clocksource"] == "" || v["B.clocksource"] == "") {
		print "point.awk: a starved point needs the flooder's duration and snapshots A and B" > "/dev/stderr"
		exit 1
	}
	r["starved"] = 1
	r["offered_pps"] = sprintf("%.0f", (d("tap_tx_packets", "tapA", "tapB") + \
		d("tap_tx_dropped", "tapA", "tapB")) / fs)
	r["sent_pps"] = v["flood.rate_pps"]
	r["tap_drop_pps"] = sprintf("%.0f", d("tap_tx_dropped", "tapA", "tapB") / fs)
	split("nic_rx:nic_rx_packets udp_in:udp_in rcvbuf_err:udp_rcvbuferrors", m, " ")
	for (i = 1; i <= 3; i++) {
		split(m[i], kv, ":")
		r[kv[1] "_pps"] = sprintf("%.0f", d(kv[2], "A", "B") / fs)
	}
	r["nic_drop_pps"] = sprintf("%.0f", (d("nic_rx_dropped", "A", "B") + d("softnet_dropped", "A", "B")) / fs)
	cs = v["A.clocksource"]
	r["clocksource"] = v["B.clocksource"] == cs ? cs : ""
	r["idle_cpu"] = "0.0"
	r["closure_ok"] = 0
	gen_gate()
	r["gate_idle"] = 1
	r["gate_host"] = 1
	r["window_s"] = sprintf("%.3f", fs)
	# how long the SCHED_FIFO sampler waited runnable, over A..B
	r["sampler_wait_pct"] = pct(d("sampler_wait_ns", "A", "B"), d("t_ns", "A", "B"))
	# ... and as a share of --starve (own_starvation(), clock_gate())
	r["starve_wait_share"] = starve_wait_share()
	# QEMU's vCPU thread over A..B, the host's window of the point (its
	# clock gate, clock_gate())
	if (v["hostA.qemu_vcpu_run_ns"] != "" && v["hostB.qemu_vcpu_run_ns"] != "")
		r["qemu_vcpu_run_pct"] = pct(d("qemu_vcpu_run_ns", "hostA", "hostB"), d("t_ns", "tapA", "tapB"))
	starved_delivered()
}

END {
	if (v["meta.starved"] != "") {
		identity()
		r["generator"] = "flood"
		starved_row()
		clock_gate()
		totals()
		emit_row()
		exit
	}
	r["starved"] = 0
	if (win <= 0 || gwin <= 0) {
		print "point.awk: missing or empty window" > "/dev/stderr"
		exit 1
	}
	identity()
	lat = r["pass"] == "lat"

	tap_tx = d("tap_tx_packets", "tapC", "tapD")
	tap_drop = d("tap_tx_dropped", "tapC", "tapD")
	# the latency probes cross the tap during the window too
	r["offered_pps"] = per_s(tap_tx + tap_drop - v["probe.sent"])
	r["sent_pps"] = v["flood.rate_pps"]
	r["tap_drop_pps"] = per_s(tap_drop)
	r["nic_rx_pps"] = per_gs(d("nic_rx_packets", "C", "D"))
	r["nic_drop_pps"] = per_gs(d("nic_rx_dropped", "C", "D") + d("softnet_dropped", "C", "D"))
	r["udp_in_pps"] = per_gs(d("udp_in", "C", "D"))
	r["rcvbuf_err_pps"] = per_gs(d("udp_rcvbuferrors", "C", "D"))
	iperf3 = v["meta.generator"] == "iperf3"
	r["generator"] = iperf3 ? "iperf3" : "flood"
	r["delivered_pps"] = per_gs(iperf3 ? d("udp_in", "C", "D") - d("resp_packets", "C", "D") : \
		d("sink_packets", "C", "D"))

	cpu_split()
	r["clocksource"] = clocksource()
	attribution()
	r["napi_threads"] = v["D.napi_threads"] + 0
	r["net_rx_softirq_ps"] = per_gs(d("net_rx_softirqs", "C", "D"))
	gates()

	totals()
	r["window_s"] = sprintf("%.3f", win)
	r["guest_window_s"] = sprintf("%.3f", gwin)

	# the latency columns: the latency pass's, empty in the throughput pass
	if (lat) {
		r["probe_sent"] = v["probe.sent"] + 0
		r["probe_lost"] = v["probe.lost"] + 0
		r["probe_loss_pct"] = pct(v["probe.lost"], v["probe.sent"])
		split("p50 p90 p99 p999 max", q, " ")
		for (i = 1; i <= 5; i++) {
			r["probe_" q[i] "_us"] = v["probe." q[i] "_us"]
			r["tlat_" q[i] "_us"] = v["tlat." q[i] "_us"]
		}
		# the p99 over the answered probes alone (the revert's metric)
		r["probe_ap99_us"] = v["probe.answered_p99_us"]
		lb = v["probe.lost_bounded"]
		gsub(",", "+", lb)
		r["probe_lost_bounded"] = lb
		# where the lost probes went, over A..B (every probe of the
		# point is in it): not read and not dropped at the responder's
		# socket (the tap, the guest NIC or the stack before the
		# socket: shared with the flood), dropped at its socket, or read
		# and not answered within the timeout (late, or the reply lost)
		sd = d("resp_drops", "A", "B")
		r["probe_lost_socket"] = sd
		r["probe_lost_net"] = v["probe.sent"] - r["resp_rx_total"] - sd
		r["probe_lost_reply"] = r["resp_rx_total"] - (v["probe.sent"] - v["probe.lost"])
		r["tlat_n"] = v["tlat.n"] + 0
		r["tlat_overruns"] = v["tlat.overruns"] + 0
		r["tlat_head_overruns"] = v["tlat.head_overruns"]
		r["tlat_tail_overruns"] = v["tlat.tail_overruns"]
	}

	emit_row()
}
