# SPDX-License-Identifier: GPL-2.0
# Statistics shared by the summaries (lab/exp/*/summarize.awk) and the plots: median and a
# distribution-free confidence interval of the median from order
# statistics.  For n samples the interval [x(k), x(n-k+1)] covers the
# median with probability 1 - 2 P(Bin(n, 1/2) <= k - 1); k is the largest
# giving >= 95 %, or 1 (min..max) when n is too small, in which case the
# real coverage is reported (n = 3: 75 %, n = 5: 94 %).

function sort_num(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}

function median(a, n) {
	sort_num(a, n)
	if (n == 0)
		return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# P(Bin(n, 1/2) <= k)
function binom_cdf(n, k,    i, c, s) {
	c = 1
	s = 0
	for (i = 0; i <= k; i++) {
		s += c
		c = c * (n - i) / (i + 1)
	}
	return s / 2 ^ n
}

# Sets ci_lo, ci_hi, ci_cov for the sorted a[1..n] (call median() first).
function median_ci(a, n,    k) {
	k = 1
	while (k + 1 <= n / 2 && 1 - 2 * binom_cdf(n, k) >= 0.95)
		k++
	ci_lo = a[k]
	ci_hi = a[n - k + 1]
	ci_cov = n > 1 ? 1 - 2 * binom_cdf(n, k - 1) : 0
}

# rule(name): a value of the lab's rules table, lab/lib/rules.tsv (its
# path in $LAB_RULES, which lab/lib/lib.sh exports), read once
function rule(name,    f, line, x) {
	f = ENVIRON["LAB_RULES"] != "" ? ENVIRON["LAB_RULES"] : "lab/lib/rules.tsv"
	if (!rules_read) {
		while ((getline line < f) > 0) {
			if (line ~ /^#/ || line == "")
				continue
			split(line, x, "\t")
			RULE[x[1]] = x[2]
		}
		close(f)
		rules_read = 1
	}
	if (!(name in RULE)) {
		printf "rules: no rule '%s' in %s\n", name, f > "/dev/stderr"
		exit 2
	}
	return RULE[name] + 0
}

# The MLFRR criterion (Mogul & Ramakrishnan: maximum loss-free receive
# rate): a point is loss-free when less than rule loss.free_pct of its
# flood missed the receiver.
function lossfree(loss_pct) {
	return loss_pct != "" && loss_pct + 0 < rule("loss.free_pct")
}

# a number without exponent or needless digits: 12, 12.5, 1016600
function num(x,    s) {
	s = sprintf("%.2f", x)
	sub(/0+$/, "", s)
	sub(/\.$/, "", s)
	return s == "-0" ? "0" : s
}

# The overload gates of lab/exp/rx/point.awk, over the repetitions of one
# (variant, rate): the guest saturated (median idle <= gate.idle_pct),
# the generator on target (median error within +-gate.gen_err_pct;
# unlimited, with no target, never is) and the host's two below; the
# thresholds are lab/lib/rules.tsv's.  Only a rate every variant passes
# can be a verdict point (the highest such rate is the run's).
function saturated(idle_median) {
	return idle_median != "" && idle_median + 0 <= rule("gate.idle_pct")
}

function on_target(gen_err_median) {
	return gen_err_median != "" && within(gen_err_median, rule("gate.gen_err_pct"))
}

# |x| <= bound
function within(x, bound) {
	return x + 0 <= bound + 0 && x + 0 >= -bound
}

# The host's gates (lab/exp/rx/point.awk), over the same repetitions: a
# fixed-speed guest kept its instruction rate (gate_clock, median of 0/1),
# and the host could have delivered the rate offered (its delivery
# ceiling, host_ceiling_pps, at least the offered rate).  Empty medians
# (a run of an older lab without the columns, a main loop never busy)
# pass: nothing says the host failed.
function clock_kept(gate_clock_median) {
	return gate_clock_median == "" || gate_clock_median + 0 >= 0.5
}

function host_delivers(ceiling_median, offered_median) {
	return ceiling_median == "" || ceiling_median + 0 >= offered_median + 0
}

# One point's own generator and clock gates (a repetition, not a median):
# a point that fails them enters no pair (plots/claims.awk,
# plots/defences.awk) and sets no peak, but for a guest that only lost
# time, whose rate per host second bounds it from below (claims.awk).  A
# rate's gates are judged on its medians, so one
# repetition can fail them inside a rate that passes (the fix at 2 x the
# knee: flooder -20.8 %, guest clock +26.5 %), and a guest that lost a
# third of its clock reads more than it was offered, a peak no curve has.
# The generator's bound is gate.point_gen_err_pct, wider than the rate's:
# one point a few % off is at its rate's load (a busy loop beside the
# flooder put 6 of 18 points at 6 x the knee 1-4.5 % off, one -20 %).
# No target (the unlimited point) passes.
function point_ok(gen_err, gate_clock) {
	return (gen_err == "" || within(gen_err, rule("gate.point_gen_err_pct"))) && clock_kept(gate_clock)
}

# every gate of a (variant, rate) from its medians
function gates_pass(idle, gen_err, gate_clock, ceiling, offered) {
	return saturated(idle) && on_target(gen_err) && clock_kept(gate_clock) && \
	       host_delivers(ceiling, offered)
}

# The median of a[1..n] with its order-statistic CI, as "m,lo,hi"
# (empty fields when n is 0).
function med_ci(a, n,    m) {
	if (n == 0)
		return ",,"
	m = median(a, n)
	median_ci(a, n)
	return num(m) "," num(ci_lo) "," num(ci_hi)
}

# gating(v): 1 if variant v must pass the gates for a rate to be the
# verdict rate: every variant, or those of -v gated="v1 v2 ..." if given
function gating(v,    i, n, g) {
	if (gated == "")
		return 1
	n = split(gated, g, " ")
	for (i = 1; i <= n; i++)
		if (g[i] == v)
			return 1
	return 0
}

# The claims' rule (plots/claims.awk, plots/defences.awk): fewer pairs
# than this judge nothing (with 5 the interval of the median is min–max at
# 94 %; with 2 it would be 50 %); a ratio over a zero denominator is +∞.
function min_pairs() {
	return rule("claim.min_pairs")
}

function inf() {
	return 2 ^ 1024
}

# The rank of the unlimited flood (rate_target 0) when rates are sorted:
# above every real rate.  The one sentinel of the lab (lab/exp/rx/hooks.sh
# sorts its rates with the same value).
function unlimited_rank() {
	return 1e15
}
