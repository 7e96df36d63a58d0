# SPDX-License-Identifier: GPL-2.0
# Per-variant summary of a TX experiment's points.csv (lab/tx): for each
# metric the median over the repetitions and the order-statistic CI of
# lab/lib/stats.awk, as <metric>,<metric>_lo,<metric>_hi.  Variants in order of
# first appearance; columns are read by header name.
#
#   awk -f lab/lib/stats.awk -f lab/exp/tx/summarize.awk points.csv

BEGIN {
	FS = ","
	nm = split("qdisc_pps sent_pps host_rx_pps drop_pps requeue_ps " \
		"net_tx_softirq_ps net_rx_softirq_ps ksoftirqd_wakeups_ps ksoftirqd_pcount_ps " \
		"ksoftirqd_cpu sender_cpu cpu_system cpu_softirq cpu_idle", met, " ")
}

NR == 1 {
	for (i = 1; i <= NF; i++)
		c[$i] = i
	for (i = 1; i <= nm; i++)
		if (!(met[i] in c)) {
			printf "tx-summarize: points.csv lacks column %s\n", met[i] > "/dev/stderr"
			bad = 1
			exit 1
		}
	next
}

{
	v = $c["variant"]
	if (!(v in n)) {
		order[++nv] = v
		n[v] = 0
	}
	k = ++n[v]
	for (i = 1; i <= nm; i++)
		val[v, i, k] = $c[met[i]]
	threads[v] = $c["threads"]
	payload[v] = $c["payload"]
}

END {
	if (bad)
		exit 1
	printf "variant,reps,ci_coverage,threads,payload"
	for (i = 1; i <= nm; i++)
		printf ",%s,%s_lo,%s_hi", met[i], met[i], met[i]
	printf "\n"
	for (j = 1; j <= nv; j++) {
		v = order[j]
		line = ""
		for (i = 1; i <= nm; i++) {
			delete a
			for (k = 1; k <= n[v]; k++)
				a[k] = val[v, i, k] + 0
			m = median(a, n[v])
			median_ci(a, n[v])
			line = line "," num(m) "," num(ci_lo) "," num(ci_hi)
		}
		printf "%s,%d,%.2f,%s,%s%s\n", v, n[v], ci_cov, threads[v], payload[v], line
	}
}
