# SPDX-License-Identifier: GPL-2.0
# The TX experiment per variant (lab/tx): left, the qdisc's packet rate;
# right, NET_TX softirqs and ksoftirqd wakeups per second.  Bars are
# medians over the repetitions, error bars their confidence interval.
#   gnuplot -e "datafile='tx.dat'; plotdir='plots'; nv=3; title='...';
#               fmt='png'; out='tx.png'" plots/tx.gp
# datafile: one row per variant, space separated:
#   variant qdisc lo hi net_tx lo hi wakeups lo hi

logx = 0
xmin = 1
xmax = 1
x_unlimited = -1
width = 900
load plotdir . "/style.gp"
unset logscale x
unset xrange
set xrange [-0.6 : nv - 0.4]
set yrange [0 : *]
# room above the tallest error bar for its label
set offsets 0, 0, graph 0.12, 0
set grid noxtics ytics
set xtics nomirror scale 0 rotate by 15 right
set style fill solid 0.9 border rgb "#ffffff"
set errorbars lc rgb "#333333" lw 1.5

set multiplot title title
set lmargin at screen 0.09
set rmargin at screen 0.45
set bmargin at screen 0.2
set tmargin at screen 0.82
set title "qdisc throughput (eth0 tx), median"
set ylabel "packets/s"
set boxwidth 0.6
plot datafile using 0:2:3:4:(0.6):xtic(1) with boxerrorbars lc rgb "#1f6fb4" notitle, \
     '' using 0:4:(sprintf("%.0f", $2)) with labels offset 0, 0.7 font ",9" notitle

set lmargin at screen 0.58
set rmargin at screen 0.98
set title "NET_TX softirqs and ksoftirqd wakeups, median"
set ylabel "per second"
set format y "%.0f"
set boxwidth 0.35
set key at screen 0.58, screen 0.02 left bottom horizontal samplen 1 reverse Left
plot datafile using ($0 - 0.19):5:6:7:(0.35) with boxerrorbars lc rgb "#e67e22" title "NET_TX softirqs", \
     '' using ($0 + 0.19):8:9:10:(0.35) with boxerrorbars lc rgb "#8e44ad" title "ksoftirqd wakeups", \
     '' using 0:(0):xtic(1) with points pt -1 notitle
unset multiplot
