# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2120,SC2119 # variables read by eval'ed checks; optional arguments
#
# The iperf3 generator/receiver pair across the throwaway veth pair:
# iperf3_flood (the guarded iperf3 client), lab/guest/iperf3-recv (the
# guest's server loop), lab/exp/rx/iperf3.jq (the client's report as the
# flooder's line), and the sampler options the pair needs (-x counters,
# -R receiver name, -r responder counters).  Sourced by test_tools.sh,
# which provides OUT, T, BG_PIDS, dev_tx, field, the check helpers and
# NS_A/NS_B joined by the veth.

LAB_SRC=$(cd "$HERE/../.." && pwd)
IF=("$OUT/iperf3_flood" -A "$T/allow" -d 10.99.0.2)

# ------------------------------------------------------------ iperf3_flood
expect_exit 2 "iperf3_flood -s 15 (below iperf3's own header)" "${IF[@]}" -t 1 -s 15
expect_exit 2 "iperf3_flood -t 0" "${IF[@]}" -t 0
expect_exit 2 "iperf3_flood -t 1.5" "${IF[@]}" -t 1.5
expect_exit 2 "iperf3_flood -w 0" "${IF[@]}" -t 1 -w 0
expect_exit 2 "iperf3_flood without -d" "$OUT/iperf3_flood" -A "$T/allow" -t 1
expect_exit 2 "iperf3_flood without -A" "$OUT/iperf3_flood" -d 10.99.0.2 -t 1

# A stand-in iperf3 that records its command line.
printf '#!/bin/sh\necho "$@" >"%s"\n' "$T/ip3.args" >"$T/fake-iperf3"
chmod +x "$T/fake-iperf3"
expect_exit 0 "iperf3_flood execs iperf3" "${IF[@]}" -t 7 -r 1000 -I "$T/fake-iperf3"
check "iperf3_flood: iperf3 -c <the checked address> -u, the rate as payload bits" \
	[ "$(cat "$T/ip3.args" 2>/dev/null)" = "-c 10.99.0.2 -p 9000 -u -l 18 -b 144000 -t 7 -J" ]
expect_exit 0 "iperf3_flood -r 0 -w 65536 execs iperf3" \
	"${IF[@]}" -t 7 -r 0 -w 65536 -s 100 -I "$T/fake-iperf3"
check "iperf3_flood: -r 0 is iperf3 -b 0 (unlimited), -w passed on" \
	[ "$(cat "$T/ip3.args" 2>/dev/null)" = "-c 10.99.0.2 -p 9000 -u -l 100 -b 0 -t 7 -J -w 65536" ]
rm -f "$T/ip3.args"
expect_exit 3 "iperf3_flood: unlisted address refused" \
	ip netns exec "$NS_A" "$OUT/iperf3_flood" -d 10.99.0.3 -t 1 -A "$T/allow" -I "$T/fake-iperf3"
check "iperf3_flood: unlisted refusal message" grep -qx \
	"iperf3_flood: refusing to send to 10.99.0.3: not a guest of this lab (allowlist $T/allow)" \
	"$T/err"
expect_exit 3 "iperf3_flood: loopback refused even if listed" \
	ip netns exec "$NS_A" "$OUT/iperf3_flood" -d 127.0.0.1 -t 1 -A "$T/allow" -I "$T/fake-iperf3"
expect_exit 3 "iperf3_flood: empty allowlist refused" \
	"$OUT/iperf3_flood" -d 10.99.0.2 -t 1 -A "$T/empty" -I "$T/fake-iperf3"
check "iperf3_flood: iperf3 never started for a refused address" [ ! -e "$T/ip3.args" ]

# ------------------------------------------------------------- iperf3.jq
# iperf3_line <target> <client report>: lab/run's reading of it
iperf3_line()
{
	jq -r -s --argjson target "$1" -f "$LAB_SRC/lab/exp/rx/iperf3.jq" "$2"
}
printf '{\n\t"end": {\n\t\t"sum_sent": {\n\t\t\t"seconds": 2.5,\n\t\t\t"packets": 500,\n\t\t\t"sender": true\n\t\t}\n\t},\n\t"error": "interrupt - the client has terminated"\n}\n' >"$T/c.json"
check "iperf3.jq: sum_sent as the flooder's line" [ "$(iperf3_line 200 "$T/c.json")" = \
	"flood: sent=500 errors=0 duration_ns=2500000000 rate_pps=200 target_pps=200" ]
sed 's/interrupt - the client has terminated/unable to connect to server/' "$T/c.json" >"$T/bad.json"
expect_exit 1 "iperf3.jq: a report with another error fails" iperf3_line 0 "$T/bad.json"
check "iperf3.jq: ... and says which" grep -qx "iperf3: unable to connect to server" "$T/err"
expect_exit 1 "iperf3.jq: a report without sum_sent fails" iperf3_line 0 /dev/null
sed 's/"packets": 500/"packets": 0/' "$T/c.json" >"$T/none.json"
expect_exit 1 "iperf3.jq: a test that never started (nothing sent) fails" \
	iperf3_line 0 "$T/none.json"

# -------------------------------------------------- sampler -x, -R, -r
printf 'iperf3_tests=2 Upper=1 a=x b_9=33 %s=1\n' "$(printf 'k%.0s' $(seq 40))" >"$T/extra"
line=$(printf 'snap x\nquit\n' | "$OUT/sampler" -c - -i lo -x "$T/extra" | head -n 1)
check "sampler -x: counters appended at the end, other tokens skipped" \
	eval '[[ "$line" == *" iperf3_tests=2 b_9=33" ]]'
line=$(printf 'snap x\nquit\n' | "$OUT/sampler" -c - -i lo -x "$T/missing" | head -n 1)
check "sampler -x: a missing file adds nothing" eval '[[ "$line" == *" spin_iters="+([0-9]) ]]'
ip netns exec "$NS_B" "$OUT/responder" -p 9101 -c "$T/resp.cnt" >/dev/null 2>&1 &
BG_PIDS+=("$!")
sleep 0.3
ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -p 9101 -r 1000 -t 0.2 -A "$T/allow" \
	>"$T/flood.out" 2>&1 || true
sleep 0.3
sent=$(field sent "$(cat "$T/flood.out")")
line=$(printf 'snap x\nquit\n' | "$OUT/sampler" -c - -i lo -r "$T/resp.cnt" | head -n 1)
check "responder -c, sampler -r: resp_packets = datagrams sent ($(field resp_packets "$line") of $sent)" \
	eval '[ -n "$sent" ] && [ "$(field resp_packets "$line")" = "$sent" ]'
# sampler -P: the responder's socket drops from /proc/net/udp (its netns).
# Held off the CPU, its socket overflows: what it read and what its socket
# dropped add up to what was sent.
snap_b() { printf 'snap x\nquit\n' | ip netns exec "$NS_B" "$OUT/sampler" -c - -i lo -r "$T/resp.cnt" -P 9101 | head -n 1; }
line=$(snap_b)
check "sampler -P: no socket drops while the responder keeps up ($(field resp_drops "$line"))" \
	eval '[ "$(field resp_drops "$line")" = 0 ]'
kill -STOP "${BG_PIDS[-1]}"
ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -p 9101 -r 2000 -t 1 -A "$T/allow" \
	>"$T/flood2.out" 2>&1 || true
kill -CONT "${BG_PIDS[-1]}"
sleep 0.5
sent2=$(field sent "$(cat "$T/flood2.out")")
line2=$(snap_b)
read2=$(( $(field resp_packets "$line2") - $(field resp_packets "$line") ))
drops2=$(field resp_drops "$line2")
check "sampler -P: responder stopped: read $read2 + socket drops $drops2 = sent $sent2, drops > 0" \
	eval '[ -n "$sent2" ] && [ "$drops2" -gt 0 ] && [ $((read2 + drops2)) = "$sent2" ]'
expect_exit 2 "sampler -P 0" "$OUT/sampler" -c - -P 0

# ------------------------------------------------ the pair, for real
if ! command -v iperf3 >/dev/null; then
	skip "iperf3 pair" "iperf3 not installed"
	return 0
fi

# wait_for COND...: up to 10 s
wait_for()
{
	for _ in $(seq 100); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

ip netns exec "$NS_B" sh "$LAB_SRC/lab/guest/iperf3-recv" -p 9100 -c "$T/ip3.cnt" \
	-P "$T/ip3.pid" 2>"$T/recv.err" &
RECV=$!
BG_PIDS+=("$RECV")
wait_for test -s "$T/ip3.cnt" || true
check "iperf3-recv: zero counters once the server listens" \
	grep -qx "iperf3_tests=0 iperf3_rx_packets=0 iperf3_bad_reports=0" "$T/ip3.cnt"
check "iperf3-recv: the pid file names the iperf3 server" \
	eval '[ "$(cat "/proc/$(cat "$T/ip3.pid" 2>/dev/null)/comm" 2>/dev/null)" = iperf3 ]'

# a test that runs its course
ip netns exec "$NS_A" "$OUT/iperf3_flood" -d 10.99.0.2 -p 9100 -r 500 -t 1 \
	-A "$T/allow" >"$T/c1.json" 2>"$T/c1.err" || true
sent1=$(field sent "$(iperf3_line 500 "$T/c1.json" 2>&1)")
check "iperf3_flood: 1 s at 500 pps: iperf3 sent 400..600 ($sent1)" in_range "${sent1:-x}" 400 600
wait_for grep -q "iperf3_tests=1 " "$T/ip3.cnt" || true
rx=$(field iperf3_rx_packets "$(cat "$T/ip3.cnt")")
check "iperf3-recv: the server's count is what was sent ($rx of $sent1)" \
	eval '[ -n "$sent1" ] && [ "$rx" = "$sent1" ]'

# a test ended by SIGINT, as lab/run ends every point
ip netns exec "$NS_A" "$OUT/iperf3_flood" -d 10.99.0.2 -p 9100 -r 1000 -t 60 \
	-A "$T/allow" >"$T/c2.json" 2>"$T/c2.err" &
client=$!
sleep 2
kill -INT "$client"
rc=0
wait "$client" || rc=$?
line=$(iperf3_line 1000 "$T/c2.json" 2>&1)
sent2=$(field sent "$line")
check "iperf3 client interrupted: exit 1, report accepted, sent 1000..2500 ($rc, $sent2)" \
	eval '[ "$rc" = 1 ] && in_range "${sent2:-x}" 1000 2500'
wait_for grep -q "iperf3_tests=2 " "$T/ip3.cnt" || true
rx=$(field iperf3_rx_packets "$(cat "$T/ip3.cnt")")
# The client stops on SIGINT and tells the server over TCP, which can
# overtake its last datagram on the veth backlog: that one is sent but
# never counted (CI saw 2487 of 2488).  Never more than sent, never more
# than the last two missing.
check "iperf3-recv: after the interrupted test, total = both tests less 0..2 in flight ($rx of $((sent1 + sent2)))" \
	eval '[ -n "$sent2" ] && in_range "${rx:-x}" $((sent1 + sent2 - 2)) $((sent1 + sent2))'
line=$(printf 'snap x\nquit\n' | "$OUT/sampler" -c - -i lo -R iperf3 -x "$T/ip3.cnt" | head -n 1)
check "sampler -R iperf3: sink_pid is the listening server" \
	eval '[ "$(field sink_pid "$line")" = "$(cat "$T/ip3.pid")" ]'
server=$(cat "$T/ip3.pid")
kill -TERM "$RECV"
rc=0
wait "$RECV" || rc=$?
check "iperf3-recv: exits 0 on SIGTERM and stops its server" \
	eval '[ "$rc" = 0 ] && ! kill -0 "$server" 2>/dev/null'
check "iperf3-recv: no error on stderr" eval '[ ! -s "$T/recv.err" ]'
