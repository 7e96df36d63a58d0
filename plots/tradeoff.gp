# SPDX-License-Identifier: GPL-2.0
# Throughput against latency at each variant's highest overload: x, the
# request/response probe's p99 round-trip time (log); y, packets/s
# delivered to the flooded receiver.  One point per variant (medians over
# the repetitions, error bars = the medians' CIs in both directions); a
# thin line runs left to the variant's p50.  A p99 among the lost probes
# is the timeout, a lower bound: drawn hollow with an arrow to the right.
# Up and to the left is better.  The points are labelled with the
# variants and their probe loss (no legend for them).
#   gnuplot -e "datafile='tradeoff.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='tradeoff.png'" plots/tradeoff.gp
# datafile, metafile: made by lab/analyze (lab/lib/py/plotdata.py), with the latency columns.

load metafile
logx = 0
x_unlimited = -1
load plotdir . "/style.gp"

set title title
set logscale x
x_lo = trade_xmin / 3
x_hi = (timeout_us > trade_xmax ? timeout_us : trade_xmax) * 6
set xrange [x_lo : x_hi]
set xtics ("10 µs" 10, "100 µs" 100, "1 ms" 1000, "10 ms" 10000, "100 ms" 100000, \
	"1 s" 1000000, "10 s" 10000000, "100 s" 100000000) nomirror
set mxtics 10
set xlabel "request/response probe p99 round-trip time at max overload (log scale)"
set ylabel "delivered to the receiving process (packets/s)"
set yrange [0 : trade_ymax * 1.3]
set bmargin 5.5
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 1 reverse Left samplen 2 width 2
if (timeout_us > 0) {
	set arrow 1 from first timeout_us, graph 0 to first timeout_us, graph 1 nohead dt 2 lw 1.2 \
		lc rgb "#777777" back
	set label 1 "probe timeout" at first timeout_us, graph 0.97 right offset -0.5, 0 \
		font ",9" tc rgb "#555555" back
}
set label 2 "better: ← lower latency, ↑ more delivered" at graph 0.02, graph 0.97 left \
	font ",9" tc rgb "#555555"
free(c, b) = column(b) > 0 ? NaN : column(c)
bounded(c, b) = column(b) > 0 ? column(c) : NaN
# the hollow form of style.gp's point of line style k
hollow(k) = k <= 3 ? word("6 4 8", k) + 0 : 6
name(i) = sprintf("%s (probe loss %s %%)", word(variants, i), \
	column(t_loss) == column(t_loss) ? sprintf("%.1f", column(t_loss)) : "?")

plot for [i = 1:nv] datafile every ::(i - 1)::(i - 1) using t_p50:t_delivered:(column(t_p99) - column(t_p50)):(0) \
	with vectors nohead ls vstyle(i) lw 1 dt 3 notitle, \
     for [i = 1:nv] datafile every ::(i - 1)::(i - 1) using t_p50:t_delivered \
	with points ls vstyle(i) pt 2 ps 0.9 notitle, \
     for [i = 1:nv] datafile every ::(i - 1)::(i - 1) \
	using (free(t_p99, t_p99_b)):t_delivered:t_p99_lo:t_p99_hi:t_delivered_lo:t_delivered_hi \
	with xyerrorbars ls vstyle(i) ps 1.4 notitle, \
     for [i = 1:nv] datafile every ::(i - 1)::(i - 1) \
	using (bounded(t_p99, t_p99_b)):t_delivered:t_delivered_lo:t_delivered_hi \
	with yerrorbars ls vstyle(i) pt hollow(vstyle(i)) ps 1.6 notitle, \
     for [i = 1:nv] datafile every ::(i - 1)::(i - 1) \
	using (bounded(t_p99, t_p99_b)):t_delivered:(column(t_p99) * 1.8):(0) \
	with vectors head filled size screen 0.012, 25 ls vstyle(i) lw 1.5 notitle, \
     for [i = 1:nv] datafile every ::(i - 1)::(i - 1) using t_p99:t_delivered:(name(i)) \
	with labels right offset -0.8, word(label_dy, i) + 0 tc ls vstyle(i) font ",9" notitle, \
     keyentry with linespoints pt 2 ps 0.9 dt 3 lw 1 lc rgb "#333333" title "p50 (dotted to p99)", \
     keyentry with points pt 6 ps 1.4 lc rgb "#333333" title "p99 ≥ timeout (lower bound)"
