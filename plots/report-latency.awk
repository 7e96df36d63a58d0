# SPDX-License-Identifier: GPL-2.0
# The latency section of report.md (functions only; loaded after
# plots/report.awk, which calls latency_section() and reads the inputs
# into S, R, P).  Variable: latency (1 if points.csv has the probes'
# columns, see plots/plot).
#
#   awk -v latency=1 ... -f lab/lib/stats.awk -f plots/fmt.awk -f plots/report.awk \
#       -f plots/report-latency.awk summary.csv rates.csv claims.tsv params.tsv

# the row of rates.csv (R) of summary row i's variant at rate t
function rate_row(i, t,    j) {
	for (j = 1; j <= nrr; j++)
		if (R[j, "variant"] == S[i, "variant"] && R[j, "rate_target"] + 0 == t + 0)
			return j
	return 0
}

# a latency metric of rates.csv row j: median [CI] in µs, lost-bounded
# values marked; "(n=k)" when fewer repetitions than the row have it
function lat_cell(j, m,    n, s) {
	n = R[j, m "_n"]
	s = usec_range(R[j, m], R[j, m "_lo"], R[j, m "_hi"], R[j, m "_b"], R[j, m "_lo_b"],
		R[j, m "_hi_b"], n)
	return s (R[j, m] != "" && n + 0 < R[j, "n"] + 0 ? " (n=" n ")" : "")
}

function loss_cell(j,    n) {
	n = R[j, "probe_loss_n"]
	return R[j, "probe_loss"] == "" ? "–" : \
	       ci_range(R[j, "probe_loss"], R[j, "probe_loss_lo"], R[j, "probe_loss_hi"], "pct", n)
}

function ms_text(ms) {
	return ms == "" ? "an unrecorded timeout" : thou(ms) " ms"
}

# a period in µs for people: 1 ms, 500 µs
function period_text(us) {
	if (us == "")
		return "periodic"
	return us % 1000 == 0 ? thou(us / 1000) " ms" : thou(us) " µs"
}

# the timer periods in one measurement window, "" if unknown
function periods_per_window() {
	if (P["window_s"] + 0 <= 0 || P["timer_period_us"] + 0 <= 0)
		return ""
	return thou(P["window_s"] * 1e6 / P["timer_period_us"])
}

function latency_section(    i, j, cov, n) {
	print "## Latency under flood\n"
	if (!latency) {
		print "Latency was not measured in this run: its points.csv has no latency probe " \
		      "columns (a run made before the probes were added), so there are no latency " \
		      "plots and the claim of the v6.5 revert below is not measured.\n"
		return
	}
	if (lrate == "") {
		print "This run had no latency pass (`--lat-rates \"\"`): latency was not measured and " \
		      "the claim of the v6.5 revert below is not either.\n"
		return
	}
	printf "In a pass of its own after the throughput pass (so that the probes do not load the " \
	       "throughput windows), at %s pps offered, the host sent", thou(lrate)
	printf " %s request/response probes per second " \
	       "(UDP, timeout %s) to a responder process in the guest (normal priority, its own " \
	       "port, not the flooded one), and a normal-priority guest thread slept with " \
	       "clock_nanosleep to %s boundaries. This is what the v6.5 revert of \"softirq: Let " \
	       "ksoftirqd do its job\" (d15121be7485) was about: other work that needs softirqs or " \
	       "the CPU while the flood is being handled.\n\n",
		P["probe_rate"] == "" ? "an unrecorded number of" : P["probe_rate"],
		ms_text(P["probe_timeout_ms"]),
		period_text(P["timer_period_us"])
	printf "### At %s pps%s\n\n", thou(lrate), lrate == vrate ? " (the verdict rate)" : \
		" (not the verdict rate" (vrate == "" ? "" : ", " thou(vrate) " pps") ")"
	print "| Variant | Probe p50 (µs) | Probe p99 (µs) | Probe p99.9 (µs) | Probe loss (%) | " \
	      "Timer p50 (µs) | Timer p99 (µs) | Timer max (µs) |"
	print "|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= ns; i++) {
		j = rate_row(i, lrate)
		if (!j)
			continue
		cov = R[j, "ci_coverage"]
		n = R[j, "n"]
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", S[i, "variant"],
			lat_cell(j, "probe_p50"), lat_cell(j, "probe_p99"), lat_cell(j, "probe_p999"),
			loss_cell(j), lat_cell(j, "tlat_p50"), lat_cell(j, "tlat_p99"), lat_cell(j, "tlat_max")
	}
	print ""
	printf "Each cell: median over the repetitions [lo–hi], the CI of the median as in the " \
	       "summary (%s). A lost probe counts as lost, not fast: the percentiles rank lost " \
	       "probes above every answered one, so a percentile that falls among them is reported " \
	       "as the timeout (%s) and marked ≥, a lower bound; \"(whole CI)\": the median and both " \
	       "ends of its interval are. With more than 1 %% of the probes lost the p99 is such a " \
	       "bound, and the loss column says more than the p99. Timer: how late the guest thread " \
	       "woke, over the wake-ups that happened; periods it overslept entirely are counted in " \
	       "the table below, not in the percentiles.\n\n",
		ci_note(cov, n), ms_text(P["probe_timeout_ms"])
	plot("latency", "Latency against offered load",
	     "Left: the request/response probe's round-trip time (p99 solid, p50 dashed); a hollow " \
	     "triangle on the dashed line is a percentile among the lost probes, at least the " \
	     "timeout. Right: the guest timer thread's wake-up lateness. Medians with their CI " \
	     "as error bars, log scales.")
	plot("tradeoff", "Throughput against latency",
	     "Each variant at the latency pass's rate: packets/s delivered to the flooded receiver " \
	     "against the probe's p99 (a hollow point with an arrow: at least the timeout), with " \
	     "both CIs; the dotted line runs to the p50. The labels give the probe loss. Up and " \
	     "to the left is better.")
	lat_rates_table()
}

function lat_rates_table(    j, pw) {
	pw = periods_per_window()
	print "### Every rate of the latency pass (medians over the repetitions)\n"
	print "| Variant | Rate target | Probe p50 (µs) | Probe p99 (µs) | Probe loss (%) | " \
	      "Lost probes: before the socket / at it / after the read | " \
	      "Timer p99 (µs) | Timer max (µs) | Timer periods overslept" (pw == "" ? "" : " (of " pw ")") " |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
	for (j = 1; j <= nrr; j++)
		if (R[j, "probe_p50_n"] + 0 > 0 || R[j, "probe_loss_n"] + 0 > 0)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", R[j, "variant"],
			target_name(R[j, "rate_target"]), usec(R[j, "probe_p50"], R[j, "probe_p50_b"]),
			usec(R[j, "probe_p99"], R[j, "probe_p99_b"]),
			R[j, "probe_loss"] == "" ? "–" : pct1(R[j, "probe_loss"]),
			R[j, "probe_lost_socket"] == "" ? "–" : \
			thou(R[j, "probe_lost_net"]) " / " thou(R[j, "probe_lost_socket"]) " / " \
			thou(R[j, "probe_lost_reply"]),
			usec(R[j, "tlat_p99"], 0), usec(R[j, "tlat_max"], 0),
			R[j, "tlat_overruns"] == "" ? "–" : thou(R[j, "tlat_overruns"])
	print "\nLost probes (medians of counts per point): before the responder's socket (the " \
	      "tap, the guest NIC or the stack: the host's and the flood's share), dropped at " \
	      "its socket (its receive buffer full), or read but not answered within the " \
	      "timeout (late, or the reply lost).\n"
}
