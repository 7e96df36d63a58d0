# SPDX-License-Identifier: GPL-2.0
# Where each variant's guest CPU went at the verdict point (medians over
# the repetitions), stacked to 100 %: the receiving process (user +
# system), ksoftirqd/0, the napi threads, softirq run in irq context
# (/proc/stat softirq less ksoftirqd's run time), hardirq, other tasks,
# the lab's sampler and responder, idle.  Over each bar: the CPU books'
# residual (the unscaled sum against the window; ±3 % or better closes).
#   gnuplot -e "datafile='overload.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='cpu-breakdown.png'" plots/cpu-breakdown.gp
# datafile: overload.dat of lab/analyze (one row per variant).

load metafile
logx = 0
x_unlimited = -1
load plotdir . "/style.gp"
unset logscale x
unset x2tics
unset xrange
set xrange [-0.6 : nv - 0.4]
set format y "%.0f"
set yrange [0 : 112]
set ytics 0, 20, 100
set grid noxtics ytics
set style data histograms
set style histogram rowstacked
set boxwidth 0.55
set style fill solid 0.9 border rgb "#ffffff"
set xtics nomirror scale 0
set title title
set ylabel "% of the guest's CPU over the window"
set rmargin 22
set key outside right center vertical reverse Left samplen 1.5 width 1
ccolor(k) = word("#2a9d3a #e67e22 #16a085 #c0392b #8e44ad #7f8c8d #34495e #d5d8dc", k)
# a value printed inside its segment when the segment is tall enough
seglabel(v) = v >= 6 ? sprintf("%.0f", v) : ""
cum(k) = sum [j = 2:k] column(j)

plot datafile using o_recv_cpu:xtic(1) lc rgb ccolor(1) title "receiver (user + system)", \
     '' using o_ksoftirqd_cpu lc rgb ccolor(2) title "ksoftirqd/0", \
     '' using o_napi_cpu lc rgb ccolor(3) title "napi threads", \
     '' using o_softirq_irqctx lc rgb ccolor(4) title "softirq in irq context", \
     '' using o_hardirq lc rgb ccolor(5) title "hardirq", \
     '' using o_other lc rgb ccolor(6) title "other tasks", \
     '' using o_sampler lc rgb ccolor(7) title "lab sampler + responder", \
     '' using o_idle lc rgb ccolor(8) title "idle", \
     for [k = 2:9] '' using 0:(cum(k) - column(k) / 2):(seglabel(column(k))) \
	with labels tc rgb (k == 9 ? "#333333" : "white") notitle, \
     '' using 0:(104):(sprintf("books %+.1f %%", column(o_closure))) with labels font ",9" notitle
