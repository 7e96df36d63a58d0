# SPDX-License-Identifier: GPL-2.0
# The guest's idle share (%) between two sampler snapshot lines (the
# first and the last line read): /proc/stat idle time (NO_HZ idle sleep
# time, exact) over the time between the snapshots times the CPUs.  Not
# over the sum of /proc/stat's columns: under TCG the tick-sampled ones
# lose ticks when QEMU's timers run late.
#   printf '%s\n%s\n' "$snap1" "$snap2" | awk -f lab/lib/idle.awk

{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^(cpu_idle|cpu_iowait|t_ns|hz|ncpu)=[0-9]+$/) {
			split($i, kv, "=")
			v[NR, kv[1]] = kv[2]
		}
}

END {
	win = (v[NR, "t_ns"] - v[1, "t_ns"]) / 1e9 * v[NR, "ncpu"]
	idle = (v[NR, "cpu_idle"] + v[NR, "cpu_iowait"] - v[1, "cpu_idle"] - v[1, "cpu_iowait"]) / v[NR, "hz"]
	printf "%.1f\n", (win > 0 && v[NR, "hz"] > 0 ? 100 * idle / win : 0)
}
