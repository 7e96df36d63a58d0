# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2153 # globals shared with the driver (lab/lib/driver.sh) and params.sh
# The softirq experiment (lab/softirq): the other side of the 2016 debate.
# What deferring softirqs to ksoftirqd costs the other softirq users
# (Paolo Abeni, 2016) and a busy CPU's network latency (the v6.5 revert,
# d15121be7485).  Hooks of lab/lib/driver.sh; sourced after
# lab/exp/softirq/params.sh.  See lab/exp/softirq/meta.
#
# The guest (lab_exp=softirq, lab/guest/init) starts sirqprobe at boot,
# its probes waiting for the settle's end ("sirq start";
# lab/tools/sirqstat.h: a timer-wheel timeout, its hrtimer control, an
# RCU grace period, a virtio-blk read, each call's duration stamped in
# guest time); the
# sampler starts the busy loops (spin) and the traced windows, whose text
# goes to the trace port (lab/tools/tracectl.h, $GDIR/trace.txt).  Per
# boot, after the settle, the phases in the repetition's order:
#   flood <rate>  the flood at each rate of --flood-grid (0: none)
#   busy <n>      n busy loops, the traffic rate, the request/response
#                 probe (lab/tools/latprobe) in the window
# each untraced (--window), then, where --traced says (by default the
# flooded phases), traced (--trace-window; tracing on before A, off after
# the drain: a starved guest cannot be asked).
# Per phase:
#   [trace on] [spin n] -> snapshot A -> load starts -> warm-up ->
#   snapshot C -> [probe] window -> snapshot D -> load ends -> [spin 0]
#   [trace off] -> drain -> sirq (the probes' samples of the window)
#   [trace dump] -> snapshot B
# The window in guest time is C..D; a starved phase (C or D unanswered
# within --starve s) takes A + warm-up .. A + the load's host span - 0.5 s,
# as the RX experiment's receiver history does.

# shellcheck source=lab/exp/rx/flood.sh
. "$LAB_TOP/lab/exp/rx/flood.sh"

EXP=softirq
EXP_RUN_PREFIX=softirq-
EXP_TRACE_PORT=1
# the block probe's disk and the topology that makes blk-mq complete in
# BLOCK_SOFTIRQ: two possible CPUs, one online, one hardware queue
EXP_BLOCK_DISK=1

# phases_in_order <rep>: "kind:level" words, flooded phases ascending
# then busy ones ascending in the first n repetitions of every 2n (n
# variants), the whole list reversed in the next n (each direction a
# complete Latin square of the Williams design, as lab/run's rates)
phases_in_order()
{
	local n list x

	# shellcheck disable=SC2086
	n=$(echo $VARIANTS | wc -w)
	list=$(for x in $FLOOD_RATES; do echo "flood:$x"; done
		for x in $BUSY; do echo "busy:$x"; done)
	if [ $((($1 - 1) / n % 2)) = 0 ]; then
		printf '%s\n' "$list"
	else
		printf '%s\n' "$list" | tac
	fi
}

# guest_ok <reply pattern> <request word>...: the sampler's reply, or die
guest_ok()
{
	local pat=$1 reply rc=0

	shift
	reply=$(guest_req "$@") || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || guest_lost "$rc" "$*"
	# shellcheck disable=SC2254 # $pat is a pattern
	case $reply in
	$pat) printf '%s\n' "$reply" ;;
	*) die "$CUR: the guest could not do '$*': $reply" ;;
	esac
}

# trace_extract <tag> <file>: the dump <tag> from the trace port's file
# once its end line is there (at most 60 s); its end line's keys as
# "trace.*" on stdout
trace_extract()
{
	local port=$GDIR/trace.txt end

	for _ in $(seq 600); do
		end=$(grep -a "^# lab-trace end tag=$1 " "$port" 2>/dev/null | tail -1) && [ -n "$end" ] && break
		sleep 0.1
	done
	[ -n "$end" ] || die "$CUR: the trace dump '$1' did not reach $port within 60 s"
	# binary frames (lab/tools/tracectl.h): cut by their lengths, not lines
	/usr/bin/python3 "$LAB_TOP/lab/lib/py/ftraceraw.py" extract "$port" "$1" "$2" ||
		die "$CUR: cannot extract the trace dump '$1' into $2"
	printf '%s\n' "${end#"# lab-trace end tag=$1 "}" | sed 's/\([a-z_0-9]*\)=/trace.\1=/g'
}

# window_ns <raw>: the window in guest time, "from to"
window_ns()
{
	local c d a start stop

	c=$(raw_val "$1" C.t_ns)
	d=$(raw_val "$1" D.t_ns)
	if [ -n "$c" ] && [ -n "$d" ]; then
		echo "$c $d"
		return 0
	fi
	a=$(raw_val "$1" A.t_ns)
	start=$(raw_val "$1" meta.host_start_ns)
	stop=$(raw_val "$1" meta.host_stop_ns)
	echo "$((a + WARMUP * 1000000000)) $((a + stop - start - 500000000))"
}

# measure_phase <kind> <level> <plain|traced>
# shellcheck disable=SC2094 # window_ns reads what the group wrote before it
measure_phase()
{
	local kind=$1 level=$2 pass=$3 rate=0 busy=0 win starved='' w sirq tr
	local raw=$RUN/raw/$VARIANT-r$REP-$1$2-$3.txt

	if [ "$kind" = flood ]; then
		rate=$level
	else
		busy=$level rate=$TRAFFIC
	fi
	w=$([ "$pass" = traced ] && echo "$TRACE_WINDOW" || echo "$WINDOW")
	defer_scope_push
	defer stop_point_tools
	{
		echo "meta.run=$RUN_ID meta.variant=$VARIANT meta.rep=$REP meta.phase=$kind meta.level=$level" \
			"meta.rate=$rate meta.busy=$busy meta.pass=$pass meta.window_s=$w meta.slot=$SLOT meta.pos=$POS" \
			"meta.settle_s=$SETTLE_S meta.settle_idle=$SETTLE_IDLE meta.speed=$SPEED meta.starve_s=$STARVE_S"
		[ "$pass" != traced ] || guest_ok "trace on*" trace on >/dev/null
		[ "$busy" = 0 ] || guest_ok "spin n=$busy *" spin "$busy" >/dev/null
		snap A
		FLOOD_START_NS=$(date +%s%N)
		echo "meta.host_start_ns=$FLOOD_START_NS"
		if [ "$rate" != 0 ]; then
			without_locks flood_cmd "$rate" $((WARMUP + w + 60)) >"$raw.flood" 2>&1 &
			FLOOD_PID=$!
		fi
		sleep "$WARMUP"
		snap C "$STARVE_S" || starved=C
		if [ "$kind" = busy ] && [ -z "$starved" ]; then
			WINDOW=$w without_locks probe_cmd "${raw%.txt}.rtt" >"$raw.probe" 2>&1 &
			PROBE_PID=$!
		fi
		[ -n "$starved" ] || sleep "$w"
		[ -n "$starved" ] || snap D "$STARVE_S" || starved=D
		if [ -n "$starved" ]; then
			log "$CUR: starved: no answer to snapshot $starved within ${STARVE_S}s under the flood"
			echo "meta.starved=$starved"
		fi
		echo "meta.host_stop_ns=$(date +%s%N)"
		[ -z "$FLOOD_PID" ] || end_flood "$raw" "$rate"
		[ -z "$starved" ] || wait_guest_recovers
		if [ -n "$PROBE_PID" ]; then
			end_probe "$raw"
			sed -n 's/^latprobe: \(sent=\)/probe.\1/p' "$raw.probe" | sed 's/ / probe./g'
		fi
		[ "$busy" = 0 ] || guest_ok "spin n=0" spin 0 >/dev/null
		[ "$pass" != traced ] || guest_ok "trace off" trace off >/dev/null
		drain "$raw"
	} >"$raw" || die "$CUR: cannot write $raw (disk full?)"
	# one request per command, no die in a pipeline (it would end only
	# the pipeline's subshell)
	win=$(window_ns "$raw")
	sirq=$(guest_ok "sirq *" sirq "${win% *}" "${win#* }")
	# the dump copies the ring buffer's pages (~2 MB for a flooded
	# phase's 12 s, ~1 s); a busy phase's 12 s fill the 8 MB buffer with
	# every busy loop's switches: more than the snapshots' 20 s allowed
	# while the guest formatted them as text
	# its tag names the phase, unique in the boot's trace port: the
	# guest takes [A-Za-z0-9_.:-] only, and a variant's name may have a
	# "+" (ksoftirqd-fix+bounded)
	[ "$pass" != traced ] ||
		SNAP_TIMEOUT_MS=180000 guest_ok "trace dump *" trace dump "r$REP-$kind$level" >/dev/null
	{
		echo "meta.win_from_ns=${win% *} meta.win_to_ns=${win#* }"
		printf '%s\n' "$sirq" | cut -d' ' -f4- | sed 's/\([a-z_0-9]*\)=/sirq.\1=/g'
	} >>"$raw" || die "$CUR: cannot write $raw (disk full?)"
	if [ "$pass" = traced ]; then
		tr=$(trace_extract "r$REP-$kind$level" "${raw%.txt}.trace")
		printf '%s\n' "$tr" >>"$raw" || die "$CUR: cannot write $raw (disk full?)"
	fi
	snap B >>"$raw" || die "$CUR: cannot write $raw (disk full?)"
	rm -f "$raw.flood" "$raw.result" "$raw.probe"
	row=$(awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/softirq/point.awk" "$raw") ||
		die "$CUR: could not compute the point from $raw"
	append_row "$row"
	defer_scope_pop
}

# --dry-run's estimate (s) for <boots>: per boot ~10 s of boot and settle,
# an untraced phase its warm-up, window and ~2 s of snapshots, probes
# and drain, a traced one its warm-up, window and ~3 s (the dump of the
# ring buffer's pages and their cut): one default boot of ksoftirqd-fix
# took 69 s where this says 72 (it said 89 while the guest formatted the
# trace as text: ~90 s a boot then, softirq-20261207-172004)
exp_dry_secs()
{
	local plain traced ph

	plain=$(points_per_boot)
	traced=$(for ph in $(phases_in_order 1); do phase_passes "${ph%%:*}" "${ph#*:}"; done | grep -c traced || true)
	plain=$((plain - traced))
	echo $(($1 * (10 + plain * (WARMUP + WINDOW + 2) + traced * (WARMUP + TRACE_WINDOW + 3))))
}

exp_prereqs()
{
	local t

	for t in flood latprobe threadstat; do
		[ -x "$TOOLS/$t" ] || die "$TOOLS/$t missing: run 'make tools'"
	done
	initramfs_has bin/sirqprobe sirqprobe
	initramfs_has bin/spin spin
}

exp_params()
{
	jq -n --arg fgrid "$FLOOD_GRID" --arg frates "$FLOOD_RATES" --arg busy "$BUSY" \
		--argjson knee "$KNEE" --arg tgrid "$TRAFFIC_GRID" --argjson traffic "$TRAFFIC" \
		--argjson tw "$TRACE_WINDOW" --arg traced "$TRACED" --argjson prate "$PROBE_RATE" --argjson ptimeout "$PROBE_TIMEOUT" \
		--argjson sto "$SIRQ_TIMEOUT_US" --argjson settle "$SETTLE_MAX" --argjson starve "$STARVE_S" \
		--arg vpin "$(vcpu_cpuset)" --arg hpin "$(helper_cpuset)" --argjson burst "$BURST_US" \
		--argjson batch "$BATCH" --arg sidle "$(rule settle.idle_pct)" '
		{knee_pps: $knee, flood_grid: $fgrid, flood_rates: $frates, busy: $busy,
		 traffic_grid: ($tgrid | tonumber), traffic_pps: $traffic, trace_window_s: $tw, traced: $traced,
		 phase_order: "flooded phases ascending then busy ones ascending in the first n repetitions of every 2n (n variants), reversed in the next n; each phase untraced, then traced",
		 probe_rate: $prate, probe_timeout_ms: $ptimeout, sirq_timeout_us: $sto,
		 sirq_probes: "timer: recv() with SO_RCVTIMEO (timer wheel, TIMER_SOFTIRQ); poll: poll() with the same timeout (hrtimer, hardirq); rcu: close() of an AF_PACKET socket (synchronize_net); block: a 4 KiB O_DIRECT read of virtio-blk vda once per timeout period (blk-mq completion in BLOCK_SOFTIRQ: 2 possible CPUs, 1 online, 1 hardware queue); from the end of the settle (sirq start)",
		 trace_events: "irq/softirq_raise,softirq_entry,softirq_exit irq/irq_handler_entry,exit irq_vectors/local_timer_entry,exit sched/sched_wakeup,sched_switch napi/napi_poll; trace_clock mono; no function tracer",
		 settle_max_s: $settle, settle_idle_pct: ($sidle | tonumber), starve_s: $starve,
		 vcpu_pin: $vpin, helper_pin: $hpin, flood_burst_us: $burst, flood_batch: $batch,
		 generator: "flood", host_sched: "default"}'
}

exp_describe()
{
	echo "flood-rates='$FLOOD_RATES' busy='$BUSY' traffic=$TRAFFIC knee=$KNEE"
}

exp_npoints()
{
	# shellcheck disable=SC2086
	echo $((REPS * $(echo $VARIANTS | wc -w) * $(points_per_boot)))
}

exp_boot_args()
{
	echo "lab_exp=softirq lab_sirq_timeout_us=$SIRQ_TIMEOUT_US"
}

# phase_passes <kind> <level>: "plain", and "traced" where --traced says
phase_passes()
{
	echo plain
	case $TRACED in
	all) echo traced ;;
	flood) [ "$1" != flood ] || [ "$2" = 0 ] || echo traced ;;
	esac
}

# the points of one repetition's boot (for the ETA)
points_per_boot()
{
	local ph

	for ph in $(phases_in_order 1); do
		phase_passes "${ph%%:*}" "${ph#*:}"
	done | wc -l
}

# The guest's own account of the block probe's topology (lab/guest/init):
# its disk, two possible CPUs with one online, one hardware queue; any
# other and BLOCK_SOFTIRQ is not what the probe measures
check_block_topology()
{
	local line want="block=/dev/vda cpus_possible=0-1 cpus_online=0 block_queues=1"

	line=$(tr -d '\r' <"$GDIR/console.log" | sed -n 's/.*lab: softirq .* \(block=.*\)/\1/p' | tail -1)
	[ "$line" = "$want" ] ||
		die "$CUR: the guest's block probe topology is '${line:-not reported}', not '$want' (lab/guest/init, EXP_BLOCK_DISK)"
}

exp_guest()
{
	local ph pass

	check_block_topology
	settle_guest
	# the probes of the other softirq users, from now to the guest's end
	# (they take ~10 % of its CPU: a settle with them would wait for an
	# idle the guest cannot reach)
	guest_ok "sirq started*" sirq start >/dev/null
	POS=0
	for ph in $(phases_in_order "$REP"); do
		for pass in $(phase_passes "${ph%%:*}" "${ph#*:}"); do
			POS=$((POS + 1))
			CUR="$VARIANT rep $REP ${ph%%:*} ${ph#*:} $pass"
			measure_phase "${ph%%:*}" "${ph#*:}" "$pass"
			point_done
		done
	done
}

exp_progress()
{
	last_row_printf "delivered %s of %s pps, timer p99 %s µs, rcu p99 %s µs, probe p99 %s µs, busy loops %s it/s%s" \
		delivered_pps offered_pps timer_p99_us rcu_p99_us probe_ap99_us spin_iters_ps \
		"$([ "$(last_row_col starved)" = 1 ] && echo ", starved")"
}

exp_summarize()
{
	"$LAB_TOP/lab/analyze" "$RUN" || die "could not analyze $RUN"
	cat "$RUN/summary.csv"
}

# The benefit-against-cost picture (plots/softirq.gp) from the analysis's
# tradeoff.dat
exp_plot()
{
	local fmt

	[ "$PLOT" = 0 ] && return 0
	for fmt in png svg; do
		gnuplot -e "datafile='$RUN/tradeoff.dat'; variants='$VARIANTS'; title='$RUN_ID: benefit against cost'; fmt='$fmt'; out='$RUN/tradeoff.$fmt'; plotdir='$LAB_TOP/plots'" \
			"$LAB_TOP/plots/softirq.gp" 2>>"$RUN/gnuplot.log" ||
			die "gnuplot failed on plots/softirq.gp ($fmt): $(tail -1 "$RUN/gnuplot.log")"
	done
}
