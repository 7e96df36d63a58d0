# SPDX-License-Identifier: GPL-2.0
# report.md of a run, on stdout.  Inputs, in this order:
#   summary.csv  rates.csv   (plots/prep.awk)
#   claims.tsv               (plots/claims.awk)
#   params.tsv               (plots/json.awk of params.json)
# Variables: kernel (e.g. "Linux 6.12.118"), points (number of rows of
# points.csv), latency (1: the run has the latency probes' columns).
# The latency section is plots/report-latency.awk's.
#
#   awk -v kernel=... -v points=N -v latency=1 -f plots/fmt.awk \
#       -f plots/report.awk -f plots/report-latency.awk \
#       summary.csv rates.csv claims.tsv params.tsv

FNR == 1 { f++ }

f == 1 && FNR == 1 { split($0, sh, ","); next }
f == 1 {
	ns++
	n = split($0, a, ",")
	for (i = 1; i <= n; i++)
		S[ns, sh[i]] = a[i]
	next
}

f == 2 && FNR == 1 { split($0, rh, ","); next }
f == 2 {
	nrr++
	n = split($0, a, ",")
	for (i = 1; i <= n; i++)
		R[nrr, rh[i]] = a[i]
	next
}

f == 3 { C[++nc] = $0; next }

f == 4 {
	t = index($0, "\t")
	k = substr($0, 1, t - 1)
	P[k] = substr($0, t + 1)
	if (k ~ /^kernels\./) {
		rest = substr(k, 9)
		field = rest
		sub(/^.*\./, "", field)
		kv = substr(rest, 1, length(rest) - length(field) - 1)
		if (!(kv in kseen)) {
			kseen[kv] = 1
			kvar[++nk] = kv
		}
		if (!(field in fseen) && field != "variant") {
			fseen[field] = 1
			kfield[++nf] = field
		}
		K[kv, field] = P[k]
	} else
		pkey[++np] = k
}

# a markdown table cell: no pipes, no line breaks, empty shown as such
function cell(s) {
	gsub(/\|/, "\\|", s)
	gsub(/[\r\n]/, " ", s)
	return s == "" ? "(none)" : s
}

# "**Reproduced:** the rest"
function bold_lead(s) {
	if (match(s, /^[^:.]*[:.]/))
		return "**" substr(s, 1, RLENGTH) "**" substr(s, RLENGTH + 1)
	return s
}

function row4(a, b, c, d) {
	return "| " a " | " b " | " c " | " d " |"
}

function ci_cell(i, what, kind, n, cov) {
	return ci_range(S[i, what], S[i, what "_lo"], S[i, what "_hi"], kind, n) ", " ci_note_paren(cov, n)
}

# "75 % CI (n=3)"
function ci_note_paren(cov, n) {
	return n < 2 ? "no CI (n=" n ")" : sprintf("%.0f %% CI (n=%d)", 100 * cov, n)
}

function header(    vl) {
	vl = variant_list()
	printf "# Receive livelock lab: run %s (%s, %s)\n\n", P["run"], kernel,
		accel_tag()
	printf "%s guests (%s) under %s, 1 vCPU, on %s (%s CPUs, host kernel %s); " \
	       "%d points: rates %s pps (0 = unlimited) × %s repetitions.\n\n",
		kernel, vl, accel_name(P["accel"]), P["host_model"], P["host_cpus"],
		P["host_kernel"], points, P["rates"], P["reps"]
	if (P["generator"] == "iperf3")
		printf "Generator and receiver: %s, its UDP client in the lab netns and " \
		       "its server in the guest (`lab/run -g iperf3`), not the lab's " \
		       "flooder and udp_sink.\n\n", P["iperf3"]
}

function summary(    i, n) {
	print "## Summary\n"
	print "| Variant | MLFRR (pps) | Max overload | Delivered at max overload (pps) | Receiver CPU at max overload (%) |"
	print "|---|---|---|---|---|"
	for (i = 1; i <= ns; i++) {
		n = S[i, "overload_n"]
		printf "| %s | %s | %s | %s | %s |\n", S[i, "variant"],
			ci_cell(i, "mlfrr", "pps", S[i, "mlfrr_n"], S[i, "mlfrr_coverage"]),
			target_name(S[i, "overload_target"] == "unlimited" ? 0 : S[i, "overload_target"]) \
			" (" thou(S[i, "overload_offered"]) " pps offered)",
			ci_cell(i, "delivered", "pps", n, S[i, "overload_coverage"]),
			ci_cell(i, "recv_cpu", "pct", n, S[i, "overload_coverage"])
	}
	print ""
	print "Each cell: median over the repetitions [lo–hi], a distribution-free confidence interval " \
	      "of the median from order statistics, with its coverage (for 3 repetitions the interval is " \
	      "min–max and covers the median with 75 % probability; for 5, 94 %). " \
	      "MLFRR: the highest offered rate delivered to user space with < 1 % loss, per repetition " \
	      "(0: every rate lost more). " \
	      "Max overload: the unlimited rate (target 0), else the highest target. " \
	      "Receiver CPU: run time of the receiving process as a share of the guest's CPU.\n"
}

function claims(    i, a) {
	print "## Published claims against this run\n"
	print "| Claim | Published | This run | Verdict |"
	print "|---|---|---|---|"
	for (i = 1; i <= nc; i++) {
		split(C[i], a, "\t")
		print row4(cell(a[3]), cell(a[4]), cell(a[5]), bold_lead(cell(a[6])))
	}
	print ""
	print "Verdicts are computed from the medians and intervals above by plots/claims.awk: " \
	      "Dumazet: reproduced if ksoftirqd-fix delivers ≥ 2× vanilla with disjoint intervals " \
	      "and a receiver/ksoftirqd split within 35–65 %; Abeni: threaded-napi at max overload " \
	      "≥ 80 % of its own peak; Mogul & Ramakrishnan: vanilla at max overload < 50 % of its peak; " \
	      "the v6.5 revert: reproduced if ksoftirqd-fix's probe p99 at max overload is above both " \
	      "vanilla's and threaded-napi's with disjoint intervals (a lost-bounded p99 ranks above a " \
	      "measured one; when both are lost-bounded the probe loss decides, again with disjoint " \
	      "intervals) and threaded-napi's delivered rate at max overload is at least ksoftirqd-fix's " \
	      "lower bound; partly if one of the two halves holds; inconclusive if neither does and one " \
	      "repetition leaves the p99s without intervals.\n"
}

function plot(file, alt, text) {
	printf "### %s\n\n![%s](%s.png)\n\n%s ([SVG](%s.svg))\n\n", alt, alt, file, text, file
}

function plots() {
	print "## Plots\n"
	plot("livelock", "Delivered vs offered",
	     "Packets delivered to the receiving process against packets offered at the tap, per " \
	     "variant: medians with their CI as error bars; the dashed line is an ideal receiver. " \
	     "Receive livelock is the curve falling as the load rises.")
	plot("user-share", "Receiver CPU share",
	     "CPU share of the receiving process against offered load: a starved receiver drops to zero.")
	plot("cpu-breakdown", "CPU at max overload",
	     "Where the guest's CPU goes at each variant's highest overload (medians): /proc/stat " \
	     "categories stacked, and the receiving process, ksoftirqd/0 and the napi threads.")
	plot("drops", "Drops by layer",
	     "Packets lost per second at the host tap (QEMU not taking them), in the guest NIC/backlog " \
	     "and at the full socket receive buffer, one panel per variant.")
}

function points_table(    i) {
	print "## All rates (medians over the repetitions)\n"
	print "| Variant | Rate target | n | Offered (pps) | Delivered (pps) | Receiver CPU (%) | " \
	      "softirq (%) | Tap drops (pps) | NIC drops (pps) | Socket drops (pps) |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= nrr; i++)
		printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", R[i, "variant"],
			target_name(R[i, "rate_target"]), R[i, "n"], thou(R[i, "offered"]),
			thou(R[i, "delivered"]), pct1(R[i, "recv_cpu"]), pct1(R[i, "cpu_softirq"]),
			thou(R[i, "tap_drop"]), thou(R[i, "nic_drop"]), thou(R[i, "rcvbuf_err"])
	print ""
}

function params(    i, j, line, sep) {
	print "## Run parameters (params.json)\n"
	print "| Parameter | Value |"
	print "|---|---|"
	for (i = 1; i <= np; i++)
		printf "| %s | %s |\n", pkey[i], cell(P[pkey[i]])
	print ""
	if (nk == 0)
		return
	print "### Kernels\n"
	line = "| Variant"
	sep = "|---"
	for (j = 1; j <= nf; j++) {
		line = line " | " kfield[j]
		sep = sep "|---"
	}
	print line " |"
	print sep "|"
	for (i = 1; i <= nk; i++) {
		line = "| " kvar[i]
		for (j = 1; j <= nf; j++)
			line = line " | " cell(K[kvar[i], kfield[j]])
		print line " |"
	}
	print ""
}

END {
	header()
	summary()
	latency_section()
	claims()
	plots()
	points_table()
	params()
}
