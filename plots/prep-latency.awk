# SPDX-License-Identifier: GPL-2.0
# The latency part of plots/prep.awk (functions only; loaded with it):
# the metrics of the two latency probes, the lost-bounded flags of the
# request/response probe's percentiles, tradeoff.dat and the latency
# entries of meta.gp.
#
#   awk -v out=DIR -v latency=1 -v timeout_us=N -f lab/lib/stats.awk \
#       -f plots/prep.awk -f plots/prep-latency.awk points.csv
#
# Metrics (medians over the repetitions, CI as in prep.awk):
#   probe_p50, probe_p99, probe_p999  request/response RTT (µs), lost-bounded
#   probe_loss                        lost probes (% of sent)
#   tlat_p50, tlat_p99, tlat_max      timer lateness (µs)
#   tlat_overruns                     timer periods skipped in the window
#   probe_lost_net, probe_lost_socket, probe_lost_reply
#                                     where the lost probes went: before
#                                     the responder's socket, at it, after
#                                     its read (lab/exp/rx/point.awk)

# adds the metrics to prep.awk's met/src/mi; lat[i]: may be empty at a
# point; bname[i]: the percentile's name in probe_lost_bounded
function lat_metrics(    n, i, mm, p) {
	n = split("probe_p50:probe_p50_us:p50 probe_p99:probe_p99_us:p99 " \
		"probe_p999:probe_p999_us:p999 probe_loss:probe_loss_pct: " \
		"tlat_p50:tlat_p50_us: tlat_p99:tlat_p99_us: tlat_max:tlat_max_us: " \
		"tlat_overruns:tlat_overruns: probe_lost_net:probe_lost_net: " \
		"probe_lost_socket:probe_lost_socket: probe_lost_reply:probe_lost_reply:", mm, " ")
	for (i = 1; i <= n; i++) {
		split(mm[i], p, ":")
		met[++nm] = p[1]
		src[nm] = p[2]
		mi[p[1]] = nm
		lat[nm] = 1
		bname[nm] = p[3]
	}
}

# the flags of repetition k of (v, rank) from its probe_lost_bounded
# ("none" or e.g. "p99+p999+max")
function lat_bounded(v, rank, k, list,    i, n, q, lb) {
	n = split(list, q, "+")
	for (i = 1; i <= n; i++)
		lb[q[i]] = 1
	for (i = 1; i <= nm; i++)
		if (bname[i] != "")
			bnd[v, rank, i, k] = bname[i] in lb
}

# the y range of the latency plot: the plotted percentiles' CIs
function lat_range(name, lo, hi) {
	if (name !~ /^(probe|tlat)_p(50|99)$/)
		return
	if (lo > 0 && (lat_ymin == "" || lo < lat_ymin))
		lat_ymin = lo
	if (hi > lat_ymax)
		lat_ymax = hi
}

# the x range of the trade-off plot
function trade_range(lo, hi) {
	if (lo != "" && lo > 0 && (trade_xmin == "" || lo < trade_xmin))
		trade_xmin = lo
	if (hi != "" && hi > trade_xmax)
		trade_xmax = hi
}

# a value of a .dat file: NaN (gnuplot: no point) for empty
function dnum(x) {
	return x == "" ? "NaN" : num(x)
}

# where the label of each variant's point in the trade-off plot goes
# (lab[], meta.gp's label_dy), in lines above (> 0) or below it: above, unless the next higher point is within a tenth of the
# y range; then below, or further below the label of that point
function label_dy(    j, k, t, a, y, prev, dy) {
	for (j = 1; j <= nv; j++) {
		y[j] = stat(order[j], lrank, mi["delivered"])
		a[j] = j
	}
	for (j = 2; j <= nv; j++)
		for (k = j; k > 1 && y[a[k]] > y[a[k - 1]]; k--) {
			t = a[k]; a[k] = a[k - 1]; a[k - 1] = t
		}
	for (j = 1; j <= nv; j++) {
		if (j == 1 || prev - y[a[j]] > trade_ymax * 1.3 / 10)
			dy = 0.9
		else
			dy = dy > 0 ? -0.9 : dy - 1.1
		lab[a[j]] = dy
		prev = y[a[j]]
	}
}

# one row per variant at the latency rate (lrank, see verdict()): probe p99 and delivered
# rate with their CIs, probe p50 and loss
function write_tradeoff(    f, i, j, v, row, m) {
	f = out "/tradeoff.dat"
	ntc = split("p99 p99_lo p99_hi p99_b p99_lo_b p99_hi_b delivered delivered_lo " \
		"delivered_hi p50 p50_b loss", tcol, " ")
	row = "# variant"
	for (i = 1; i <= ntc; i++)
		row = row " " tcol[i]
	print row > f
	for (j = 1; j <= nv; j++) {
		v = order[j]
		m = stat(v, lrank, mi["probe_p99"])
		row = v " " dnum(m) " " dnum(ci_lo) " " dnum(ci_hi) " " st_b " " ci_lo_b " " ci_hi_b
		trade_range(ci_lo, ci_hi)
		m = stat(v, lrank, mi["delivered"])
		row = row " " num(m) " " num(ci_lo) " " num(ci_hi)
		if (ci_hi > trade_ymax)
			trade_ymax = ci_hi
		m = stat(v, lrank, mi["probe_p50"])
		row = row " " dnum(m) " " st_b
		trade_range(m, m)
		rows[j] = row " " dnum(stat(v, lrank, mi["probe_loss"]))
	}
	for (j = 1; j <= nv; j++)
		print rows[j] > f
	label_dy()
}

function lat_meta(f,    i, dys) {
	printf "timeout_us = %s\n", (timeout_us > 0 ? num(timeout_us) : -1) > f
	printf "lat_ymin = %s\nlat_ymax = %s\n", num(lat_ymin > 0 ? lat_ymin : 1),
		num(lat_ymax > 0 ? lat_ymax : 1) > f
	printf "trade_xmin = %s\ntrade_xmax = %s\ntrade_ymax = %s\n",
		num(trade_xmin > 0 ? trade_xmin : 1), num(trade_xmax > 0 ? trade_xmax : 1),
		num(trade_ymax > 0 ? trade_ymax : 1) > f
	for (i = 1; i <= nv; i++)
		dys = dys (i > 1 ? " " : "") lab[i]
	printf "label_dy = \"%s\"\n", dys > f
	printf "# tradeoff.dat columns\n" > f
	for (i = 1; i <= ntc; i++)
		printf "t_%s = %d\n", tcol[i], i + 1 > f
}
