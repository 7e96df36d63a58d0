#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab/stats.awk, lab/point.awk and lab/summarize against inputs whose
# answers are known by hand.
set -u
. "$(dirname "$0")/../../lab/lib.sh"
. "$LAB_TOP/tests/lib.sh"

stats()
{
	awk -f "$LAB_TOP/lab/stats.awk" -f <(echo "BEGIN { $1 }")
}

expect()
{
	local desc=$1 want=$2 have=$3

	printf '%s: want [%s] have [%s]\n' "$desc" "$want" "$have" >>"$T_LOG"
	t_result $([ "$want" = "$have" ] && echo 0 || echo 1) "$desc"
}

expect "median of odd count" 3 \
	"$(stats 'n = split("5 1 3", a, " "); print median(a, n)')"
expect "median of even count" 2.5 \
	"$(stats 'n = split("4 1 3 2", a, " "); print median(a, n)')"
expect "median CI for n=3 is min..max with 75 % coverage" "1 5 0.75" \
	"$(stats 'n = split("5 1 3", a, " "); median(a, n); median_ci(a, n); print ci_lo, ci_hi, ci_cov')"
# n = 10: k = 2 gives 1 - 2 * P(X <= 1) = 0.9785, k = 3 gives 0.8906 < 0.95
expect "median CI for n=10 drops one sample each side (97.9 %)" "2 9 0.979" \
	"$(stats 'n = split("10 9 8 7 6 5 4 3 2 1", a, " "); median(a, n); median_ci(a, n); printf "%s %s %.3f\n", ci_lo, ci_hi, ci_cov')"

raw=$(mktemp)
trap 'rm -f "$raw" "$raw.csv"' EXIT
cat >"$raw" <<'RAW'
meta.run=T meta.variant=vanilla meta.rep=1 meta.rate=10000
A.t_ns=0 A.cpu_user=0 A.cpu_system=0 A.cpu_softirq=0 A.cpu_idle=0 A.nic_rx_packets=0 A.udp_in=0 A.sink_packets=0 A.udp_rcvbuferrors=0
tapA.tap_tx_packets=0 tapA.tap_tx_dropped=0
C.t_ns=1000000000 C.cpu_user=0 C.cpu_system=0 C.cpu_softirq=0 C.cpu_idle=0 C.nic_rx_packets=1000 C.udp_in=900 C.sink_packets=800 C.sink_run_ns=0 C.net_rx_softirqs=0 C.udp_rcvbuferrors=0
tapC.t_ns=1000000000 tapC.tap_tx_packets=1000 tapC.tap_tx_dropped=0
D.t_ns=3000000000 D.cpu_user=10 D.cpu_system=20 D.cpu_softirq=50 D.cpu_idle=20 D.nic_rx_packets=21000 D.udp_in=10900 D.sink_packets=10800 D.sink_run_ns=1000000000 D.net_rx_softirqs=400 D.napi_threads=0 D.udp_rcvbuferrors=10000
tapD.t_ns=3000000000 tapD.tap_tx_packets=21000 tapD.tap_tx_dropped=4000
flood.sent=30000 flood.errors=0 flood.rate_pps=10000
B.t_ns=4000000000 B.nic_rx_packets=25000 B.udp_in=12000 B.sink_packets=12000 B.udp_rcvbuferrors=13000
tapB.tap_tx_packets=25000 tapB.tap_tx_dropped=5000
RAW
{ awk -v header=1 -f "$LAB_TOP/lab/snapshot.awk" -f "$LAB_TOP/lab/point.awk"; awk -f "$LAB_TOP/lab/snapshot.awk" -f "$LAB_TOP/lab/point.awk" "$raw"; } >"$raw.csv"
expect "point: offered = tap accepted + tap dropped over the window" 12000 "$(csv_col "$raw.csv" offered_pps)"
expect "point: NIC rx rate" 10000 "$(csv_col "$raw.csv" nic_rx_pps)"
expect "point: delivered rate" 5000 "$(csv_col "$raw.csv" delivered_pps)"
expect "point: softirq share of guest CPU" 50.0 "$(csv_col "$raw.csv" cpu_softirq)"
expect "point: receiver CPU share from run time" 50.0 "$(csv_col "$raw.csv" recv_cpu)"
expect "point: totals from the idle snapshots" "25000,12000,12000" \
	"$(printf '%s,%s,%s' "$(csv_col "$raw.csv" nic_rx_total)" "$(csv_col "$raw.csv" udp_in_total)" "$(csv_col "$raw.csv" delivered_total)")"
expect "point: loss is exact, flood packets that missed the receiver" 60.00 "$(csv_col "$raw.csv" loss_pct)"
refuse "point: a raw file without a window is refused" "missing or empty window" \
	awk -f "$LAB_TOP/lab/snapshot.awk" -f "$LAB_TOP/lab/point.awk" /dev/null

# summarize: MLFRR is the highest offered rate with < 1 % loss, per rep,
# then the median; the overload point is the unlimited (0) rate.
sum=$(mktemp -d)
trap 'rm -rf "$raw" "$raw.csv" "$sum"' EXIT
# one points.csv row from name=value pairs, in header order, others 0
row()
{
	awk -v header=1 -f "$LAB_TOP/lab/snapshot.awk" -f "$LAB_TOP/lab/point.awk" |
		awk -F, -v kv="$*" 'BEGIN { n = split(kv, p, " "); for (i = 1; i <= n; i++) { split(p[i], x, "="); v[x[1]] = x[2] } }
		{ for (i = 1; i <= NF; i++) printf "%s%s", ($i in v ? v[$i] : 0), (i < NF ? "," : "\n") }'
}
{
	awk -v header=1 -f "$LAB_TOP/lab/snapshot.awk" -f "$LAB_TOP/lab/point.awk"
	for rep in 1 2 3; do
		row run=T variant=v rep=$rep rate_target=10000 offered_pps=10000 delivered_pps=$((9900 + rep)) recv_cpu=50 loss_pct=0.50
		# rep 1 loses exactly 1 %: not loss-free (< 1 % is)
		row run=T variant=v rep=$rep rate_target=30000 offered_pps=30000 delivered_pps=$((29600 + rep * 100)) recv_cpu=40 loss_pct=$([ $rep = 1 ] && echo 1.00 || echo 0.20)
		row run=T variant=v rep=$rep rate_target=0 offered_pps=90000 delivered_pps=$((1000 * rep)) recv_cpu=$((rep * 5)) loss_pct=90
	done
} >"$sum/points.csv"
"$LAB_TOP/lab/summarize" "$sum" >"$sum/summary.csv" 2>>"$T_LOG"
# reps 1: 29700 < 0.99 * 30000 -> MLFRR 10000; reps 2, 3: 30000
cat "$sum/summary.csv" >>"$T_LOG"
expect "summary: MLFRR median over reps" 30000 "$(csv_col "$sum/summary.csv" mlfrr_pps)"
expect "summary: MLFRR CI is min..max for 3 reps" "10000 30000" \
	"$(csv_col "$sum/summary.csv" mlfrr_lo) $(csv_col "$sum/summary.csv" mlfrr_hi)"
expect "summary: delivered at the unlimited rate" 2000 "$(csv_col "$sum/summary.csv" delivered_pps)"
expect "summary: receiver CPU at the unlimited rate" 10 "$(csv_col "$sum/summary.csv" recv_cpu)"
head -1 "$sum/points.csv" | sed 's/delivered_pps/delivered/' >"$sum/old.csv"
mkdir -p "$sum/old" && mv "$sum/old.csv" "$sum/old/points.csv"
refuse "summary: an older CSV format is refused" "unknown header" "$LAB_TOP/lab/summarize" "$sum/old"
mkdir -p "$sum/empty"
refuse "summary: an empty results directory is refused" "missing or empty" "$LAB_TOP/lab/summarize" "$sum/empty"
[ "$T_FAILED" = 0 ]
