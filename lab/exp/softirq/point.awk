# SPDX-License-Identifier: GPL-2.0
# One phase of the softirq experiment (lab/softirq) as a CSV row: the
# raw key=value tokens of lab/exp/softirq/hooks.sh (snapshots A, C, D, B
# of the guest, tapX./hostX. of the host, flood.*, probe.*, sirq.* and
# trace.*, meta.*).  Run after lab/lib/stats.awk and lab/lib/snapshot.awk,
# with -v header=1 to print the header instead.
#
# Rates come from the window C..D, offered over the host's (tap) window
# and delivered over the guest's; a starved phase (meta.starved) has
# neither C nor D answered, and gives only what A..B and its probes say.
# The probes of the other softirq users (sirq_*) are over the window in
# guest time (meta.win_from_ns..win_to_ns, hooks.sh's window_ns); the
# request/response probe (probe_*) over C..D, busy phases only.  The
# guest's clock: gate_clock as lab/exp/rx/point.awk's for a fixed speed
# (its TCG thread ran less than gate.tcg_run_pct of the host window and
# the guest's window is within gate.clock_err_pct of the host's; a
# starved phase on A..B).  The traced windows' figures are the
# analysis's (lab/lib/py/softirqrun.py, from raw/*.trace); here only what
# the dump said of its ring buffer (trace_overrun, trace_dropped).

function per_s(x) { return sprintf("%.0f", x / win) }
function gshare(ns) { return sprintf("%.1f", 100 * ns / (gwin * 1e9 * v["D.ncpu"])) }
function abs(x) { return x < 0 ? -x : x }
# the mean wait on the run queue of a thread group's runs over C..D (µs):
# schedstat's run_delay over its run count (pcount), exact in every
# window, traced or not (the traced windows' wake->run percentiles are
# the analysis's); empty when the group did not run
function wait_per_run(g, n) {
	n = d(g "_pcount", "C", "D")
	return n > 0 ? sprintf("%.1f", d(g "_wait_ns", "C", "D") / n / 1000) : ""
}

BEGIN {
	columns("run variant rep phase level pass slot pos rate_target busy window_s " \
		"offered_pps delivered_pps nic_rx_pps net_rx_softirq_ps timer_softirq_ps rcu_softirq_ps " \
		"block_softirq_ps starved " \
		"recv_cpu ksoftirqd_cpu napi_cpu ksoftirqd_runs_ps ksoftirqd_wait_us napi_runs_ps napi_wait_us " \
		"spin_iters_ps " \
		"timer_n timer_p50_us timer_p99_us timer_p999_us timer_max_us " \
		"poll_n poll_p50_us poll_p99_us poll_p999_us poll_max_us " \
		"rcu_n rcu_p50_us rcu_p99_us rcu_p999_us rcu_max_us " \
		"block_n block_p50_us block_p99_us block_p999_us block_max_us sirq_lost " \
		"probe_sent probe_lost probe_loss_pct probe_p50_us probe_p99_us probe_p999_us probe_ap99_us " \
		"trace_bytes trace_overrun trace_dropped win_from_ns win_to_ns " \
		"clock_err_pct window_clock_err_pct qemu_vcpu_run_pct gate_clock settle_s settle_idle starve_wait_share")
}

END {
	split("run:run variant:variant rep:rep phase:phase level:level pass:pass slot:slot pos:pos " \
	      "rate_target:rate busy:busy window_s:window_s settle_s:settle_s settle_idle:settle_idle " \
	      "win_from_ns:win_from_ns win_to_ns:win_to_ns", m, " ")
	for (i in m) {
		split(m[i], kv, ":")
		r[kv[1]] = v["meta." kv[2]]
	}
	r["starved"] = v["meta.starved"] != "" ? 1 : 0
	hab = d("t_ns", "tapA", "tapB")
	r["clock_err_pct"] = hab > 0 ? sprintf("%.2f", 100 * (d("t_ns", "A", "B") / hab - 1)) : ""
	if (r["starved"]) {
		r["qemu_vcpu_run_pct"] = pct(d("qemu_vcpu_run_ns", "hostA", "hostB"), hab)
		# the guest's own starvation, not a host's stall (lab/lib/stats.awk)
		r["starve_wait_share"] = starve_wait_share()
		r["gate_clock"] = r["clock_err_pct"] != "" && r["qemu_vcpu_run_pct"] + 0 < rule("gate.tcg_run_pct") &&
			abs(r["clock_err_pct"] + 0) <= rule("gate.clock_err_pct") + 0 && own_starvation(r["starve_wait_share"]) ? 1 : 0
	} else {
		# the request/response probes cross the tap in the window too
		r["offered_pps"] = per_s(d("tap_tx_packets", "tapC", "tapD") + d("tap_tx_dropped", "tapC", "tapD") - \
			v["probe.sent"])
		r["delivered_pps"] = per_gs(d("sink_packets", "C", "D"))
		r["nic_rx_pps"] = per_gs(d("nic_rx_packets", "C", "D"))
		r["net_rx_softirq_ps"] = per_gs(d("net_rx_softirqs", "C", "D"))
		split("timer rcu block", vec, " ")
		for (i = 1; i <= 3; i++)
			if (v["C." vec[i] "_softirqs"] != "")
				r[vec[i] "_softirq_ps"] = per_gs(d(vec[i] "_softirqs", "C", "D"))
		r["spin_iters_ps"] = per_gs(d("spin_iters", "C", "D"))
		r["recv_cpu"] = gshare(d("sink_run_ns", "C", "D"))
		r["ksoftirqd_cpu"] = gshare(d("ksoftirqd_run_ns", "C", "D"))
		r["napi_cpu"] = gshare(d("napi_run_ns", "C", "D"))
		r["ksoftirqd_runs_ps"] = per_gs(d("ksoftirqd_pcount", "C", "D"))
		r["ksoftirqd_wait_us"] = wait_per_run("ksoftirqd")
		r["napi_runs_ps"] = per_gs(d("napi_pcount", "C", "D"))
		r["napi_wait_us"] = wait_per_run("napi")
		r["window_clock_err_pct"] = sprintf("%.2f", 100 * (gwin / win - 1))
		r["qemu_vcpu_run_pct"] = sprintf("%.1f", 100 * d("qemu_vcpu_run_ns", "hostC", "hostD") / (win * 1e9))
		r["gate_clock"] = r["qemu_vcpu_run_pct"] + 0 < rule("gate.tcg_run_pct") &&
			abs(r["window_clock_err_pct"] + 0) <= rule("gate.clock_err_pct") + 0 ? 1 : 0
	}
	split("timer poll rcu block", kind, " ")
	split("n p50_us p99_us p999_us max_us", q, " ")
	for (i = 1; i <= 4; i++)
		for (j = 1; j <= 5; j++) {
			x = v["sirq." kind[i] "_" q[j]]
			r[kind[i] "_" q[j]] = x == "-" ? "" : x
		}
	r["sirq_lost"] = v["sirq.sirq_lost"]
	if (v["probe.sent"] != "") {
		r["probe_sent"] = v["probe.sent"] + 0
		r["probe_lost"] = v["probe.lost"] + 0
		r["probe_loss_pct"] = pct(v["probe.lost"], v["probe.sent"])
		split("p50 p99 p999", pq, " ")
		for (j = 1; j <= 3; j++)
			r["probe_" pq[j] "_us"] = v["probe." pq[j] "_us"]
		r["probe_ap99_us"] = v["probe.answered_p99_us"]
	}
	split("bytes overrun dropped", tk, " ")
	for (j = 1; j <= 3; j++)
		r["trace_" tk[j]] = v["trace." tk[j]]
	emit_row()
}
