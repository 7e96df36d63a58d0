# SPDX-License-Identifier: GPL-2.0
# Data for the plots and the report from a validated points.csv: medians
# over the repetitions with the order-statistic CI of lab/lib/stats.awk.
#
#   awk -v out=DIR [-v latency=1 -v timeout_us=N] -f lab/lib/stats.awk \
#       -f plots/prep.awk -f plots/prep-latency.awk points.csv
#
# latency=1: points.csv has the latency probes' columns (plots/plot
# checks); the metrics of plots/prep-latency.awk are added.  timeout_us:
# the probe's timeout (params.json), where lost-bounded percentiles sit.
#
# Writes into DIR:
#   rates.csv     one row per (variant, rate_target): n, CI coverage and
#                 median,lo,hi of every metric below (named header).  A
#                 latency metric may be empty at a point (no samples):
#                 its median is over the repetitions that have it, counted
#                 in <metric>_n, and empty if none.  The probe's
#                 percentiles also get <metric>_b, _lo_b, _hi_b: 1 where
#                 the median or a CI end is lost-bounded (see below)
#   rates.dat     the same space separated (NaN for empty), one gnuplot
#                 data block (index) per variant, variants in order of
#                 first appearance
#   curve.dat     per variant (one block each) the line through the
#                 medians of delivered vs offered, interpolated linearly in
#                 the data so it stays under y = x on a log offered axis
#   overload.dat  one row per variant at its highest overload: medians of
#                 the CPU breakdown and of the thread shares
#   summary.csv   per variant: MLFRR and, at the highest overload, the
#                 offered and delivered rate and the receiver's CPU share
#                 (the definitions of lab/exp/rx/summarize.awk)
#   meta.gp       for gnuplot: the variants, the column numbers of
#                 rates.dat, overload.dat and tradeoff.dat, axis hints
#   tradeoff.dat  (latency=1) one row per variant at its highest overload:
#                 probe p99 and delivered rate with their CIs, probe p50
#                 and loss (columns in meta.gp)
# A probe percentile is lost-bounded when it falls among the lost probes
# (listed in probe_lost_bounded): the value is the timeout, a lower bound.
# Lost probes rank above every received one, so over the repetitions the
# bounded values sort last: a median or CI end taken from them is a lower
# bound too.
# The highest overload is rate_target 0 (unlimited) if measured, else the
# highest target; rates sort by target the same way.  Columns are read by
# header name, so columns added to points.csv do not matter.

BEGIN {
	FS = ","
	nm = split("offered:offered_pps delivered:delivered_pps recv_cpu:recv_cpu " \
		"tap_drop:tap_drop_pps nic_drop:nic_drop_pps rcvbuf_err:rcvbuf_err_pps " \
		"cpu_user:cpu_user cpu_system:cpu_system cpu_softirq:cpu_softirq " \
		"cpu_irq:cpu_irq cpu_idle:cpu_idle cpu_steal:cpu_steal " \
		"ksoftirqd_cpu:ksoftirqd_cpu napi_cpu:napi_cpu " \
		"idle:idle_cpu gen_err:gen_err_pct closure:closure_pct " \
		"recv_wait:recv_wait_pct recv_us_per_pkt:recv_us_per_pkt " \
		"softirq_irqctx:softirq_irqctx_cpu hardirq:hardirq_cpu other:other_cpu " \
		"sampler:sampler_cpu responder:responder_cpu " \
		"qemu_main_run:qemu_main_run_pct qemu_main_wait:qemu_main_wait_pct " \
		"qemu_vcpu_run:qemu_vcpu_run_pct flood_run:flood_run_pct " \
		"gate_clock:gate_clock host_ceiling:host_ceiling_pps", mm, " ")
	for (i = 1; i <= nm; i++) {
		split(mm[i], p, ":")
		met[i] = p[1]
		src[i] = p[2]
		mi[p[1]] = i
	}
	if (latency)
		lat_metrics()
	# where the CPU went at the verdict rate, stacking to 100 %
	no = split("recv_cpu ksoftirqd_cpu napi_cpu softirq_irqctx hardirq other sampler idle", ov, " ")
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}

{
	v = $c["variant"]
	rep = $c["rep"] + 0
	t = $c["rate_target"] + 0
	# the latency pass gives the latency metrics, the throughput pass
	# every other one
	lp = $c["pass"] == "lat"
	rank = t == 0 ? unlimited_rank() : t
	if (lp) {
		lk = ++lcnt[v, rank]
		for (i = 1; i <= nm; i++)
			if (lat[i])
				val[v, rank, i, lk] = !(src[i] in c) || $c[src[i]] == "" ? "" : $c[src[i]] + 0
		lat_bounded(v, rank, lk, $c["probe_lost_bounded"])
		next
	}
	if (!(v in nr)) {
		order[++nv] = v
		nr[v] = 0
		nrep[v] = 0
	}
	if (!((v, rank) in cnt)) {
		ranks[v, ++nr[v]] = rank
		cnt[v, rank] = 0
	}
	target[rank] = t
	k = ++cnt[v, rank]
	for (i = 1; i <= nm; i++)
		if (!lat[i])
			val[v, rank, i, k] = !(src[i] in c) || $c[src[i]] == "" ? "" : $c[src[i]] + 0
	if (!((v, rep) in seen_rep)) {
		reps[v, ++nrep[v]] = rep
		seen_rep[v, rep] = 1
	}
}

# median of metric i of (v, rank) over the repetitions that have it
# (empty if none); sets ci_lo, ci_hi, ci_cov, st_n and, for the probe's
# percentiles, st_b, ci_lo_b, ci_hi_b (1: lost-bounded, see above)
function stat(v, rank, i,    a, k, n, m, nb, tmin, u, kmax) {
	n = 0
	nb = 0
	kmax = lat[i] ? lcnt[v, rank] : cnt[v, rank]
	for (k = 1; k <= kmax; k++) {
		if (val[v, rank, i, k] == "")
			continue
		a[++n] = val[v, rank, i, k]
		if (bnd[v, rank, i, k] && (!nb++ || a[n] < tmin))
			tmin = a[n]
	}
	st_n = n
	st_b = ci_lo_b = ci_hi_b = 0
	if (n == 0) {
		ci_lo = ci_hi = ""
		ci_cov = 0
		return ""
	}
	m = median(a, n)
	median_ci(a, n)
	if (nb > 0) {
		u = n % 2 ? (n + 1) / 2 : n / 2 + 1
		st_b = u > n - nb
		ci_lo_b = ci_lo >= tmin
		ci_hi_b = ci_hi >= tmin
	}
	return m
}

# a value of rates.csv: empty stays empty
function vnum(x) {
	return x == "" ? "" : num(x)
}

function sorted_ranks(v,    a, k) {
	for (k = 1; k <= nr[v]; k++)
		a[k] = ranks[v, k]
	sort_num(a, nr[v])
	for (k = 1; k <= nr[v]; k++)
		rk[v, k] = a[k]
	top[v] = a[nr[v]]
}

function write_rates(    i, j, k, v, rank, m, hdr, row, nf, fld, drow, cov) {
	hdr = "variant,rate_target,n,ci_coverage"
	ncol = 4
	gate_col = 0
	for (i = 1; i <= nm; i++) {
		hdr = hdr "," met[i] "," met[i] "_lo," met[i] "_hi"
		colno[met[i]] = ncol + 1
		ncol += 3
		if (lat[i]) {
			hdr = hdr "," met[i] "_n"
			ncol++
		}
		if (bname[i] != "") {
			hdr = hdr "," met[i] "_b," met[i] "_lo_b," met[i] "_hi_b"
			ncol += 3
		}
	}
	hdr = hdr ",gates"
	gate_col = ++ncol
	print hdr > (out "/rates.csv")
	print "# " hdr > (out "/rates.dat")
	for (j = 1; j <= nv; j++) {
		v = order[j]
		sorted_ranks(v)
		if (j > 1)
			printf "\n\n" > (out "/rates.dat")
		for (k = 1; k <= nr[v]; k++) {
			rank = rk[v, k]
			row = ""
			for (i = 1; i <= nm; i++) {
				m = stat(v, rank, i)
				if (i == 1)
					cov = ci_cov
				row = row "," vnum(m) "," vnum(ci_lo) "," vnum(ci_hi)
				if (lat[i])
					row = row "," st_n
				if (bname[i] != "")
					row = row "," st_b "," ci_lo_b "," ci_hi_b
				if (lat[i] && m != "")
					lat_range(met[i], ci_lo, ci_hi)
				if (i == mi["offered"])
					offered_lo_min = offered_lo_min == "" || ci_lo < offered_lo_min ? ci_lo : offered_lo_min
				if (i == mi["offered"] && target[rank] == 0)
					unl[++nunl] = m
				if (i == mi["offered"] && ci_hi > offered_hi_max)
					offered_hi_max = ci_hi
				if (i == mi["delivered"] && ci_hi > ymax_delivered)
					ymax_delivered = ci_hi
				if (met[i] ~ /drop|err/ && ci_hi > ymax_drops)
					ymax_drops = ci_hi
			}
			row = v "," target[rank] "," cnt[v, rank] "," num(cov) row "," gates(v, rank)
			print row > (out "/rates.csv")
			nf = split(row, fld, ",")
			drow = fld[1]
			for (i = 2; i <= nf; i++)
				drow = drow " " (fld[i] == "" ? "NaN" : fld[i])
			print drow > (out "/rates.dat")
		}
	}
}

# 24 points per segment, geometric in x when both ends are > 0
function write_curve(    j, k, v, x0, y0, x1, y1, s, x, f) {
	f = out "/curve.dat"
	print "# offered delivered" > f
	for (j = 1; j <= nv; j++) {
		v = order[j]
		if (j > 1)
			printf "\n\n" > f
		for (k = 1; k <= nr[v]; k++) {
			x1 = stat(v, rk[v, k], mi["offered"])
			y1 = stat(v, rk[v, k], mi["delivered"])
			if (k > 1 && x1 != x0)
				for (s = 1; s < 24; s++) {
					x = x0 > 0 && x1 > 0 ? x0 * (x1 / x0) ^ (s / 24) : x0 + (x1 - x0) * s / 24
					printf "%s %s\n", num(x), num(y0 + (y1 - y0) * (x - x0) / (x1 - x0)) > f
				}
			printf "%s %s\n", num(x1), num(y1) > f
			x0 = x1
			y0 = y1
		}
	}
}

# 1 if (v, rank) passes the overload gates of lab/lib/stats.awk
# (gates_pass()), else 0
function gates(v, rank) {
	return rank != unlimited_rank() && gates_pass(stat(v, rank, mi["idle"]), stat(v, rank, mi["gen_err"]),
	       stat(v, rank, mi["gate_clock"]), stat(v, rank, mi["host_ceiling"]),
	       stat(v, rank, mi["offered"])) ? 1 : 0
}

# The verdict rate (lab/exp/rx/summarize.awk's rule): the highest rate every
# variant (of -v gated, if given: gating() of lab/lib/stats.awk) passes the
# gates at; vrank 0 if none.  The latency rate: the
# verdict rate if the latency pass measured it for every variant, else
# the highest rate it measured (lrank 0: no latency pass).
function verdict(    j, k, v, rank, ok, all) {
	vrank = 0
	lrank = 0
	for (j = 1; j <= nv; j++)
		for (k = 1; k <= nr[order[j]]; k++)
			all[ranks[order[j], k]] = 1
	for (rank in all) {
		rank += 0
		ok = rank != unlimited_rank()
		for (j = 1; j <= nv; j++) {
			v = order[j]
			if (gating(v) && (!((v, rank) in cnt) || !gates(v, rank)))
				ok = 0
		}
		if (ok && rank + 0 > vrank)
			vrank = rank + 0
		ok = 1
		for (j = 1; j <= nv; j++)
			if (lcnt[order[j], rank] + 0 == 0)
				ok = 0
		if (ok && rank + 0 > lrank)
			lrank = rank + 0
	}
	if (vrank && lcnt[order[1], vrank] + 0 > 0) {
		ok = 1
		for (j = 1; j <= nv; j++)
			if (lcnt[order[j], vrank] + 0 == 0)
				ok = 0
		if (ok)
			lrank = vrank
	}
	printf "vrate=%s\nlrate=%s\n", vrank ? target[vrank] : "", \
		lrank ? target[lrank] : "" > (out "/verdict.txt")
}

# where each variant's CPU went at the verdict rate (or, without one, at
# its highest paced rate): medians, scaled so that they stack to 100 %
# (the unscaled sum's residual is the closure, shown beside)
function write_breakdown(    i, j, v, row, rank, sum, x) {
	row = "# variant"
	for (i = 1; i <= no; i++)
		row = row " " ov[i]
	print row " closure rate" > (out "/overload.dat")
	for (j = 1; j <= nv; j++) {
		v = order[j]
		rank = vrank ? vrank : (top[v] == unlimited_rank() && nr[v] > 1 ? rk[v, nr[v] - 1] : top[v])
		sum = 0
		for (i = 1; i <= no; i++) {
			x[i] = stat(v, rank, mi[ov[i]]) + 0
			if (ov[i] == "sampler")
				x[i] += stat(v, rank, mi["responder"])
			sum += x[i]
		}
		row = v
		for (i = 1; i <= no; i++)
			row = row " " num(sum > 0 ? 100 * x[i] / sum : 0)
		print row " " num(stat(v, rank, mi["closure"])) " " target[rank] > (out "/overload.dat")
	}
}

# line style per variant: the lab's three keep their colour in every run,
# others take the next free ones
function styles(    fixed, i, s, nxt, n) {
	fixed["vanilla"] = 1
	fixed["ksoftirqd-fix"] = 2
	fixed["threaded-napi"] = 3
	nxt = 4
	for (i = 1; i <= nv; i++) {
		if (order[i] in fixed)
			n = fixed[order[i]]
		else
			n = (nxt++ - 1) % 12 + 1
		s = s (i > 1 ? " " : "") n
	}
	return s
}

function write_meta(    f, i, k, vl) {
	f = out "/meta.gp"
	for (i = 1; i <= nv; i++)
		vl = vl (i > 1 ? " " : "") order[i]
	printf "variants = \"%s\"\nnv = %d\n", vl, nv > f
	printf "vstyles = \"%s\"\n", styles() > f
	printf "xmin = %s\nxmax = %s\n", num(offered_lo_min), num(offered_hi_max) > f
	printf "logx = %d\n", (offered_lo_min > 0 && offered_hi_max >= 10 * offered_lo_min) > f
	printf "x_unlimited = %s\n", (nunl ? num(median(unl, nunl)) : -1) > f
	printf "ymax_delivered = %s\n", num(ymax_delivered > 0 ? ymax_delivered : 1) > f
	printf "ymax_drops = %s\n", num(ymax_drops > 0 ? ymax_drops : 1) > f
	printf "# rates.dat columns\nc_variant = 1\nc_rate_target = 2\nc_n = 3\n" > f
	for (i = 1; i <= nm; i++) {
		k = colno[met[i]]
		printf "c_%s = %d\nc_%s_lo = %d\nc_%s_hi = %d\n", met[i], k,
			met[i], k + 1, met[i], k + 2 > f
		k += 3
		if (lat[i])
			printf "c_%s_n = %d\n", met[i], k++ > f
		if (bname[i] != "")
			printf "c_%s_b = %d\nc_%s_lo_b = %d\nc_%s_hi_b = %d\n", met[i], k,
				met[i], k + 1, met[i], k + 2 > f
	}
	printf "c_gates = %d\n", gate_col > f
	printf "vrate = %s\nlrate = %s\n", vrank ? target[vrank] : -1, lrank ? target[lrank] : -1 > f
	printf "# overload.dat columns\n" > f
	for (i = 1; i <= no; i++)
		printf "o_%s = %d\n", ov[i], i + 1 > f
	printf "o_closure = %d\no_rate = %d\n", no + 2, no + 3 > f
	printf "latency = %d\n", latency > f
	if (latency)
		lat_meta(f)
}

END {
	if (nv == 0)
		exit 1
	write_rates()
	verdict()
	write_curve()
	write_breakdown()
	if (latency)
		write_tradeoff()
	write_meta()
}
