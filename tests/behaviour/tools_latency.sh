# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2120,SC2119 # variables read by eval'ed checks; optional arguments
#
# Bad option values for responder, latprobe and sampler's timer probe;
# sampler's cyclic and tlat requests running the real cyclictest
# (rt-tests).
# Sourced by test_tools.sh, which provides OUT, T, BG_PIDS, snap_ok and
# the check helpers.

expect_exit 2 "responder -p 0" "$OUT/responder" -p 0
expect_exit 2 "responder -p 65536" "$OUT/responder" -p 65536
expect_exit 2 "responder -p 9x" "$OUT/responder" -p 9x
expect_exit 2 "responder unknown option" "$OUT/responder" -x
expect_exit 2 "responder stray argument" "$OUT/responder" extra
expect_exit 2 "sampler -C 0" "$OUT/sampler" -C 0
expect_exit 2 "sampler -C 9 (below 10)" "$OUT/sampler" -C 9
expect_exit 2 "sampler -C 1000001" "$OUT/sampler" -C 1000001
expect_exit 2 "sampler -C 1.5" "$OUT/sampler" -C 1.5
expect_exit 2 "sampler -C ''" "$OUT/sampler" -C ''
expect_exit 2 "sampler -F ''" "$OUT/sampler" -F ''
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

# ---------------------------------------------------------------- cyclic
# tlat_ok LINE FROM TO N: a tlat reply over [FROM, TO) with N samples,
# five percentiles with one decimal, non-negative and ordered, overruns,
# the first sample's and the next one's (or - if it is not logged yet).
tlat_ok()
{
	awk -v from="$2" -v to="$3" -v n="$4" '
	function num(s) { return s ~ /^[0-9]+\.[0-9]$/ }
	{
		if (NF != 12 || $1 != "tlat" || $2 != from || $3 != to ||
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
		exit $10 !~ /^overruns=[0-9]+$/ ||
		     $11 !~ /^head_overruns=[0-9]+$/ ||
		     $12 !~ /^tail_overruns=([0-9]+|-)$/
	}' <<<"$1"
}

if ! command -v cyclictest >/dev/null; then
	skip "sampler cyclic: the timer probe" "cyclictest not found (apt-get install rt-tests)"
	return 0
fi

# one sampler, spoken to line by line
sampler_open()		# sampler_open ARGS...: coprocess SMP
{
	coproc SMP { exec "$OUT/sampler" -c - -i lo "$@" 2>"$T/smp.err"; }
	BG_PIDS+=("$SMP_PID")
}
ask()			# ask REQUEST: the reply line, or "(none)"
{
	local line

	echo "$1" >&"${SMP[1]}"
	IFS= read -r -t 20 line <&"${SMP[0]}" || line="(none)"
	echo "$line"
}

sampler_open -C 1000 -F "$T/ct.log"
S0=$(ask "snap s0")
R1=$(ask "cyclic start")
CT=$(field pid "$R1")
sleep 0.3
pol=$(for t in /proc/"${CT:-0}"/task/*; do chrt -p "${t##*/}"; done 2>/dev/null | grep -c SCHED_OTHER)
R2=$(ask "cyclic start")
S1=$(ask "snap s1")
sleep 0.3
S2=$(ask "snap s2")
c1=$(field tlat_count "$S1"); c2=$(field tlat_count "$S2")
t1=$(field t_ns "$S1"); t2=$(field t_ns "$S2")
c1=${c1:-0}; c2=${c2:-0}; t1=${t1:-0}; t2=${t2:-0}
n_tl=$((c2 - c1)); periods=$(((t2 - t1) / 1000000))
check "sampler cyclic start: $R1" eval '[[ "$R1" =~ ^cyclic\ start\ pid=[0-9]+\ interval_us=1000$ ]]'
check "sampler cyclic: cyclictest runs SCHED_OTHER ($pol threads)" eval '[ "$pol" -ge 2 ]'
check "sampler cyclic start while running -> err: $R2" \
	eval '[ "$R2" = "err cyclic start: running (pid $CT)" ]'
check "sampler: tlat_count 0 before the start, counting after ($c1, $c2)" \
	eval '[ "$(field tlat_count "$S0")" = 0 ] && [ "$c1" -gt 0 ]'
near()		# near N WANT: N is WANT give or take 20 + 10 %
{
	in_range $(($1 - $2 + 20 + $2 / 10)) 0 $((40 + $2 / 5))
}
check "sampler cyclic: ~0.3 s between snaps, one sample a period ($n_tl vs $periods)" \
	near "$n_tl" "$periods"
R3=$(ask "tlat $c1 $c2")
check "sampler tlat: n=$n_tl, sane percentiles: $R3" tlat_ok "$R3" "$c1" "$c2" "$n_tl"
R4=$(ask "tlat 5 5")
R5=$(ask "tlat 0 $((c2 + 100000))")
R6=$(ask "tlat a b")
check "sampler tlat: empty range -> err" [ "$R4" = "err tlat range 5 5 empty" ]
check "sampler tlat: beyond the count -> err: $R5" \
	eval '[[ "$R5" == "err tlat range 0 $((c2 + 100000)) beyond count "* ]]'
check "sampler tlat: not numbers -> err" eval '[[ "$R6" == "err tlat range invalid"* ]]'

# held off the CPU for 0.2 s: one very late wake, the periods it skipped
# counted as overruns, not as samples
S3=$(ask "snap s3")
kill -STOP "${CT:-0}"; sleep 0.2; kill -CONT "${CT:-0}"; sleep 0.1
S4=$(ask "snap s4")
c3=$(field tlat_count "$S3"); c4=$(field tlat_count "$S4")
R7=$(ask "tlat ${c3:-0} ${c4:-0}")
check "sampler tlat: stopped 0.2 s -> max >= 190 ms, >= 180 overruns: $R7" \
	eval 'tlat_ok "$R7" "$c3" "$c4" $((c4 - c3)) &&
	      [ "$(field max_us "$R7" | cut -d. -f1)" -ge 190000 ] &&
	      [ "$(field overruns "$R7")" -ge 180 ]'
R8=$(ask "cyclic stop")
R9=$(ask "cyclic stop")
R10=$(ask "cyclic sideways")
R11=$(ask "tlat $c1 $c2")
check "sampler cyclic stop: count=N, cyclictest reaped: $R8" \
	eval '[[ "$R8" =~ ^cyclic\ stop\ count=[0-9]+$ ]] && [ "$(field count "$R8")" -ge "$c4" ] &&
	      [ ! -d "/proc/$CT" ]'
check "sampler cyclic stop when stopped -> err" eval '[ "$R9" = "err cyclic stop: not started" ]'
check "sampler cyclic with neither start nor stop -> err" \
	eval '[ "$R10" = "err cyclic needs start or stop" ]'
check "sampler tlat: the log still answers after the stop" tlat_ok "$R11" "$c1" "$c2" "$n_tl"

# quitting with the probe running takes it down
R1=$(ask "cyclic start")
CT=$(field pid "$R1")
R2=$(ask quit)
rc=0; wait "$SMP_PID" || rc=$?
check "sampler quit with cyclictest running: bye, exit 0, cyclictest reaped" \
	eval '[ "$R2" = bye ] && [ $rc = 0 ] && [ -n "$CT" ] && [ ! -d "/proc/$CT" ]'

printf 'cyclic start\ntlat 0 1\n' | "$OUT/sampler" -c - -i lo >"$T/out" 2>/dev/null || true
check "sampler cyclic and tlat without -C -> err" \
	eval 'grep -qx "err cyclic: no probe (sampler -C)" "$T/out" &&
	      grep -q "^err tlat no probe" "$T/out"'

# a sampler that runs SCHED_FIFO (as in the guest) still starts a normal task
if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null; then
	sampler_open -f -C 500 -F "$T/ct.log"
	R1=$(ask "cyclic start")
	CT=$(field pid "$R1")
	sleep 0.3
	pol=$(for t in /proc/"${CT:-0}"/task/*; do chrt -p "${t##*/}"; done 2>/dev/null | tr '\n' ' ')
	fifo=$(chrt -p "$SMP_PID" 2>/dev/null | tr '\n' ' ')
	ask quit >/dev/null
	wait "$SMP_PID" || true
	# the timer thread measures a normal task; the printer keeps the
	# log current above the sampler (cyclic.h)
	check "sampler -f (SCHED_FIFO 50): cyclictest's timer thread SCHED_OTHER, its printer SCHED_FIFO 51: $pol" \
		eval '[[ "$fifo" == *SCHED_FIFO* ]] &&
		      [[ "$pol" =~ SCHED_FIFO\ .*priority:\ 51\ .*SCHED_OTHER ]] &&
		      [ "$(grep -o SCHED_FIFO <<<"$pol" | wc -l)" = 1 ]'
else
	skip "sampler -f starts cyclictest's timer thread SCHED_OTHER" "need root and chrt"
fi
