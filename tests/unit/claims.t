#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The one verdict rule of plots/claims.awk on hand-made points.csv rows:
# per-repetition ratios, the interval of their median against the claim's
# threshold (entirely past: holds; entirely short: not; across:
# inconclusive), the mechanism gates that separate reproduced from partly,
# and the words that say why.  The report of a real run is checked in
# tests/e2e/30-plots.t.
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
VRATE=300000
LRATE=

# claims [-v name=value...]: plots/claims.awk on $TMP/points.csv
claims()
{
	awk -v accel="${ACCEL:-tcg}" -v vrate="$VRATE" -v lrate="$LRATE" "$@" -f "$LAB_TOP/lab/lib/stats.awk" \
		-f "$LAB_TOP/plots/fmt.awk" -f "$LAB_TOP/plots/claims.awk" "$TMP/points.csv"
}
status() { claims "${@:2}" | awk -F'\t' -v k="$1" '$1 == k { print $2 }'; }
expect_status()
{
	local desc=$1 id=$2 want=$3 have

	have=$(status "$id" "${@:4}")
	printf '%s: want [%s] have [%s]\n' "$desc" "$want" "$have" >>"$T_LOG"
	t_result "$([ "$want" = "$have" ] && echo 0 || echo 1)" "$desc"
}
# claim_says <id> <pattern> [<pattern not to match> [-v name=value...]]
claim_says()
{
	local line

	line=$(claims "${@:4}" | grep "^$1	")
	printf '%s\n' "$line" >>"$T_LOG"
	printf '%s\n' "$line" | grep -q -- "$2" || return 1
	[ -z "${3:-}" ] || ! printf '%s\n' "$line" | grep -q -- "$3"
}

# rows <variant> <rate> <key=v1,v2,v3,v4,v5 ...>: five repetitions of the
# throughput pass, the i-th value of each list in repetition i (a single
# value: the same in every repetition)
rows()
{
	local v=$1 t=$2 r kv args k vals

	shift 2
	for r in 1 2 3 4 5; do
		args="variant=$v rep=$r pass=tput rate_target=$t offered_pps=$t closure_ok=1 gate_clock=1 host_ceiling_pps=$((4 * t))"
		for kv in "$@"; do
			k=${kv%%=*}
			vals=${kv#*=}
			case $vals in
			*,*) args="$args $k=$(echo "$vals" | cut -d, -f$r)" ;;
			*) args="$args $k=$vals" ;;
			esac
		done
		# shellcheck disable=SC2086 # name=value words
		point_row $args
	done
}

# vanilla's peak below the verdict rate, for the sets that are about
# the ratio there: the overload region is the rates past it
knee()
{
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
}

# A healthy set: vanilla livelocks past 100k, the fix gives 20x with a
# 47/53 split, threaded-napi keeps 90 % of its peak.
base()
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000,2100,1900,2200,1800 recv_cpu=3 softirq_irqctx_cpu=80
	rows ksoftirqd-fix 100000 delivered_pps=95000
	rows ksoftirqd-fix 300000 delivered_pps=40000,42000,39000,41000,40500 recv_cpu=40 ksoftirqd_cpu=45
	rows threaded-napi 100000 delivered_pps=99000
	rows threaded-napi 300000 delivered_pps=90000,91000,89000,92000,90500 napi_cpu=45 net_rx_softirq_ps=0
}
base >"$TMP/points.csv"
expect_status "claims: fix 20x vanilla in every repetition, ksoftirqd busy, 47/53 split -> Dumazet reproduced" \
	dumazet reproduced
check "claims: Dumazet gives the paired ratio with its interval and coverage" \
	claim_says dumazet 'ksoftirqd-fix/vanilla delivered over the overload region (300,000 pps), worst at 300,000 pps: 20.00 \[18.64–22.50\] (94 % CI, n=5)'
check "claims: a TCG run explains why absolute rates differ" claim_says dumazet 'TCG'
ACCEL=kvm check "claims: a KVM run words it for KVM, not TCG" claim_says dumazet 'KVM guest' TCG
expect_status "claims: threaded-napi at ~0.9 of its peak -> Abeni reproduced" abeni reproduced
expect_status "claims: vanilla at ~0.02 of its peak, softirq over the receiver -> Mogul reproduced" \
	mogul reproduced
check "claims: Mogul says the curve does not rise again past the peak" \
	claim_says mogul 'past its peak the delivered rate does not rise again'
expect_status "claims: no latency pass -> revert not measured" revert not-measured

# A run of both kernels (lab/run --upstream): 6.12's fix misses its
# generator target at 200k, so 200k is in 6.1's overload region only.
# Judged alone, 6.1's worst rate is 200k at 1.8x; with the other kernel's
# pair (pvan, pfix) both are judged on the rates they share, 300k: 20x.
both_kernels()
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 200000 delivered_pps=9000 recv_cpu=5 softirq_irqctx_cpu=80
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows ksoftirqd-fix 200000 delivered_pps=40000 gen_err_pct=2 recv_cpu=40 ksoftirqd_cpu=45
	rows ksoftirqd-fix 300000 delivered_pps=40000 recv_cpu=40 ksoftirqd_cpu=45
	rows v6.1-revert 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows v6.1-revert 200000 delivered_pps=20000 recv_cpu=5 softirq_irqctx_cpu=80
	rows v6.1-revert 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows v6.1 200000 delivered_pps=36000 recv_cpu=40 ksoftirqd_cpu=45
	rows v6.1 300000 delivered_pps=40000 recv_cpu=40 ksoftirqd_cpu=45
}
both_kernels >"$TMP/points.csv"
V61="-v van=v6.1-revert -v fix=v6.1 -v napi=v6.1+threaded"
# shellcheck disable=SC2086 # -v words
expect_status "claims: 6.1 judged alone: its region holds 200k, 1.8x -> Dumazet not reproduced" \
	dumazet not-reproduced $V61
# shellcheck disable=SC2086
expect_status "claims: 6.1 with 6.12's pair: the shared region, 300k, 20x -> Dumazet reproduced" \
	dumazet reproduced $V61 -v pvan=vanilla -v pfix=ksoftirqd-fix
# shellcheck disable=SC2086
check "claims: the shared region is named, 200k left out" \
	claim_says dumazet 'over the overload region (300,000 pps, shared with ksoftirqd-fix/vanilla)' '' \
	$V61 -v pvan=vanilla -v pfix=ksoftirqd-fix
expect_status "claims: 6.12 with 6.1's pair: the same region -> Dumazet reproduced" \
	dumazet reproduced -v pvan=v6.1-revert -v pfix=v6.1

# Mogul at a starved point (lab/exp/rx/point.awk): no CPU split, the
# starvation itself is the mechanism; the same zeros unstarved are not.
starved_set()
{
	point_header
	rows vanilla 100000 delivered_pps=9000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=270,280,260,275,265 starved="$1" recv_cpu= softirq_irqctx_cpu=
	rows ksoftirqd-fix 300000 delivered_pps=14700 recv_cpu=45 ksoftirqd_cpu=50
}
starved_set 1 >"$TMP/points.csv"
expect_status "claims: vanilla starved in every repetition at 0.03 of its peak -> Mogul reproduced" \
	mogul reproduced
check "claims: Mogul names the starvation as its mechanism" claim_says mogul 'starved in 5 of 5 repetitions'
starved_set 1,1,0,0,0 >"$TMP/points.csv"
expect_status "claims: starved in 2 of 5, no softirq share measured -> Mogul partly" mogul partly

# Pairing: the machine drifts between repetitions (both variants 10k..50k),
# the ratio does not (2.5 in each): unpaired intervals would overlap.
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=10000,20000,30000,40000,50000 softirq_irqctx_cpu=80 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=25000,50000,75000,100000,125000 recv_cpu=40 ksoftirqd_cpu=45
} >"$TMP/points.csv"
expect_status "claims: drift between repetitions, a steady 2.5x ratio -> Dumazet reproduced (paired)" \
	dumazet reproduced

# A zero denominator is +∞, not dropped: vanilla read nothing at all in
# three repetitions (the strongest livelock stays in the ratio); with it
# dropped, two pairs would be left and nothing judged.
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=0,0,0,300,250 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=15000 recv_cpu=40 ksoftirqd_cpu=45
} >"$TMP/points.csv"
expect_status "claims: vanilla delivered 0 in 3 of 5 -> those ratios are +inf, Dumazet reproduced" \
	dumazet reproduced
check "claims: an infinite ratio is written ∞, n=5" claim_says dumazet 'worst at 300,000 pps: ∞ \[50.00–∞\] (94 % CI, n=5)'
# Fewer than 5 repetitions judge nothing, whatever they say.
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=40000 recv_cpu=40 ksoftirqd_cpu=45
} | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") k = i } NR == 1 || $k != 5' >"$TMP/points.csv"
expect_status "claims: 20x in each of 4 repetitions -> Dumazet inconclusive (n < 5)" dumazet inconclusive
check "claims: the ratio is still shown, n=4" claim_says dumazet '20.00 \[20.00–20.00\] ([0-9]* % CI, n=4)'

# Dumazet is judged where vanilla is in livelock: at 200k vanilla is past
# its peak but still delivers 0.9 of it and the fix 1.5x (a rate just past
# the knee); at 300k vanilla is at 0.02 of its peak and the fix 20x.
just_past_knee()
{
	point_header
	knee
	rows vanilla 200000 delivered_pps=81000 recv_cpu=20 softirq_irqctx_cpu=60
	rows ksoftirqd-fix 200000 delivered_pps=120000,125000,118000,122000,121000 recv_cpu=40 ksoftirqd_cpu=45
	[ "${1:-}" = no-livelock ] && return
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows ksoftirqd-fix 300000 delivered_pps=40000 recv_cpu=40 ksoftirqd_cpu=45
}
just_past_knee >"$TMP/points.csv"
expect_status "claims: 1.5x at 200k where vanilla keeps 0.9 of its peak, 20x in livelock -> Dumazet reproduced" \
	dumazet reproduced
check "claims: the region is the livelocked rate only (300k), 200k left out" \
	claim_says dumazet 'over the overload region (300,000 pps), worst at 300,000 pps'
just_past_knee no-livelock >"$TMP/points.csv"
VRATE=200000 expect_status "claims: vanilla never in livelock -> Dumazet inconclusive, no overload region" \
	dumazet inconclusive
VRATE=200000 check "claims: ... saying why" claim_says dumazet 'is in livelock (below 0.5 of its peak): no overload region'

# Dumazet: the ratio's interval across 2, short of 2, the gates
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=10000 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=15000,18000,25000,22000,30000 recv_cpu=40 ksoftirqd_cpu=45
} >"$TMP/points.csv"
expect_status "claims: ratio 1.5..3, across 2 -> Dumazet inconclusive" dumazet inconclusive
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=10000 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=12000,13000,15000,14000,11000 recv_cpu=40 ksoftirqd_cpu=45
} >"$TMP/points.csv"
expect_status "claims: ratio 1.1..1.5, short of 2 -> Dumazet not reproduced" dumazet not-reproduced
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=40000 recv_cpu=40 ksoftirqd_cpu=5
} >"$TMP/points.csv"
expect_status "claims: 20x but ksoftirqd/0 at 5 % -> Dumazet partly (mechanism gate)" dumazet partly
check "claims: partly names the gate" claim_says dumazet 'ksoftirqd/0 carries less than 10 %'
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=40000 recv_cpu=5 ksoftirqd_cpu=45
} >"$TMP/points.csv"
expect_status "claims: 20x, 10/90 split -> Dumazet partly (split)" dumazet partly
check "claims: partly says the split is outside 35–65 %" claim_says dumazet 'not within 35–65 %'
{
	point_header
	knee
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3
	rows ksoftirqd-fix 300000 delivered_pps=40000 recv_cpu=40 ksoftirqd_cpu=45 closure_ok=1,1,0,1,1
} >"$TMP/points.csv"
expect_status "claims: 20x, a repetition whose books do not close -> Dumazet partly" dumazet partly
check "claims: the split is withheld where the books do not close" \
	claim_says dumazet 'the split is not measurable: the CPU books of ksoftirqd-fix do not close' 'receiver/ksoftirqd [0-9]'

# Verdict point and presence
base >"$TMP/points.csv"
VRATE='' expect_status "claims: no verdict point -> Dumazet inconclusive" dumazet inconclusive
VRATE='' check "claims: ... and says there is no verdict point" claim_says mogul 'no verdict point'
grep -v '^[0-9]*,ksoftirqd-fix,' "$TMP/points.csv" | awk -F, 'NR == 1 || $2 != "ksoftirqd-fix"' >"$TMP/p2.csv"
mv "$TMP/p2.csv" "$TMP/points.csv"
expect_status "claims: no ksoftirqd-fix -> Dumazet not measured" dumazet not-measured
check "claims: 'not measured in this run' in words" claim_says dumazet 'not measured in this run'

# Mogul and Abeni: not reproduced, partly, a curve that rises again
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=85000,80000,88000,82000,84000 recv_cpu=30 softirq_irqctx_cpu=60
	rows threaded-napi 100000 delivered_pps=99000
	rows threaded-napi 300000 delivered_pps=30000,35000,28000,32000,31000 napi_cpu=45
} >"$TMP/points.csv"
expect_status "claims: vanilla at ~0.9 of its peak -> Mogul not reproduced" mogul not-reproduced
expect_status "claims: threaded-napi at ~0.3 of its peak -> Abeni not reproduced" abeni not-reproduced
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=9000 recv_cpu=50 softirq_irqctx_cpu=30
	rows vanilla 500000 delivered_pps=20000 recv_cpu=50 softirq_irqctx_cpu=30
	rows threaded-napi 100000 delivered_pps=99000
	rows threaded-napi 300000 delivered_pps=90000 napi_cpu=5
} >"$TMP/points.csv"
expect_status "claims: vanilla at 0.1 of its peak but the receiver out-runs softirq -> Mogul partly" \
	mogul partly
check "claims: Mogul names the rate where the curve rises again" claim_says mogul 'rises again (> 10 %) at 500,000 pps'
expect_status "claims: threaded-napi at 0.9 of its peak, napi threads at 5 % -> Abeni partly" abeni partly

# The revert: the latency pass at LRATE, the probe's tail paired per
# repetition; a p99 at the timeout hands over to the loss.
lat_rows()
{
	local v=$1 p99=$2 loss=$3 lb=$4 r

	for r in 1 2 3 4 5; do
		point_row variant="$v" rep="$r" pass=lat rate_target=300000 probe_p99_us="$p99" \
			probe_sent=400 probe_loss_pct="$loss" probe_lost_bounded="$lb" gate_clock=1 idle_cpu="${IDLE:-0}"
	done
}
{
	base | tail -n +2 | cat <(point_header) -
	lat_rows vanilla 20000 0.2 none
	lat_rows ksoftirqd-fix 60000 0.5 none
	lat_rows threaded-napi 10000 0.1 none
} >"$TMP/points.csv"
LRATE=300000
expect_status "revert: fix's p99 3x vanilla's and 6x threaded-napi's, napi delivers 2x fix -> reproduced" \
	revert reproduced
check "revert: the verdict names both halves" claim_says revert 'latency half.*holds; throughput half.*holds'
{
	base | tail -n +2 | cat <(point_header) -
	IDLE=20 lat_rows vanilla 20000 0.2 none
	lat_rows ksoftirqd-fix 60000 0.5 none
	lat_rows threaded-napi 10000 0.1 none
} >"$TMP/points.csv"
expect_status "revert: the same, vanilla's guest 20 % idle in the latency pass -> partly (latency half not judged)" \
	revert partly
check "revert: ... and names the variant the latency gates fail for" \
	claim_says revert 'not judged: the latency pass fails the overload gates for vanilla'
{
	base | tail -n +2 | cat <(point_header) -
	lat_rows vanilla 1000000 5 p99+p999+max
	lat_rows ksoftirqd-fix 1000000 2 p99+p999+max
	lat_rows threaded-napi 10000 0.1 none
} >"$TMP/points.csv"
expect_status "revert: p99s at the timeout, fix loses fewer probes than vanilla -> not reproduced (no latency cost)" \
	revert not-reproduced
check "revert: with a p99 at the timeout the loss decides" claim_says revert 'probe loss'
{
	base | tail -n +2 | cat <(point_header) -
	lat_rows vanilla 40000 0 none
	lat_rows ksoftirqd-fix 1000000 20 p99+p999+max
	lat_rows threaded-napi 1000000 20 p99+p999+max
} >"$TMP/points.csv"
expect_status "revert: vanilla lost no probe, fix and napi 20 % each -> not reproduced (napi pays the same)" \
	revert not-reproduced
check "revert: a loss of none stays finite ((lost + 1)/(sent + 1)): fix/vanilla 81x" \
	claim_says revert 'ksoftirqd-fix/vanilla probe loss (lost + 1)/(sent + 1) 81.00'
check "revert: a probe that did not detect the cost does not show it absent" \
	claim_says revert 'did not detect the latency cost'
# the latency cost absent: the fix's p99 is vanilla's and napi's
{
	base | tail -n +2 | cat <(point_header) -
	lat_rows vanilla 20000 0 none
	lat_rows ksoftirqd-fix 20000 0 none
	lat_rows threaded-napi 20000 0 none
} >"$TMP/points.csv"
expect_status "revert: the same p99 for all three -> not reproduced" revert not-reproduced
check "revert: ... the latency half does not hold, the throughput half does" \
	claim_says revert 'Not reproduced: latency half.*does not hold; throughput half.*holds'
# the latency half open, the throughput half shown (the default run's case)
{
	base | tail -n +2 | cat <(point_header) -
	lat_rows vanilla 20000 0 none
	point_row variant=ksoftirqd-fix rep=1 pass=lat rate_target=300000 probe_p99_us=10000 probe_sent=400 gate_clock=1
	for r in 2 3 4 5; do
		point_row variant=ksoftirqd-fix rep=$r pass=lat rate_target=300000 probe_p99_us=60000 probe_sent=400 gate_clock=1
	done
	lat_rows threaded-napi 10000 0 none
} >"$TMP/points.csv"
expect_status "revert: fix's p99 0.5..3x vanilla's (interval across 1), napi 2x fix -> partly" revert partly
LRATE=

# Claims judged where they apply.  Abeni: threaded-napi keeps 0.96 of its
# peak at the verdict rate but collapses at the top of the grid.
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows threaded-napi 100000 delivered_pps=99000
	rows threaded-napi 300000 delivered_pps=95000 napi_cpu=45
	rows threaded-napi 500000 delivered_pps=30000,32000,29000,31000,30500 napi_cpu=45
} >"$TMP/points.csv"
expect_status "abeni: 0.96 at the verdict rate, 0.3 at 500k -> not reproduced" abeni not-reproduced
check "abeni: the ratio is the lowest past the peak, over 300k and 500k" \
	claim_says abeni 'past its peak (100,000 pps), lowest delivered / its own peak over 300,000, 500,000 pps: 0.31'
# ... a rate threaded-napi does not pass its gates at is not judged
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	$c["variant"] == "threaded-napi" && $c["rate_target"] == 500000 { $c["idle_cpu"] = 20 } 1' \
	"$TMP/points.csv" >"$TMP/p2.csv" && mv "$TMP/p2.csv" "$TMP/points.csv"
expect_status "abeni: ... the collapse at a rate where its guest idles 20 % is not judged -> reproduced" \
	abeni reproduced
# its peak at the top of the grid: 1 by construction, refused
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows threaded-napi 100000 delivered_pps=50000
	rows threaded-napi 300000 delivered_pps=90000 napi_cpu=45
} >"$TMP/points.csv"
expect_status "abeni: peak at the top gated rate -> inconclusive" abeni inconclusive
check "abeni: ... and says the rule would be 1 by construction" claim_says abeni '1 by construction'
# a plateau: threaded-napi flat from 200k on, its highest point at the
# top by 1 % (noise); its peak is where the plateau starts, within
# claim.peak_tol (2 %) of the highest, so 300k is judged
plateau()
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows threaded-napi 100000 delivered_pps=50000
	rows threaded-napi 200000 delivered_pps=90000 napi_cpu=45
	rows threaded-napi 300000 delivered_pps="$1" napi_cpu=45
}
plateau 90900 >"$TMP/points.csv"
expect_status "abeni: a plateau from 200k, 1 % higher at 300k -> its peak at 200k, reproduced" abeni reproduced
check "abeni: ... judged past 200k" claim_says abeni 'past its peak (200,000 pps)'
# 3 % higher is a rise, not noise: the peak stays at the top, refused
plateau 92700 >"$TMP/points.csv"
expect_status "abeni: 3 % higher at 300k -> its peak there, inconclusive" abeni inconclusive
# the unlimited stress point (rate 0) 0.5 % above the plateau: above
# every paced rate, so the peak is the paced 200k, not "0"
{
	plateau 90500
	rows threaded-napi 0 delivered_pps=91000 napi_cpu=45
} >"$TMP/points.csv"
check "abeni: an unlimited point within 2 % of the plateau is not its start" \
	claim_says abeni 'past its peak (200,000 pps)'
# Mogul: vanilla peaks at the verdict rate: refused likewise
{
	point_header
	rows vanilla 100000 delivered_pps=50000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=60
} >"$TMP/points.csv"
expect_status "mogul: vanilla peaks at the verdict rate -> inconclusive" mogul inconclusive
check "mogul: ... 1 by construction" claim_says mogul '1 by construction'
# Dumazet over the overload region: 20x at 300k, 1.5x at 500k
{
	base | tail -n +2 | cat <(point_header) -
	rows vanilla 500000 delivered_pps=20000 recv_cpu=3 softirq_irqctx_cpu=80
	rows ksoftirqd-fix 500000 delivered_pps=30000,29000,31000,30500,29500 recv_cpu=40 ksoftirqd_cpu=45
} >"$TMP/points.csv"
expect_status "dumazet: 20x at 300k but 1.5x at 500k -> not reproduced" dumazet not-reproduced
check "dumazet: judged at the worst rate of the region, 500k" \
	claim_says dumazet 'overload region (300,000, 500,000 pps), worst at 500,000 pps: 1.50'
check "dumazet: the mode of each repetition there" \
	claim_says dumazet 'NET_RX work in ksoftirqd/0 in 5 of 5 repetitions'
{
	base | tail -n +2 | cat <(point_header) -
	rows vanilla 500000 delivered_pps=1000 recv_cpu=3 softirq_irqctx_cpu=80
	rows ksoftirqd-fix 500000 delivered_pps=15000 recv_cpu=40 ksoftirqd_cpu=45,45,5,5,5 softirq_irqctx_cpu=0,0,50,50,50
} >"$TMP/points.csv"
check "dumazet: a mixed mode at the worst rate is counted, not hidden in a median" \
	claim_says dumazet 'worst at 500,000 pps: 15.00.*NET_RX work in ksoftirqd/0 in 2 of 5'
expect_status "dumazet: ... 15x there, ksoftirqd/0 at 5 % in the median -> partly" dumazet partly

# A point that failed its own gates sets no peak and enters no pair:
# threaded-napi's guest lost a third of its clock at 100k and read 150k
# of 100k offered (gate_clock 0).  Counted, that is its peak and 300k
# keeps 0.60 of it (not reproduced); left out, the peak is the plateau's
# start at 200k and 300k keeps 0.91 (reproduced).
clock_lost()
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows threaded-napi 100000 delivered_pps=150000 gate_clock="$1"
	rows threaded-napi 200000 delivered_pps=99000 napi_cpu=45
	rows threaded-napi 300000 delivered_pps=90000 napi_cpu=45
}
clock_lost 1 >"$TMP/points.csv"
expect_status "own gates: a 150k peak at 100k that kept its clock -> Abeni not reproduced" abeni not-reproduced
clock_lost 0 >"$TMP/points.csv"
expect_status "own gates: the same point off its clock (gate_clock 0) sets no peak -> Abeni reproduced" \
	abeni reproduced
check "own gates: ... judged past 200k, 0.91" claim_says abeni 'past its peak (200,000 pps).*0.91'
# A repetition whose points up to the peak all failed their own gates
# has no known peak and is left out (Abeni n=4); a point whose guest only
# lost time (window 20 % short of the host's) still bounds vanilla's peak
# from below at its host-time rate, 72,000 (Mogul n=5: a lower peak can
# only raise delivered / peak); one whose clock ran ahead does not (n=4).
lost_time()
{
	point_header
	rows vanilla 100000 delivered_pps=90000 gate_clock=1,1,1,1,0 window_clock_err_pct="0,0,0,0,$1" \
		recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows threaded-napi 100000 delivered_pps=50000 gate_clock=1,1,1,1,0
	rows threaded-napi 200000 delivered_pps=99000 gate_clock=1,1,1,1,0 napi_cpu=45
	rows threaded-napi 300000 delivered_pps=90000 napi_cpu=45
}
lost_time -20 >"$TMP/points.csv"
check "own gates: threaded-napi's repetition 5 has no point up to its peak: left out (n=4)" \
	claim_says abeni '0.91 \[0.91–0.91\] ([0-9]* % CI, n=4)'
check "own gates: vanilla's repetition 5 lost 20 % of its clock at 100k: its host-time rate bounds the peak (n=5)" \
	claim_says mogul '0.02 \[0.02–0.03\] (94 % CI, n=5)'
expect_status "own gates: ... Mogul reproduced" mogul reproduced
lost_time 20 >"$TMP/points.csv"
check "own gates: a clock that ran 20 % ahead bounds nothing: repetition 5 left out (n=4)" \
	claim_says mogul '([0-9]* % CI, n=4)'
# the fix's repetition 5 at 300k 20.8 % short of its target (a rate
# whose median passes): its pair is left out, n=4 of 5, inconclusive
{
	point_header
	rows vanilla 100000 delivered_pps=90000 recv_cpu=30 softirq_irqctx_cpu=40
	rows vanilla 300000 delivered_pps=2000 recv_cpu=3 softirq_irqctx_cpu=80
	rows ksoftirqd-fix 100000 delivered_pps=95000
	rows ksoftirqd-fix 300000 delivered_pps=40000 gen_err_pct=0,0,0,0,-20.8 recv_cpu=40 ksoftirqd_cpu=45
} >"$TMP/points.csv"
check "own gates: a fix point 20.8 % off its target leaves its pair out (n=4)" \
	claim_says dumazet '20.00 \[20.00–20.00\] ([0-9]* % CI, n=4)'
expect_status "own gates: ... 4 pairs of 5 judge nothing -> Dumazet inconclusive" dumazet inconclusive

# One threshold is one line of lab/lib/rules.tsv: the verdict and the
# words follow it, in the claims and in a real run's report.
rules_with()	# rules_with <name> <value>: a copy of the table with one line changed
{
	awk -F'\t' -v OFS='\t' -v k="$1" -v x="$2" '$1 == k { $2 = x } 1' "$LAB_TOP/lab/lib/rules.tsv" >"$TMP/rules.tsv"
	[ "$(diff "$LAB_TOP/lab/lib/rules.tsv" "$TMP/rules.tsv" | grep -c '^[<>]')" = 2 ]
}
base >"$TMP/points.csv"
check "rules: a copy of the table with claim.dumazet 25 differs in one line" rules_with claim.dumazet 25
LAB_RULES=$TMP/rules.tsv expect_status "rules: fix 20x vanilla against a threshold of 25 -> Dumazet not reproduced" \
	dumazet not-reproduced
LAB_RULES=$TMP/rules.tsv check "rules: ... and the verdict quotes 25" claim_says dumazet 'vanilla ≥ 25× with its interval entirely past 25' '≥ 2×'
check "rules: the table's own threshold still gives reproduced" eval '[ "$(status dumazet)" = reproduced ]'
rules_with claim.mogul 0.02
rm -rf "$TMP/run" && cp -r "$LAB_TOP/tests/fixtures/run-sample" "$TMP/run"
LAB_RULES=$TMP/rules.tsv "$LAB_TOP/plots/plot" "$TMP/run" >>"$T_LOG" 2>&1
check "rules: claim.mogul 0.02 -> the recorded run's report says Mogul not reproduced (0.03 of its peak)" \
	grep -q '| \*\*Not reproduced:\*\* the rule is delivered < 0.02 of the variant' "$TMP/run/report.md"
check "rules: ... and its threshold list says < 0.02" grep -q 'vanilla / its peak < 0.02;' "$TMP/run/report.md"
rules_with gate.idle_pct 3
echo 'BEGIN { exit !(saturated(3) && !saturated(3.1)) }' >"$TMP/sat.awk"
LAB_RULES=$TMP/rules.tsv check "rules: gate.idle_pct 3 -> a guest 3.1 % idle is no longer saturated" \
	awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$TMP/sat.awk"
check "rules: ... while the table's 5 % still counts it saturated" \
	bash -c "! awk -f '$LAB_TOP/lab/lib/stats.awk' -f '$TMP/sat.awk'"
LAB_RULES=$TMP/missing check "rules: a missing table is one clear error" \
	bash -c "! awk -f '$LAB_TOP/lab/lib/stats.awk' -f '$TMP/sat.awk' 2>'$TMP/err' && grep -q \"no rule 'gate.idle_pct'\" '$TMP/err'"

[ "$T_FAILED" = 0 ]
