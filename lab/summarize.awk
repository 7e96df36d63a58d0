# SPDX-License-Identifier: GPL-2.0
# Per-variant summary of points.csv (see lab/summarize).

BEGIN { FS = "," }

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}

{
	v = $c["variant"]; rep = $c["rep"]; t = $c["rate_target"]
	if (!(v in seen)) {
		seen[v] = 1
		order[++nv] = v
	}
	reps[v, rep] = 1
	# the highest overload: unlimited (0) ranks above every paced rate
	rank = t == 0 ? 1e12 : t
	if (rank > top[v])
		top[v] = rank
	offered = $c["offered_pps"]; delivered = $c["delivered_pps"]
	if (lossfree($c["loss_pct"]) && offered > mlfrr[v, rep])
		mlfrr[v, rep] = offered
	val[v, rep, rank, "delivered"] = delivered
	val[v, rep, rank, "recv_cpu"] = $c["recv_cpu"]
	val[v, rep, rank, "cpu_softirq"] = $c["cpu_softirq"]
	val[v, rep, rank, "ksoftirqd_cpu"] = $c["ksoftirqd_cpu"]
	val[v, rep, rank, "napi_cpu"] = $c["napi_cpu"]
	val[v, rep, rank, "offered"] = offered
}

function stat(v, what,    n, r, a) {
	n = 0
	for (r = 1; r <= maxrep; r++) {
		if (!((v, r) in reps))
			continue
		if (what == "mlfrr")
			a[++n] = mlfrr[v, r] + 0
		else if ((v, r, top[v], what) in val)
			a[++n] = val[v, r, top[v], what]
	}
	m = median(a, n)
	median_ci(a, n)
	nstat = n
	return num(m) "," num(ci_lo) "," num(ci_hi)
}

END {
	maxrep = 0
	for (k in reps) {
		split(k, p, SUBSEP)
		if (p[2] + 0 > maxrep)
			maxrep = p[2] + 0
	}
	print "variant,reps,ci_coverage,overload_target,overload_offered_pps," \
	      "mlfrr_pps,mlfrr_lo,mlfrr_hi,delivered_pps,delivered_lo,delivered_hi," \
	      "recv_cpu,recv_cpu_lo,recv_cpu_hi,softirq_cpu,ksoftirqd_cpu,napi_cpu"
	for (i = 1; i <= nv; i++) {
		v = order[i]
		ml = stat(v, "mlfrr")
		n = nstat
		cov = ci_cov
		dl = stat(v, "delivered")
		rc = stat(v, "recv_cpu")
		split(stat(v, "offered"), of, ",")
		split(stat(v, "cpu_softirq"), sq, ",")
		split(stat(v, "ksoftirqd_cpu"), ks, ",")
		split(stat(v, "napi_cpu"), np, ",")
		printf "%s,%d,%.2f,%s,%s,%s,%s,%s,%s,%s,%s\n", v, n, cov,
			top[v] == 1e12 ? "unlimited" : top[v], of[1], ml, dl, rc,
			sq[1], ks[1], np[1]
	}
}
