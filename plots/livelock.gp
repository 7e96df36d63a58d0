# SPDX-License-Identifier: GPL-2.0
# The Mogul-Ramakrishnan plot: packets delivered to user space against
# packets offered, one line per variant (median over the repetitions at
# each rate target, error bars = the median's CI), and y = x for an ideal
# receiver.  The lines join the measured medians with straight segments
# (curvefile): nothing is drawn between the rates that was not measured.
# Both axes share a scale, so y = x is a straight line: log-log when the
# rates span a decade (style.gp's logx), else linear; every paced rate of
# the grid has its labelled tic.
# A marker with a white centre
# (hollow) is a point that fails a gate: the guest not saturated or the
# flooder off its target (the gates column of lab/analyze).
#   gnuplot -e "datafile='rates.dat'; curvefile='curve.dat'; metafile='meta.gp';
#               plotdir='plots'; title='...'; fmt='png'; out='livelock.png'" plots/livelock.gp
# datafile, curvefile, metafile: made by lab/analyze (lab/lib/py/plotdata.py).

load metafile
load plotdir . "/style.gp"

set title title
set xlabel offered_axis_label
if (logx) {
	set logscale y
	set yrange [ymin_delivered / 1.6 : ymax_delivered * 1.6]
	set ylabel "delivered to the receiving process (packets/s, log scale)"
} else {
	set yrange [0 : ymax_delivered * 1.15]
	set ylabel "delivered to the receiving process (packets/s)"
}
if (exists("grid_rates") && words(grid_rates) > 0) {
	set xtics ()
	do for [i = 1:words(grid_rates)] {
		g = word(grid_rates, i) + 0
		set xtics add (g >= 1000 ? sprintf("%gk", g / 1000.0) : sprintf("%g", g) g)
	}
}
# the legend in a row under the axis label, never over the data
set bmargin key_bmargin
set key at screen 0.5, screen 0.015 center bottom horizontal maxcols 4 reverse Left samplen 2 width 1
set samples 400

plot x with lines dt 2 lw 1.5 lc rgb "#555555" title "ideal (y = x)", \
     for [i = 1:nv] keyentry with yerrorlines ls vstyle(i) title word(variants, i), \
     for [i = 1:nv] curvefile index (i - 1) using 1:2 with lines ls vstyle(i) notitle, \
     for [i = 1:nv] datafile index (i - 1) using c_offered:c_delivered:c_delivered_lo:c_delivered_hi \
	with yerrorbars ls vstyle(i) notitle, \
     for [i = 1:nv] datafile index (i - 1) using c_offered:(column(c_gates) > 0.5 ? 1/0 : column(c_delivered)) \
	with points pt 7 ps 0.55 lc rgb "white" notitle
