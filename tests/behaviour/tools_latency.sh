# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2120,SC2119 # variables read by eval'ed checks; optional arguments
#
# Bad option values for timerlat, responder and latprobe; timerlat and
# sampler's tlat request on a real ring (left in $T/tlat, with its sample
# numbers c1 c2 and n_tl = c2 - c1, for the chanctl tests).
# Sourced by test_tools.sh, which provides OUT, T, BG_PIDS, snap_ok and
# the check helpers.

expect_exit 2 "responder -p 0" "$OUT/responder" -p 0
expect_exit 2 "responder -p 65536" "$OUT/responder" -p 65536
expect_exit 2 "responder -p 9x" "$OUT/responder" -p 9x
expect_exit 2 "responder unknown option" "$OUT/responder" -x
expect_exit 2 "responder stray argument" "$OUT/responder" extra
expect_exit 2 "timerlat -i 0" "$OUT/timerlat" -i 0
expect_exit 2 "timerlat -i 9 (below 10)" "$OUT/timerlat" -i 9
expect_exit 2 "timerlat -i 1000001" "$OUT/timerlat" -i 1000001
expect_exit 2 "timerlat -i 1.5" "$OUT/timerlat" -i 1.5
expect_exit 2 "timerlat -i ''" "$OUT/timerlat" -i ''
expect_exit 2 "timerlat -c ''" "$OUT/timerlat" -c ''
expect_exit 2 "timerlat -c without value" "$OUT/timerlat" -c
expect_exit 2 "timerlat stray argument" "$OUT/timerlat" extra
LP=("$OUT/latprobe" -A "$T/allow" -d 10.99.0.2)
expect_exit 2 "latprobe -r 0" "${LP[@]}" -t 1 -r 0
expect_exit 2 "latprobe -r 100001" "${LP[@]}" -t 1 -r 100001
expect_exit 2 "latprobe -r 1.5" "${LP[@]}" -t 1 -r 1.5
expect_exit 2 "latprobe -t 0" "${LP[@]}" -t 0
expect_exit 2 "latprobe -t 2s" "${LP[@]}" -t 2s
expect_exit 2 "latprobe -T 0" "${LP[@]}" -t 1 -T 0
expect_exit 2 "latprobe -T 60001" "${LP[@]}" -t 1 -T 60001
expect_exit 2 "latprobe -s 15" "${LP[@]}" -t 1 -s 15
expect_exit 2 "latprobe -s 1473" "${LP[@]}" -t 1 -s 1473
expect_exit 2 "latprobe -p 0" "${LP[@]}" -t 1 -p 0
expect_exit 2 "latprobe -o ''" "${LP[@]}" -t 1 -o ''
expect_exit 2 "latprobe -r x -t over 10M probes" "${LP[@]}" -t 101 -r 100000
expect_exit 2 "latprobe -d 10.99.0" "$OUT/latprobe" -A "$T/allow" -t 1 -d 10.99.0
expect_exit 2 "latprobe without -d" "$OUT/latprobe" -A "$T/allow" -t 1
expect_exit 2 "latprobe without -t" "${LP[@]}"
expect_exit 2 "latprobe without -A" "$OUT/latprobe" -d 10.99.0.2 -t 1
expect_exit 2 "latprobe unknown option" "${LP[@]}" -t 1 -x

# ---------------------------------------------------------------- timerlat
# tlat_ok LINE FROM TO N: a tlat reply over [FROM, TO) with N samples, five
# percentiles with one decimal, non-negative and ordered, and a histogram
# of ascending nonzero buckets whose counts add up to N.
tlat_ok()
{
	awk -v from="$2" -v to="$3" -v n="$4" '
	function num(s) { return s ~ /^[0-9]+\.[0-9]$/ }
	{
		if (NF != 10 || $1 != "tlat" || $2 != from || $3 != to ||
		    $4 != "n=" n)
			exit 1
		split("p50_us p90_us p99_us p999_us max_us", k, " ")
		prev = 0
		for (i = 1; i <= 5; i++) {
			split($(4 + i), kv, "=")
			if (kv[1] != k[i] || !num(kv[2]) || kv[2] + 0 < prev)
				exit 1
			prev = kv[2] + 0
		}
		if ($10 !~ /^hist=[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*$/)
			exit 1
		nb = split(substr($10, 6), b, ",")
		sum = 0; last = -1
		for (i = 1; i <= nb; i++) {
			split(b[i], bc, ":")
			if (bc[1] + 0 <= last || bc[2] + 0 == 0)
				exit 1
			last = bc[1] + 0; sum += bc[2]
		}
		exit sum != n
	}' <<<"$1"
}

rm -f "$T/tlat"
"$OUT/timerlat" -i 1000 -c "$T/tlat" >"$T/tl.out" 2>"$T/tl.err" &
TL=$!
BG_PIDS+=("$TL")
for _ in $(seq 50); do
	[ -s "$T/tl.out" ] && break
	sleep 0.1
done
check "timerlat: start line" \
	grep -qx "timerlat: period_ns=1000000 policy=other" "$T/tl.out"
sleep 0.1
{ echo "snap a"; sleep 0.3; echo "snap b"; } |
	"$OUT/sampler" -c - -i lo -l "$T/tlat" >"$T/out" 2>/dev/null || true
mapfile -t L <"$T/out"
check "sampler -l: snaps have all keys in order" \
	eval 'snap_ok a "${L[0]:-}" && snap_ok b "${L[1]:-}"'
c1=$(field tlat_count "${L[0]:-}"); c2=$(field tlat_count "${L[1]:-}")
o1=$(field tlat_overruns "${L[0]:-}"); o2=$(field tlat_overruns "${L[1]:-}")
t1=$(field t_ns "${L[0]:-}"); t2=$(field t_ns "${L[1]:-}")
c1=${c1:-0}; c2=${c2:-0}; o1=${o1:-0}; o2=${o2:-0}; t1=${t1:-0}; t2=${t2:-0}
n_tl=$((c2 - c1)); periods=$(((t2 - t1) / 1000000))
check "timerlat: ring is filling (tlat_count $c1 > 0)" [ "$c1" -gt 0 ]
check "timerlat: ~0.3 s between snaps gave 200..400 samples ($n_tl)" \
	in_range "$n_tl" 200 400
near()		# near N WANT: N is WANT give or take 20 + 10 %
{
	in_range $(($1 - $2 + 20 + $2 / 10)) 0 $((40 + $2 / 5))
}

# every period boundary is a sample or an overrun, give or take the wakes
# still pending at each snap (a busy host can delay one by 10+ ms)
check "timerlat: samples + overruns = periods ($n_tl + $((o2 - o1)) vs $periods)" \
	near $((n_tl + o2 - o1)) "$periods"
printf 'tlat %s %s\ntlat 5 5\ntlat 9 3\ntlat 0 %s\ntlat 1\ntlat a b\n' \
	"$c1" "$c2" "$((c2 + 100000))" |
	"$OUT/sampler" -c - -i lo -l "$T/tlat" >"$T/out" 2>/dev/null || true
mapfile -t L <"$T/out"
check "sampler tlat: n=$n_tl, sane percentiles, histogram sums to n" \
	tlat_ok "${L[0]:-}" "$c1" "$c2" "$n_tl"
check "sampler tlat: p50 >= 0 and max < 1 s" eval \
	'[[ "${L[0]:-}" =~ p50_us=[0-9]+\.[0-9]\ .*max_us=([0-9]+)\. ]] &&
	 [ "${BASH_REMATCH[1]}" -lt 1000000 ]'
check "sampler tlat: empty range -> err" [ "${L[1]:-}" = "err tlat range 5 5 empty" ]
check "sampler tlat: from > to -> err" \
	eval '[[ "${L[2]:-}" == "err tlat range 9 3 invalid"* ]]'
check "sampler tlat: beyond the count -> err" \
	eval '[[ "${L[3]:-}" == "err tlat range 0 $((c2 + 100000)) beyond count "* ]]'
check "sampler tlat: one number -> err" \
	eval '[[ "${L[4]:-}" == "err tlat range invalid"* ]]'
check "sampler tlat: not numbers -> err" \
	eval '[[ "${L[5]:-}" == "err tlat range invalid"* ]]'
echo "tlat 0 1" | "$OUT/sampler" -c - -i lo >"$T/out" 2>/dev/null || true
check "sampler tlat without -l -> err" grep -q "^err tlat no ring" "$T/out"
# held off the CPU for 0.2 s: one very late wake, the periods missed
# meanwhile counted as overruns, not as samples
{ echo "snap c"; sleep 0.1; kill -STOP "$TL"; sleep 0.2; kill -CONT "$TL"
  sleep 0.1; echo "snap d"; } |
	"$OUT/sampler" -c - -i lo -l "$T/tlat" >"$T/out" 2>/dev/null || true
mapfile -t L <"$T/out"
c3=$(field tlat_count "${L[0]:-}"); c4=$(field tlat_count "${L[1]:-}")
o3=$(field tlat_overruns "${L[0]:-}"); o4=$(field tlat_overruns "${L[1]:-}")
t3=$(field t_ns "${L[0]:-}"); t4=$(field t_ns "${L[1]:-}")
c3=${c3:-0}; c4=${c4:-0}; o3=${o3:-0}; o4=${o4:-0}; t3=${t3:-0}; t4=${t4:-0}
periods=$(((t4 - t3) / 1000000))
check "timerlat: stopped 0.2 s -> >= 180 overruns ($((o4 - o3)))" \
	in_range $((o4 - o3)) 180 1000
check "timerlat: ... samples + overruns = periods ($((c4 - c3)) + $((o4 - o3)) vs $periods)" \
	near $((c4 - c3 + o4 - o3)) "$periods"
echo "tlat $c3 $c4" | "$OUT/sampler" -c - -i lo -l "$T/tlat" >"$T/out" \
	2>/dev/null || true
check "sampler tlat: the late wake is the max (>= 190 ms): $(cat "$T/out")" \
	eval 'tlat_ok "$(cat "$T/out")" "$c3" "$c4" $((c4 - c3)) &&
	      [ "$(field max_us "$(cat "$T/out")" | cut -d. -f1)" -ge 190000 ]'
kill -TERM "$TL"; rc=0; wait "$TL" || rc=$?
TLEND=$(tail -n 1 "$T/tl.out")
check "timerlat: SIGTERM -> exit 0 and final line" eval '[ $rc = 0 ] &&
	[[ "$TLEND" =~ ^timerlat:\ count=[0-9]+\ overruns=[0-9]+\ p50_us=[0-9.]+\ p90_us=[0-9.]+\ p99_us=[0-9.]+\ p999_us=[0-9.]+\ max_us=[0-9.]+$ ]]'
check "timerlat: final count >= the last snap's" \
	eval '[ "$(field count "$TLEND")" -ge "$c2" ]'
# a stopped writer: the sampler still reads the ring it left behind
echo "tlat $c1 $c2" | "$OUT/sampler" -c - -i lo -l "$T/tlat" >"$T/out" 2>/dev/null || true
check "sampler tlat: ring readable after timerlat exited" \
	tlat_ok "$(cat "$T/out")" "$c1" "$c2" "$n_tl"

if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null; then
	"$OUT/timerlat" -f -i 500 >"$T/tl.out" 2>"$T/tl.err" &
	TL=$!
	BG_PIDS+=("$TL")
	sleep 0.3
	pol=$(chrt -p "$TL" 2>/dev/null | tr '\n' ' ')
	kill -TERM "$TL"; rc=0; wait "$TL" || rc=$?
	check "timerlat -f: SCHED_FIFO 50 ($pol)" eval \
		'[[ "$pol" == *SCHED_FIFO*": 50"* ]] && [ $rc = 0 ] &&
		 grep -qx "timerlat: period_ns=500000 policy=fifo" "$T/tl.out"'
else
	skip "timerlat -f" "need root and chrt"
fi
