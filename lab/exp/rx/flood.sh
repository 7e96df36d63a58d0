# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The point machinery of the RX experiment (and of the softirq experiment,
# lab/exp/softirq), host side: the settle, the flooder and the
# latency probe (lab/tools/flood, iperf3_flood, latprobe) in the lab netns,
# the host's scheduling of them and of QEMU, snapshots, the window and the
# drain.  Sourced by lab/exp/rx/hooks.sh.

# A snapshot <tag>: the host's tap counters, its scheduling of QEMU and
# the flooder, the guest's sampler.  With <seconds> (under the flood), a
# guest that cannot answer within them is starved: its SCHED_FIFO sampler,
# reached over virtio-serial, did not answer (measured on vanilla at 6x
# the knee: not even a ping within a further 20 s, while udp_sink still
# read a datagram every ~4 ms, starved_series); then only the host's lines
# are printed and it is false.  A guest that is no longer running is an
# error either way.
snap()
{
	tap_counters | sed "s/\([a-z_0-9]*\)=/tap$1.\1=/g"
	host_threads | sed "s/\([a-z_0-9]*\)=/host$1.\1=/g"
	snap_guest "$@"
}

# raw_val <raw file> <key>: the value of "<key>=N" in a point's raw file
# (a snapshot's key is "<tag>.<name>", e.g. A.t_ns); empty if absent.
raw_val()
{
	grep -o "\\b${2//./\\.}=[0-9]*" "$1" | cut -d= -f2
}

# After a starved point's flood: the guest answers again once its backlog
# is gone (within 120 s), or it is lost; a gone guest fails at once.
wait_guest_recovers()
{
	SNAP_TIMEOUT_MS=120000 guest_req ping >/dev/null ||
		SNAP_TIMEOUT_MS=120000 guest_lost $? "after the flood's end"
}

# A starved point's receiver, read after the fact (lab/tools/sinkstat.h):
# what udp_sink had read by each step (0.25 s, or --series S if the
# window holds two) from snapshot A to past the flood's end, in the
# guest's time; "S.*" keys.
# The window its delivered rate is taken over (lab/exp/rx/point.awk),
# S.w0_ns..S.w1_ns: from the end of the warmup to 0.5 s before the
# flooder's stop, the host's times since A ("meta.host_*_ns" in the raw
# file $1) mapped onto the guest's clock from A (the 0.5 s keeps the
# drain out should the guest's clock lag the host's).  The window's
# steps also go to $1.series as "t_ns sink_packets" lines, as
# window_sleep's samples would (the soak's stationarity).
starved_series()
{
	local a_t a_n start stop span step line w0 w1

	a_t=$(raw_val "$1" A.t_ns)
	a_n=$(raw_val "$1" A.sink_packets)
	start=$(raw_val "$1" meta.host_start_ns)
	stop=$(raw_val "$1" meta.host_stop_ns)
	if [ -z "$a_t" ] || [ -z "$a_n" ] || [ -z "$start" ] || [ -z "$stop" ]; then
		die "$CUR: $1 lacks snapshot A or the flood's host times"
	fi
	w0=$((a_t + WARMUP * 1000000000))
	w1=$((a_t + stop - start - 500000000))
	span=$((stop - start + 2000000000))
	step=250000000
	[ "$SERIES" = 0 ] || [ $((w1 - w0)) -lt $((2 * SERIES * 1000000000)) ] ||
		step=$((SERIES * 1000000000))
	[ $((span / step)) -le 500 ] || step=$(((span / 500 / 10000000 + 1) * 10000000))
	line=$(guest_req sinkseries "$a_t" $((a_t + span)) "$step" "$a_n") ||
		guest_lost $? "the receiver's history (sinkseries)"
	line="$(printf '%s\n' "$line" | cut -d' ' -f2-) w0_ns=$w0 w1_ns=$w1"
	printf '%s\n' "$line" | sed 's/\([a-z_0-9]*\)=/S.\1=/g'
	printf '%s\n' "$line" | tr ' ' '\n' | awk -F= '{ v[$1] = $2 }
		END {
			n = split(v["c"], c, ",")
			for (k = 0; k < n; k++) {
				t = v["from_ns"] + k * v["step_ns"]
				if (t >= v["w0_ns"] && t <= v["w1_ns"])
					printf "%.0f %s\n", t, c[k + 1]
			}
		}' >"$1.series"
}

# A starved soak keeps its flood for the whole window (the receiver's
# history says the rest): sleep until the window would have ended.
flood_on_starved()
{
	local rest

	rest=$(( (FLOOD_START_NS - $(date +%s%N)) / 1000000000 + WARMUP + WINDOW ))
	[ "$rest" -gt 0 ] || return 0
	log "$CUR: flooding on to the window's end (${rest}s), then reading the receiver's history"
	sleep "$rest"
}

# The host's scheduling of the guest's QEMU threads and of the flooder
# (lab/tools/threadstat): the overload gates' explanation.
host_threads()
{
	local args=(-q "$QEMU_PID")

	[ -z "${FLOOD_PID:-}" ] || args+=(-t "flood=$FLOOD_PID")
	"$TOOLS/threadstat" "${args[@]}" ||
		die "$CUR: threadstat failed on QEMU pid $QEMU_PID: $(guest_fate)"
}

# Wait until the receiver has emptied its socket: sink count stable.
# iperf3's server stops reading when its test ends: wait for its report
# instead (the test count past snapshot A's, in the raw file $1).
drain()
{
	local last=-1 now from line

	if [ "$GENERATOR" = iperf3 ]; then
		from=$(raw_val "$1" A.iperf3_tests)
		for _ in $(seq 100); do
			line=$(guest_req snap drain) || guest_lost $? "snapshot drain"
			now=$(printf '%s\n' "$line" | sed -n 's/.* iperf3_tests=\([0-9]*\).*/\1/p')
			[ -n "$now" ] && [ -n "$from" ] && [ "$now" -gt "$from" ] && return 0
			sleep 0.2
		done
		die "$CUR: iperf3's server did not report the test within 20 s: $(guest_fate)"
	fi

	for _ in $(seq 25); do
		sleep 0.2
		line=$(guest_req snap drain) || guest_lost $? "snapshot drain"
		now=$(printf '%s\n' "$line" | sed 's/.* sink_packets=\([0-9]*\).*/\1/')
		[ "$now" = "$last" ] && return 0
		last=$now
	done
	log "$CUR: receiver still draining after 5 s"
}

# The flooder and the probe run in the background of a point.  Both exec
# down to the tool (ip netns exec and taskset exec too), so $! is the
# tool's own pid: the lab can signal it and learn how it ended.
flood_cmd()
{
	local rate=$1 secs=$2 bufs=()

	# iperf3's client sets the socket buffers of both ends
	[ "$RCVBUF" = 0 ] || bufs=(-w "$RCVBUF")
	[ "$GENERATOR" != iperf3 ] ||
		exec ip netns exec "$LAB_NS" taskset -c "$(helper_cpuset)" "$TOOLS/iperf3_flood" \
			-A "$LAB_ALLOWLIST" -d "$LAB_GUEST_IP" -p 9000 -s "$PAYLOAD" \
			-r "$rate" -t "$secs" "${bufs[@]}"
	# shellcheck disable=SC2046 # flood_prefix is a command line: its words
	exec ip netns exec "$LAB_NS" taskset -c "$(helper_cpuset)" $(flood_prefix) "$TOOLS/flood" \
		-A "$LAB_ALLOWLIST" -d "$LAB_GUEST_IP" -p 9000 -s "$PAYLOAD" \
		-r "$rate" -t "$secs" -u "$BURST_US" -B "$BATCH"
}

probe_cmd()
{
	exec ip netns exec "$LAB_NS" taskset -c "$(helper_cpuset)" "$TOOLS/latprobe" \
		-A "$LAB_ALLOWLIST" -d "$LAB_GUEST_IP" -p 9001 -r "$PROBE_RATE" \
		-t "$WINDOW" -T "$PROBE_TIMEOUT" -o "$1"
}

# How the host schedules the flooder and QEMU (--host-sched; recorded in
# params.json).  Both share the host CPU(s) helper_cpuset: the flooder and
# QEMU's main loop, which moves the packets from the tap into the guest.
flood_prefix()
{
	[ "$HOST_SCHED" != flood-idle ] || echo "chrt -i 0"
}

flood_sched()
{
	echo "$([ "$HOST_SCHED" = flood-idle ] && echo SCHED_IDLE || echo "SCHED_OTHER nice 0"), pinned to host CPU(s) $(helper_cpuset) with QEMU's emulator threads"
}

qemu_sched()
{
	echo "vCPU pinned to host CPU $(vcpu_cpuset), SCHED_OTHER; main loop and other threads on $(helper_cpuset), $([ "$HOST_SCHED" = qemu-fifo ] && echo "SCHED_FIFO 1" || echo SCHED_OTHER)"
}

# --host-sched qemu-fifo: QEMU's threads but the vCPUs (named "CPU n/...")
# to SCHED_FIFO 1
apply_qemu_sched()
{
	local t comm

	[ "$HOST_SCHED" = qemu-fifo ] || return 0
	for t in /proc/"$QEMU_PID"/task/*; do
		comm=$(cat "$t/comm" 2>/dev/null) || continue
		case $comm in
		"CPU "[0-9]*/*) continue ;;
		esac
		chrt -f -p 1 "${t##*/}" || die "$CUR: cannot make QEMU thread ${t##*/} ($comm) SCHED_FIFO"
	done
}


# flood_result <exit status> <output> <rate>: the generator's "flood: ..."
# line, or die.  iperf3 ends a point with exit 1 ("interrupt - the client
# has terminated"): lab/exp/rx/iperf3.jq accepts only that error.
flood_result()
{
	local rc=$1 out=$2 rate=$3

	if [ "$GENERATOR" = iperf3 ]; then
		[ "$rc" -le 1 ] && jq -r -s --argjson target "$rate" -f "$LAB_TOP/lab/exp/rx/iperf3.jq" "$out" && return 0
		tail -3 "$out" >&2
		die "$CUR: iperf3 client failed (exit $rc)"
	fi
	[ "$rc" = 0 ] || { tail -3 "$out" >&2; die "$CUR: flooder failed (exit $rc)"; }
	cat "$out"
}

# end_flood <raw file> <rate>: stop the point's flooder (a flooder that is
# gone before D did not flood the whole window), and its report as
# "flood.*" keys on stdout
end_flood()
{
	local rc=0

	kill -INT "$FLOOD_PID" 2>/dev/null ||
		{ tail -3 "$1.flood" >&2; die "$CUR: flooder failed: it exited before the window closed"; }
	wait "$FLOOD_PID" || rc=$?
	FLOOD_PID=
	flood_result "$rc" "$1.flood" "$2" >"$1.result"
	sed -n 's/^flood: /flood./p' "$1.result" | sed 's/ / flood./g'
}

# end_probe <raw file>: wait for the point's request/response probe; die
# if it failed
end_probe()
{
	local rc=0

	wait "$PROBE_PID" || rc=$?
	PROBE_PID=
	[ "$rc" = 0 ] || { tail -3 "$1.probe" >&2; die "$CUR: latency probe failed (exit $rc)"; }
}

# On the way out (error or signal): no flooder or probe outlives the lab.
FLOOD_PID=''
PROBE_PID=''
stop_point_tools()
{
	local p

	# a tool that has already exited, or its exit status, is no failure
	for p in $FLOOD_PID $PROBE_PID; do
		kill -TERM "$p" 2>/dev/null && { wait "$p" 2>/dev/null || :; }
	done
	FLOOD_PID='' PROBE_PID=''
	return 0
}

# The timer probe of the latency pass: the guest's cyclictest, started
# at the pass's opening and left running (lab/tools/cyclic.h).
timer_probe_start()
{
	cyclic_req start 'cyclic start pid=*'
	timer_probe_wait "$TLAT_WARM"
}

# cyclic_req <start|stop> <pattern of the reply>: the guest's "cyclic"
# request, dying unless its reply matches
cyclic_req()
{
	local reply rc=0

	reply=$(guest_req cyclic "$1") || rc=$?
	# chanctl exits 4 on an "err ..." reply, which it prints
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || guest_lost "$rc" "cyclic $1"
	# shellcheck disable=SC2254 # $2 is a pattern
	case $reply in
	$2) ;;
	*) die "$CUR: the guest could not $1 cyclictest: $reply" ;;
	esac
}

# Until the probe has logged $1 samples, or die after 10 s.  Started just
# before a flood, a livelocked guest gave cyclictest its first sample only
# after the window had begun (vanilla at 16 kpps, fixed speed: no sample by
# snapshot C, 1.2 s into the flood), and the window then held 0.8 s of its
# 3.5 s: the latency pass waits for TLAT_WARM in the quiet guest.
TLAT_WARM=100
timer_probe_wait()
{
	local line n=0 tries=0

	while [ "$n" -lt "$1" ]; do
		[ "$tries" -lt 100 ] ||
			die "$CUR: cyclictest logged $n of $1 samples in 10 s"
		sleep 0.1
		tries=$((tries + 1))
		line=$(guest_req snap tlat) || guest_lost $? "snapshot tlat"
		n=$(echo "$line" | sed -n 's/.* tlat_count=\([0-9]*\).*/\1/p')
		n=${n:-0}
	done
}

# The throughput points after the latency pass run without it.
timer_probe_stop()
{
	cyclic_req stop 'cyclic stop*'
}

# Its percentiles over the samples between the tlat_count of snapshots C
# and D (in the raw file $1), as tlat.* keys, once the sample after D (the
# window's tail, cyclic.h) is logged too.
timer_latency()
{
	local from to

	from=$(raw_val "$1" C.tlat_count)
	to=$(raw_val "$1" D.tlat_count)
	timer_probe_wait $((to + 1))
	guest_req tlat "$from" "$to" | cut -d' ' -f4- | sed 's/\([a-z_0-9]*\)=/tlat.\1=/g' ||
		log "$CUR: no timer-probe samples between $from and $to"
}

# The window: sleep, or with --series S also sample the receiver every S
# seconds ("t_ns sink_packets" lines into <file>: the soak's stationarity).
# False when the guest, still running, did not answer a sample within
# --starve s: starved in the window, past an answered C (vanilla at 6x
# the knee after a 1 s warm-up), as snap says of C and D.
window_sleep()
{
	local end now line rc

	if [ "$SERIES" = 0 ]; then
		sleep "$WINDOW"
		return 0
	fi
	end=$(($(date +%s) + WINDOW))
	while now=$(date +%s); [ "$now" -lt "$end" ]; do
		sleep "$(( end - now < SERIES ? end - now : SERIES ))"
		rc=0
		line=$(SNAP_TIMEOUT_MS=$((STARVE_S * 1000)) guest_req snap series) || rc=$?
		if [ "$rc" != 0 ]; then
			[ "$rc" != 5 ] || ! guest_running || return 1
			SNAP_TIMEOUT_MS=$((STARVE_S * 1000)) guest_lost "$rc" "snapshot series"
		fi
		printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^\(t_ns\|sink_packets\)=//p' | paste -sd' ' >>"$1"
	done
}

# Let a freshly booted guest settle: wait until it has been at least
# settle.idle_pct (lab/lib/rules.tsv) idle over one second (boot work, first page faults and the like done), for
# at most SETTLE_MAX seconds.  Sets SETTLE_S and SETTLE_IDLE (the idle
# share of that last second, %).
settle_guest()
{
	local start a b want

	want=$(rule settle.idle_pct)
	start=$(date +%s.%N)
	a=$(guest_req snap settle) || guest_lost $? "snapshot settle"
	while :; do
		sleep 1
		b=$(guest_req snap settle) || guest_lost $? "snapshot settle"
		SETTLE_IDLE=$(printf '%s\n%s\n' "$a" "$b" | awk -f "$LAB_TOP/lab/lib/idle.awk")
		SETTLE_S=$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }')
		awk -v i="$SETTLE_IDLE" -v w="$want" 'BEGIN { exit !(i >= w) }' && return 0
		if awk -v t="$SETTLE_S" -v m="$SETTLE_MAX" 'BEGIN { exit !(t >= m) }'; then
			log "$CUR: guest still only $SETTLE_IDLE % idle after ${SETTLE_S}s: measuring anyway (recorded as settle_idle)"
			return 0
		fi
		a=$b
	done
}
