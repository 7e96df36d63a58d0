# SPDX-License-Identifier: GPL-2.0
# The report's side-by-side section for a run with the 6.1 variants
# (lab/run --upstream): each claim judged on 6.12 (our forward port,
# vanilla / ksoftirqd-fix / threaded-napi) and on 6.1 (upstream's code:
# v6.1-revert / v6.1 / v6.1+threaded), by the same rule at the same
# verdict rate.  Inputs: two outputs of plots/claims.awk, 6.12's then
# 6.1's (id status claim published measured verdict, tab-separated).
#
#   awk -F'\t' -v vrate=R -f plots/upstream.awk claims.tsv claims-6.1.tsv

FNR == 1 { f++ }

f == 1 { if (!($1 in M)) ids[++n] = $1; M[$1] = $5; V[$1] = $6; S[$1] = $2; next }
f == 2 { M61[$1] = $5; V61[$1] = $6; S61[$1] = $2; if (!($1 in M)) ids[++n] = $1 }

function cell(s) {
	gsub(/\|/, "\\|", s)
	return s == "" ? "—" : s
}

END {
	if (!n)
		exit
	print "## 6.12 forward port against 6.1 upstream code\n"
	print "The same claims, rule and gates on two kernels: 6.12 with our forward port " \
	      "(vanilla, ksoftirqd-fix, threaded-napi) and Debian's 6.1 LTS with upstream's own " \
	      "code (v6.1-revert: the v6.5 revert d15121be7485 applied; v6.1: Eric Dumazet's fix " \
	      "as 6.1 ships it; v6.1+threaded: threaded NAPI through its sysfs switch), " \
	      (vrate == "" ? "with no verdict rate in this run." : "at the run's verdict rate, " vrate " pps.") \
	      " 6.1 schedules with CFS, 6.12 with EEVDF; a difference in the receiver/ksoftirqd " \
	      "split is first a difference in cost per packet (README: CFS's 3 ms turn on 6.12, " \
	      "the +slice3ms variants, moves nothing).\n"
	print "| Claim | 6.12, forward port | 6.1, upstream code | Same verdict |"
	print "|---|---|---|---|"
	for (i = 1; i <= n; i++) {
		id = ids[i]
		printf "| %s | %s: %s | %s: %s | %s |\n", id, cell(S[id]), cell(M[id]),
			cell(S61[id]), cell(M61[id]), S[id] == S61[id] ? "yes" : "**no**"
	}
	print ""
}
