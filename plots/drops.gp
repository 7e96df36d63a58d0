# SPDX-License-Identifier: GPL-2.0
# Where packets are lost, one panel per variant: at the host tap (QEMU
# did not take them), in the guest NIC/backlog, at the socket's receive
# buffer.  Median over the repetitions, error bars = the median's CI; the
# y scale is shared so the panels compare.  Up to 3 panels a row.
#   gnuplot -e "datafile='rates.dat'; metafile='meta.gp'; plotdir='plots';
#               title='...'; fmt='png'; out='drops.png'" plots/drops.gp
# datafile, metafile: made by lab/analyze (lab/lib/py/plotdata.py).

load metafile
cols = nv < 3 ? nv : 3
rows = (nv + cols - 1) / cols
# pixels: 75 for the title, 320 per row of panels, 50 for the legend
height = 125 + rows * 320
load plotdir . "/style.gp"

lcolor(k) = word("#7f8c8d #d35400 #2c3e50", k)
ltitle(k) = k == 1 ? "tap (QEMU full)" : k == 2 ? "NIC / backlog" : "socket buffer full"
dcol(k) = k == 1 ? c_tap_drop : k == 2 ? c_nic_drop : c_rcvbuf_err
dlo(k) = k == 1 ? c_tap_drop_lo : k == 2 ? c_nic_drop_lo : c_rcvbuf_err_lo
dhi(k) = k == 1 ? c_tap_drop_hi : k == 2 ? c_nic_drop_hi : c_rcvbuf_err_hi
lpt(k) = k == 1 ? 7 : k == 2 ? 5 : 9
y_screen(px) = 1.0 - px / (1.0 * height)

set multiplot title title
set yrange [0 : ymax_drops * 1.12]
set xlabel "offered (packets/s" . (logx ? ", log)" : ")")
unset key
do for [i = 1:nv] {
	col = (i - 1) % cols
	row = (i - 1) / cols
	set lmargin at screen 0.1 + col * 0.89 / cols
	set rmargin at screen 0.1 + (col + 1) * 0.89 / cols - 0.04
	set tmargin at screen y_screen(75 + row * 320 + 60)
	set bmargin at screen y_screen(75 + (row + 1) * 320 - 55)
	set title word(variants, i)
	if (col == 0) {
		set ylabel "dropped (packets/s)"
		set format y "%.0s%c"
	} else {
		unset ylabel
		set format y ""
	}
	plot for [k = 1:3] datafile index (i - 1) \
		using c_offered:(column(dcol(k))):(column(dlo(k))):(column(dhi(k))) \
		with yerrorlines lw 2 pt lpt(k) ps 0.9 lc rgb lcolor(k) notitle
}

# the legend, once, in a strip across the bottom
set lmargin at screen 0.02
set rmargin at screen 0.98
set tmargin at screen y_screen(height - 45)
set bmargin at screen 0.0
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale x
set xrange [0 : 1]
set yrange [0 : 1]
set key center center horizontal maxcols 3 samplen 2.5 width 2
plot NaN notitle, for [k = 1:3] keyentry with yerrorlines lw 2 pt lpt(k) ps 0.9 lc rgb lcolor(k) \
	title ltitle(k)
unset multiplot
