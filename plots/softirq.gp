# SPDX-License-Identifier: GPL-2.0
# The softirq experiment's two axes on one page: each variant's benefit
# (x: delivered to the flooded receiver at the RX sweep's verdict rate)
# against its costs (y, log: left, the first-raise-to-entry p99 of TIMER
# (circles), RCU (squares) and BLOCK (pentagons) at the highest flood; right, the
# request/response probe's p99 with the fewest (triangles) and the most
# (diamonds) busy loops, moderate traffic).  Medians; one colour per
# variant; a variant without an RX sweep has no x and is not drawn.
#   gnuplot -e "datafile='tradeoff.dat'; variants='a b c'; title='...'; fmt='png';
#               out='tradeoff.png'; plotdir='plots'" plots/softirq.gp
# datafile: made by lab/analyze (lab/lib/py/softirqrun.py, tradeoff_dat).

width = 1000
height = 460
# style.gp's offered-load axis, which this plot does not have
logx = 0
xmin = 0
xmax = 1
load plotdir . "/style.gp"
set xrange [-1000 : 20000]
set format x "%.0s%c"

set multiplot layout 1, 2 title title
set logscale y
set yrange [100 : 100000]
set xlabel "delivered at the RX verdict rate (packets/s)"
set key bottom right font ",9"
set ylabel "first raise to entry, p99 (µs, log)"
set title "other softirq users under the flood: TIMER (o), RCU (□), BLOCK (⬟)"
plot for [i = 1:words(variants)] datafile every ::(i - 1)::(i - 1) using 2:3 with points ls i pt 7 ps 1.4 \
	title word(variants, i), \
     for [i = 1:words(variants)] datafile every ::(i - 1)::(i - 1) using 2:4 with points ls i pt 5 ps 1.4 notitle, \
     for [i = 1:words(variants)] datafile every ::(i - 1)::(i - 1) using 2:5 with points ls i pt 15 ps 1.4 notitle
# the fix with 4 busy loops waits 131 ms (softirq-20261208-004111): the
# probe's axis goes to a second
set yrange [1000 : 1000000]
set key top left
set ylabel "request/response p99 (µs, log)"
set title "busy loops, moderate traffic: fewest (△), most (◇)"
plot for [i = 1:words(variants)] datafile every ::(i - 1)::(i - 1) using 2:6 with points ls i pt 9 ps 1.4 \
	title word(variants, i), \
     for [i = 1:words(variants)] datafile every ::(i - 1)::(i - 1) using 2:7 with points ls i pt 13 ps 1.4 notitle
unset multiplot
