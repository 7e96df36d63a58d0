# SPDX-License-Identifier: GPL-2.0
# One boot of the TX experiment (lab/tx): the raw samples -> one CSV row.
#
# Input: whitespace-separated key=value tokens, keys prefixed by where
# they come from:
#   meta.*      run, variant, rep, vcpus, threads, payload, batch
#   tap0.*      host tap counters before the guest booted
#   A.* C.* D.* B.*   guest snapshots (lab/tools/sampler, txstat.h keys):
#               A after boot, C when the window opens (the senders have run
#               for the warm-up), D when it closes, B once the senders have
#               stopped and the qdisc is empty
#   tapA. tapC. tapD. tapB.   host tap counters read just before each
# Rates and CPU shares come from C..D; the *_total columns are cumulative
# at B (the qdisc was installed before the senders started, and nothing
# else leaves eth0), so
#   nic_tx_total <= qdisc_packets_total,
#   qdisc_packets_total + qdisc_drops_total <= sent_total
# must hold.  CPU shares are % of the guest's whole CPU (vcpus x window),
# the base of the /proc/stat split.  Run after lab/lib/snapshot.awk, with -v header=1 for the header.

function cpu_share(k) { return pct(d(k, "C", "D"), gwin * 1e9 * ncpu) }

BEGIN {
	columns("run variant rep vcpus threads payload batch " \
		"qdisc_pps qdisc_deq_pps sent_pps host_rx_pps drop_pps requeue_ps overlimit_ps " \
		"net_tx_softirq_ps net_rx_softirq_ps ksoftirqd_wakeups_ps ksoftirqd0_wakeups_ps " \
		"ksoftirqd1_wakeups_ps ksoftirqd_pcount_ps " \
		"cpu_user cpu_system cpu_irq cpu_softirq cpu_idle cpu_steal " \
		"sender_cpu ksoftirqd_cpu ksoftirqd0_cpu ksoftirqd1_cpu " \
		"sent_total send_errors_total qdisc_packets_total qdisc_drops_total " \
		"qdisc_requeues_total nic_tx_total host_rx_total host_rx_dropped_total " \
		"prio_packets tbf_packets fq_codel_packets warmup_s window_s guest_window_s")
}

END {
	ncpu = v["meta.vcpus"] + 0
	if (win <= 0 || gwin <= 0 || ncpu < 1) {
		print "tx-point.awk: missing or empty window" > "/dev/stderr"
		exit 1
	}
	if (v["D.blast_running"] != 1 || v["B.blast_running"] != 0) {
		print "tx-point.awk: the senders must run through the window and stop before B" > "/dev/stderr"
		exit 1
	}
	r["run"] = v["meta.run"]; r["variant"] = v["meta.variant"]; r["rep"] = v["meta.rep"]
	r["vcpus"] = ncpu; r["threads"] = v["meta.threads"]
	r["payload"] = v["meta.payload"]; r["batch"] = v["meta.batch"]

	r["qdisc_pps"] = per_gs(d("nic_tx_packets", "C", "D"))
	r["qdisc_deq_pps"] = per_gs(d("qdisc_prio_packets", "C", "D"))
	r["sent_pps"] = per_gs(d("blast_sent", "C", "D"))
	r["host_rx_pps"] = sprintf("%.0f", d("tap_rx_packets", "tapC", "tapD") / win)
	r["drop_pps"] = per_gs(d("qdisc_prio_drops", "C", "D"))
	r["requeue_ps"] = per_gs(d("qdisc_prio_requeues", "C", "D"))
	r["overlimit_ps"] = per_gs(d("qdisc_tbf_overlimits", "C", "D"))
	r["net_tx_softirq_ps"] = per_gs(d("net_tx_softirqs", "C", "D"))
	r["net_rx_softirq_ps"] = per_gs(d("net_rx_softirqs", "C", "D"))
	w0 = d("ksoftirqd0_wakeups", "C", "D"); w1 = d("ksoftirqd1_wakeups", "C", "D")
	r["ksoftirqd_wakeups_ps"] = per_gs(w0 + w1)
	r["ksoftirqd0_wakeups_ps"] = per_gs(w0)
	r["ksoftirqd1_wakeups_ps"] = per_gs(w1)
	r["ksoftirqd_pcount_ps"] = per_gs(d("ksoftirqd0_pcount", "C", "D") + d("ksoftirqd1_pcount", "C", "D"))

	cpu_split()
	r["sender_cpu"] = cpu_share("blast_run_ns")
	r["ksoftirqd0_cpu"] = cpu_share("ksoftirqd_run_ns")
	r["ksoftirqd1_cpu"] = cpu_share("ksoftirqd1_run_ns")
	r["ksoftirqd_cpu"] = pct(d("ksoftirqd_run_ns", "C", "D") + d("ksoftirqd1_run_ns", "C", "D"),
				 gwin * 1e9 * ncpu)

	r["sent_total"] = v["B.blast_sent"] + 0
	r["send_errors_total"] = v["B.blast_errors"] + 0
	r["qdisc_packets_total"] = v["B.qdisc_prio_packets"] + 0
	r["qdisc_drops_total"] = v["B.qdisc_prio_drops"] + 0
	r["qdisc_requeues_total"] = v["B.qdisc_prio_requeues"] + 0
	r["nic_tx_total"] = v["B.nic_tx_packets"] + 0
	r["host_rx_total"] = d("tap_rx_packets", "tap0", "tapB")
	r["host_rx_dropped_total"] = d("tap_rx_dropped", "tap0", "tapB")
	r["prio_packets"] = v["B.qdisc_prio_packets"] + 0
	r["tbf_packets"] = v["B.qdisc_tbf_packets"] + 0
	r["fq_codel_packets"] = v["B.qdisc_fq_codel_packets"] + 0
	r["warmup_s"] = sprintf("%.3f", (v["C.t_ns"] - v["C.blast_start_ns"]) / 1e9)
	r["window_s"] = sprintf("%.3f", win)
	r["guest_window_s"] = sprintf("%.3f", gwin)

	emit_row()
}
