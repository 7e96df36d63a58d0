# SPDX-License-Identifier: GPL-2.0
# Two runs' livelock curves in one figure (lab/compare): median delivered
# against offered per variant, run A solid, run B dashed, a variant's
# colour the same in both; y = x for an ideal receiver.  Straight segments
# join the measured medians; both axes log scale when the rates span a
# decade (style.gp's logx).
#   gnuplot -e "datafile='compare.dat'; metafile='meta.gp'; plotdir='plots';
#               fmt='png'; out='compare-livelock.png'" plots/compare.gp
# datafile, metafile: made by lab/lib/py/runcompare.py.

load metafile
load plotdir . "/style.gp"

set title sprintf("Two runs: A = %s (solid), B = %s (dashed)", run_a, run_b)
set xlabel offered_axis_label
if (logx) {
	set logscale y
	set ylabel "delivered to the receiving process (packets/s, log scale)"
} else {
	set yrange [0:*]
	set ylabel "delivered to the receiving process (packets/s)"
}
set key outside right top vertical samplen 3
# a style per curve: its variant's colour (style.gp's vcolors), its run's dash
cstyle(i) = 100 + i
do for [i = 1:nv] {
	c = word(colours, i) + 0
	d = word(dashes, i) + 0
	set style line 100 + i lc rgb word(vcolors, (c - 1) % 12 + 1) lw 2 pt 7 ps 0.9 dashtype d
}
plot x with lines dt 3 lw 1.5 lc rgb "#555555" title "ideal (y = x)", \
     for [i = 1:nv] datafile index (i - 1) using 1:2 with linespoints ls cstyle(i) title word(variants, i)
