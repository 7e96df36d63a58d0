#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The claim rules of plots/claims.awk on hand-made per-rate medians: every
# verdict (reproduced, partly, not reproduced, inconclusive, not measured)
# of the Dumazet, Abeni, Mogul and revert claims, and the words that say
# why.  The revert cases are in tests/fixtures/claims-revert.cases.  The
# report of a real run is checked in tests/30-plots.t.
set -u
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/tests/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The claim rules on hand-made medians (columns shuffled: read by name).
claims()
{
	awk -v accel="${ACCEL:-tcg}" -f "$LAB_TOP/lab/stats.awk" -f "$LAB_TOP/plots/fmt.awk" \
		-f "$LAB_TOP/plots/claims.awk" "$TMP/rates.csv"
}
# rates.csv from lines on stdin: variant target delivered lo hi recv ksoftirqd
rates()
{
	echo "napi_cpu,delivered_hi,variant,n,rate_target,ci_coverage,offered,tap_drop,delivered,delivered_lo,recv_cpu,ksoftirqd_cpu"
	while read -r v t d lo hi r k; do
		[ -n "$v" ] || continue
		echo "0,$hi,$v,3,$t,0.75,$([ "$t" = 0 ] && echo 400000 || echo "$t"),0,$d,$lo,$r,$k"
	done
}
status() { claims | awk -F'\t' -v k="$1" '$1 == k { print $2 }'; }
expect_status()
{
	local desc=$1 id=$2 want=$3 have

	have=$(status "$id")
	printf '%s: want [%s] have [%s]\n' "$desc" "$want" "$have" >>"$T_LOG"
	t_result "$([ "$want" = "$have" ] && echo 0 || echo 1)" "$desc"
}
base_rates="vanilla 10000 10000 9900 10100 8 0
ksoftirqd-fix 10000 10000 9900 10100 8 0
threaded-napi 10000 10000 9900 10100 8 0"
rates >"$TMP/rates.csv" <<EOF_
$base_rates
vanilla 0 2000 1800 2200 2 1
ksoftirqd-fix 0 40000 38000 42000 48 47
threaded-napi 0 9000 8500 9500 50 0
EOF_
expect_status "claims: fix 20x vanilla, disjoint CIs, 51/49 split -> Dumazet reproduced" dumazet reproduced
expect_status "claims: threaded-napi at 90 % of peak -> Abeni reproduced" abeni reproduced
expect_status "claims: vanilla at 20 % of peak -> Mogul reproduced (livelock)" mogul reproduced
# claim_says <id> <pattern> [<pattern not to match>]
claim_says()
{
	local line

	line=$(claims | grep "^$1	")
	printf '%s\n' "$line" >>"$T_LOG"
	printf '%s\n' "$line" | grep -q -- "$2" || return 1
	[ -z "${3:-}" ] || ! printf '%s\n' "$line" | grep -q -- "$3"
}
check "claims: a TCG run explains why absolute rates differ" claim_says dumazet 'under TCG'
ACCEL=kvm check "claims: a KVM run words it for KVM, not TCG" claim_says dumazet 'KVM guest' TCG
rates >"$TMP/rates.csv" <<EOF_
$base_rates
vanilla 0 6000 5000 7000 2 1
ksoftirqd-fix 0 9000 8000 9500 80 10
threaded-napi 0 6000 5500 6500 50 0
EOF_
expect_status "claims: fix 1.5x, 89/11 split -> Dumazet partly" dumazet partly
check "claims: partly says the gain is too small" claim_says dumazet 'the gain is 1.5×, below 2×'
check "claims: partly says the split is off" claim_says dumazet 'split is 89/11, outside 35–65'
check "claims: partly says which part held" claim_says dumazet 'the direction holds' 'overlap'
expect_status "claims: threaded-napi at 60 % of peak -> Abeni partly" abeni partly
expect_status "claims: vanilla at 60 % of peak -> Mogul partly" mogul partly
rates >"$TMP/rates.csv" <<EOF_
$base_rates
vanilla 0 20000 19000 21000 30 1
ksoftirqd-fix 0 30000 29000 31000 48 47
EOF_
expect_status "claims: fix 1.5x, CIs disjoint, 50/50 split -> Dumazet partly (gain)" dumazet partly
rates >"$TMP/rates.csv" <<EOF_
$base_rates
vanilla 0 2000 1800 2200 2 1
ksoftirqd-fix 0 40000 38000 42000 85 10
EOF_
expect_status "claims: fix 20x, CIs disjoint, 89/11 split -> Dumazet partly (split)" dumazet partly
rates >"$TMP/rates.csv" <<EOF_
$base_rates
vanilla 0 30000 29000 31000 40 1
ksoftirqd-fix 0 40000 25000 45000 50 45
threaded-napi 0 3000 2500 3500 50 0
EOF_
expect_status "claims: overlapping CIs -> Dumazet partly, not reproduced" dumazet partly
expect_status "claims: threaded-napi at 30 % of peak -> Abeni not reproduced" abeni not-reproduced
rates >"$TMP/rates.csv" <<EOF_
vanilla 10000 10000 9900 10100 8 0
ksoftirqd-fix 10000 10000 9900 10100 8 0
vanilla 0 9500 9000 9800 60 1
ksoftirqd-fix 0 9000 8800 9300 50 45
EOF_
expect_status "claims: fix below vanilla -> Dumazet not reproduced" dumazet not-reproduced
expect_status "claims: vanilla at 95 % of peak -> Mogul: no livelock" mogul not-reproduced
expect_status "claims: no threaded-napi -> Abeni not measured" abeni not-measured
check "claims: 'not measured in this run' in words" claim_says abeni 'not measured in this run'
rates >"$TMP/rates.csv" <<EOF_
$base_rates
vanilla 0 2000 1800 2200 2 1
ksoftirqd-fix 0 40000 38000 42000 48 47
EOF_
expect_status "claims: threaded-napi at one rate only -> Abeni inconclusive" abeni inconclusive
rates >"$TMP/rates.csv" <<EOF_
vanilla 0 2000 1800 2200 2 1
EOF_
expect_status "claims: no ksoftirqd-fix -> Dumazet not measured" dumazet not-measured
expect_status "claims: vanilla at one rate only -> Mogul inconclusive" mogul inconclusive

# The revert rule on hand-made medians (columns shuffled), the cases of
# tests/fixtures/claims-revert.cases.  latrates: their variant lines to rates.csv
latrates()
{
	echo "probe_p99_hi_b,probe_loss,napi_cpu,delivered_hi,variant,probe_p99,n,rate_target,ci_coverage,offered,tap_drop,delivered,delivered_lo,recv_cpu,ksoftirqd_cpu,probe_p99_lo,probe_p99_hi,probe_p99_n,probe_p99_b,probe_p99_lo_b,probe_loss_lo,probe_loss_hi,probe_loss_n"
	while read -r v d dl dh p pl ph b bl bh l ll lh n; do
		n=${n:-3}
		echo "$bh,$l,0,$dh,$v,$p,$n,0,0.75,400000,0,$d,$dl,40,10,$pl,$ph,$n,$b,$bl,$ll,$lh,$n"
	done
}
awk -v dir="$TMP" '/^#/ || !NF { next }
	/^case / { n++; sub(/^case +/, ""); print > (dir "/revert-" n ".case"); next }
	{ print > (dir "/revert-" n ".rows") }' "$LAB_TOP/tests/fixtures/claims-revert.cases"
for i in $(seq 1 "$(find "$TMP" -name 'revert-*.case' | wc -l)"); do
	IFS='|' read -r want desc says not <"$TMP/revert-$i.case"
	want=$(echo $want) desc=$(echo $desc) says=$(echo $says) not=$(echo $not)
	latrates <"$TMP/revert-$i.rows" >"$TMP/rates.csv"
	expect_status "revert: $desc -> $want" revert "$want"
	check "revert: $desc: the verdict says '$says'${not:+, not '$not'}" claim_says revert "$says" "$not"
done
rates >"$TMP/rates.csv" <<EOF_
$base_rates
EOF_
expect_status "revert: rates without latency columns -> not measured" revert not-measured
check "revert: says the run has no latency probe columns" claim_says revert 'no latency probe columns'

[ "$T_FAILED" = 0 ]
