# SPDX-License-Identifier: GPL-2.0
# Latency under flood, per variant against offered load: left, the
# host's request/response probe to a responder in the guest (round-trip
# time, p99 solid and p50 dashed); right, a guest thread's timer wake-up
# lateness (p99 solid, p50 dashed).  Medians over the repetitions, error
# bars = the median's CI.  A probe percentile that falls among the lost
# probes is the timeout, a lower bound: drawn as a hollow triangle on the
# dashed timeout line, its true value is at least that.
#   gnuplot -e "datafile='rates.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='latency.png'" plots/latency.gp
# datafile, metafile: made by lab/analyze (lab/lib/py/plotdata.py), with the latency columns.

load metafile
height = 560
load plotdir . "/style.gp"

y_screen(px) = 1.0 - px / (1.0 * height)
# log y tics in time units: the values are µs
set ytics ("10 µs" 10, "100 µs" 100, "1 ms" 1000, "10 ms" 10000, "100 ms" 100000, \
	"1 s" 1000000, "10 s" 10000000) nomirror
set mytics 10
set logscale y
set xlabel offered_axis_label
# the percentile's median where it is not a lower bound, else NaN
free(c, b) = column(b) > 0 ? NaN : column(c)
bounded(c, b) = column(b) > 0 ? column(c) : NaN

set multiplot title title
set tmargin at screen y_screen(95)
set bmargin at screen y_screen(height - 110)

set lmargin at screen 0.125
set rmargin at screen 0.5
set title "request/response probe: round-trip time"
set ylabel "round-trip time (log scale)" offset 1, 0
top = (timeout_us > lat_ymax ? timeout_us : lat_ymax)
set yrange [lat_ymin / 2 : top * 4]
if (timeout_us > 0) {
	set arrow 1 from graph 0, first timeout_us to graph 1, first timeout_us nohead dt 2 lw 1.2 \
		lc rgb "#777777" back
	set label 1 "timeout: lost probes" at graph 0.02, first timeout_us * 1.6 left \
		font ",9" tc rgb "#555555" back
}
plot for [i = 1:nv] datafile index (i - 1) using c_offered:c_probe_p99 \
	with lines ls vstyle(i) notitle, \
     for [i = 1:nv] datafile index (i - 1) \
	using c_offered:(free(c_probe_p99, c_probe_p99_b)):c_probe_p99_lo:c_probe_p99_hi \
	with yerrorbars ls vstyle(i) notitle, \
     for [i = 1:nv] datafile index (i - 1) using c_offered:(bounded(c_probe_p99, c_probe_p99_b)) \
	with points ls vstyle(i) pt 8 ps 1.6 notitle, \
     for [i = 1:nv] datafile index (i - 1) using c_offered:c_probe_p50 \
	with lines ls vstyle(i) dt 2 lw 1.5 notitle, \
     for [i = 1:nv] datafile index (i - 1) \
	using c_offered:(free(c_probe_p50, c_probe_p50_b)):c_probe_p50_lo:c_probe_p50_hi \
	with yerrorbars ls vstyle(i) lw 1.5 ps 0.7 notitle, \
     for [i = 1:nv] datafile index (i - 1) using c_offered:(bounded(c_probe_p50, c_probe_p50_b)) \
	with points ls vstyle(i) pt 8 ps 1.1 notitle
unset arrow 1
unset label 1

set lmargin at screen 0.615
set rmargin at screen 0.985
set title "guest timer thread (cyclictest): wake-up lateness"
set ylabel "lateness (log scale)" offset 1, 0
set yrange [*:*]
set autoscale y
plot for [i = 1:nv] datafile index (i - 1) using c_offered:c_tlat_p99:c_tlat_p99_lo:c_tlat_p99_hi \
	with yerrorlines ls vstyle(i) notitle, \
     for [i = 1:nv] datafile index (i - 1) using c_offered:c_tlat_p50:c_tlat_p50_lo:c_tlat_p50_hi \
	with yerrorlines ls vstyle(i) dt 2 lw 1.5 ps 0.7 notitle

# the legend, once, in a strip across the bottom: the variants in one
# row, the kinds of line and point in another
set lmargin at screen 0.02
set rmargin at screen 0.98
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
unset x2tics
set xrange [0 : 1]
set yrange [0 : 1]
set key center center horizontal maxrows 1 reverse Left samplen 2.5 width 1
set tmargin at screen y_screen(height - 56)
set bmargin at screen y_screen(height - 30)
plot NaN notitle, for [i = 1:nv] keyentry with linespoints ls vstyle(i) title word(variants, i)
set tmargin at screen y_screen(height - 30)
set bmargin at screen 0.0
plot NaN notitle, \
     keyentry with lines lw 2 lc rgb "#333333" title "p99", \
     keyentry with lines lw 1.5 dt 2 lc rgb "#333333" title "p50", \
     keyentry with points pt 8 ps 1.4 lc rgb "#333333" title "≥ timeout (lower bound)"
unset multiplot
