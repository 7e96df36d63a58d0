# SPDX-License-Identifier: GPL-2.0
# The published claims beside this run's numbers, with a verdict derived
# from the numbers.  Input: rates.csv of plots/prep.awk (read by header
# name).  Output: one tab-separated line per claim:
#   id  status  claim  published  measured  verdict
# status is one of reproduced, partly, not-reproduced, inconclusive,
# not-measured; verdict is the sentence for the report.
#
#   awk -F, -v accel=tcg -f lab/stats.awk -f plots/fmt.awk \
#       -f plots/claims.awk rates.csv
#
# -v van=, fix=, napi= rename the variants the claims are about.  The
# latency claim (revert) needs the probe columns of plots/prep-latency.awk;
# without them it is not measured.

BEGIN {
	FS = ","
	if (van == "") van = "vanilla"
	if (fix == "") fix = "ksoftirqd-fix"
	if (napi == "") napi = "threaded-napi"
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	split("variant rate_target n ci_coverage offered tap_drop delivered delivered_lo " \
	      "delivered_hi recv_cpu ksoftirqd_cpu napi_cpu", need, " ")
	for (i in need)
		if (!(need[i] in c)) {
			printf "claims: input lacks column %s\n", need[i] > "/dev/stderr"
			bad = 1
			exit 1
		}
	lat = "probe_p99" in c && "probe_p99_hi_b" in c && "probe_loss_hi" in c
	next
}

{
	v = $c["variant"]
	t = $c["rate_target"] + 0
	rank = t == 0 ? 1e12 : t
	nrates[v]++
	d = $c["delivered"] + 0
	if (!(v in peak) || d > peak[v]) {
		peak[v] = d
		peak_t[v] = t
	}
	if (!(v in top) || rank > top[v]) {
		top[v] = rank
		for (i in c)
			at[v, i] = $c[i]
	}
	o = $c["offered"] + 0
	if (o > max_off)
		max_off = o
	if (o - $c["tap_drop"] > max_in)
		max_in = o - $c["tap_drop"]
}

function out(id, status, claim, pub, meas, verdict) {
	printf "%s\t%s\t%s\t%s\t%s\t%s\n", id, status, claim, pub, meas, verdict
}

# why absolute rates differ from 2016, from the accelerator of the run
function caveat() {
	if (accel == "tcg")
		return "Absolute rates are not comparable: this guest ran under TCG (emulated CPU) and its " \
		       "virtio-net is served by QEMU in user space, which caps what reaches the guest around " \
		       "100 kpps (here at most " thou(max_in) " of " thou(max_off) " pps offered got past the tap); " \
		       "2016 was bare metal. Compare ratios and shapes, not pps."
	if (accel == "kvm")
		return "Absolute rates are not comparable: this is a 1-vCPU KVM guest behind virtio-net " \
		       "(at most " thou(max_in) " of " thou(max_off) " pps offered got past the tap); " \
		       "2016 was bare metal. Compare ratios and shapes, not pps."
	return "Absolute rates are not comparable with the 2016 bare-metal numbers (accelerator of this run: " \
	       (accel == "" ? "unknown" : accel) ")."
}

function overload(v) {
	return "max overload (" target_name(at[v, "rate_target"]) ", " thou(at[v, "offered"]) " pps offered)"
}

function dcell(v) {
	return thou(at[v, "delivered"]) (at[v, "n"] < 2 ? "" : " [" thou(at[v, "delivered_lo"]) "–" \
	       thou(at[v, "delivered_hi"]) "]") " pps"
}

function missing(need,    s, i, n, w) {
	n = split(need, w, " ")
	for (i = 1; i <= n; i++)
		if (!(w[i] in top))
			s = s (s == "" ? "" : " and ") w[i]
	return s
}

function dumazet(    claim, pub, miss, vd, fd, ratio, rs, disj, r, k, sum, share, split_ok, why, meas) {
	claim = "Eric Dumazet, commit 4cd13c21b207 \"softirq: Let ksoftirqd do its job\" (v4.9): " \
		"deferring softirqs to ksoftirqd/0 under load rescues a flooded UDP receiver"
	pub = "without the fix the receiver got ~2,000 pps under flood; with it ~900,000 pps, " \
	      "CPU split ~50/50 between the application and ksoftirqd/0 (bare metal, 2016)"
	miss = missing(van " " fix)
	if (miss != "") {
		out("dumazet", "not-measured", claim, pub, "not measured in this run (no " miss ")",
		    "Not measured in this run.")
		return
	}
	vd = at[van, "delivered"] + 0
	fd = at[fix, "delivered"] + 0
	ratio = vd > 0 ? fd / vd : (fd > 0 ? -1 : 1)
	rs = ratio < 0 ? "∞×" : sprintf("%.1f×", ratio)
	disj = at[fix, "delivered_lo"] + 0 > at[van, "delivered_hi"] + 0 && at[fix, "n"] >= 2 && at[van, "n"] >= 2
	r = at[fix, "recv_cpu"] + 0
	k = at[fix, "ksoftirqd_cpu"] + 0
	sum = r + k
	share = sum > 0 ? 100 * r / sum : -1
	split_ok = share >= 35 && share <= 65
	meas = "at " overload(fix) ": " van " " dcell(van) ", " fix " " dcell(fix) \
	       " — " rs " (medians, " ci_note(at[fix, "ci_coverage"], at[fix, "n"]) "); " fix " CPU: receiver " \
	       pct1(r) " %, ksoftirqd/0 " pct1(k) " %" \
	       (share < 0 ? "" : sprintf(" (split %.0f/%.0f)", share, 100 - share))
	if (fd <= vd) {
		out("dumazet", "not-reproduced", claim, pub, meas,
		    "Not reproduced: " fix " delivers no more than " van " at max overload (" rs "). " caveat())
		return
	}
	if ((ratio < 0 || ratio >= 2) && disj && split_ok) {
		out("dumazet", "reproduced", claim, pub, meas,
		    "Reproduced: " fix " delivers " rs " " van "'s rate (≥ 2×, confidence intervals disjoint) " \
		    sprintf("and splits the CPU %.0f/%.0f between receiver and ksoftirqd/0 (within 35–65 %%). ",
			    share, 100 - share) caveat())
		return
	}
	why = ""
	if (ratio >= 0 && ratio < 2)
		why = "the gain is " rs ", below 2×"
	if (!disj && (at[fix, "n"] < 2 || at[van, "n"] < 2))
		why = why (why == "" ? "" : "; ") "one repetition gives no confidence interval to separate them"
	else if (!disj)
		why = why (why == "" ? "" : "; ") "the confidence intervals overlap"
	if (share < 0)
		why = why (why == "" ? "" : "; ") "neither receiver nor ksoftirqd/0 used measurable CPU"
	else if (!split_ok)
		why = why (why == "" ? "" : "; ") \
		      sprintf("the receiver/ksoftirqd split is %.0f/%.0f, outside 35–65 %%", share, 100 - share)
	out("dumazet", "partly", claim, pub, meas,
	    "Partly reproduced: the direction holds (" fix " delivers " rs " " van "'s rate) but " why ". " caveat())
}

# delivered at max overload as a share of the variant's own peak:
# sets frac (-1 if it cannot be judged) and returns the measurement
function vs_peak(v,    m) {
	m = v ": " dcell(v) " at " overload(v) ", peak " thou(peak[v]) " pps at " target_name(peak_t[v])
	frac = -1
	if (nrates[v] < 2)
		return m "; only one rate measured"
	if (peak[v] <= 0)
		return m "; nothing delivered at any rate"
	frac = 100 * at[v, "delivered"] / peak[v]
	return m sprintf(" → %.0f %% of peak", frac)
}

function abeni(    claim, pub, meas, f) {
	claim = "Paolo Abeni, threaded NAPI poll loop proposal (netdev, 2016, reported by LWN): " \
		"NAPI polling in a kernel thread keeps the delivered rate up under overload"
	pub = "with threaded NAPI the delivered rate stays stable around the peak under overload (no collapse)"
	if (!(napi in top)) {
		out("abeni", "not-measured", claim, pub, "not measured in this run (no " napi ")",
		    "Not measured in this run.")
		return
	}
	meas = vs_peak(napi)
	if (frac < 0)
		out("abeni", "inconclusive", claim, pub, meas,
		    "Inconclusive: a collapse needs a peak and a higher load to compare.")
	else if (frac >= 80)
		out("abeni", "reproduced", claim, pub, meas,
		    sprintf("Reproduced: at max overload %s keeps %.0f %% of its peak delivered rate (≥ 80 %%): no collapse.", napi, frac))
	else if (frac >= 50)
		out("abeni", "partly", claim, pub, meas,
		    sprintf("Partly reproduced: %s sags to %.0f %% of its peak under max overload (50–80 %%), a partial collapse.", napi, frac))
	else
		out("abeni", "not-reproduced", claim, pub, meas,
		    sprintf("Not reproduced: %s collapses to %.0f %% of its peak under max overload (< 50 %%).", napi, frac))
}

function mogul(    claim, pub, meas) {
	claim = "Mogul & Ramakrishnan, \"Eliminating Receive Livelock in an Interrupt-Driven Kernel\" " \
		"(ACM TOCS 1997): interrupt-driven receive processing starves the application under overload"
	pub = "receive livelock: past the MLFRR the delivered rate falls as the offered rate rises, toward zero"
	if (!(van in top)) {
		out("mogul", "not-measured", claim, pub, "not measured in this run (no " van ")",
		    "Not measured in this run.")
		return
	}
	meas = vs_peak(van)
	if (frac < 0)
		out("mogul", "inconclusive", claim, pub, meas,
		    "Inconclusive: a collapse needs a peak and a higher load to compare.")
	else if (frac < 50)
		out("mogul", "reproduced", claim, pub, meas,
		    sprintf("Reproduced, livelock present: under max overload %s delivers only %.0f %% of its peak (< 50 %%).", van, frac))
	else if (frac < 80)
		out("mogul", "partly", claim, pub, meas,
		    sprintf("Partly reproduced: %s falls to %.0f %% of its peak under max overload (50–80 %%), a collapse short of livelock.", van, frac))
	else
		out("mogul", "not-reproduced", claim, pub, meas,
		    sprintf("Not reproduced, no livelock at these rates: %s keeps %.0f %% of its peak under max overload (≥ 80 %%).", van, frac))
}

# the probe's p99 of v at max overload for people
function p99cell(v) {
	return usec_range(at[v, "probe_p99"], at[v, "probe_p99_lo"], at[v, "probe_p99_hi"],
		at[v, "probe_p99_b"], at[v, "probe_p99_lo_b"], at[v, "probe_p99_hi_b"],
		at[v, "probe_p99_n"]) " µs"
}

function losscell(v) {
	return ci_range(at[v, "probe_loss"], at[v, "probe_loss_lo"], at[v, "probe_loss_hi"], "pct",
		at[v, "probe_loss_n"]) " %"
}

# 1 if fix's probe p99 at max overload is above x's with CIs apart (sets
# untestable when one repetition leaves no interval to compare); a
# lost-bounded value ranks above every measured one.  When both medians
# are lost-bounded the p99s cannot be told apart and the probe loss (the
# part of the distribution past the timeout) decides, again with CIs
# apart.  Sets why: the reason, for the verdict.
function p99_above(x,    lo) {
	if (at[fix, "probe_p99"] == "" || at[x, "probe_p99"] == "") {
		why = "no probe p99 for " (at[x, "probe_p99"] == "" ? x : fix)
		return 0
	}
	if (at[fix, "probe_p99_n"] < 2 || at[x, "probe_p99_n"] < 2) {
		why = "one repetition gives no confidence interval to separate " fix " from " x
		untestable = 1
		return 0
	}
	if (at[fix, "probe_p99_b"] + 0 && at[x, "probe_p99_b"] + 0) {
		if (at[fix, "probe_loss_lo"] + 0 > at[x, "probe_loss_hi"] + 0) {
			why = "both p99s are at the timeout and " fix " loses more probes than " x \
			      " (" losscell(fix) " vs " losscell(x) ")"
			return 1
		}
		why = "both p99s are at the timeout and " fix " does not lose more probes than " x \
		      " (" losscell(fix) " vs " losscell(x) ")"
		return 0
	}
	if (at[x, "probe_p99_hi_b"] + 0) {
		why = x "'s p99 interval reaches the timeout too, so " fix "'s is not above it"
		return 0
	}
	lo = at[fix, "probe_p99_lo"] + 0
	if (!(at[fix, "probe_p99_lo_b"] + 0) && lo <= at[x, "probe_p99_hi"] + 0) {
		why = fix "'s p99 is not above " x "'s with confidence intervals apart"
		return 0
	}
	why = fix "'s p99 is above " x "'s with confidence intervals apart" \
	      (at[fix, "probe_p99_b"] + 0 ? " (" fix "'s median is lost-bounded: at least the timeout)" : "")
	return 1
}

# probe loss at max overload: what it does to the p99
function loss_note(    v, i, w, n, s, worst) {
	n = split(van " " fix " " napi, w, " ")
	for (i = 1; i <= n; i++) {
		s = s (i > 1 ? ", " : "") w[i] " " pct1(at[w[i], "probe_loss"]) " %"
		if (at[w[i], "probe_loss"] + 0 > worst)
			worst = at[w[i], "probe_loss"] + 0
	}
	if (worst <= 1)
		return ""
	s = " Probe loss at max overload: " s "; with more than 1 % of the probes lost the p99 is " \
	    "the timeout, a lower bound"
	if (worst > 5)
		s = s "; where it exceeds 5 % the lost probes, not the round-trip times, decide the " \
		    "tail, so the comparison is one of loss"
	return s "."
}

function revert(    claim, pub, miss, meas, lv, ln, uv, l_ok, t_ok, whyv, whyn, lat_why, thr, s) {
	claim = "Paolo Abeni, commit d15121be7485 (v6.5, May 2023), revert of \"softirq: Let ksoftirqd " \
		"do its job\": deferring softirqs to ksoftirqd raises the latency of other softirq users " \
		"compared with vanilla and threaded NAPI; threaded NAPI solves the livelock without that cost"
	pub = "reverted because once ksoftirqd runs, everything else that needs softirqs waits for it " \
	      "(high latencies); threaded NAPI keeps the flooded receiver alive without deferring the rest"
	miss = missing(van " " fix " " napi)
	if (miss != "" || !lat) {
		out("revert", "not-measured", claim, pub, "not measured in this run (" \
		    (miss != "" ? "no " miss : "points.csv has no latency probe columns: a run before the probes") ")",
		    "Not measured in this run.")
		return
	}
	meas = "at max overload, request/response probe p99: " van " " p99cell(van) ", " fix " " \
	       p99cell(fix) ", " napi " " p99cell(napi) "; probe loss " van " " losscell(van) ", " fix " " \
	       losscell(fix) ", " napi " " losscell(napi) "; delivered " napi " " dcell(napi) ", " fix " " \
	       dcell(fix) " (medians, " ci_note(at[fix, "ci_coverage"], at[fix, "n"]) ")"
	untestable = 0
	lv = p99_above(van)
	whyv = why
	uv = untestable
	untestable = 0
	ln = p99_above(napi)
	whyn = why
	# untestable: no comparison failed for a reason other than one repetition
	untestable = (uv || untestable) && (lv || uv) && (ln || untestable)
	l_ok = lv && ln
	lat_why = "against " van ": " whyv "; against " napi ": " whyn
	t_ok = at[napi, "delivered"] + 0 >= at[fix, "delivered_lo"] + 0
	thr = napi " delivers " thou(at[napi, "delivered"]) " pps, " (t_ok ? "≥" : "below") " " fix \
	      (at[fix, "n"] < 2 ? "'s " thou(at[fix, "delivered"]) " pps (one repetition: no CI)" : \
	      "'s lower CI bound " thou(at[fix, "delivered_lo"]) " pps")
	s = loss_note() (accel == "tcg" ? " Under TCG the absolute latencies include the emulation; " \
	    "compare the variants, not the µs." : "")
	if (l_ok && t_ok)
		out("revert", "reproduced", claim, pub, meas,
		    "Reproduced: " fix "'s probe p99 is the highest (" lat_why ") and " thr "." s)
	else if (l_ok)
		out("revert", "partly", claim, pub, meas,
		    "Partly reproduced: the latency half holds (" lat_why ") but not the throughput half: " \
		    thr "." s)
	else if (t_ok)
		out("revert", "partly", claim, pub, meas,
		    "Partly reproduced: the throughput half holds (" thr ") but not the latency half: " \
		    lat_why "." s)
	else if (untestable)
		out("revert", "inconclusive", claim, pub, meas,
		    "Inconclusive: the latency half cannot be judged (" lat_why ") and the throughput " \
		    "half does not hold: " thr "." s)
	else
		out("revert", "not-reproduced", claim, pub, meas,
		    "Not reproduced: " lat_why "; and " thr "." s)
}

END {
	if (bad)
		exit 1
	dumazet()
	abeni()
	mogul()
	revert()
}
