# SPDX-License-Identifier: GPL-2.0
# Common look of the lab's plots, loaded by every plots/*.gp.  Expects:
#   out     output file            fmt     "png" or "svg"
#   width, height (optional, pixels; default 800 x 500)
# PNG uses pngcairo when this gnuplot has it, else the libgd png terminal.
# Text is not "enhanced": variant names like threaded_napi print as is.

if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (fmt eq "svg") {
	set terminal svg size width, height font "DejaVu Sans,11" noenhanced background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size width, height font "DejaVu Sans,10" noenhanced background "white"
	} else {
		set terminal png size width, height font "DejaVu Sans,10" noenhanced
	}
}
set output out

# one colour and marker per variant, the same in every plot (lab/analyze
# gives the lab's variants fixed ones in vstyles)
# (the last four, for a run with the setting variants, dashed)
vcolors = "#c0392b #1f6fb4 #2a9d3a #8e44ad #e67e22 #16a085 #7f8c8d #d35490 #b7950b #5d6d7e #117864 #784212"
do for [i = 1:12] {
	set style line i lc rgb word(vcolors, i) lw 2 pt (i == 1 ? 7 : i == 2 ? 5 : i == 3 ? 9 : i + 3) ps 1.1
	if (i > 8) {
		set style line i dashtype 2
	}
}
vstyle(i) = exists("vstyles") ? word(vstyles, i) + 0 : (i - 1) % 12 + 1

set border 3
set tics nomirror
set grid back lc rgb "#dddddd" lw 1
set format y "%.0s%c"

# the offered-load axis: log scale when the rates span a decade or more
offered_axis_label = "offered load at the tap (packets/s"
set format x "%.0s%c"
if (logx) {
	set logscale x
	x_lo = xmin / 1.4
	x_hi = xmax * 1.4
	offered_axis_label = offered_axis_label . ", log scale)"
} else {
	x_lo = 0
	x_hi = xmax * 1.08
	offered_axis_label = offered_axis_label . ")"
}
set xrange [x_lo : x_hi]

# the unlimited rate (target 0) is marked on the top axis (same scale),
# clear of the offered-load tics at the bottom
if (exists("x_unlimited") && x_unlimited > 0) {
	if (logx) {
		set logscale x2
	}
	set x2range [x_lo : x_hi]
	set x2tics ("unlimited" x_unlimited) scale 0.6 nomirror font ",9" textcolor rgb "#555555"
}

# bottom margin (character heights) for a legend of nv variants and one
# more entry in rows under the axis label: 5.5 for up to four entries,
# a line more per row of about three beyond that
key_bmargin = (exists("nv") && nv + 1 > 4) ? 3.3 + 1.1 * ceil((nv + 1) / 3.0) : 5.5
