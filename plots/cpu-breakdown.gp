# SPDX-License-Identifier: GPL-2.0
# Where the guest's CPU goes at each variant's highest overload: left,
# /proc/stat categories stacked (medians over the repetitions, so a bar
# may miss 100 by rounding); right, the CPU of the receiving process,
# ksoftirqd/0 and the napi threads (schedstat run time).
#   gnuplot -e "datafile='overload.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='cpu-breakdown.png'" plots/cpu-breakdown.gp
# datafile: plots/prep.awk's overload.dat (one row per variant).

load metafile
logx = 0
x_unlimited = -1
load plotdir . "/style.gp"
unset logscale x
unset xrange
set xrange [-0.6 : nv - 0.4]
set format y "%.0f"
set yrange [0 : 100]
set ytics 20
set grid noxtics ytics
set style data histograms
set style fill solid 0.9 border rgb "#ffffff"
set xtics nomirror scale 0
ccolor(k) = word("#2a9d3a #1f6fb4 #c0392b #8e44ad #d5d8dc #2c3e50", k)
tcolor(k) = word("#2a9d3a #e67e22 #16a085", k)
# a value printed inside its segment when the segment is tall enough
seglabel(v) = v >= 7 ? sprintf("%.0f", v) : ""

set multiplot title title
set lmargin at screen 0.08
set rmargin at screen 0.56
set bmargin at screen 0.2
set tmargin at screen 0.8
set title "guest CPU (/proc/stat), median %"
set ylabel "% of the guest's CPU"
set style histogram rowstacked
set boxwidth 0.6
set key at screen 0.04, screen 0.02 left bottom horizontal maxrows 1 samplen 1 width 0 reverse Left
u = o_cpu_user; s = o_cpu_system; q = o_cpu_softirq; r = o_cpu_irq; d = o_cpu_idle; t = o_cpu_steal
plot datafile using u:xtic(1) lc rgb ccolor(1) title "user", \
     '' using s lc rgb ccolor(2) title "system", \
     '' using q lc rgb ccolor(3) title "softirq", \
     '' using r lc rgb ccolor(4) title "irq", \
     '' using d lc rgb ccolor(5) title "idle", \
     '' using t lc rgb ccolor(6) title "steal", \
     '' using 0:(column(u) / 2):(seglabel(column(u))) with labels tc rgb "white" notitle, \
     '' using 0:(column(u) + column(s) / 2):(seglabel(column(s))) with labels tc rgb "white" notitle, \
     '' using 0:(column(u) + column(s) + column(q) / 2):(seglabel(column(q))) with labels tc rgb "white" notitle, \
     '' using 0:(column(u) + column(s) + column(q) + column(r) / 2):(seglabel(column(r))) with labels tc rgb "white" notitle, \
     '' using 0:(column(u) + column(s) + column(q) + column(r) + column(d) / 2):(seglabel(column(d))) with labels tc rgb "#333333" notitle

set lmargin at screen 0.66
set rmargin at screen 0.98
set xtics rotate by 20 right
set title "threads (schedstat), median %"
unset ylabel
set style histogram clustered gap 1
set boxwidth 1
set key at screen 0.64, screen 0.02 left bottom horizontal maxrows 1 samplen 1 width 0 reverse Left
set style fill solid 0.9 border rgb "#ffffff"
bar(j) = (j - 2) / 4.0
plot datafile using o_recv_cpu:xtic(1) lc rgb tcolor(1) title "receiver", \
     '' using o_ksoftirqd_cpu lc rgb tcolor(2) title "ksoftirqd/0", \
     '' using o_napi_cpu lc rgb tcolor(3) title "napi threads", \
     '' using ($0 + bar(1)):(column(o_recv_cpu)):(sprintf("%.0f", column(o_recv_cpu))) with labels offset 0, 0.6 font ",9" notitle, \
     '' using ($0 + bar(2)):(column(o_ksoftirqd_cpu)):(sprintf("%.0f", column(o_ksoftirqd_cpu))) with labels offset 0, 0.6 font ",9" notitle, \
     '' using ($0 + bar(3)):(column(o_napi_cpu)):(sprintf("%.0f", column(o_napi_cpu))) with labels offset 0, 0.6 font ",9" notitle
unset multiplot
