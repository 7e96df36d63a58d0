# SPDX-License-Identifier: GPL-2.0
# report.md of a TX experiment run (lab/tx), on stdout, with the verdict
# on the +19 % claim of 3bcb846ca4cf derived from the numbers.  Inputs, in
# this order:
#   summary.csv   lab/exp/tx/summarize.awk (median,lo,hi per metric)
#   params.tsv    params_tsv (lab/lib/lib.sh) of params.json
# Variables: kernel ("Linux 6.12.118"), points (rows of points.csv);
# fix=, abl= rename the two variants compared (default ksoftirqd-fix and
# ksoftirqd-fix+trylock).
#
#   awk -v kernel=... -v points=N -f lab/lib/stats.awk -f plots/fmt.awk \
#       -f plots/tx-report.awk summary.csv params.tsv

BEGIN {
	FS = ","
	if (fix == "") fix = "ksoftirqd-fix"
	if (abl == "") abl = "ksoftirqd-fix+trylock"
	# 3bcb846ca4cf: 853,400 pps with the trylock, 1,016,600 without
	pub_with = 853400
	pub_without = 1016600
}

FNR == 1 { f++ }

f == 1 && FNR == 1 { nh = split($0, sh, ","); next }
f == 1 {
	ns++
	split($0, a, ",")
	for (i = 1; i <= nh; i++)
		S[ns, sh[i]] = a[i]
	row[a[1]] = ns
	next
}

f == 2 {
	t = index($0, "\t")
	P[substr($0, 1, t - 1)] = substr($0, t + 1)
}

# "median [lo–hi]" of a metric of summary row i, as pps or percent
function cell(i, m, kind) {
	return ci_range(S[i, m], S[i, m "_lo"], S[i, m "_hi"], kind, S[i, "reps"])
}

function pctdiff(a, b) {
	return b > 0 ? sprintf("%+.1f %%", 100 * (a / b - 1)) : "n/a"
}

function header(    vl) {
	vl = variant_list()
	printf "# TX experiment (trylock ablation): run %s (%s, %s)\n\n", P["run"], kernel,
		accel_tag()
	printf "%s guests (%s) under %s with %s vCPUs (pinned %s; host cores: %s, %s, host kernel %s). " \
	       "In each guest %s sender threads (one UDP socket each, thread i on CPU i mod %s) send " \
	       "%s-byte datagrams, %s per sendmmsg call, out of eth0 through %s; the frames go to " \
	       "%s, which nobody owns, and are dropped at the host's tap. " \
	       "%d boots: %s repetition%s, %s s warm-up, %s s window.\n\n",
		kernel, vl, accel_name(P["accel"]), P["vcpus"], P["vcpu_pin"], P["host_cpus"],
		P["host_model"], P["host_kernel"], P["threads"], P["vcpus"], P["payload"], P["batch"],
		P["qdisc"], P["destination"], points, P["reps"], P["reps"] == 1 ? "" : "s",
		P["warmup_s"], P["window_s"]
}

function summary(    i) {
	print "## Summary\n"
	print "| Variant | qdisc (pps) | NET_TX softirqs (/s) | ksoftirqd wakeups (/s) | " \
	      "ksoftirqd CPU (%) | sender CPU (%) | softirq / idle (%) | drops (pps) |"
	print "|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= ns; i++)
		printf "| %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", S[i, "variant"],
			cell(i, "qdisc_pps", "pps"), cell(i, "net_tx_softirq_ps", "pps"),
			cell(i, "ksoftirqd_wakeups_ps", "pps"), cell(i, "ksoftirqd_cpu", "pct"),
			cell(i, "sender_cpu", "pct"), pct1(S[i, "cpu_softirq"]), pct1(S[i, "cpu_idle"]),
			thou(S[i, "drop_pps"])
	print ""
	printf "Each cell: median over the repetitions [lo–hi], a distribution-free confidence " \
	       "interval of the median from order statistics (%s). " \
	       "qdisc: eth0's tx_packets per second in the window (every packet leaves through the " \
	       "qdisc). ksoftirqd wakeups: voluntary context switches of ksoftirqd/0 and /1 " \
	       "(each is one sleep, so one wakeup). CPU columns: %% of the guest's whole CPU " \
	       "(all vCPUs); ksoftirqd and sender CPU from schedstat, softirq and idle from /proc/stat.\n\n",
		ci_note(S[1, "ci_coverage"], S[1, "reps"])
}

# the verdict: status and sentence
function verdict(    i, j, n, gain, sep_up, sep_down, mech, why, acc, mtext, dtx, dwk, idle, pace, meas, status, text, pub) {
	pub = sprintf("%s pps with the trylock, %s without (%s), prio+tbf+fq_codel, bare metal (2016)",
		      thou(pub_with), thou(pub_without), pctdiff(pub_without, pub_with))
	print "## Claim\n"
	print "| Claim | Published | Measured | Verdict |"
	print "|---|---|---|---|"
	claim = "Eric Dumazet, commit 3bcb846ca4cf \"net: get rid of spin_trylock() in " \
		"net_tx_action()\" (v4.8): the trylock costs qdisc throughput (up to 19 %) and " \
		"wakes ksoftirqd spuriously"
	if (!(fix in row) || !(abl in row)) {
		printf "| %s | %s | not measured (this run lacks %s) | **Not measured.** |\n\n", claim, pub,
			!(fix in row) ? fix : abl
		return
	}
	i = row[abl]
	j = row[fix]
	n = S[i, "reps"] < S[j, "reps"] ? S[i, "reps"] : S[j, "reps"]
	gain = S[i, "qdisc_pps"] > 0 ? S[j, "qdisc_pps"] / S[i, "qdisc_pps"] - 1 : 0
	sep_up = n >= 2 && S[j, "qdisc_pps_lo"] + 0 > S[i, "qdisc_pps_hi"] + 0
	sep_down = n >= 2 && S[j, "qdisc_pps_hi"] + 0 < S[i, "qdisc_pps_lo"] + 0
	mech = n >= 2 && (S[i, "ksoftirqd_wakeups_ps_lo"] + 0 > S[j, "ksoftirqd_wakeups_ps_hi"] + 0 ||
			  S[i, "net_tx_softirq_ps_lo"] + 0 > S[j, "net_tx_softirq_ps_hi"] + 0)
	meas = sprintf("%s %s → %s %s pps (%s, medians, %s); NET_TX softirqs %s → %s /s, " \
		       "ksoftirqd wakeups %s → %s /s",
		       abl, cell(i, "qdisc_pps", "pps"), fix, cell(j, "qdisc_pps", "pps"),
		       pctdiff(S[j, "qdisc_pps"], S[i, "qdisc_pps"]), ci_note(S[j, "ci_coverage"], n),
		       thou(S[i, "net_tx_softirq_ps"]), thou(S[j, "net_tx_softirq_ps"]),
		       thou(S[i, "ksoftirqd_wakeups_ps"]), thou(S[j, "ksoftirqd_wakeups_ps"]))
	dtx = S[i, "net_tx_softirq_ps"] - S[j, "net_tx_softirq_ps"]
	dwk = S[i, "ksoftirqd_wakeups_ps"] - S[j, "ksoftirqd_wakeups_ps"]
	# A failed trylock raises NET_TX again; how often one fails depends on
	# how often the vCPUs hold the root lock at once, i.e. on the host.
	if (dtx > 0)
		mtext = sprintf("With the trylock NET_TX softirqs run %s/s against %s/s without (a " \
				"failed trylock re-schedules the qdisc and raises NET_TX again) ",
				thou(S[i, "net_tx_softirq_ps"]), thou(S[j, "net_tx_softirq_ps"]))
	else
		mtext = sprintf("With the trylock NET_TX softirqs run %s/s against %s/s without: no " \
				"extra NET_TX rounds from failed trylocks showed in this run, ",
				thou(S[i, "net_tx_softirq_ps"]), thou(S[j, "net_tx_softirq_ps"]))
	if (dtx > 0 && dwk < 0.1 * dtx)
		mtext = mtext sprintf("but the ksoftirqd threads wake only %s/s against %s/s: the " \
				      "extra rounds mostly end within the softirq restart budget instead " \
				      "of handing over to ksoftirqd. ",
				      thou(S[i, "ksoftirqd_wakeups_ps"]), thou(S[j, "ksoftirqd_wakeups_ps"]))
	else
		mtext = mtext sprintf("and the ksoftirqd threads wake %s/s against %s/s. ",
				      thou(S[i, "ksoftirqd_wakeups_ps"]), thou(S[j, "ksoftirqd_wakeups_ps"]))
	idle = S[j, "cpu_idle"] + 0
	acc = sprintf("Absolute rates: %s pushes %s pps, about %.0f× less than the 2016 machine%s",
		      fix, thou(S[j, "qdisc_pps"]),
		      S[j, "qdisc_pps"] > 0 ? pub_without / S[j, "qdisc_pps"] : 0,
		      P["accel"] == "tcg" ? " (TCG: emulated CPUs, QEMU's user-space virtio-net)" : "")
	if (idle >= 5)
		acc = acc sprintf(", and its vCPUs are %s %% idle: the senders often sleep for socket " \
				  "buffer space, i.e. wait for the emulated NIC to complete transmits, " \
				  "not for the qdisc lock", pct1(idle))
	else
		acc = acc sprintf(", with its vCPUs busy (%s %% idle)", pct1(idle))
	pace = idle >= 5 ? "; the NIC rather than the lock sets the pace, so a lost lock round " \
			   "costs less here than at 1 Mpps on bare metal." : "."
	if (sep_up && gain >= 0.10)
		acc = acc "."
	else
		acc = acc pace
	if (n < 2) {
		status = "Inconclusive"
		text = sprintf("one repetition gives no confidence interval; the medians differ by %s. ",
			       pctdiff(S[j, "qdisc_pps"], S[i, "qdisc_pps"])) mtext acc
	} else if (sep_up && gain >= 0.10) {
		status = "Reproduced"
		text = sprintf("removing the trylock gives %s qdisc pps (≥ 10 %%, confidence intervals " \
			       "disjoint), the order of the published +19 %%. ", pctdiff(S[j, "qdisc_pps"], S[i, "qdisc_pps"])) mtext acc
	} else if (sep_up) {
		status = "Partly reproduced"
		text = sprintf("removing the trylock is faster (%s, confidence intervals disjoint) but by " \
			       "less than 10 %%, not the published +19 %%. ", pctdiff(S[j, "qdisc_pps"], S[i, "qdisc_pps"])) mtext acc
	} else if (!sep_down && mech) {
		status = "Partly reproduced"
		text = sprintf("the mechanism shows (with the trylock: %s NET_TX softirqs/s and %s ksoftirqd " \
			       "wakeups/s against %s and %s without) but costs no measurable qdisc throughput " \
			       "(%s, confidence intervals overlap). ",
			       thou(S[i, "net_tx_softirq_ps"]), thou(S[i, "ksoftirqd_wakeups_ps"]),
			       thou(S[j, "net_tx_softirq_ps"]), thou(S[j, "ksoftirqd_wakeups_ps"]),
			       pctdiff(S[j, "qdisc_pps"], S[i, "qdisc_pps"])) acc
	} else {
		status = "Not reproduced"
		why = sep_down ? "the trylock variant is the faster one" : \
		      "no difference in qdisc throughput beyond the noise (confidence intervals overlap)"
		text = sprintf("%s (%s). ", why, pctdiff(S[j, "qdisc_pps"], S[i, "qdisc_pps"])) mtext acc
	}
	printf "| %s | %s | %s | **%s:** %s |\n\n", claim, pub, meas, status, text
	printf "**Verdict: %s.** %s\n\n", status, toupper(substr(text, 1, 1)) substr(text, 2)
}

END {
	header()
	summary()
	verdict()
	print "![qdisc throughput, NET_TX softirqs and ksoftirqd wakeups per variant](tx.png)\n"
	print "Raw samples: `raw/`; per-boot rows: `points.csv`; medians: `summary.csv`; " \
	      "guest consoles (with the qdisc hierarchy and its counters at start and end): `guests/*/console.log`."
}
