# SPDX-License-Identifier: GPL-2.0
# The awk side of the lab's statistics and rules: a point's thresholds
# (lab/exp/rx/point.awk) and the TX experiment's summary
# (lab/exp/tx/summarize.awk): median and a distribution-free confidence
# interval of the median from order statistics.  For n samples the
# interval [x(k), x(n-k+1)] covers the median with probability
# 1 - 2 P(Bin(n, 1/2) <= k - 1); k is the largest giving at least
# stat.ci_coverage (lab/lib/rules.tsv), or 1 (min..max) when n is too
# small, in which case the real coverage is reported (n = 3: 75 %, n = 5:
# 94 %).  The RX analysis is lab/analyze (lab/lib/py/stats.py: the same
# interval).

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
	while (k + 1 <= n / 2 && 1 - 2 * binom_cdf(n, k) >= rule("stat.ci_coverage"))
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

# a number without exponent or needless digits: 12, 12.5, 1016600
function num(x,    s) {
	s = sprintf("%.2f", x)
	sub(/0+$/, "", s)
	sub(/\.$/, "", s)
	return s == "-0" ? "0" : s
}

# A point's gates (lab/exp/rx/point.awk's gate_idle and gate_gen): the
# guest saturated, idle at most gate.idle_pct; the generator on target,
# within +-gate.gen_err_pct.  The analysis judges the rates' gates itself
# (lab/lib/py/gates.py).
function saturated(idle_median) {
	return idle_median != "" && idle_median + 0 <= rule("gate.idle_pct")
}

function on_target(gen_err_median) {
	return gen_err_median != "" && within(gen_err_median, rule("gate.gen_err_pct"))
}

# A starved point (or phase) is the guest's own starvation, not a host
# that gave its vCPU no time, when its SCHED_FIFO sampler waited runnable
# for at least gate.starved_wait_share of the --starve timeout
# (starve_wait_share() of lab/lib/snapshot.awk): a kernel that starves it
# keeps it runnable, a stalled guest's sampler sleeps, and at a fixed
# speed icount warps an idle guest's clock over the stall to the host's
# (tests/e2e/25-faults.t).  An empty share (a raw file without it) is not
# judged.
function own_starvation(share) {
	return share == "" || share + 0 >= rule("gate.starved_wait_share") + 0
}

# |x| <= bound
function within(x, bound) {
	return x + 0 <= bound + 0 && x + 0 >= -bound
}

# The rank of the unlimited flood (rate_target 0) when rates are sorted:
# above every real rate.  The one sentinel of the lab (lab/exp/rx/hooks.sh
# sorts its rates with the same value).
function unlimited_rank() {
	return 1e15
}
