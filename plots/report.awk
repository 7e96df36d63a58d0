# SPDX-License-Identifier: GPL-2.0
# report.md of a run, on stdout.  Inputs, in this order:
#   summary.csv              (summarize rx, lab/lib/lib.sh)
#   rates.csv                (plots/prep.awk)
#   claims.tsv               (plots/claims.awk)
#   params.tsv               (params_tsv (lab/lib/lib.sh) of params.json)
# Variables: kernel (e.g. "Linux 6.12.118"), points (number of rows of
# points.csv), latency (1: the run has the latency probes' columns),
# vrate and lrate (the verdict rate and the latency pass's rate, empty if
# none: plots/prep.awk's verdict.txt).  The latency section is
# plots/report-latency.awk's.
#
#   awk -v kernel=... -v points=N -v latency=1 -v vrate=R -v lrate=L \
#       -f lab/lib/stats.awk -f plots/fmt.awk -f plots/report.awk \
#       -f plots/report-latency.awk \
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

f == 5 {
	t = index($0, "\t")
	DEF[++ndef] = substr($0, 1, t - 1)
	DSENT[ndef] = substr($0, t + 1)
	next
}

f == 4 && FILENAME ~ /params\.tsv$/ {
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

# "75 % CI (n=3)"
function ci_note_paren(cov, n) {
	return n < 2 ? "no CI (n=" n ")" : sprintf("%.0f %% CI (n=%d)", 100 * cov, n)
}

# how the boots were ordered (params.json variant_order, order_balanced)
function variant_order() {
	if (P["variant_order"] != "williams")
		return "variant order rotated per repetition"
	if (P["order_balanced"] == "true")
		return "variant order from a Williams design, balanced"
	return "variant order from a Williams design, not balanced: " P["reps"] \
	       (P["reps"] == 1 ? " repetition is not a whole design" : " repetitions are not whole designs")
}

function header(    vl) {
	vl = variant_list()
	printf "# Receive livelock lab: run %s (%s, %s)\n\n", P["run"], kernel,
		accel_tag()
	printf "%s guests (%s) under %s, 1 vCPU, on %s (%s CPUs, host kernel %s); " \
	       "%d points: throughput pass at %s pps, %s, × %s repetitions " \
	       "(%s, rate order alternating).\n\n",
		kernel, vl, accel_name(P["accel"]), P["host_model"], P["host_cpus"],
		P["host_kernel"], points, P["rates"],
		P["lat_rates"] == "" ? "no latency pass" : "latency pass at " P["lat_rates"] " pps",
		P["reps"], variant_order()
	if (P["generator"] == "iperf3")
		printf "Generator and receiver: %s, its UDP client in the lab netns and " \
		       "its server in the guest (`lab/run -g iperf3`), not the lab's " \
		       "flooder and udp_sink.\n\n", P["iperf3"]
}

# rates.csv row of variant v at rate t, 0 if none
function rrow(v, t,    j) {
	for (j = 1; j <= nrr; j++)
		if (R[j, "variant"] == v && R[j, "rate_target"] + 0 == t + 0)
			return j
	return 0
}

# a metric of rates.csv row j: median [lo–hi]
function mcell(j, m, kind) {
	if (!j || R[j, m] == "")
		return "–"
	if (kind == "us")
		return R[j, "n"] < 2 ? num(R[j, m]) : num(R[j, m]) " [" num(R[j, m "_lo"]) "–" num(R[j, m "_hi"]) "]"
	return ci_range(R[j, m], R[j, m "_lo"], R[j, m "_hi"], kind, R[j, "n"])
}

function verdict_point(    i, j, v) {
	print "## The verdict point\n"
	if (vrate == "") {
		print "**No verdict point.** At no offered rate was every " (ndef ? "kernel " : "") "variant's guest saturated " \
		      "(median idle ≤ " num(rule("gate.idle_pct")) " % of its CPU) with the flooder on target " \
		      "(median within " num(rule("gate.gen_err_pct")) " % of the rate asked for); see the gates at every rate below. The claims are " \
		      "inconclusive.\n"
		return
	}
	printf "**%s pps**%s: the highest offered rate at which every %svariant's guest was saturated " \
	       "(median idle ≤ %s %% of its CPU), the flooder on target (median within %s %% of the " \
	       "rate asked for) and the host able to deliver it: the same offered load for all, " \
	       "chosen by the state of the guests, not by a generator setting. Every number below " \
	       "is taken there.%s\n\n", thou(vrate),
	       P["knee_pps"] == "" ? "" : sprintf(" (%s× the knee of %s pps)", num(vrate / P["knee_pps"]), thou(P["knee_pps"])),
	       ndef ? "kernel " : "", num(rule("gate.idle_pct")), num(rule("gate.gen_err_pct")), ceiling_note()
	print "| Variant | Delivered (pps) | Receiver CPU (%) | Receiver run delay (%) | " \
	      "Receiver µs/packet | ksoftirqd/0 (%) | napi (%) | softirq in irq ctx (%) | " \
	      "Guest idle (%) | Generator error (%) | QEMU main loop ran / waited (%) | CPU books (%) |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= ns; i++) {
		v = S[i, "variant"]
		j = rrow(v, vrate)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", v,
			mcell(j, "delivered", "pps"), mcell(j, "recv_cpu", "pct"),
			mcell(j, "recv_wait", "pct"), mcell(j, "recv_us_per_pkt", "us"),
			mcell(j, "ksoftirqd_cpu", "pct"), mcell(j, "napi_cpu", "pct"),
			mcell(j, "softirq_irqctx", "pct"), mcell(j, "idle", "pct"),
			j ? num(R[j, "gen_err"]) : "–", j ? pct1(R[j, "qemu_main_run"]) : "–",
			j ? pct1(R[j, "qemu_main_wait"]) : "–", j ? closure_cell(R[j, "closure"]) : "–"
	}
	print ""
	print "Medians over the repetitions [lo–hi]: a distribution-free confidence interval of the " \
	      "median from order statistics (5 repetitions: min–max, 94 % coverage; 3: 75 %). " \
	      "Receiver CPU: the receiving process's user + system time (schedstat run time), not " \
	      "/proc/stat's user column. Run delay: the share of the window the receiver was " \
	      "runnable but waiting for the CPU. softirq in irq ctx: the irq time of /proc/pressure/irq " \
	      "(hardirq and softirq run in irq context, exact) less hardirq. CPU books: how far the sum of every task's run time, hardirq, " \
	      "softirq in irq context and idle is from the window, median over the repetitions (0: they " \
	      "add up; ✗ outside ±3 %). A repetition whose books do not close within ±3 % gives no " \
	      "CPU share (receiver, threads, softirq, µs per packet): its shares are left out of the " \
	      "medians, and a cell with none is –. QEMU main loop: the host thread that moves " \
	      "packets from the tap into the guest, its run and wait (runnable, not running) shares " \
	      "of the window.\n"
}

# the host's delivery ceiling at the verdict rate: the lowest median over
# the variants not starved there, against the knee
function ceiling_note(    i, j, lo) {
	lo = ""
	for (i = 1; i <= ns; i++) {
		j = rrow(S[i, "variant"], vrate)
		if (j && R[j, "host_ceiling"] != "" && (lo == "" || R[j, "host_ceiling"] + 0 < lo + 0))
			lo = R[j, "host_ceiling"]
	}
	if (lo == "")
		return ""
	return sprintf(" The host's delivery ceiling there: at least %s pps (the lowest median over " \
		"the variants)%s.", thou(lo), P["knee_pps"] == "" ? "" : \
		sprintf(", %s× the knee", num(lo / P["knee_pps"])))
}

function closure_cell(x) {
	return sprintf("%+.1f", x) (x + 0 > 3 || x + 0 < -3 ? " ✗" : "")
}

function mlfrr(    i) {
	print "## MLFRR\n"
	print "| Variant | MLFRR (pps) |"
	print "|---|---|"
	for (i = 1; i <= ns; i++)
		printf "| %s | %s |\n", S[i, "variant"],
			S[i, "mlfrr_lo"] == "" ? "below " thou(S[i, "mlfrr_hi"]) : \
			S[i, "mlfrr_hi"] == "" ? "≥ " thou(S[i, "mlfrr_lo"]) " (no rate lost ≥ " num(rule("loss.free_pct")) " %)" : \
			"between " thou(S[i, "mlfrr_lo"]) " and " thou(S[i, "mlfrr_hi"])
	print ""
	print "Mogul & Ramakrishnan's maximum loss-free receive rate, bracketed by the grid: the " \
	      "highest rate such that it and every lower rate lost < " num(rule("loss.free_pct")) " % (median over the " \
	      "repetitions), and the first rate that did not.\n"
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
	print "One rule decides every verdict (plots/claims.awk): a claim is a ratio and a " \
	      "threshold; the ratio is taken per repetition, pairing numbers of the same repetition " \
	      "(a point off its own generator target by more than " num(rule("gate.point_gen_err_pct")) \
	      " % or off its clock enters no pair and sets no peak; a guest that only lost time bounds " \
	      "its peak from below at its rate per host second), " \
	      "and the confidence interval of its median is set against the threshold. Entirely past " \
	      "it: the claim holds, and is *reproduced* if its mechanism gates hold too (the work " \
	      "visibly in ksoftirqd/0 or the napi threads, ≥ " num(rule("mech.thread_cpu_pct")) " % of the CPU; for the livelock, " \
	      "softirq in irq context taking more CPU than the receiver, or the guest starved), *partly* if not. Entirely " \
	      "short of it: *not reproduced*. Across it: *inconclusive*. Fewer than " \
	      num(rule("claim.min_pairs")) " pairs judge nothing. Thresholds (lab/lib/rules.tsv): Dumazet " \
	      "ksoftirqd-fix/vanilla ≥ " num(rule("claim.dumazet")) " at every rate of the overload " \
	      "region, judged at the worst (and the receiver/ksoftirqd split within " \
	      num(rule("mech.split_lo_pct")) "–" num(rule("mech.split_hi_pct")) " %, only " \
	      "where the CPU books close); Abeni threaded-napi's lowest / its peak past the peak ≥ " \
	      num(rule("claim.abeni")) "; Mogul & Ramakrishnan vanilla / its peak < " num(rule("claim.mogul")) \
	      "; the revert: ksoftirqd-fix's probe tail over vanilla's and threaded-napi's > " \
	      num(rule("claim.revert_latency")) " (p99, or the loss when a p99 sits at the timeout) " \
	      "and threaded-napi / ksoftirqd-fix delivered ≥ " num(rule("claim.revert_throughput")) ".\n"
}

function plot(file, alt, text) {
	printf "### %s\n\n![%s](%s.png)\n\n%s ([SVG](%s.svg))\n\n", alt, alt, file, text, file
}

function plots() {
	print "## Plots\n"
	plot("livelock", "Delivered vs offered",
	     "Packets delivered to the receiving process against packets offered at the tap, per " \
	     "variant: medians with their CI as error bars; the dashed line is an ideal receiver. " \
	     "Receive livelock is the curve falling as the load rises. Hollow markers: points that " \
	     "fail a gate (guest not saturated, or the flooder off its target).")
	plot("user-share", "Receiver CPU share",
	     "CPU share of the receiving process (its user + system time, not /proc/stat's user " \
	     "column) against offered load: a starved receiver drops to zero.")
	plot("cpu-breakdown", "Where the CPU went at the verdict point",
	     "Each variant's guest CPU at the verdict rate (medians), stacked to 100 %: the " \
	     "receiving process (user + system), ksoftirqd/0, the napi threads, softirq run in irq " \
	     "context, hardirq, other tasks, the lab's sampler and responder, idle. The CPU books' " \
	     "residual is printed over each bar.")
	plot("run-delay", "Receiver run delay",
	     "The share of each window the receiving process was runnable but not running, " \
	     "against offered load: the direct measure of its starvation.")
	plot("drops", "Drops by layer",
	     "Packets lost per second at the host tap (QEMU not taking them), in the guest NIC/backlog " \
	     "and at the full socket receive buffer, one panel per variant.")
}

function points_table(    i) {
	print "## Every rate: the gates and the numbers (medians over the repetitions)\n"
	print "| Variant | Rate target | n | Offered (pps) | Delivered (pps) | Receiver CPU (%) | " \
	      "Guest idle (%) | Generator error (%) | QEMU main ran/waited (%) | QEMU vCPU ran (%) | " \
	      "CPU books (%) | Gates | Tap drops (pps) | NIC drops (pps) | Socket drops (pps) |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"
	for (i = 1; i <= nrr; i++)
		printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s | %s | %s |\n",
			R[i, "variant"], target_name(R[i, "rate_target"]), R[i, "n"], thou(R[i, "offered"]),
			thou(R[i, "delivered"]), pct1(R[i, "recv_cpu"]), pct1(R[i, "idle"]),
			R[i, "gen_err"] == "" ? "–" : num(R[i, "gen_err"]),
			pct1(R[i, "qemu_main_run"]), pct1(R[i, "qemu_main_wait"]), pct1(R[i, "qemu_vcpu_run"]),
			closure_cell(R[i, "closure"]), R[i, "gates"] ? "pass" : gate_why(i),
			thou(R[i, "tap_drop"]), thou(R[i, "nic_drop"]), thou(R[i, "rcvbuf_err"])
	print ""
	print "Gates: the guest saturated (median idle ≤ " num(rule("gate.idle_pct")) " %), the flooder " \
	      "on target (median error within ±" num(rule("gate.gen_err_pct")) " %), the guest at its speed (at a fixed speed QEMU's TCG thread ran < 95 % " \
	      "of the window, so it slept to stay in step with the host's clock, and the guest's window was within ±" \
	      num(rule("gate.clock_err_pct")) " % of the host's; at native speed its vCPU " \
	      "thread was blocked, neither running, runnable nor halted in an idle guest, at most " \
	      num(rule("gate.vcpu_blocked_pct")) " % of the window) and the offered " \
	      "rate within the host's delivery ceiling (the rate QEMU's main loop would move into " \
	      "the guest if busy all the window, at this point's cost per packet); unlimited has no " \
	      "target and is a stress point, never a verdict point. Where a gate fails, the QEMU " \
	      "columns say why the guest was not driven harder (a main loop that waits for the host " \
	      "CPU cannot move the packets in). A starved point (vanilla past its knee at a fixed " \
	      "speed) is one whose guest could not answer a snapshot for the --starve timeout (its " \
	      "SCHED_FIFO sampler did not answer); its rates come from the point's exact totals over " \
	      "the flood, its delivered rate from the receiver's own history of the window (what it " \
	      "read in the flood's first moments and in the drain kept apart), and it has no CPU split.\n"
}

function gate_why(i,    s) {
	if (R[i, "rate_target"] + 0 == 0)
		return "stress point"
	if (!saturated(R[i, "idle"]))
		s = "idle"
	if (!on_target(R[i, "gen_err"]))
		s = s (s == "" ? "" : ", ") "generator"
	if (!clock_kept(R[i, "gate_clock"]))
		s = s (s == "" ? "" : ", ") "guest did not keep its speed"
	if (!host_delivers(R[i, "host_ceiling"], R[i, "offered"]))
		s = s (s == "" ? "" : ", ") "host ceiling " thou(R[i, "host_ceiling"]) " pps"
	return "fails: " s
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

# The defences: every variant at the verdict point (throughput) and the
# latency pass, then a sentence per setting variant (plots/defences.awk).
function defences(    i, v, j, k) {
	if (ndef == 0)
		return
	print "## Livelock defences at the verdict point\n"
	printf "The kernels and the setting variants of `lab/exp/rx/defences`: the throughput " \
	       "pass at %s, the latency pass at %s; medians [CI].\n\n",
		vrate == "" ? "no verdict rate (none passed every variant's gates)" : "the verdict rate, " thou(vrate) " pps",
		lrate == "" ? "no rate" : thou(lrate) " pps"
	print "The verdict rate is chosen by the kernel variants' gates alone; each setting " \
	      "variant is measured there and its own gates are shown: a defence whose guest is " \
	      "more than " num(rule("gate.idle_pct")) " % idle at that rate is not overloaded by it.\n"
	print "| Variant | Boots | Settings | Delivered (pps) | Receiver CPU (%) | Receiver run delay (%) | " \
	      "µs/packet | Guest idle (%) | Generator error (%) | Probe loss (%) | Probe p99 (µs) | Timer p99 (µs) |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= ns; i++) {
		v = S[i, "variant"]
		j = vrate == "" ? 0 : rrow(v, vrate)
		k = lrate == "" ? 0 : rrow(v, lrate)
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", v,
			K[v, "kernel"] == "" ? v : K[v, "kernel"], K[v, "settings"] == "" ? "–" : "`" K[v, "settings"] "`",
			mcell(j, "delivered", "pps"), mcell(j, "recv_cpu", "pct"), mcell(j, "recv_wait", "pct"),
			mcell(j, "recv_us_per_pkt", "us"), mcell(j, "idle", "pct") (j && R[j, "idle"] != "" && !saturated(R[j, "idle"]) ? " ○" : ""),
			j ? num(R[j, "gen_err"]) : "–", k ? loss_cell(k) : "–", k ? lat_cell(k, "probe_p99") : "–",
			k ? lat_cell(k, "tlat_p99") : "–"
	}
	print ""
	for (i = 1; i <= ndef; i++)
		print "- " DSENT[i]
	print ""
}

END {
	header()
	verdict_point()
	defences()
	mlfrr()
	claims()
	latency_section()
	plots()
	points_table()
	params()
}
