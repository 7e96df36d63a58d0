# SPDX-License-Identifier: GPL-2.0
# CPU share of the receiving process (its user + system time, schedstat;
# not /proc/stat's user column) against offered load, per variant (median
# over the repetitions, error bars = the median's CI).  Hollow markers:
# points that fail a gate.
#   gnuplot -e "datafile='rates.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='user-share.png'" plots/user-share.gp

load metafile
load plotdir . "/style.gp"

set title title
set xlabel offered_axis_label
set ylabel "receiving process, user + system (% of the guest's CPU)"
set format y "%.0f"
set yrange [0 : 100]
set ytics 10
# the legend in a row under the axis label, never over the data
set bmargin key_bmargin
set key at screen 0.5, screen 0.015 center bottom horizontal maxcols 4 reverse Left samplen 2 width 1

plot for [i = 1:nv] datafile index (i - 1) using c_offered:c_recv_cpu:c_recv_cpu_lo:c_recv_cpu_hi \
	with yerrorlines ls vstyle(i) title word(variants, i), \
     for [i = 1:nv] datafile index (i - 1) using c_offered:(column(c_gates) > 0.5 ? 1/0 : column(c_recv_cpu)) \
	with points pt 7 ps 0.55 lc rgb "white" notitle
