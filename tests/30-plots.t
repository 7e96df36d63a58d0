#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plots/plot on a results directory: the short real run of tests/20-lab.t
# if there is one, else the recorded sample in tests/fixtures/run-sample.
# Plots are valid PNG/SVG, a rerun is byte-identical, the report's numbers
# are the CSV's (recomputed here, independently), every claim has a
# verdict, the claim rules hold on hand-made inputs, and bad results
# directories are refused with nothing written.  Works on copies only.
set -u
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/tests/lib.sh"

PLOT=$LAB_TOP/plots/plot
FIGS="livelock user-share cpu-breakdown drops"
SRC=$LAB_BUILD/test-runs/e2e
[ -s "$SRC/points.csv" ] || SRC=$LAB_TOP/tests/fixtures/run-sample
echo "results: ${SRC#"$LAB_TOP"/}"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# copy_run <dir>: the inputs of plots/plot, nothing else
copy_run()
{
	mkdir -p "$1"
	cp "$SRC/points.csv" "$SRC/params.json" "$1/"
}

fingerprint()
{
	(cd "$SRC" && ls -a && sha256sum points.csv params.json)
}

is_png()
{
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		file -b "$1" | grep -q '^PNG image data, 800 x'
}

is_svg()
{
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" || return 1
	fi
	grep -q '<svg' "$1" && tail -3 "$1" | grep -q '</svg>'
}

# no output of plots/plot in <dir>
nothing_written()
{
	[ -z "$(find "$1" \( -name '*.png' -o -name '*.svg' -o -name report.md \
		-o -name '.plot.*' \) 2>/dev/null)" ]
}

# cell <report> <variant> <column>: a cell of the summary table
cell()
{
	awk -F'|' -v v="$2" -v n="$3" '
		/^## / { sec = $0 }
		sec == "## Summary" { x = $2; gsub(/ /, "", x); if (x == v) { print $(n + 1); exit } }' "$1"
}

# first number of a cell ("2,939 [2,610–3,041], ..." -> 2939), and lo, hi
cell_median() { sed 's/^ *//; s/ .*//; s/,//g; s/^\([0-9.]*\).*/\1/'; }
cell_lo() { sed -n 's/^[^[]*\[\([0-9.,]*\)–.*/\1/p' | tr -d ,; }
cell_hi() { sed -n 's/^[^[]*\[[0-9.,]*–\([0-9.,]*\)\].*/\1/p' | tr -d ,; }

# summarize <csv> <variant> <column>
sumval()
{
	awk -F, -v v="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == v { print $c[n] }' "$1"
}

# near <a> <b> <tolerance>
near()
{
	echo "near [$1] [$2] $3" >>"$T_LOG"
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
		if (a == "" || b == "") exit 1
		d = a - b; exit !(d <= t && -d <= t) }'
}

# median of the delivered_pps of <variant> at <rate_target> in <csv>,
# with sort, not lab/stats.awk
sort_median()
{
	awk -F, -v v="$2" -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v && $c["rate_target"] == r { print $c["delivered_pps"] }' "$1" |
		sort -n | awk '{ a[NR] = $1 } END {
			if (NR) print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# the max-overload rate target of <variant>: 0 if measured, else the highest
top_target()
{
	awk -F, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v { t = $c["rate_target"]; r = t == 0 ? 1e12 : t
			if (r > best) { best = r; bt = t } }
		END { print bt }' "$1"
}

# ---- a good run ----
RUN=$TMP/run
copy_run "$RUN"
before=$(fingerprint)
check "plots/plot writes plots and report" "$PLOT" "$RUN"
for f in $FIGS; do
	check "$f.png is an 800 px wide PNG" is_png "$RUN/$f.png"
	check "$f.svg is a well-formed SVG" is_svg "$RUN/$f.svg"
	check "report.md embeds $f.png and links $f.svg" \
		bash -c "grep -qF '![' '$RUN/report.md' && grep -qF '($f.png)' '$RUN/report.md' && grep -qF '($f.svg)' '$RUN/report.md'"
done
check "no temporary files left in the run" test -z "$(find "$RUN" -name '.plot.*')"

base=$(grep -o '"base_version": "[^"]*"' "$RUN/params.json" | head -1 | cut -d'"' -f4)
accel=$(grep -o '"accel": "[^"]*"' "$RUN/params.json" | cut -d'"' -f4)
runid=$(grep -o '"run": "[^"]*"' "$RUN/params.json" | cut -d'"' -f4)
check "report title names the run" grep -q "^# .*$runid" "$RUN/report.md"
check "report names kernel $base and accelerator $accel" \
	bash -c "grep -q 'Linux $base' '$RUN/report.md' && grep -qi '$accel' '$RUN/report.md'"
check "livelock plot title names kernel and accelerator" \
	bash -c "grep -q 'Linux $base' '$RUN/livelock.svg' && grep -qi '$accel guest' '$RUN/livelock.svg'"
check "livelock axes say packets/s" grep -q 'offered load at the tap (packets/s' "$RUN/livelock.svg"

sha256sum "$RUN"/*.png "$RUN"/*.svg "$RUN/report.md" >"$TMP/sums"
check "plots/plot runs again" "$PLOT" "$RUN"
check "rerun gives byte-identical plots and report" sha256sum --quiet -c "$TMP/sums"
check "the source results directory is untouched" test "$(fingerprint)" = "$before"

# ---- the report's numbers against lab/summarize and a plain sort ----
"$LAB_TOP/lab/summarize" "$RUN" >"$TMP/summary.csv" 2>>"$T_LOG"
for v in $(csv_col "$TMP/summary.csv" variant); do
	c=$(cell "$RUN/report.md" "$v" 4)
	check "report: $v delivered at max overload = lab/summarize's" \
		near "$(echo "$c" | cell_median)" "$(sumval "$TMP/summary.csv" "$v" delivered_pps)" 0.5
	if [ "$(sumval "$TMP/summary.csv" "$v" reps)" -ge 2 ]; then
		check "report: $v delivered CI = lab/summarize's" \
			test "$(echo "$c" | cell_lo) $(echo "$c" | cell_hi)" = \
			"$(sumval "$TMP/summary.csv" "$v" delivered_lo) $(sumval "$TMP/summary.csv" "$v" delivered_hi)"
	fi
	check "report: $v CI coverage and n" bash -c "echo '$c' | grep -qE '(no CI|$(sumval "$TMP/summary.csv" "$v" ci_coverage | awk '{ printf "%.0f", 100 * $1 }') % CI) \\(n=$(sumval "$TMP/summary.csv" "$v" reps)\\)'"
	check "report: $v MLFRR = lab/summarize's" \
		near "$(cell "$RUN/report.md" "$v" 2 | cell_median)" "$(sumval "$TMP/summary.csv" "$v" mlfrr_pps)" 0.5
	check "report: $v receiver CPU = lab/summarize's" \
		near "$(cell "$RUN/report.md" "$v" 5 | cell_median)" "$(sumval "$TMP/summary.csv" "$v" recv_cpu)" 0.05
done
if grep -q '^[^,]*,vanilla,' "$RUN/points.csv"; then
	t=$(top_target "$RUN/points.csv" vanilla)
	check "report: vanilla delivered at max overload = median by sort" \
		near "$(cell "$RUN/report.md" vanilla 4 | cell_median)" "$(sort_median "$RUN/points.csv" vanilla "$t")" 0.5
fi

# ---- claims ----
claims_row()
{
	awk -v k="$2" '/^## / { sec = $0 } sec ~ /claims/ && index($0, k)' "$1"
}
VERDICT='\*\*(Reproduced|Partly reproduced|Not reproduced|Inconclusive|Not measured in this run)'
for k in Dumazet Abeni Mogul; do
	check "report: a verdict for the $k claim" \
		bash -c "$(declare -f claims_row); claims_row '$RUN/report.md' $k | grep -qE '$VERDICT'"
done

# Mogul's verdict from vanilla's own peak, computed here
mogul_want()
{
	local t r top

	t=$(top_target "$RUN/points.csv" vanilla)
	top=$(sort_median "$RUN/points.csv" vanilla "$t")
	for r in $(csv_col "$RUN/points.csv" rate_target | sort -un); do
		sort_median "$RUN/points.csv" vanilla "$r"
	done | awk -v top="$top" '
		$1 != "" { n++; if ($1 > p) p = $1 }
		END {
			if (n < 2 || p <= 0) w = "Inconclusive"
			else if (100 * top / p < 50) w = "Reproduced"
			else if (100 * top / p < 80) w = "Partly reproduced"
			else w = "Not reproduced"
			print w
		}'
}
if grep -q '^[^,]*,vanilla,' "$RUN/points.csv"; then
	want=$(mogul_want)
	check "report: Mogul verdict is '$want', recomputed from the CSV" \
		bash -c "[ -n '$want' ] && $(declare -f claims_row); claims_row '$RUN/report.md' Mogul | grep -qF '**$want'"
fi

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

# ---- later formats: extra columns at the end are fine ----
X=$TMP/extra
copy_run "$X"
awk -F, 'NR == 1 { print $0 ",rr_p50_us,rr_p99_us,timer_max_us"; next } { print $0 ",12,40,300" }' \
	"$SRC/points.csv" >"$X/points.csv"
check "extra trailing columns (latency) are accepted" "$PLOT" "$X"
check "extra columns do not change the report's numbers" \
	bash -c "diff <(sed -n '/^## Summary/,/^## Plots/p' '$RUN/report.md') <(sed -n '/^## Summary/,/^## Plots/p' '$X/report.md')"

# ---- bad inputs: one clear error, non-zero, nothing written ----
bad_case()
{
	local name=$1 pat=$2

	refuse "refused: $name" "$pat" "$PLOT" "$TMP/bad-$name"
	check "nothing written for: $name" nothing_written "$TMP/bad-$name"
}
mkdir -p "$TMP/bad-empty-dir"
bad_case empty-dir "points.csv missing"
copy_run "$TMP/bad-truncated"
f=$TMP/bad-truncated/points.csv
last=$(tail -1 "$f")
head -n -1 "$SRC/points.csv" >"$f"
printf '%s' "${last:0:$((${#last} / 2))}" >>"$f"
bad_case truncated "truncated"
copy_run "$TMP/bad-truncated-nl"
f=$TMP/bad-truncated-nl/points.csv
head -n -1 "$SRC/points.csv" >"$f"
printf '%s\n' "${last:0:$((${#last} / 2))}" >>"$f"
bad_case truncated-nl "has [0-9]+ fields, the header has"
copy_run "$TMP/bad-older-format"
sed -i '1s/delivered_pps/delivered/' "$TMP/bad-older-format/points.csv"
bad_case older-format "lacks required column.*delivered_pps"
copy_run "$TMP/bad-header-only"
head -1 "$SRC/points.csv" >"$TMP/bad-header-only/points.csv"
bad_case header-only "no points"
copy_run "$TMP/bad-empty-csv"
: >"$TMP/bad-empty-csv/points.csv"
bad_case empty-csv "is empty"
copy_run "$TMP/bad-params"
echo '{"format": 1, "run": ' >"$TMP/bad-params/params.json"
bad_case params "params.json is not valid JSON"
refuse "refused: nonexistent directory" "no such results directory" "$PLOT" "$TMP/nonexistent"
check "nothing created for: nonexistent directory" test ! -e "$TMP/nonexistent"

# a failure half-way (gnuplot broken) leaves nothing behind either
copy_run "$TMP/bad-gnuplot"
mkdir -p "$TMP/bin"
printf '#!/bin/sh\necho "broken gnuplot" >&2\nexit 1\n' >"$TMP/bin/gnuplot"
chmod +x "$TMP/bin/gnuplot"
refuse "refused: gnuplot failing" "gnuplot failed" env PATH="$TMP/bin:$PATH" "$PLOT" "$TMP/bad-gnuplot"
check "nothing written when gnuplot fails" nothing_written "$TMP/bad-gnuplot"

[ "$T_FAILED" = 0 ]
