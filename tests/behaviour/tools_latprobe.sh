# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2120,SC2119 # variables read by eval'ed checks; optional arguments
#
# responder and latprobe across the throwaway veth pair: the allowlist
# interlock, paced probing, loss ranked as the timeout, late, duplicate and
# garbage replies.  Sourced by test_tools.sh, which provides OUT, T, PY,
# BG_PIDS, dev_tx, the check helpers and NS_A/NS_B joined by the veth.

# ---------------------------------------------------------------- latprobe
lo0=$(dev_tx "$NS_A" lo); va0=$(dev_tx "$NS_A" va)
expect_exit 3 "latprobe: unlisted address refused" \
	ip netns exec "$NS_A" "$OUT/latprobe" -d 10.99.0.3 -t 0.2 \
	-A "$T/allow" -o "$T/lp.raw"
check "latprobe: unlisted refusal message" grep -qx \
	"latprobe: refusing to send to 10.99.0.3: not a guest of this lab (allowlist $T/allow)" \
	"$T/err"
check "latprobe: refused run printed nothing, made no raw file" \
	eval '[ ! -s "$T/out" ] && [ ! -e "$T/lp.raw" ]'
expect_exit 3 "latprobe: loopback refused even if listed" \
	ip netns exec "$NS_A" "$OUT/latprobe" -d 127.0.0.1 -t 0.2 -A "$T/allow"
check "latprobe: loopback refusal message" grep -qx \
	"latprobe: refusing to send to 127.0.0.1: not a unicast address" "$T/err"
expect_exit 3 "latprobe: missing allowlist refused" \
	ip netns exec "$NS_A" "$OUT/latprobe" -d 10.99.0.2 -t 0.2 -A "$T/missing"
expect_exit 3 "latprobe: empty allowlist refused" \
	ip netns exec "$NS_A" "$OUT/latprobe" -d 10.99.0.2 -t 0.2 -A "$T/empty"
lo1=$(dev_tx "$NS_A" lo); va1=$(dev_tx "$NS_A" va)
check "latprobe: refused runs sent nothing (tx lo $lo0->$lo1, va $va0->$va1)" \
	eval '[ -n "$lo0" ] && [ "$lo1" = "$lo0" ] && [ "$va1" = "$va0" ]'

start_responder()	# start_responder ARGS...: in NS_B, waits for its start line
{
	: >"$T/resp.out"
	ip netns exec "$NS_B" "$OUT/responder" "$@" >"$T/resp.out" \
		2>"$T/resp.err" &
	RESP=$!
	BG_PIDS+=("$RESP")
	for _ in $(seq 50); do
		[ -s "$T/resp.out" ] && return 0
		sleep 0.1
	done
	return 1
}

# run_probe ARGS...: latprobe in NS_A to 10.99.0.2; sets LP_RC, LP_MS (wall
# time), LPOUT (final line), LPEXTRA (the line before)
run_probe()
{
	local s0 s1

	LP_RC=0
	s0=$(date +%s%N)
	ip netns exec "$NS_A" "$OUT/latprobe" -d 10.99.0.2 -A "$T/allow" "$@" \
		>"$T/lp.out" 2>"$T/lp.err" || LP_RC=$?
	s1=$(date +%s%N)
	LP_MS=$(((s1 - s0) / 1000000))
	LPOUT=$(tail -n 1 "$T/lp.out")
	LPEXTRA=$(tail -n 2 "$T/lp.out" | head -n 1)
}

P1='[0-9]+\.[0-9]'
LP_RE="^latprobe: sent=[0-9]+ received=[0-9]+ lost=[0-9]+ late=[0-9]+ p50_us=$P1 p90_us=$P1 p99_us=$P1 p999_us=$P1 max_us=$P1 answered_p99_us=($P1)? lost_bounded=[a-z0-9,]+\$"
ALL_LOST="p50_us=300000.0 p90_us=300000.0 p99_us=300000.0 p999_us=300000.0 max_us=300000.0 answered_p99_us= lost_bounded=p50,p90,p99,p999,max"

# lp_ordered LINE TIMEOUT_MS: 0 <= p50 <= p90 <= p99 <= p999 <= max <= timeout
lp_ordered()
{
	awk -v tmo="$2" '{
		prev = 0
		for (i = 6; i <= 10; i++) {
			split($i, kv, "=")
			if (kv[2] + 0 < prev) exit 1
			prev = kv[2] + 0
		}
		exit prev > tmo * 1000
	}' <<<"$1"
}

# raw_us RANK FILE: the RANK-th smallest RTT of a raw file, in us with one
# decimal (rounded half up), to check the summary against
raw_us()
{
	awk '{ print $3 }' "$2" | sort -n | sed -n "$1p" |
		awk '{ t = int($1 / 100) + ($1 % 100 >= 50)
		       printf "%d.%d\n", int(t / 10), t % 10 }'
}

start_responder || true
check "responder: start line" grep -qx "responder: port=9001" "$T/resp.out"
run_probe -r 200 -t 1 -o "$T/lp.raw"
check "latprobe: exit 0" [ "$LP_RC" = 0 ]
check "latprobe: final line format" eval '[[ "$LPOUT" =~ $LP_RE ]]'
check "latprobe: 200/s for 1 s: sent=200 received=200 lost=0 late=0" \
	eval '[[ "$LPOUT" == "latprobe: sent=200 received=200 lost=0 late=0 "* ]]'
check "latprobe: nothing lost-bounded" \
	eval '[[ "$LPOUT" == *" lost_bounded=none" ]]'
check "latprobe: nothing lost: the answered probes' p99 is the p99" \
	eval '[ "$(field answered_p99_us "$LPOUT")" = "$(field p99_us "$LPOUT")" ]'
check "latprobe: percentiles ordered, within the timeout" \
	lp_ordered "$LPOUT" 1000
check "latprobe: no duplicates, garbage or send errors" \
	[ "$LPEXTRA" = "latprobe: duplicates=0 garbage=0 send_errors=0" ]
check "latprobe -o: 200 lines 'seq send_ns rtt_ns', seq 0..199" \
	awk 'NF != 3 || $1 != NR - 1 || $3 !~ /^[0-9]+$/ { exit 1 }
	     END { exit NR != 200 }' "$T/lp.raw"
span=$(awk 'NR == 1 { f = $2 } END { print int(($2 - f) / 1000000) }' "$T/lp.raw")
check "latprobe: paced: sends span 199 x 5 ms ($span ms)" in_range "$span" 985 1100
check "latprobe: p50 is the raw file's 100th RTT (nearest rank)" \
	[ "$(field p50_us "$LPOUT")" = "$(raw_us 100 "$T/lp.raw")" ]
check "latprobe: max is the raw file's largest RTT" \
	[ "$(field max_us "$LPOUT")" = "$(raw_us 200 "$T/lp.raw")" ]
check "latprobe: done when all replied, not after the timeout ($LP_MS ms)" \
	in_range "$LP_MS" 950 1900
ip netns exec "$NS_B" "$OUT/sampler" -c - -i vb <<<"snap r1" >"$T/out" \
	2>/dev/null || true
check "sampler: responder_run_ns > 0 with a responder running" \
	eval '[ "$(field responder_run_ns "$(cat "$T/out")")" -gt 0 ]'

# a stopped responder: every probe lost, ranked as the timeout, not fast
kill -STOP "$RESP"
run_probe -r 200 -t 0.5 -T 300 -o "$T/lp.raw"
check "latprobe: stopped responder: sent=100 received=0 lost=100 late=0" \
	eval '[ "$LP_RC" = 0 ] &&
	      [[ "$LPOUT" == "latprobe: sent=100 received=0 lost=100 late=0 "* ]]'
check "latprobe: all lost -> every percentile is the timeout, lost-bounded" \
	eval '[[ "$LPOUT" == *" $ALL_LOST" ]]'
check "latprobe -o: 100 lines 'seq send_ns lost'" \
	awk 'NF != 3 || $1 != NR - 1 || $3 != "lost" { exit 1 }
	     END { exit NR != 100 }' "$T/lp.raw"
check "latprobe: waited the timeout after the last probe ($LP_MS ms)" \
	in_range "$LP_MS" 780 2000

# replies that come after the timeout are late, and lost
( sleep 0.6; kill -CONT "$RESP" ) &
BG_PIDS+=("$!")
run_probe -r 100 -t 0.5 -T 400
sent=$(field sent "$LPOUT"); recv=$(field received "$LPOUT")
lost=$(field lost "$LPOUT"); late=$(field late "$LPOUT")
check "latprobe: late replies counted late and lost ($LPOUT)" \
	eval '[ "$sent" = 50 ] && [ "${late:-0}" -ge 1 ] &&
	      [ "${recv:-0}" -ge 1 ] && [ "$lost" = "$late" ] &&
	      [ $((recv + late)) = 50 ]'
check "latprobe: a lost-bounded max is reported as the timeout" \
	eval '[[ "$LPOUT" == *" max_us=400000.0 answered_p99_us="*" lost_bounded="*max ]]'
check "latprobe: the answered probes' p99 is an answered probe's time, below the timeout" \
	eval 'a=$(field answered_p99_us "$LPOUT"); [[ "$a" =~ ^[0-9]+\.[0-9]$ ]] && [ "${a%.*}" -lt 400000 ]'
kill -TERM "$RESP"; rc=0; wait "$RESP" || rc=$?
check "responder: SIGTERM -> exit 0, echoed=350 (200 + 100 stopped + 50)" \
	eval '[ $rc = 0 ] &&
	      [ "$(tail -n 1 "$T/resp.out")" = "responder: echoed=350" ]'

# nothing listening on the port
run_probe -p 9009 -r 200 -t 0.5 -T 300
check "latprobe: closed port: sent=100 received=0 lost=100, all the timeout" \
	eval '[ "$LP_RC" = 0 ] &&
	      [ "$LPOUT" = "latprobe: sent=100 received=0 lost=100 late=0 $ALL_LOST" ]'

if [ -n "$PY" ]; then
	# before each reply a wrong sequence number and a short one, after it
	# the reply again (latprobe may be gone before the last duplicate)
	cat >"$T/echo2.py" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", int(sys.argv[1])))
print("ready", flush=True)
while True:
    d, a = s.recvfrom(2048)
    s.sendto(bytes([d[0] ^ 0xff]) + d[1:], a)
    s.sendto(d[:8], a)
    s.sendto(d, a)
    s.sendto(d, a)
EOF
	: >"$T/echo2.out"
	ip netns exec "$NS_B" "$PY" "$T/echo2.py" 9002 >"$T/echo2.out" 2>&1 &
	BG_PIDS+=("$!")
	for _ in $(seq 50); do
		[ -s "$T/echo2.out" ] && break
		sleep 0.1
	done
	run_probe -p 9002 -r 100 -t 0.3 -s 64
	check "latprobe: duplicates and garbage ignored and counted ($LPEXTRA)" \
		eval '[[ "$LPOUT" == "latprobe: sent=30 received=30 lost=0 late=0 "* ]] &&
		      [[ "$LPEXTRA" =~ ^latprobe:\ duplicates=(29|30)\ garbage=60\ send_errors=0$ ]]'
else
	skip "latprobe duplicates and garbage" "python3 not found"
fi
