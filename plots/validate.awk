# SPDX-License-Identifier: GPL-2.0
# Checks points.csv before anything is plotted; on the first problem
# prints one line saying what is wrong and exits 1.
#
#   awk -v need="col col ..." [-v blank="col ..."] -f plots/validate.awk points.csv
#
# Columns are found by header name: extra columns (anywhere) are fine, a
# missing required one is not (an older or different format).  Every row
# must have as many fields as the header, the required columns must be
# numbers (except variant, pass: tput or lat, and probe_lost_bounded:
# "none" or names like p99+p999+max, empty outside the latency pass), the
# ones in blank may also be empty (not measured at that point), every one
# of a starved point may be (its rates are checked elsewhere), and a
# (variant, rep, rate_target, pass) point appears once.
# plots/plot checks the trailing newline itself.

BEGIN { FS = ","; bad = "" }

function fail(msg) {
	if (bad == "")
		bad = msg
	exit 1
}

NR == 1 {
	nh = NF
	for (i = 1; i <= NF; i++)
		col[$i] = i
	nn = split(need, req, " ")
	nb = split(blank, bl, " ")
	for (i = 1; i <= nb; i++)
		may_be_empty[bl[i]] = 1
	miss = ""
	for (i = 1; i <= nn; i++)
		if (!(req[i] in col))
			miss = miss (miss == "" ? "" : ", ") req[i]
	if (miss != "")
		fail("header lacks required column(s) " miss " (older or different format?)")
	next
}

{
	if (NF != nh)
		fail("line " NR " has " NF " fields, the header has " nh " (truncated or corrupt file?)")
	# a starved point (lab/exp/rx/point.awk) has no guest window: any
	# number of it may be empty (point.awk fills its rates and totals)
	starved = ("starved" in col) && $col["starved"] == 1
	for (i = 1; i <= nn; i++) {
		x = $col[req[i]]
		if (req[i] == "variant") {
			if (x !~ /^[A-Za-z0-9_.+-]+$/)
				fail("line " NR ": bad variant name '" x "'")
		} else if (req[i] == "pass") {
			if (x != "tput" && x != "lat")
				fail("line " NR ": pass is '" x "', not tput or lat")
		} else if (req[i] == "probe_lost_bounded") {
			if (x == "" && $col["pass"] != "lat")
				continue
			if (x !~ /^(none|(p50|p90|p99|p999|max)(\+(p50|p90|p99|p999|max))*)$/)
				fail("line " NR ": probe_lost_bounded is '" x "', not 'none' or e.g. 'p99+p999+max'")
		} else if (x == "" && ((req[i] in may_be_empty) || starved)) {
			continue
		} else if (x !~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/)
			fail("line " NR ": " req[i] " is '" x "', not a number")
	}
	k = $col["variant"] SUBSEP $col["rep"] SUBSEP ($col["rate_target"] + 0) SUBSEP $col["pass"]
	if (k in seen)
		fail("line " NR " repeats the point of line " seen[k] " (" $col["variant"] \
		     " rep " $col["rep"] " rate " $col["rate_target"] " pass " $col["pass"] ")")
	seen[k] = NR
	rows++
}

END {
	if (bad != "") {
		print bad
		exit 1
	}
	if (rows == 0) {
		print NR == 0 ? "is empty" : "holds no points (header only)"
		exit 1
	}
}
