#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034,SC2154 # variables read by the checks' eval'ed conditions
#
# Behaviour tests for the lab's C tools (lab/tools), run against the built
# binaries:  bash tests/behaviour/test_tools.sh OUTDIR
#
# Needs root for the network namespace part: two throwaway namespaces
# joined by a veth pair (10.99.0.1 <-> 10.99.0.2), deleted on exit.  No
# traffic leaves them.  flood and latprobe run in the first, udp_sink and
# responder in the second.  chanctl is tested against a UNIX socket served
# by python3 (skipped when python3 is absent).  The latency tools' tests
# are in tools_latency.sh and tools_latprobe.sh, the iperf3 pair's in
# tools_iperf3.sh, sourced from here.
#
# Prints "ok - name" / "not ok - name" / "ok - name # SKIP why" lines (the
# dialect of tests/lib.sh) and the count as a comment; exits non-zero if
# any check failed.

set -eu

OUT=${1:?usage: test_tools.sh OUTDIR}
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOLS="udp_sink sampler flood chanctl responder latprobe iperf3_flood threadstat schedset tunnapi"
for t in $TOOLS; do
	[ -x "$OUT/$t" ] || { echo "test_tools.sh: $OUT/$t not built" >&2; exit 1; }
done

T=$(mktemp -d /tmp/lab-unit.XXXXXX)
NS_A=lab-unit-$$-a
NS_B=lab-unit-$$-b
BG_PIDS=()
NETNS_MADE=0

cleanup()
{
	local p

	for p in "${BG_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		kill -CONT "$p" 2>/dev/null || true	# if stopped
	done
	for p in "${BG_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	if [ "$NETNS_MADE" = 1 ]; then
		ip netns del "$NS_A" 2>/dev/null || true
		ip netns del "$NS_B" 2>/dev/null || true
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

n=0
failed=0
passed=0

ok()
{
	n=$((n + 1)); passed=$((passed + 1))
	echo "ok - tools: $1"
}

not_ok()
{
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok - tools: $1"
	if [ -n "${2:-}" ]; then
		echo "# $2" | head -c 2000; echo
	fi
}

skip()
{
	n=$((n + 1))
	echo "ok - tools: $1 # SKIP $2"
}

check()		# check NAME COMMAND...: ok if COMMAND succeeds
{
	local name=$1

	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# expect_exit CODE NAME CMD...: exit status CODE; for 2 and 3 also exactly
# one line on stderr.  Leaves stdout in $T/out, stderr in $T/err.
expect_exit()
{
	local want=$1 name=$2 rc=0 lines

	shift 2
	"$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" != "$want" ]; then
		not_ok "$name" "exit $rc, want $want; stderr: $(cat "$T/err")"
	elif [ "$want" -ge 2 ] && [ "$want" -le 3 ] && [ "$lines" != 1 ]; then
		not_ok "$name" "want one stderr line, got $lines: $(cat "$T/err")"
	else
		ok "$name"
	fi
}

in_range()	# in_range VALUE LOW HIGH
{
	[[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

field()		# field KEY LINE: value of KEY=value in LINE
{
	sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"
}

# ---------------------------------------------------------------- usage
for t in $TOOLS; do
	rc=0
	"$OUT/$t" -h >"$T/out" 2>&1 || rc=$?
	check "$t -h prints usage, exit 0" \
		eval '[ $rc = 0 ] && grep -q "^Usage: $t" "$T/out"'
done

echo 10.99.0.2 >"$T/allow"

expect_exit 2 "udp_sink -p 0" "$OUT/udp_sink" -p 0
expect_exit 2 "udp_sink -p 65536" "$OUT/udp_sink" -p 65536
expect_exit 2 "udp_sink -p 9x" "$OUT/udp_sink" -p 9x
expect_exit 2 "udp_sink -b -1" "$OUT/udp_sink" -b -1
expect_exit 2 "udp_sink -b ''" "$OUT/udp_sink" -b ''
expect_exit 2 "udp_sink -m -B 0" "$OUT/udp_sink" -m -B 0
expect_exit 2 "udp_sink -m -B 1025" "$OUT/udp_sink" -m -B 1025
expect_exit 2 "udp_sink -B without -m" "$OUT/udp_sink" -B 8
expect_exit 2 "udp_sink -w -1" "$OUT/udp_sink" -w -1
expect_exit 2 "udp_sink unknown option" "$OUT/udp_sink" -x
expect_exit 2 "udp_sink stray argument" "$OUT/udp_sink" extra
expect_exit 2 "sampler -i ''" "$OUT/sampler" -i ''
expect_exit 2 "sampler -i with /" "$OUT/sampler" -i a/b
expect_exit 2 "sampler -c without value" "$OUT/sampler" -c
expect_exit 2 "sampler stray argument" "$OUT/sampler" extra
expect_exit 2 "sampler -l ''" "$OUT/sampler" -l ''
FL=("$OUT/flood" -A "$T/allow" -d 10.99.0.2)
expect_exit 2 "flood -s 0" "${FL[@]}" -t 1 -s 0
expect_exit 2 "flood -s 1473" "${FL[@]}" -t 1 -s 1473
expect_exit 2 "flood -t 0" "${FL[@]}" -t 0
expect_exit 2 "flood -t abc" "${FL[@]}" -t abc
expect_exit 2 "flood -t -1" "${FL[@]}" -t -1
expect_exit 2 "flood -t 1e3" "${FL[@]}" -t 1e3
expect_exit 2 "flood -r -5" "${FL[@]}" -t 1 -r -5
expect_exit 2 "flood -r 10k" "${FL[@]}" -t 1 -r 10k
expect_exit 2 "flood -B 0" "${FL[@]}" -t 1 -B 0
expect_exit 2 "udp_sink -o with an unknown option" "$OUT/udp_sink" -o nope=1
expect_exit 2 "udp_sink -o prefer_busy_poll=2 (0..1)" "$OUT/udp_sink" -o prefer_busy_poll=2
expect_exit 2 "schedset without -p" "$OUT/schedset" -c napi/
expect_exit 2 "schedset -p fifo -r 0 (fifo needs 1..99)" "$OUT/schedset" -c napi/ -p fifo -r 0
expect_exit 2 "schedset -s 99999 (below 6.12's 0.1 ms clamp)" "$OUT/schedset" -c napi/ -s 99999
expect_exit 2 "schedset -s 100000001 (above the 100 ms clamp)" "$OUT/schedset" -c napi/ -s 100000001
expect_exit 2 "schedset -s with -p fifo (a slice is SCHED_OTHER's)" "$OUT/schedset" -c napi/ -p fifo -r 1 -s 3000000
# On a task of its own, named so that no other task matches: the slice
# (6.12 and later: sched_attr.sched_runtime of a SCHED_OTHER task) is set
# and read back; the policy path names the task too.
cp "$(command -v sleep)" "$T/lab-slice-prb"
"$T/lab-slice-prb" 30 &
BG_PIDS+=($!)
prb=$!
# The child is bash's until it execs: schedset matches by comm, so wait
# (at most 5 s) for the name it will find.
for _ in $(seq 50); do
	[ "$(cat /proc/$prb/comm 2>/dev/null)" = lab-slice-prb ] && break
	sleep 0.1
done
rc=0
"$OUT/schedset" -c lab-slice-prb -p other >"$T/out" 2>&1 || rc=$?
check "schedset -p other: one line for its task, with pid and comm, ok" \
	eval '[ $rc = 0 ] && [ "$(cat "$T/out")" = "lab: set sched:lab-slice-prb=other:0 readback=other:0 pid=$prb comm=lab-slice-prb ok" ]'
host_kver=$(uname -r | awk -F. '{ printf "%d", $1 * 1000 + $2 }')
if [ "$host_kver" -lt 6012 ]; then
	skip "schedset -s sets and reads back a custom slice" "host kernel $(uname -r) has no custom slices (6.12+)"
else
	rc=0
	"$OUT/schedset" -c lab-slice-prb -l slice -s 3000000 >"$T/out" 2>&1 || rc=$?
	check "schedset -s sets and reads back a custom slice" \
		eval '[ $rc = 0 ] && [ "$(cat "$T/out")" = "lab: set sched:slice=3000000 readback=3000000 pid=$prb comm=lab-slice-prb ok" ]'
fi
rc=0
"$OUT/schedset" -c lab-no-such-tsk -l slice -s 3000000 >"$T/out" 2>"$T/err" || rc=$?
check "schedset -s with no matching task: a FAIL line, exit 1" \
	eval '[ $rc = 1 ] && grep -q "^lab: set sched:slice=3000000 readback=none FAIL" "$T/out"'
# refused before /dev/net/tun is opened: no tun device on this host
expect_exit 2 "tunnapi without an action" "$OUT/tunnapi" tun0
expect_exit 2 "tunnapi -p -d (one action)" "$OUT/tunnapi" -p -d tun0
expect_exit 2 "tunnapi -t 3601" "$OUT/tunnapi" -t 3601 tun0
expect_exit 2 "tunnapi -p without a name" "$OUT/tunnapi" -p
expect_exit 2 "tunnapi -p with a 16-character name" "$OUT/tunnapi" -p abcdefghijklmnop
expect_exit 2 "flood -p 70000" "${FL[@]}" -t 1 -p 70000
expect_exit 2 "flood -d 999.1.1.1" "$OUT/flood" -A "$T/allow" -t 1 -d 999.1.1.1
expect_exit 2 "flood without -d" "$OUT/flood" -A "$T/allow" -t 1
expect_exit 2 "flood without -t" "${FL[@]}"
expect_exit 2 "flood without -A" "$OUT/flood" -d 10.99.0.2 -t 1
expect_exit 2 "chanctl -t 0" "$OUT/chanctl" -S "$T/sock" -t 0 ping
expect_exit 2 "chanctl -t 5s" "$OUT/chanctl" -S "$T/sock" -t 5s ping
expect_exit 2 "chanctl -w -1" "$OUT/chanctl" -S "$T/sock" -w -1
expect_exit 2 "chanctl without -S" "$OUT/chanctl" ping
expect_exit 2 "chanctl without request" "$OUT/chanctl" -S "$T/sock"

# ---------------------------------------------------------------- sampler
SNAP_KEYS="t_ns ncpu clocksource cpu_user cpu_nice cpu_system cpu_idle cpu_iowait
cpu_irq cpu_softirq cpu_steal hz psi_irq_ok psi_irq_us sched_goidle
tasks_n tasks_run_ns sink_pid sink_run_ns sink_wait_ns sink_pcount
sink_utime sink_stime sink_nvcsw sink_nivcsw ksoftirqd_run_ns
ksoftirqd_wait_ns ksoftirqd_pcount ksoftirqd_utime ksoftirqd_stime
ksoftirqd_nvcsw ksoftirqd_nivcsw napi_threads napi_run_ns napi_wait_ns
napi_pcount napi_utime napi_stime napi_nvcsw napi_nivcsw sampler_run_ns
sampler_wait_ns sampler_pcount sampler_utime sampler_stime
sampler_nvcsw sampler_nivcsw responder_run_ns responder_wait_ns
responder_pcount responder_utime responder_stime responder_nvcsw
responder_nivcsw net_rx_softirqs net_tx_softirqs timer_softirqs rcu_softirqs
block_softirqs nic_rx_packets
nic_rx_bytes nic_rx_dropped nic_rx_errors nic_tx_packets nic_tx_dropped
udp_in udp_noports udp_inerrors udp_rcvbuferrors udp_out
softnet_processed softnet_dropped softnet_squeezed sink_packets
sink_bytes tlat_count resp_packets resp_drops ksoftirqd1_run_ns
ksoftirqd0_pcount ksoftirqd1_pcount ksoftirqd0_wakeups
ksoftirqd1_wakeups blast_pid blast_threads blast_running blast_start_ns
blast_end_ns blast_sent blast_errors blast_run_ns qdisc_n
qdisc_prio_packets qdisc_prio_drops qdisc_prio_requeues
qdisc_prio_overlimits qdisc_prio_qlen qdisc_tbf_packets qdisc_tbf_drops
qdisc_tbf_requeues qdisc_tbf_overlimits qdisc_tbf_qlen
qdisc_fq_codel_packets qdisc_fq_codel_drops qdisc_fq_codel_requeues
qdisc_fq_codel_overlimits qdisc_fq_codel_qlen spin_iters"

# snap_ok TAG LINE: "snap TAG" then exactly SNAP_KEYS in order, numeric
# (the clocksource: a name).
snap_ok()
{
	local want got

	want="snap $1 $(for k in $SNAP_KEYS; do printf '%s=N ' "$k"; done)"
	want=${want% }
	got=$(sed 's/=[0-9][0-9]*/=N/g; s/ clocksource=[a-z][a-z0-9_-]* / clocksource=N /' <<<"$2")
	[ "$want" = "$got" ]
}

long=$(head -c 400 /dev/zero | tr '\0' x)
printf 'ping\nsnap t1\nbogus stuff\n%s\nsnap\nsnap t2\nquit\nping\n' "$long" |
	"$OUT/sampler" -c - -i lo >"$T/out" 2>/dev/null && rc=0 || rc=$?
mapfile -t L <"$T/out"
check "sampler: exit 0 after quit" [ "$rc" = 0 ]
check "sampler: ping -> pong" [ "${L[0]:-}" = pong ]
check "sampler: snap has all keys in order, numeric" snap_ok t1 "${L[1]:-}"
check "sampler: unknown request -> err" \
	[ "${L[2]:-}" = "err unknown request: bogus stuff" ]
check "sampler: overlong line -> err" \
	eval '[[ "${L[3]:-}" == "err request too long"* ]]'
check "sampler: snap without tag -> err" eval '[[ "${L[4]:-}" == err* ]]'
check "sampler: second snap ok" snap_ok t2 "${L[5]:-}"
check "sampler: quit -> bye, nothing after" \
	eval '[ "${L[6]:-}" = bye ] && [ ${#L[@]} = 7 ]'
t1=$(field t_ns "${L[1]:-}"); t2=$(field t_ns "${L[5]:-}")
check "sampler: t_ns increases" eval '[ "${t1:-0}" -lt "${t2:-0}" ]'
check "sampler: hz is positive" eval '[ "$(field hz "${L[1]:-}")" -gt 0 ]'
check "sampler: sampler_run_ns is positive" \
	eval '[ "$(field sampler_run_ns "${L[1]:-}")" -gt 0 ]'

# requests split across reads, several in one read
{ printf 'pi'; sleep 0.3; printf 'ng\nsnap a\r\nsnap b\n'; } |
	"$OUT/sampler" -c - -i lo >"$T/out" 2>/dev/null || true
mapfile -t L <"$T/out"
check "sampler: partial and batched requests" \
	eval '[ "${L[0]:-}" = pong ] && snap_ok a "${L[1]:-}" &&
	      snap_ok b "${L[2]:-}" && [ ${#L[@]} = 3 ]'

# -c - : EOF on stdin means exit; -c device: EOF means keep waiting
rc=0
timeout 5 "$OUT/sampler" -c - </dev/null >/dev/null 2>&1 || rc=$?
check "sampler -c -: exits 0 on EOF" [ "$rc" = 0 ]
"$OUT/sampler" -c /dev/null 2>/dev/null &
sp=$!
BG_PIDS+=("$sp")
sleep 0.5
if kill -0 "$sp" 2>/dev/null; then
	kill -TERM "$sp"; rc=0; wait "$sp" || rc=$?
	check "sampler -c device: waits on EOF, exits 0 on SIGTERM" [ "$rc" = 0 ]
else
	not_ok "sampler -c device: waits on EOF, exits 0 on SIGTERM" "it exited"
fi

PY=$(command -v python3 || true)
if [ -n "$PY" ]; then
	# a character device: a raw pty, as the virtio-serial port would be
	cat >"$T/chan_pty.py" <<'EOF'
import os, pty, subprocess, sys, time, tty
m, s = pty.openpty()
tty.setraw(s)
p = subprocess.Popen([sys.argv[1], "-c", os.ttyname(s), "-i", "lo"],
                     stderr=subprocess.DEVNULL)
os.write(m, b"ping\nsnap p1\nquit\n")
buf = b""
end = time.time() + 5
while buf.count(b"\n") < 3 and time.time() < end:
    buf += os.read(m, 4096)
print(buf.decode(), end="")
print("rc=%s" % p.wait(timeout=5))
EOF
	timeout 20 "$PY" "$T/chan_pty.py" "$OUT/sampler" >"$T/out" 2>&1 || true
	mapfile -t L <"$T/out"
	check "sampler -c <tty device>: ping, snap, quit" \
		eval '[ "${L[0]:-}" = pong ] && snap_ok p1 "${L[1]:-}" &&
		      [ "${L[2]:-}" = bye ] && [ "${L[3]:-}" = rc=0 ]'
else
	skip "sampler -c <tty device>" "python3 not found"
fi

# sampler's timer probe (cyclictest); bad option values of the latency tools
. "$HERE/tools_latency.sh"

# ---------------------------------------------------------------- threadstat
sleep 30 &
SLP=$!
BG_PIDS+=("$SLP")
line=$("$OUT/threadstat" -q "$SLP" -t "shell_1=$$" 2>"$T/err") || true
check "threadstat: QEMU classes (a one-thread process: its main loop) and a named process" \
	eval '[[ "$line" =~ ^qemu_threads=1\ qemu_main_run_ns=[0-9]+\ qemu_main_wait_ns=[0-9]+\ qemu_main_pcount=[1-9][0-9]*\ qemu_vcpu_run_ns=0\ qemu_vcpu_wait_ns=0\ qemu_vcpu_pcount=0\ qemu_other_run_ns=0\ qemu_other_wait_ns=0\ qemu_other_pcount=0\ shell_1_run_ns=[1-9][0-9]*\ shell_1_wait_ns=[0-9]+\ shell_1_pcount=[1-9][0-9]*$ ]]'
line=$("$OUT/threadstat" -t "gone=999999999" 2>/dev/null) || true
check "threadstat: a process that is gone gives zeros" \
	eval '[ "$line" = " gone_run_ns=0 gone_wait_ns=0 gone_pcount=0" ]'
check "threadstat -a: one line per host thread, this shell among them" \
	eval '"$OUT/threadstat" -a | grep -qE "^$$ -?[0-9]+ [0-9]+ [0-9]+ "'
expect_exit 2 "threadstat with nothing to sample" "$OUT/threadstat"
expect_exit 2 "threadstat -t with a bad name" "$OUT/threadstat" -t "Flood=1"
expect_exit 2 "threadstat -t without a pid" "$OUT/threadstat" -t "flood="
expect_exit 2 "threadstat -a with -q" "$OUT/threadstat" -a -q 1
expect_exit 2 "threadstat -q 0" "$OUT/threadstat" -q 0
check "threadstat --help" eval '"$OUT/threadstat" --help | grep -q "^Usage: threadstat"'

# ---------------------------------------------------------------- subreaper
. "$HERE/tools_subreaper.sh"

# ---------------------------------------------------------------- chanctl
# A channel that is gone (QEMU exited: no socket, refused, closed) is exit
# 6 at once; a guest that does not answer in time is exit 5.
expect_exit 6 "chanctl: absent socket -> exit 6 (gone)" \
	"$OUT/chanctl" -S "$T/nosock" ping
check "chanctl: absent socket message" grep -q "cannot connect to $T/nosock" "$T/err"
expect_exit 5 "chanctl -w: gives up after the wait -> exit 5" \
	"$OUT/chanctl" -S "$T/nosock" -w 300

if [ -n "$PY" ]; then
	cat >"$T/serve.py" <<'EOF'
# Serve a UNIX stream socket like QEMU's channel: each connection gets
# stray lines (as if left from an earlier request), then a sampler on it.
import os, socket, subprocess, sys, time
path, mode, sampler, log = sys.argv[1:5]
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(4)
while True:
    c, _ = srv.accept()
    if mode == "silent":
        while c.recv(4096):
            pass
        c.close()
        continue
    if mode == "exit":	# QEMU exiting with a request pending
        c.recv(4096)
        time.sleep(0.3)
        os.unlink(path)
        sys.exit(0)
    c.sendall(b"snap old t_ns=1\ncyclic stop count=1 old\nhello\n")
    subprocess.Popen([sampler, "-c", "-", "-i", "lo", "-C", "1000", "-F", log],
                     stdin=c.fileno(),
                     stdout=c.fileno(), stderr=subprocess.DEVNULL)
    c.close()
EOF
	start_server()	# start_server SOCK MODE
	{
		"$PY" "$T/serve.py" "$1" "$2" "$OUT/sampler" "$T/ct.log" \
			2>"$T/serve.err" &
		BG_PIDS+=("$!")
		for _ in $(seq 50); do
			[ -S "$1" ] && return 0
			sleep 0.1
		done
		return 1
	}
	# wait mode: the server comes up only after chanctl started
	rc=0
	( sleep 0.7; exec "$PY" "$T/serve.py" "$T/sock" sampler "$OUT/sampler" \
		"$T/ct.log" ) &
	BG_PIDS+=("$!")
	"$OUT/chanctl" -S "$T/sock" -w 10000 >"$T/out" 2>"$T/err" || rc=$?
	check "chanctl -w: waits for the guest, prints pong" \
		eval '[ $rc = 0 ] && [ "$(cat "$T/out")" = pong ]'

	rc=0
	"$OUT/chanctl" -S "$T/sock" ping >"$T/out" 2>"$T/err" || rc=$?
	check "chanctl ping -> pong, exit 0" \
		eval '[ $rc = 0 ] && [ "$(cat "$T/out")" = pong ]'
	rc=0
	"$OUT/chanctl" -S "$T/sock" snap new >"$T/out" 2>"$T/err" || rc=$?
	check "chanctl snap: skips stray lines, prints the snap line" \
		eval '[ $rc = 0 ] && snap_ok new "$(cat "$T/out")"'
	rc=0
	"$OUT/chanctl" -S "$T/sock" cyclic start >"$T/out" 2>"$T/err" || rc=$?
	check "chanctl cyclic start: skips a stale cyclic stop line, prints the answer" \
		eval '[ $rc = 0 ] && [[ "$(cat "$T/out")" =~ ^cyclic\ start\ pid=[0-9]+\ interval_us=1000$ ]]'
	expect_exit 4 "chanctl cyclic: err reply -> exit 4" \
		"$OUT/chanctl" -S "$T/sock" cyclic sideways
	check "chanctl cyclic: err reply printed" \
		grep -qx "err cyclic needs start or stop" "$T/out"
	expect_exit 4 "chanctl: err reply -> exit 4" \
		"$OUT/chanctl" -S "$T/sock" bogus req
	check "chanctl: err reply printed" \
		grep -qx "err unknown request: bogus req" "$T/out"
	rc=0
	"$OUT/chanctl" -S "$T/sock" -w 3000 snap w1 >"$T/out" 2>"$T/err" || rc=$?
	check "chanctl -w with a request: prints only the reply" \
		eval '[ $rc = 0 ] && snap_ok w1 "$(cat "$T/out")"'
	rc=0
	"$OUT/chanctl" -S "$T/sock" quit >"$T/out" 2>"$T/err" || rc=$?
	check "chanctl quit -> bye" \
		eval '[ $rc = 0 ] && [ "$(cat "$T/out")" = bye ]'

	if start_server "$T/silent" silent; then
		s0=$(date +%s%N)
		expect_exit 5 "chanctl: silent guest -> exit 5" \
			"$OUT/chanctl" -S "$T/silent" -t 400 ping
		s1=$(date +%s%N)
		check "chanctl: timeout message" \
			grep -qx "chanctl: no reply to 'ping' within 400 ms" "$T/err"
		check "chanctl: waited about the timeout" \
			in_range $(((s1 - s0) / 1000000)) 380 2000
	else
		not_ok "chanctl: silent server did not start" "$(cat "$T/serve.err")"
	fi
	if start_server "$T/exiting" exit; then
		s0=$(date +%s%N)
		expect_exit 6 "chanctl: the channel closed while waiting -> exit 6 (gone)" \
			"$OUT/chanctl" -S "$T/exiting" -t 8000 snap x
		s1=$(date +%s%N)
		check "chanctl: closed channel message" \
			grep -qx "chanctl: channel $T/exiting closed before a reply to 'snap x'" "$T/err"
		check "chanctl: a closed channel ends the wait at once, not at the timeout" \
			in_range $(((s1 - s0) / 1000000)) 250 4000
	else
		not_ok "chanctl: exiting server did not start" "$(cat "$T/serve.err")"
	fi
	"$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/refusing"
	expect_exit 6 "chanctl: a socket nobody listens on -> exit 6 (gone)" \
		"$OUT/chanctl" -S "$T/refusing" ping
	check "chanctl: refused message" grep -q "cannot connect to $T/refusing: Connection refused" "$T/err"
else
	for c in "chanctl -w" "chanctl ping" "chanctl snap" "chanctl err" \
		 "chanctl timeout" "chanctl closed" "chanctl refused"; do
		skip "$c" "python3 not found"
	done
fi

# ---------------------------------------------------------------- netns
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null; then
	skip "netns tests" "need root and iproute2"
	echo "# $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
fi

NETNS_MADE=1
ip netns add "$NS_A"
ip netns add "$NS_B"
for ns in "$NS_A" "$NS_B"; do	# no IPv6 chatter on the veth
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
done
ip -n "$NS_A" link set lo up
ip -n "$NS_B" link set lo up
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
ip -n "$NS_A" addr add 10.99.0.1/24 dev va
ip -n "$NS_B" addr add 10.99.0.2/24 dev vb
ip -n "$NS_A" link set va up
ip -n "$NS_B" link set vb up

# dev_tx NS DEV: tx_packets of DEV in NS
dev_tx()
{
	ip netns exec "$1" cat /proc/net/dev |
		awk -v d="$2:" '$1 == d { print $11 }'
}

printf '# lab guests\n10.99.0.2\n127.0.0.1\n' >"$T/allow"
: >"$T/empty"
lo0=$(dev_tx "$NS_A" lo); va0=$(dev_tx "$NS_A" va)
expect_exit 3 "flood: loopback refused even if listed" \
	ip netns exec "$NS_A" "$OUT/flood" -d 127.0.0.1 -t 0.2 -A "$T/allow"
check "flood: loopback refusal message" \
	grep -qx "flood: refusing to send to 127.0.0.1: not a unicast address" "$T/err"
expect_exit 3 "flood: broadcast refused" \
	ip netns exec "$NS_A" "$OUT/flood" -d 255.255.255.255 -t 0.2 -A "$T/allow"
expect_exit 3 "flood: unlisted address refused" \
	ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.3 -t 0.2 -A "$T/allow"
check "flood: unlisted refusal message" grep -qx \
	"flood: refusing to send to 10.99.0.3: not a guest of this lab (allowlist $T/allow)" \
	"$T/err"
check "flood: refused run printed no result line" eval '[ ! -s "$T/out" ]'
expect_exit 3 "flood: missing allowlist refused" \
	ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -t 0.2 -A "$T/missing"
expect_exit 3 "flood: empty allowlist refused" \
	ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -t 0.2 -A "$T/empty"
lo1=$(dev_tx "$NS_A" lo); va1=$(dev_tx "$NS_A" va)
check "flood: refused runs sent nothing (tx lo $lo0->$lo1, va $va0->$va1)" \
	eval '[ -n "$lo0" ] && [ "$lo1" = "$lo0" ] && [ "$va1" = "$va0" ]'

# start_sink ARGS...: udp_sink in NS_B, waits for its start line
start_sink()
{
	: >"$T/sink.out"
	ip netns exec "$NS_B" "$OUT/udp_sink" -c "$T/ctr" -P "$T/sink.pid" "$@" \
		>"$T/sink.out" 2>"$T/sink.err" &
	SINK=$!
	BG_PIDS+=("$SINK")
	for _ in $(seq 50); do
		[ -s "$T/sink.out" ] && return 0
		sleep 0.1
	done
	return 1
}

stop_sink()
{
	kill -TERM "$SINK"
	SINK_RC=0
	wait "$SINK" || SINK_RC=$?
	SINK_END=$(tail -n 1 "$T/sink.out")
}

# paced run to a recvfrom sink with a forced receive buffer
start_sink -b 1000000 || true
check "udp_sink: start line" grep -qxE \
	"udp_sink: port=9000 rcvbuf=[0-9]+ mode=recvfrom work=0" "$T/sink.out"
check "udp_sink: -b 1000000 took effect (SO_RCVBUFFORCE, doubled)" \
	grep -q "rcvbuf=2000000 " "$T/sink.out"
check "udp_sink: pidfile" eval '[ "$(cat "$T/sink.pid")" = "$SINK" ]'
rc=0
ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -r 2000 -t 1 -s 64 \
	-A "$T/allow" >"$T/flood.out" 2>"$T/flood.err" || rc=$?
FOUT=$(cat "$T/flood.out")
check "flood: paced run exit 0" [ "$rc" = 0 ]
check "flood: result line format" grep -qxE \
	"flood: sent=[0-9]+ errors=[0-9]+ duration_ns=[0-9]+ rate_pps=[0-9]+ target_pps=2000 batch=1" \
	"$T/flood.out"
sent=$(field sent "$FOUT")
check "flood: -r 2000 -t 1 sent 1800..2200 ($sent)" in_range "$sent" 1800 2200
check "flood: achieved rate 1800..2200" \
	in_range "$(field rate_pps "$FOUT")" 1800 2200
check "flood: duration about 1 s" \
	in_range "$(field duration_ns "$FOUT")" 900000000 1300000000
sleep 0.2
ip netns exec "$NS_B" "$OUT/sampler" -c - -i vb -s "$T/ctr" \
	<<<"snap s1" >"$T/out" 2>/dev/null || true
SNAP=$(cat "$T/out")
check "sampler: snap with a running sink" snap_ok s1 "$SNAP"

# ---- the softirq experiment's probes, busy loops and trace requests
rc=0
printf 'sirq 0 1\ntrace dump x\nspin 1\nquit\n' | "$OUT/sampler" -c - >"$T/out" 2>&1 || rc=$?
check "sampler without -q, -T, -S: sirq, trace dump and spin answer an error line each" \
	eval '[ $rc = 0 ] && [ "$(cut -c1-14 "$T/out" | paste -sd,)" = "err sirq: no s,err trace dump,err spin needs,bye" ]'
# sirqprobe for 1 s: every probe sampled, the timer and poll calls last
# their 4 ms timeout at least (root: AF_PACKET for the RCU probe); the
# block probe reads a file with O_DIRECT, once per 4 ms
dd if=/dev/zero of="$T/blk.img" bs=64k count=16 2>/dev/null
"$OUT/sirqprobe" -c "$T/sirq.dat" -T 4000 -t 1 -b "$T/blk.img" >"$T/sq.out" 2>&1
sq=$(printf 'sirq 0 %s\nquit\n' 18446744073709551615 | "$OUT/sampler" -c - -q "$T/sirq.dat" | head -1)
printf '%s\n' "$sq" >>"$T_LOG"
sqv()
{
	tr ' ' '\n' <<<"$sq" | sed -n "s/^$1=//p"
}
check "sirqprobe -t 1 then sampler's sirq: timer, poll and rcu calls, none lost" \
	eval '[ "$(sqv timer_n)" -gt 0 ] && [ "$(sqv poll_n)" -gt 0 ] && [ "$(sqv rcu_n)" -gt 0 ] && [ "$(sqv sirq_lost)" = 0 ]'
check "sirqprobe: a timer or poll call lasts its 4 ms timeout at least (p50)" \
	eval 'awk -v a="$(sqv timer_p50_us)" -v b="$(sqv poll_p50_us)" "BEGIN { exit !(a >= 4000 && b >= 4000) }"'
check "sirqprobe -b: the block probe's O_DIRECT reads, one per period at most (1 s of 4 ms: 1..251)" \
	eval 'in_range "$(sqv block_n)" 1 251'
# -w: the shared file at once, the probes only from the sampler's "sirq start"
"$OUT/sirqprobe" -c "$T/sirqw.dat" -T 4000 -t 1 -w >"$T/sqw.out" 2>&1 &
sqw_pid=$!
for _ in $(seq 50); do
	grep -q '^sirqprobe: waiting' "$T/sqw.out" && break
	sleep 0.1
done
sleep 0.3
sqw_req()
{
	printf '%s\nquit\n' "$1" | "$OUT/sampler" -c - -q "$T/sirqw.dat" | head -1
}
sqw_before=$(sqw_req "sirq 0 18446744073709551615")
sqw_start=$(sqw_req "sirq start")
wait "$sqw_pid" || true
sq=$(sqw_req "sirq 0 18446744073709551615")
printf 'before: %s\nstart: %s\nafter: %s\n' "$sqw_before" "$sqw_start" "$sq" >>"$T_LOG"
check "sirqprobe -w: no call before the sampler's 'sirq start', calls after it" \
	eval '[ "$sqw_start" = "sirq started pid=$sqw_pid" ] && [[ "$sqw_before" == *" timer_n=0 "* ]] && [ "$(sqv timer_n)" -gt 0 ] && [ "$(sqv rcu_n)" -gt 0 ]'
check "sampler sirq: a window before the first sample has none" \
	eval 'printf "sirq 0 1\nquit\n" | "$OUT/sampler" -c - -q "$T/sirq.dat" | head -1 | grep -q "timer_n=0 timer_p50_us=- "'
# spin through the sampler: its iterations count in the snapshots, and
# "spin 0" stops the loops
spin_run()
{
	{ echo "spin 2"; sleep 0.5; echo "snap a"; sleep 0.3; echo "snap b"; echo "spin 0"
	  sleep 0.2; echo "snap c"; sleep 0.3; echo "snap d"; echo quit; } |
		PATH=$OUT:$PATH "$OUT/sampler" -c - -S "$T/spin.dat" >"$T/spin.out" 2>&1
}
spin_iters()
{
	sed -n "s/^snap $1 .* spin_iters=\([0-9]*\).*/\1/p" "$T/spin.out"
}
spin_run
check "sampler spin 2: the loops count (snap b > snap a), spin 0 stops them (c = d)" \
	eval '[ "$(spin_iters b)" -gt "$(spin_iters a)" ] && [ "$(spin_iters c)" = "$(spin_iters d)" ] && ! pgrep -x spin >/dev/null'
check "sampler: sink_pid is the sink" [ "$(field sink_pid "$SNAP")" = "$SINK" ]
check "sampler: nic_rx_packets >= sink_packets" eval \
	'[ "$(field nic_rx_packets "$SNAP")" -ge "$(field sink_packets "$SNAP")" ]'
check "sampler: udp_in >= sink_packets" eval \
	'[ "$(field udp_in "$SNAP")" -ge "$(field sink_packets "$SNAP")" ]'
stop_sink
got=$(field packets "$SINK_END")
check "udp_sink: SIGTERM -> exit 0 and final line" eval '[ $SINK_RC = 0 ] &&
	[[ "$SINK_END" =~ ^udp_sink:\ packets=[0-9]+\ bytes=[0-9]+\ errors=0$ ]]'
check "udp_sink: got 95..100% of paced flood ($got of $sent)" \
	eval '[ "${got:-0}" -le "$sent" ] && [ $((got * 100)) -ge $((sent * 95)) ]'
check "udp_sink: bytes = packets * 64" \
	[ "$(field bytes "$SINK_END")" = $((got * 64)) ]
check "sampler: sink_packets matched the sink's count" \
	[ "$(field sink_packets "$SNAP")" = "$got" ]

# unlimited run to a recvmmsg sink with busy work
start_sink -m -B 16 -w 2 -p 9001 || true
check "udp_sink -m: start line" grep -qxE \
	"udp_sink: port=9001 rcvbuf=[0-9]+ mode=recvmmsg work=2" "$T/sink.out"
rc=0
ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -p 9001 -t 0.5 -s 100 \
	-B 64 -A "$T/allow" >"$T/flood.out" 2>"$T/flood.err" || rc=$?
FOUT=$(cat "$T/flood.out")
sent=$(field sent "$FOUT")
check "flood: unlimited run exit 0, target_pps=0" \
	eval '[ $rc = 0 ] && [ "$(field target_pps "$FOUT")" = 0 ]'
check "flood: unlimited run sent more than 2000 ($sent)" \
	in_range "${sent:-x}" 2001 1000000000000
sleep 0.2
stop_sink
got=$(field packets "$SINK_END")
check "udp_sink -m: 0 < received <= sent ($got of $sent)" \
	eval '[ "${got:-0}" -gt 0 ] && [ "$got" -le "$sent" ]'
check "udp_sink -m: bytes = packets * 100" \
	[ "$(field bytes "$SINK_END")" = $((got * 100)) ]

# a fractional duration at a low rate: small batches, no drift
start_sink -p 9002 || true
rc=0
ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -p 9002 -r 300 -t 0.5 \
	-A "$T/allow" >"$T/flood.out" 2>"$T/flood.err" || rc=$?
FOUT=$(cat "$T/flood.out")
sent=$(field sent "$FOUT")
check "flood: -r 300 -t 0.5 sent 140..160 ($sent)" \
	eval '[ $rc = 0 ] && in_range "$sent" 140 160'
sleep 0.2
stop_sink
check "udp_sink: received all of the low-rate run" \
	[ "$(field packets "$SINK_END")" = "$sent" ]

# nobody listening: ICMP port unreachable -> ECONNREFUSED, counted, go on
rc=0
ip netns exec "$NS_A" "$OUT/flood" -d 10.99.0.2 -p 9003 -r 1000 -t 0.5 \
	-A "$T/allow" >"$T/flood.out" 2>"$T/flood.err" || rc=$?
FOUT=$(cat "$T/flood.out")
check "flood: send errors are counted, run completes" eval \
	'[ $rc = 0 ] && [ "$(field errors "$FOUT")" -gt 0 ] &&
	 in_range $(($(field sent "$FOUT") + $(field errors "$FOUT"))) 450 550'

# responder and latprobe
. "$HERE/tools_latprobe.sh"
# the iperf3 generator/receiver pair
. "$HERE/tools_iperf3.sh"

echo "# $passed passed, $failed failed"
[ "$failed" = 0 ]
