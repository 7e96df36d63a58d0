# SPDX-License-Identifier: GPL-2.0
# The receiving process's run delay against offered load, per variant:
# the share of each window it was runnable but waiting for the CPU
# (schedstat), median over the repetitions with its CI.  Hollow markers:
# points that fail a gate.
#   gnuplot -e "datafile='rates.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='run-delay.png'" plots/run-delay.gp

load metafile
load plotdir . "/style.gp"

set title title
set xlabel offered_axis_label
set ylabel "receiver runnable, not running (% of the window)"
set format y "%.0f"
set yrange [0 : 100]
set ytics 10
set bmargin key_bmargin
set key at screen 0.5, screen 0.015 center bottom horizontal maxcols 4 reverse Left samplen 2 width 1

plot for [i = 1:nv] datafile index (i - 1) using c_offered:c_recv_wait:c_recv_wait_lo:c_recv_wait_hi \
	with yerrorlines ls vstyle(i) title word(variants, i), \
     for [i = 1:nv] datafile index (i - 1) using c_offered:(column(c_gates) > 0.5 ? 1/0 : column(c_recv_wait)) \
	with points pt 7 ps 0.55 lc rgb "white" notitle
