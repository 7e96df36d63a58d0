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
#   flood.*                  the flooder's own report
#   probe.*                  the host's request/response probe over C..D
#   tlat.*                   the guest's timer probe over C..D
#   meta.*                   run/variant/rep/rate/generator, into the row
# Rates and CPU shares come from C..D, host counters over the host's
# window, guest counters over the guest's; the *_total columns from A..B,
# where every counter sees exactly the packets of this point, so
#   delivered_total <= udp_in_total <= nic_rx_total <= sent_total
# must hold (the lab pins ARP entries on both sides and disables IPv6 on
# the tap, so nothing but flood and probe packets crosses it).
#
# With meta.generator=iperf3 the receiver is iperf3's server, which has no
# live counter: delivered over C..D is what the kernel handed to user
# space (UDP InDatagrams, counted in recvmsg) less what the responder took
# (resp_packets); delivered_total is the server's own count of its test
# (iperf3_rx_packets, A..B), and sent_total the netns's IP OutRequests,
# since iperf3's TCP control connection crosses the tap too.  Run after
# lab/snapshot.awk, with -v header=1 to print the header instead.

function per_s(x) { return sprintf("%.0f", x / win) }

BEGIN {
	columns("run variant rep rate_target offered_pps sent_pps tap_drop_pps " \
		"nic_rx_pps nic_drop_pps udp_in_pps rcvbuf_err_pps delivered_pps " \
		"cpu_user cpu_system cpu_irq cpu_softirq cpu_idle cpu_steal " \
		"recv_cpu ksoftirqd_cpu napi_cpu napi_threads net_rx_softirq_ps " \
		"sent_total tap_tx_total tap_drop_total nic_rx_total nic_drop_total " \
		"udp_in_total rcvbuf_err_total delivered_total window_s guest_window_s " \
		"probe_sent probe_lost probe_loss_pct probe_p50_us probe_p90_us probe_p99_us " \
		"probe_p999_us probe_max_us probe_lost_bounded responder_cpu " \
		"tlat_n tlat_p50_us tlat_p90_us tlat_p99_us tlat_p999_us tlat_max_us tlat_overruns " \
		"flood_sent_total loss_pct generator resp_rx_total")
}

END {
	if (win <= 0 || gwin <= 0) {
		print "point.awk: missing or empty window" > "/dev/stderr"
		exit 1
	}
	r["run"] = v["meta.run"]; r["variant"] = v["meta.variant"]
	r["rep"] = v["meta.rep"]; r["rate_target"] = v["meta.rate"]

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
	r["recv_cpu"] = pct(d("sink_run_ns", "C", "D"), gwin * 1e9)
	r["ksoftirqd_cpu"] = pct(d("ksoftirqd_run_ns", "C", "D"), gwin * 1e9)
	r["napi_cpu"] = pct(d("napi_run_ns", "C", "D"), gwin * 1e9)
	r["napi_threads"] = v["D.napi_threads"] + 0
	r["net_rx_softirq_ps"] = per_gs(d("net_rx_softirqs", "C", "D"))

	# everything the host sent the guest: flood and latency probes
	r["sent_total"] = iperf3 ? d("ip_out", "tapA", "tapB") : v["flood.sent"] + v["probe.sent"]
	r["tap_tx_total"] = d("tap_tx_packets", "tapA", "tapB")
	r["tap_drop_total"] = d("tap_tx_dropped", "tapA", "tapB")
	r["nic_rx_total"] = d("nic_rx_packets", "A", "B")
	r["nic_drop_total"] = d("nic_rx_dropped", "A", "B") + d("softnet_dropped", "A", "B")
	r["udp_in_total"] = d("udp_in", "A", "B")
	r["rcvbuf_err_total"] = d("udp_rcvbuferrors", "A", "B")
	r["delivered_total"] = d(iperf3 ? "iperf3_rx_packets" : "sink_packets", "A", "B")
	r["resp_rx_total"] = d("resp_packets", "A", "B")
	r["window_s"] = sprintf("%.3f", win)
	r["guest_window_s"] = sprintf("%.3f", gwin)

	r["probe_sent"] = v["probe.sent"] + 0
	r["probe_lost"] = v["probe.lost"] + 0
	r["probe_loss_pct"] = pct(v["probe.lost"], v["probe.sent"])
	split("p50 p90 p99 p999 max", q, " ")
	for (i = 1; i <= 5; i++) {
		r["probe_" q[i] "_us"] = v["probe." q[i] "_us"]
		r["tlat_" q[i] "_us"] = v["tlat." q[i] "_us"]
	}
	lb = v["probe.lost_bounded"]
	gsub(",", "+", lb)
	r["probe_lost_bounded"] = lb
	r["responder_cpu"] = pct(d("responder_run_ns", "C", "D"), gwin * 1e9)
	r["tlat_n"] = v["tlat.n"] + 0
	r["tlat_overruns"] = d("tlat_overruns", "C", "D")

	# Loss of this point, exact: flood packets that never reached the
	# receiver, over the whole flood (A..B, pipeline idle at both ends).
	r["flood_sent_total"] = v["flood.sent"] + 0
	r["loss_pct"] = v["flood.sent"] > 0 ? \
		sprintf("%.2f", 100 * (1 - r["delivered_total"] / v["flood.sent"])) : "100.00"

	emit_row()
}
