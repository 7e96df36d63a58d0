# SPDX-License-Identifier: GPL-2.0
# What the point.awk of lab/exp/rx (lab/run), lab/exp/softirq (lab/softirq) and lab/exp/tx (lab/tx) share: the
# raw samples of one point as whitespace-separated key=value tokens, read
# into v[<snapshot>.<key>]; the header or the row of the columns named by
# columns(); deltas between snapshots and shares.  Run as
#   awk [-v header=1] -f lab/lib/snapshot.awk -f lab/<point>.awk raw
# The point's BEGIN calls columns(), its END fills r[] and calls emit_row().

# columns(<names>): the row's columns; with header=1 print them and stop.
function columns(list,    i) {
	ncols = split(list, col, " ")
	if (!header)
		return
	for (i = 1; i <= ncols; i++)
		printf "%s%s", col[i], (i < ncols ? "," : "\n")
	exit
}

function emit_row(    i) {
	for (i = 1; i <= ncols; i++)
		printf "%s%s", r[col[i]], (i < ncols ? "," : "\n")
}

function d(k, a, b) { return v[b "." k] - v[a "." k] }
function per_gs(x) { return sprintf("%.0f", x / gwin) }
function pct(x, tot) { return tot > 0 ? sprintf("%.1f", 100 * x / tot) : "0.0" }

# starve_wait_share(): how long the SCHED_FIFO sampler waited runnable
# over A..B, as a share of the --starve timeout a starved point did not
# answer within (own_starvation() of lab/lib/stats.awk); empty when the
# raw file lacks meta.starve_s or the sampler's wait
function starve_wait_share() {
	if (!(v["meta.starve_s"] > 0) || v["A.sampler_wait_ns"] == "" || v["B.sampler_wait_ns"] == "")
		return ""
	return sprintf("%.2f", d("sampler_wait_ns", "A", "B") / (v["meta.starve_s"] * 1e9))
}

# r["cpu_<user|system|irq|softirq|idle|steal>"]: the /proc/stat split of
# the guest over the window C..D, % of all its CPU time (nice and iowait
# count in the total, not as columns).
function cpu_split(    cpu, tot, i) {
	split("user system irq softirq idle steal nice iowait", cpu, " ")
	tot = 0
	for (i in cpu)
		tot += d("cpu_" cpu[i], "C", "D")
	for (i = 1; i <= 6; i++)
		r["cpu_" cpu[i]] = pct(d("cpu_" cpu[i], "C", "D"), tot)
}

{
	for (i = 1; i <= NF; i++) {
		eq = index($i, "=")
		if (eq > 1)
			v[substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
}

END {
	if (header)
		exit
	# the host's window (tap counters) and the guest's (its snapshots)
	win = (v["tapD.t_ns"] - v["tapC.t_ns"]) / 1e9
	gwin = d("t_ns", "C", "D") / 1e9
}
