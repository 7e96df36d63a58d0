# SPDX-License-Identifier: GPL-2.0
# One sentence per setting variant (a livelock defence, lab/exp/rx/defences)
# of a run, worded from its numbers against the kernel variant it boots:
# the delivered rate as a ratio paired per repetition (lab/lib/stats.awk's
# median and CI, the claims' rule; a point that failed its own gates
# enters no pair) at the verdict rate, whether its guest
# was saturated there (the kernels chose the rate), the receiver's CPU
# and run delay there, the probe loss and the timer p99 of the latency
# pass.  Input: points.csv.  Output: "variant<TAB>sentence" lines.
#
#   awk -F, -v vrate=R -v lrate=L -v kernels="def=kernel ..." \
#       -f lab/lib/stats.awk -f plots/fmt.awk -f plots/defences.awk points.csv

BEGIN {
	FS = ","
	n = split(kernels, kv, " ")
	for (i = 1; i <= n; i++) {
		split(kv[i], p, "=")
		kern[p[1]] = p[2]
		order[++nd] = p[1]
	}
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}

{
	v = $c["variant"]; r = $c["rep"] + 0; t = $c["rate_target"] + 0
	if (r > maxrep)
		maxrep = r
	if ($c["pass"] == "tput" && vrate != "" && t == vrate + 0) {
		D[v, r] = $c["delivered_pps"]
		U[v, r] = $c["recv_cpu"]
		W[v, r] = $c["recv_wait_pct"]
		I[v, r] = $c["idle_cpu"]
		G[v, r] = point_ok($c["gen_err_pct"], "gate_clock" in c ? $c["gate_clock"] : "")
	}
	if ($c["pass"] == "lat" && lrate != "" && t == lrate + 0) {
		L[v, r] = $c["probe_loss_pct"]
		T[v, r] = $c["tlat_p99_us"]
	}
}

# median of X[v, 1..maxrep] for the array named by which
function med(which, v,    r, a, n) {
	n = 0
	for (r = 1; r <= maxrep; r++) {
		if (which == "U" && (v, r) in U && U[v, r] != "") a[++n] = U[v, r]
		if (which == "W" && (v, r) in W && W[v, r] != "") a[++n] = W[v, r]
		if (which == "I" && (v, r) in I && I[v, r] != "") a[++n] = I[v, r]
		if (which == "L" && (v, r) in L && L[v, r] != "") a[++n] = L[v, r]
		if (which == "T" && (v, r) in T && T[v, r] != "") a[++n] = T[v, r]
	}
	return n ? median(a, n) : ""
}

function sentence(d,    k, r, q, n, m, s, u, uk) {
	k = kern[d]
	n = 0
	for (r = 1; r <= maxrep; r++)
		if ((d, r) in D && (k, r) in D && G[d, r] && G[k, r] && (D[k, r] > 0 || D[d, r] > 0))
			q[++n] = D[k, r] > 0 ? D[d, r] / D[k, r] : inf()
	if (vrate == "")
		return d ": no verdict point in this run, nothing to compare at."
	if (n == 0)
		return d ": not measured beside " k " at the verdict rate."
	m = median(q, n)
	median_ci(q, n)
	s = sprintf("%s delivers %s× %s at %s pps", d, ratio_fmt(m), k, thou(vrate))
	s = s (n < 2 ? " (one repetition, no CI)" : sprintf(" [%s–%s]", ratio_fmt(ci_lo), ratio_fmt(ci_hi)))
	# the claims' rule (lab/lib/stats.awk min_pairs)
	s = s (n < min_pairs() ? sprintf(", %d repetitions: not judged (%d needed)", n, min_pairs()) : ci_lo > 1 ? ", more" : \
	       ci_hi < 1 ? ", less" : ", not different at this confidence")
	# the kernels chose the verdict rate; the defence's own saturation gate
	if (med("I", d) != "" && !saturated(med("I", d)))
		s = s sprintf(" (its guest %s %% idle there: not overloaded by this rate)", pct1(med("I", d)))
	u = med("U", d); uk = med("U", k)
	if (u == "")
		s = s sprintf("; its receiver's CPU share is not reported (the CPU books do not close) and it " \
			"waits %s %% of the window (%s: %s %%)", pct1(med("W", d)), k, pct1(med("W", k)))
	else
		s = s sprintf("; its receiver gets %s %% of the CPU (%s: %s %%) and waits %s %% of the window (%s %%)",
			pct1(u), k, pct1(uk), pct1(med("W", d)), pct1(med("W", k)))
	if (lrate != "" && med("L", d) != "")
		s = s sprintf("; at %s pps its probes lose %s %% (%s %%), timer p99 %s µs (%s µs)",
			thou(lrate), pct1(med("L", d)), pct1(med("L", k)),
			thou(med("T", d)), thou(med("T", k)))
	return s "."
}

END {
	for (i = 1; i <= nd; i++)
		printf "%s\t%s\n", order[i], sentence(order[i])
}
