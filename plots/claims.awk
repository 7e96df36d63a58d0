# SPDX-License-Identifier: GPL-2.0
# The published claims beside this run's numbers, each with a verdict
# from one rule.  Input: points.csv (read by header name).  Output: one
# tab-separated line per claim:
#   id  status  claim  published  measured  verdict
# status: reproduced, partly, not-reproduced, inconclusive, not-measured.
#
#   awk -F, -v vrate=R [-v lrate=L] -v accel=tcg [-v speed=icount:4 -v mips=62.5] -f lab/lib/stats.awk \
#       -f plots/fmt.awk -f plots/claims.awk points.csv
#
# vrate is the run's verdict rate (lab/exp/rx/summarize.awk: the highest rate at
# which every variant passes the overload gates); empty: there is none,
# and every claim is inconclusive.  lrate is the rate of the latency pass
# the revert claim is judged at (empty: not measured).  -v van=, fix=,
# napi= rename the variants.  -v pvan=, pfix= name the other kernel's
# control and fix (a run of both 6.12 and 6.1): Dumazet's overload region
# is then the rates past both controls' peaks at which all four pass the
# gates, the same on both kernels.
#
# The rule, the same for every claim: a claim is a ratio and a threshold.
# The ratio is taken per repetition, pairing numbers of the same
# repetition (variants of one repetition ran minutes apart, interleaved),
# and the order-statistic confidence interval of its median (lab/lib/stats.awk)
# is set against the threshold: entirely past it, the claim holds;
# entirely short of it, it does not; across it, inconclusive.  A claim
# that holds is "reproduced" only if its mechanism gates hold too (the
# work visibly where the claim puts it); otherwise "partly".

BEGIN {
	FS = ","
	if (van == "") van = "vanilla"
	if (fix == "") fix = "ksoftirqd-fix"
	if (napi == "") napi = "threaded-napi"
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	split("variant rep pass rate_target offered_pps delivered_pps recv_cpu ksoftirqd_cpu " \
	      "napi_cpu softirq_irqctx_cpu closure_ok net_rx_softirq_ps idle_cpu gen_err_pct", need, " ")
	for (i in need)
		if (!(need[i] in c)) {
			printf "claims: input lacks column %s\n", need[i] > "/dev/stderr"
			bad = 1
			exit 1
		}
	next
}

{
	v = $c["variant"]; r = $c["rep"] + 0; t = $c["rate_target"] + 0
	has[v] = 1
	if (r > maxrep)
		maxrep = r
	if ($c["pass"] == "lat") {
		if (lrate != "" && t == lrate + 0)
			for (i in c)
				L[v, r, i] = $c[i]
		next
	}
	d = $c["delivered_pps"] + 0
	# every throughput point, for load_rate(); its rates, for the claims
	# judged over a region of the curve
	ROW[v, r, t] = $0
	# a point that failed its own gates enters no pair (lab/lib/stats.awk);
	# it bounds a peak from below if it only lost time (peak_point())
	if (point_ok($c["gen_err_pct"], "gate_clock" in c ? $c["gate_clock"] : "")) {
		peak_point("D", v, r, t, d)
		peak_point("P", v, r, t, d)
	} else if (point_ok($c["gen_err_pct"], "") && "window_clock_err_pct" in c &&
		   $c["window_clock_err_pct"] != "" && $c["window_clock_err_pct"] + 0 < 0)
		peak_point("P", v, r, t, d * (1 + $c["window_clock_err_pct"] / 100))
	if (!(t in is_rate)) {
		is_rate[t] = 1
		rl[++nrl] = t
	}
}

# V[v, r, column] := the throughput points at rate t (empty: none)
function load_rate(t,    v, r, f, k) {
	delete V
	if (t == "")
		return
	for (v in has)
		for (r = 1; r <= maxrep; r++)
			if ((v, r, t + 0) in ROW) {
				split(ROW[v, r, t + 0], f, ",")
				for (k in c)
					V[v, r, k] = f[c[k]]
			}
}

# v passes every overload gate at the rate loaded (load_rate()), or in
# the latency pass (set "L"), on the medians over its repetitions: the
# verdict rate's rule (lab/lib/stats.awk)
function passes_gates(v, set) {
	return med(v, "delivered_pps", set) != "" && gates_pass(med(v, "idle_cpu", set),
		med(v, "gen_err_pct", set), med(v, "gate_clock", set), med(v, "host_ceiling_pps", set),
		med(v, "offered_pps", set))
}

# Peak candidates, in two sets.  "D": the points that passed their own
# gates.  "P": those, and a point on target whose guest lost time (its
# window shorter than the host's, gate_clock 0) at its rate per host
# second: delivered x (1 + window_clock_err_pct / 100), what the slowed
# guest read in the host's window, a lower bound of what the fixed-speed
# guest would have read.  A lower bound of a peak serves a claim that
# delivered / peak is low (Mogul, the livelock test of Dumazet's region):
# it can only raise the ratio; Abeni's, that the ratio stays high, takes
# "D" only.  PV[set, v, r, t] is a candidate (PV["D", ...]: the delivered
# rates of the points that pass their own gates, the ones pairs are
# made of), PK[set, v, r] the highest.
function peak_point(set, v, r, t, d) {
	PV[set, v, r, t] = d
	if (!((set, v, r) in PK) || d > PK[set, v, r])
		PK[set, v, r] = d
}

# The median over the repetitions of the rate at which v peaked (in
# "set"): in each repetition the lowest rate whose candidate is within
# claim.peak_tol of that repetition's highest.  On a plateau the highest
# point's rate is the argmax of run-to-run noise (threaded-napi flat at
# 14.5-14.65 k from 2 to 6 x the knee, highest at 6 x by 0.5-1 % in four
# of six repetitions), and a peak at the top of the grid leaves no rate
# past it to judge.  Rate 0 (unlimited) is above every paced rate: it is
# the peak's rate only when no paced rate comes within claim.peak_tol.
function peak_rate(v, set,    r, a, n, t, i, lo) {
	# the input is read: one value per (set, v), asked for at every rate
	# and repetition (peak_known())
	if ((set, v) in PR)
		return PR[set, v]
	n = 0
	for (r = 1; r <= maxrep; r++) {
		if (!((set, v, r) in PK))
			continue
		lo = ""
		for (i = 1; i <= nrl; i++) {
			t = rl[i]
			if (t != 0 && (set, v, r, t) in PV &&
			    PV[set, v, r, t] >= (1 - rule("claim.peak_tol")) * PK[set, v, r] && (lo == "" || t < lo))
				lo = t
		}
		a[++n] = lo == "" ? 0 : lo
	}
	return PR[set, v] = n ? median(a, n) : ""
}

# A repetition's peak (in "set") is known when it has a candidate at or
# below the variant's peak rate: one whose points there all failed their
# own gates has only its overload points left, and their highest is no
# peak (vanilla's repetition 5 in one run: 4k-16k off their clock, 241
# pps at 4 and 6 x the knee, delivered / "peak" 1).
function peak_known(v, r, set,    i, t, tp) {
	if (!((set, v, r) in PK))
		return 0
	tp = peak_rate(v, set) + 0
	for (i = 1; i <= nrl; i++) {
		t = rl[i]
		if ((set, v, r, t) in PV && (t == 0 ? tp == 0 : t <= tp || tp == 0))
			return 1
	}
	return 0
}

function out(id, status, claim, pub, meas, verdict) {
	printf "%s\t%s\t%s\t%s\t%s\t%s\n", id, status, claim, pub, meas, verdict
}

# why absolute rates differ from 2016, from the accelerator of the run
function caveat() {
	if (accel == "tcg" && speed != "" && speed != "native")
		return " Absolute rates are not comparable with 2016's bare metal: this guest ran under " \
		       "TCG at a fixed " mips " M instructions/s (" speed "), behind QEMU's user-space " \
		       "virtio-net; compare ratios and rates in units of the knee."
	if (accel == "tcg")
		return " Absolute rates are not comparable with 2016's bare metal: this guest ran under " \
		       "TCG (emulated CPU) behind QEMU's user-space virtio-net; compare ratios."
	if (accel == "kvm")
		return " Absolute rates are not comparable with 2016's bare metal (a 1-vCPU KVM guest " \
		       "behind virtio-net); compare ratios."
	return ""
}

# ratio(num_v, num_k, den_v, den_k, set): the per-repetition ratio of
# V[num_v, r, num_k] over V[den_v, r, den_k] (set "V"), or of L[...]
# (set "L"), or over den_v's peak in repetition r (den_k "peak": a lower
# bound allowed, peak_point(); a repetition whose peak is not known is
# left out); fills q[1..qn] and
# returns "median [lo–hi]" with q_med, q_lo, q_hi, q_cov set.  A zero
# denominator under a positive numerator is +∞ (the strongest livelock,
# a receiver that got nothing, stays in the ratio); 0/0 says nothing and
# is left out.
function ratio(nv_, nk, dv_, dk, set,    r, a, b, n) {
	n = 0
	for (r = 1; r <= maxrep; r++) {
		if (set == "L") {
			if (!((nv_, r, "variant") in L) || !((dv_, r, "variant") in L) ||
			    !point_ok(L[nv_, r, "gen_err_pct"], L[nv_, r, "gate_clock"]) ||
			    !point_ok(L[dv_, r, "gen_err_pct"], L[dv_, r, "gate_clock"]))
				continue
			a = nk == "loss" ? lossrate(nv_, r) : L[nv_, r, nk]
			b = dk == "loss" ? lossrate(dv_, r) : L[dv_, r, dk]
		} else {
			if (!((nv_, r, "variant") in V) || !point_ok(V[nv_, r, "gen_err_pct"], V[nv_, r, "gate_clock"]))
				continue
			a = V[nv_, r, nk]
			if (dk == "peak") {
				if (!peak_known(dv_, r, "P"))
					continue
				b = PK["P", dv_, r]
			} else if ((dv_, r, "variant") in V && point_ok(V[dv_, r, "gen_err_pct"], V[dv_, r, "gate_clock"]))
				b = V[dv_, r, dk]
			else
				continue
		}
		if (a == "" || b == "" || (b + 0 <= 0 && a + 0 <= 0))
			continue
		q[++n] = b + 0 <= 0 ? inf() : a / b
	}
	return q_stats(n)
}

# the median of q[1..n] and its interval: q_med, q_lo, q_hi, q_cov, qn
# set, and "median [lo–hi] (cov % CI, n=N)" returned
function q_stats(n) {
	qn = n
	if (n == 0) {
		q_med = ""
		return "no pairs"
	}
	q_med = median(q, n)
	median_ci(q, n)
	q_lo = ci_lo; q_hi = ci_hi; q_cov = ci_cov
	return ratio_fmt(q_med) (n < 2 ? " (n=1, no CI)" : \
		sprintf(" [%s–%s] (%.0f %% CI, n=%d)", ratio_fmt(q_lo), ratio_fmt(q_hi), 100 * q_cov, n))
}

# The rule: 1 holds, 0 does not, -1 inconclusive.  dir ">=": the claim is
# ratio >= thr; ">": ratio > thr; "<": ratio < thr.  Fewer than
# min_pairs() (lab/lib/stats.awk) are inconclusive whatever they say.
function judge(thr, dir) {
	if (q_med == "" || qn < min_pairs())
		return -1
	if (dir == ">=")
		return q_lo >= thr ? 1 : q_hi < thr ? 0 : -1
	if (dir == ">")
		return q_lo > thr ? 1 : q_hi <= thr ? 0 : -1
	return q_hi < thr ? 1 : q_lo >= thr ? 0 : -1
}

# the median over the repetitions that have V[v, r, k] (or L with set
# "L"): a share withheld (lab/lib/books.awk) is empty, not 0
function med(v, k, set,    r, a, n, x) {
	n = 0
	for (r = 1; r <= maxrep; r++) {
		if (!(set == "L" ? (v, r, k) in L : (v, r, k) in V))
			continue
		x = set == "L" ? L[v, r, k] : V[v, r, k]
		if (x != "")
			a[++n] = x + 0
	}
	return n ? median(a, n) : ""
}

# repetitions of v at the verdict rate, and those starved there
function nreps(v,    r, n) {
	n = 0
	for (r = 1; r <= maxrep; r++)
		n += (v, r, "delivered_pps") in V
	return n
}

function nstarved(v,    r, n) {
	n = 0
	for (r = 1; r <= maxrep; r++)
		n += (v, r, "starved") in V && V[v, r, "starved"] == 1
	return n
}

# every repetition of v at the verdict rate closes its books
function books_close(v,    r, n) {
	n = 0
	for (r = 1; r <= maxrep; r++)
		if ((v, r, "closure_ok") in V) {
			n++
			if (V[v, r, "closure_ok"] != 1)
				return 0
		}
	return n > 0
}

function status(j, gates) {
	return j < 0 ? "inconclusive" : !j ? "not-reproduced" : gates ? "reproduced" : "partly"
}

function lead(j, gates) {
	return j < 0 ? "Inconclusive: " : !j ? "Not reproduced: " : gates ? "Reproduced: " : "Partly reproduced: "
}

function at_vr() {
	return "at the verdict rate " thou(vrate) " pps"
}

# what keeps every claim from being judged, or ""
function unjudgeable(need,    n, w, i, s) {
	n = split(need, w, " ")
	for (i = 1; i <= n; i++)
		if (!(w[i] in has))
			s = s (s == "" ? "" : " and ") w[i]
	if (s != "")
		return "not measured in this run (no " s ")"
	if (vrate == "")
		return "no rate at which every variant passes the overload gates (guest idle <= " \
		       num(rule("gate.idle_pct")) " %, generator within " num(rule("gate.gen_err_pct")) \
		       " % of its target): no verdict point"
	return ""
}

# Dumazet's claim holds over the overload region: every rate past
# vanilla's peak at which both kernels pass the overload gates and
# vanilla is in livelock (the median of its delivered rate over its own
# peak below claim.mogul, Mogul's threshold): the claim is about a
# receiver rescued from livelock, and a rate just past the knee, where
# vanilla still delivers most of its peak, is not one (with pvan/pfix:
# past both controls' peaks, both in livelock, where all four pass).  Each
# such rate with a pair is judged by the rule (fewer than min_pairs()
# pairs: inconclusive); the claim is judged at the worst of them (a failing rate before an inconclusive one,
# then the lowest median ratio), with the mode of each repetition there:
# where the NET_RX work ran, ksoftirqd/0 or irq context.
function dumazet(    claim, pub, why, meas, j, g, sp, sj, k, rc, vpk, i, t, jt, w, wj, wm, nr, nk, r, ok) {
	claim = "Eric Dumazet, commit 4cd13c21b207 \"softirq: Let ksoftirqd do its job\" (v4.9): " \
		"deferring softirqs to ksoftirqd/0 under load rescues a flooded UDP receiver"
	pub = "without the fix the receiver got ~2,000 pps under flood; with it ~900,000 pps, " \
	      "CPU split ~50/50 between the application and ksoftirqd/0 (bare metal, 2016)"
	why = unjudgeable(van " " fix)
	if (why != "") {
		out("dumazet", why ~ /^not measured/ ? "not-measured" : "inconclusive", claim, pub, why,
		    (why ~ /^not measured/ ? "Not measured in this run." : "Inconclusive: " why "."))
		return
	}
	vpk = peak_rate(van, "P")
	if (pvan != "" && peak_rate(pvan, "P") + 0 > vpk + 0)
		vpk = peak_rate(pvan, "P")
	w = ""
	ok = ""
	for (i = 1; i <= nrl; i++) {
		t = rl[i]
		load_rate(t)
		if (t <= vpk + 0 || !passes_gates(van) || !passes_gates(fix) ||
		    (pvan != "" && (!passes_gates(pvan) || !passes_gates(pfix))))
			continue
		if (!livelocked(van) || (pvan != "" && !livelocked(pvan)))
			continue
		ratio(fix, "delivered_pps", van, "delivered_pps")
		if (qn == 0)
			continue
		jt = judge(rule("claim.dumazet"), ">=")
		ok = ok (ok == "" ? "" : ", ") thou(t)
		if (w == "" || rank(jt) < rank(wj) || (rank(jt) == rank(wj) && q_med < wm)) {
			w = t
			wj = jt
			wm = q_med
		}
	}
	if (w == "") {
		why = "no rate past " van "'s peak (" thou(vpk) " pps) at which both kernels pass the " \
		      "overload gates" (pvan != "" ? " (with " pvan " and " pfix ")" : "") " and " van \
		      " is in livelock (below " num(rule("claim.mogul")) " of its peak): no overload region"
		out("dumazet", "inconclusive", claim, pub, why, "Inconclusive: " why ".")
		return
	}
	load_rate(w)
	meas = fix "/" van " delivered over the overload region (" ok " pps" \
	       (pvan != "" ? ", shared with " pfix "/" pvan : "") "), worst at " thou(w) \
	       " pps: " ratio(fix, "delivered_pps", van, "delivered_pps")
	j = judge(rule("claim.dumazet"), ">=")
	k = med(fix, "ksoftirqd_cpu")
	rc = med(fix, "recv_cpu")
	g = k >= rule("mech.thread_cpu_pct")
	nr = nk = 0
	for (r = 1; r <= maxrep; r++)
		if ((fix, r, "ksoftirqd_cpu") in V) {
			nr++
			nk += V[fix, r, "ksoftirqd_cpu"] + 0 > V[fix, r, "softirq_irqctx_cpu"] + 0
		}
	meas = meas "; " fix " there: receiver " pct1(rc) " %, ksoftirqd/0 " pct1(k) " % of the CPU, " \
	       "NET_RX work in ksoftirqd/0 in " nk " of " nr " repetitions" \
	       (nk < nr ? " (in irq context in the rest)" : "")
	if (books_close(fix)) {
		sp = ratio(fix, "recv_cpu", fix, "ksoftirqd_cpu")
		# receiver/(receiver + ksoftirqd) in lo–hi % <=> receiver/ksoftirqd
		# in lo/(100 - lo)–hi/(100 - hi)
		sj = q_med != "" && qn >= min_pairs() && q_lo >= split_lo() && q_hi <= split_hi()
		meas = meas ", receiver/ksoftirqd " sp
	} else {
		sj = 0
		meas = meas "; the split is not measurable: the CPU books of " fix " do not close at this rate"
	}
	out("dumazet", status(j, g && sj), claim, pub, meas,
	    lead(j, g && sj) "the rule is " fix "/" van " ≥ " num(rule("claim.dumazet")) "× with its " \
	    "interval entirely past " num(rule("claim.dumazet")) ", at every rate of the overload region " \
	    "(past " van "'s peak, where it is in livelock)" \
	    (j > 0 && !g ? "; but ksoftirqd/0 carries less than " num(rule("mech.thread_cpu_pct")) " % of the CPU" : "") \
	    (j > 0 && g && !sj ? "; the receiver/ksoftirqd split is not within " num(rule("mech.split_lo_pct")) "–" \
	     num(rule("mech.split_hi_pct")) " % (ratio " sprintf("%.2f–%.2f", split_lo(), split_hi()) \
	     ") across its interval, or not measurable" : "") \
	    "." caveat())
}

# v in livelock at the loaded rate: the median of its delivered rate over
# its own peak below claim.mogul (a region, like the gates, is chosen by
# medians; the claim is then judged by intervals)
function livelocked(v) {
	ratio(v, "delivered_pps", v, "peak")
	return q_med != "" && q_med + 0 < rule("claim.mogul") + 0
}

# Dumazet's split gate as bounds on receiver/ksoftirqd
function split_lo(    p) {
	p = rule("mech.split_lo_pct")
	return p / (100 - p)
}

function split_hi(    p) {
	p = rule("mech.split_hi_pct")
	return p / (100 - p)
}

# a verdict's order when looking for the worst rate: fails, inconclusive, holds
function rank(j) {
	return j == 0 ? 0 : j < 0 ? 1 : 2
}

# Abeni's claim is about the curve past threaded-napi's peak: per
# repetition, the lowest delivered/peak over every rate above the peak's
# (the median over the repetitions) at which threaded-napi passes the
# overload gates, to the top of the grid.  With no such rate the ratio
# would be 1 by construction, and the rule refuses to judge.
function abeni(    claim, pub, why, meas, j, g, tp, i, t, r, n, lo, ok, x) {
	claim = "Paolo Abeni, threaded NAPI poll loop proposal (netdev, 2016, reported by LWN): " \
		"NAPI polling in a kernel thread keeps the delivered rate up under overload"
	pub = "with threaded NAPI the delivered rate stays stable around the peak under overload (no collapse)"
	why = unjudgeable(napi)
	if (why != "") {
		out("abeni", why ~ /^not measured/ ? "not-measured" : "inconclusive", claim, pub, why,
		    (why ~ /^not measured/ ? "Not measured in this run." : "Inconclusive: " why "."))
		return
	}
	tp = peak_rate(napi, "D")
	ok = ""
	delete lo
	for (i = 1; i <= nrl; i++) {
		t = rl[i]
		load_rate(t)
		if (t <= tp + 0 || !passes_gates(napi))
			continue
		ok = ok (ok == "" ? "" : ", ") thou(t)
		for (r = 1; r <= maxrep; r++)
			if (("D", napi, r, t) in PV && peak_known(napi, r, "D") && PK["D", napi, r] > 0) {
				x = PV["D", napi, r, t] / PK["D", napi, r]
				if (!(r in lo) || x < lo[r])
					lo[r] = x
			}
	}
	if (ok == "") {
		why = napi " peaks at " thou(tp) " pps and passes the overload gates at no higher rate: " \
		      "its delivered rate over its own peak would be 1 by construction, so the rule is not applied"
		out("abeni", "inconclusive", claim, pub, why, "Inconclusive: " why ".")
		return
	}
	n = 0
	for (r = 1; r <= maxrep; r++)
		if (r in lo)
			q[++n] = lo[r]
	meas = napi " past its peak (" thou(tp) " pps), lowest delivered / its own peak over " ok \
	       " pps: " q_stats(n)
	j = judge(rule("claim.abeni"), ">=")
	load_rate(vrate)
	g = med(napi, "napi_cpu") >= rule("mech.thread_cpu_pct")
	meas = meas "; " at_vr() ": napi threads " pct1(med(napi, "napi_cpu")) " % of the CPU, " \
	       "NET_RX softirqs " thou(med(napi, "net_rx_softirq_ps")) "/s"
	out("abeni", status(j, g), claim, pub, meas,
	    lead(j, g) "the rule is delivered ≥ " num(rule("claim.abeni")) " of the variant's own peak at " \
	    "every gated rate past the peak, interval entirely past " num(rule("claim.abeni")) \
	    (j > 0 && !g ? "; but the napi threads carry less than " num(rule("mech.thread_cpu_pct")) " % of the CPU" : "") ".")
}

# vanilla past its peak: the rates above the median peak's rate at which
# the median delivered rate is higher than at the rate before
function rises(    r, t, n, tl, i, a, m, prev, s) {
	for (i = 1; i <= nrl; i++)
		tl[i] = rl[i]
	sort_num(tl, nrl)
	prev = ""
	s = ""
	for (i = 1; i <= nrl; i++) {
		t = tl[i]
		m = 0
		delete a
		for (r = 1; r <= maxrep; r++)
			if (("D", van, r, t) in PV)
				a[++m] = PV["D", van, r, t]
		if (!m)
			continue
		m = median(a, m)
		if (prev != "" && t > vpeak_t && m > prev * 1.1 && t != 0)
			s = s (s == "" ? "" : ", ") thou(t)
		prev = m
	}
	return s
}

function mogul(    claim, pub, why, meas, j, g, s, ns) {
	claim = "Mogul & Ramakrishnan, \"Eliminating Receive Livelock in an Interrupt-Driven Kernel\" " \
		"(ACM TOCS 1997): interrupt-driven receive processing starves the application under overload"
	pub = "receive livelock: past the MLFRR the delivered rate falls as the offered rate rises, toward zero"
	why = unjudgeable(van)
	if (why != "") {
		out("mogul", why ~ /^not measured/ ? "not-measured" : "inconclusive", claim, pub, why,
		    (why ~ /^not measured/ ? "Not measured in this run." : "Inconclusive: " why "."))
		return
	}
	vpeak_t = peak_rate(van, "P")
	if (vrate + 0 <= vpeak_t + 0) {
		why = van " peaks at " thou(vpeak_t) " pps, not below the verdict rate " thou(vrate) \
		      " pps: its delivered rate there over its own peak would be 1 by construction, " \
		      "so the rule is not applied"
		out("mogul", "inconclusive", claim, pub, why, "Inconclusive: " why ".")
		return
	}
	load_rate(vrate)
	meas = van " delivered " at_vr() " / its own peak: " ratio(van, "delivered_pps", van, "peak")
	j = judge(rule("claim.mogul"), "<")
	# the mechanism: softirq in irq context out-runs the receiver, or the
	# guest is starved (lab/exp/rx/point.awk: its sampler could not answer)
	ns = nstarved(van)
	if (ns * 2 > nreps(van)) {
		g = 1
		meas = meas "; starved in " ns " of " nreps(van) " repetitions: the guest's SCHED_FIFO " \
		       "sampler did not answer for the starvation timeout"
	} else {
		g = med(van, "softirq_irqctx_cpu") > med(van, "recv_cpu")
		meas = meas "; softirq in irq context " pct1(med(van, "softirq_irqctx_cpu")) " %, receiver " \
		       pct1(med(van, "recv_cpu")) " % of the CPU"
	}
	s = rises()
	meas = meas (s == "" ? "; past its peak the delivered rate does not rise again" : \
		"; past its peak it rises again (> 10 %) at " s " pps")
	out("mogul", status(j, g), claim, pub, meas,
	    lead(j, g) "the rule is delivered < " num(rule("claim.mogul")) " of the variant's own peak, " \
	    "interval entirely below " num(rule("claim.mogul")) \
	    (j > 0 && !g ? "; but softirq in irq context does not take more CPU than the receiver" : "") ".")
}

# The lost share of v's probes in repetition r, a loss of none counted as
# at most one probe ((lost + 1) / (sent + 1)), so that a ratio against a
# variant that lost nothing stays finite.
function lossrate(v, r,    sent) {
	sent = L[v, r, "probe_sent"] + 0
	return (L[v, r, "probe_loss_pct"] / 100 * sent + 1) / (sent + 1)
}

# the probe's tail of v vs x at the latency rate: p99 ratio, or the loss
# ratio when a p99 is lost-bounded (at the timeout); sets tail_what
function tail_ratio(v, x,    r, b) {
	b = 0
	for (r = 1; r <= maxrep; r++)
		if (L[v, r, "probe_lost_bounded"] ~ /p99/ || L[x, r, "probe_lost_bounded"] ~ /p99/)
			b = 1
	tail_what = b ? "probe loss (lost + 1)/(sent + 1)" : "probe p99"
	return ratio(v, b ? "loss" : "probe_p99_us", x, b ? "loss" : "probe_p99_us", "L")
}

# the variants whose latency-pass points fail the overload gates, on
# medians over their repetitions (the verdict rate's rule), or ""
function lat_ungated(    i, v, w, s) {
	split(van " " fix " " napi, w, " ")
	for (i = 1; i <= 3; i++) {
		v = w[i]
		if (!passes_gates(v, "L"))
			s = s (s == "" ? "" : ", ") v
	}
	return s
}

function revert(    claim, pub, why, meas, jv, jn, jt, lat, thr, st, s) {
	claim = "Paolo Abeni, commit d15121be7485 (v6.5, May 2023), revert of \"softirq: Let ksoftirqd " \
		"do its job\": deferring softirqs to ksoftirqd raises the latency of other softirq users " \
		"compared with vanilla and threaded NAPI; threaded NAPI solves the livelock without that cost"
	pub = "reverted because once ksoftirqd runs, everything else that needs softirqs waits for it " \
	      "(high latencies); threaded NAPI keeps the flooded receiver alive without deferring the rest"
	why = unjudgeable(van " " fix " " napi)
	if (why == "" && !("probe_p99_us" in c && "probe_loss_pct" in c && "probe_lost_bounded" in c))
		why = "not measured in this run (points.csv has no latency probe columns)"
	if (why == "" && lrate == "")
		why = "not measured in this run (no latency pass)"
	if (why != "") {
		out("revert", why ~ /^not measured/ ? "not-measured" : "inconclusive", claim, pub, why,
		    (why ~ /^not measured/ ? "Not measured in this run." : "Inconclusive: " why "."))
		return
	}
	load_rate(vrate)
	s = tail_ratio(fix, van)
	jv = judge(rule("claim.revert_latency"), ">")
	meas = "latency pass at " thou(lrate) " pps: " fix "/" van " " tail_what " " s
	s = tail_ratio(fix, napi)
	jn = judge(rule("claim.revert_latency"), ">")
	meas = meas ", " fix "/" napi " " tail_what " " s
	lat = jv > 0 && jn > 0 ? 1 : jv == 0 || jn == 0 ? 0 : -1
	# the latency pass is gated like throughput: a variant whose probe
	# ran beside a guest not overloaded, or a flood off its target,
	# judges nothing
	s = lat_ungated()
	if (s != "") {
		lat = -1
		meas = meas " (not judged: the latency pass fails the overload gates for " s ")"
	}
	s = ratio(napi, "delivered_pps", fix, "delivered_pps")
	jt = judge(rule("claim.revert_throughput"), ">=")
	meas = meas "; throughput " at_vr() ": " napi "/" fix " delivered " s
	# either half refuted refutes the revert's reason; one half shown
	# with the other open is partly
	st = lat == 0 || jt == 0 ? "not-reproduced" : lat > 0 && jt > 0 ? "reproduced" : \
	     lat > 0 || jt > 0 ? "partly" : "inconclusive"
	thr = "latency half: " fix "'s tail above both others' (ratios' intervals entirely above " \
	      num(rule("claim.revert_latency")) ") " (lat > 0 ? "holds" : lat == 0 ? "does not hold" : "is inconclusive") \
	      "; throughput half: " napi " ≥ " num(rule("claim.revert_throughput")) " of " fix " " (jt > 0 ? "holds" : jt == 0 ? "does not hold" : "is inconclusive")
	out("revert", st, claim, pub, meas,
	    (st == "reproduced" ? "Reproduced: " : st == "partly" ? "Partly reproduced: " : \
	     st == "inconclusive" ? "Inconclusive: " : "Not reproduced: ") thr "." \
	    (lat <= 0 ? " A 1-vCPU probe that did not detect the latency cost does not show it absent." : ""))
}

END {
	if (bad)
		exit 1
	dumazet()
	abeni()
	mogul()
	revert()
}
