# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# The RX experiment (lab/run): each variant boots as a 1-vCPU guest and is
# flooded with UDP from the lab netns; see lab/exp/rx/meta.  Hooks of
# lab/lib/driver.sh; sourced after lab/exp/rx/params.sh.
#
# A booted guest is first left to settle (idle), then measured in two
# passes:
#   throughput  every rate, ascending in the first n repetitions of every
#               2n (n variants) and descending in the next n, with no
#               latency probe running (the guest's
#               timer probe stopped, no request/response probe):
#               nothing but the flood and the receiver in the window
#   latency     the --lat-rates, with both latency probes running (the
#               timer probe, cyclictest, from the pass's opening to its
#               end), inserted before the throughput point lat_position
#               draws for the repetition (the same in each of its boots),
#               so that no place in a boot (first, after the heaviest
#               flood, last) is the latency pass's own
# Per point:
#   snapshot A (idle) -> flood starts -> warm-up -> snapshot C -> window ->
#   snapshot D -> flood ends -> drain -> snapshot B (idle)
# A guest that cannot answer C or D (or, with --series, a sample of the
# window) within --starve seconds under the flood is starved (snap and
# window_sleep in flood.sh): the flood ends there and, once the guest
# answers again, the point keeps what A..B and the receiver's history
# can say (point.awk).
# Rates, CPU shares and the gates come from C..D (the host's QEMU and
# flooder threads too), exact packet totals from A..B.  Results are
# appended as they are measured: an interrupted run keeps every completed
# point.

# shellcheck source=lab/exp/rx/flood.sh
. "$LAB_TOP/lab/exp/rx/flood.sh"

EXP=rx
EXP_RUN_PREFIX=

# rates_in_order <rep>: the rates ascending in the first n repetitions of
# every 2n (n variants: balance_len of lab/lib/lib.sh) and descending in
# the next n, so that each direction is a complete Latin square of the
# Williams design; unlimited (0) counts as the highest load
rates_in_order()
{
	local dir="" n

	# shellcheck disable=SC2086
	n=$(echo $VARIANTS | wc -w)
	[ $((($1 - 1) / n % 2)) = 0 ] || dir=-r
	# shellcheck disable=SC2086
	printf '%s\n' $RATES | awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/exp/rx/rank.awk" |
		sort -g $dir | cut -d' ' -f2
}

# lat_position <n>: where the latency pass goes in the boots of this
# repetition, 0..n (before throughput point k + 1; n: after the last),
# drawn from the run's LAT_SEED (params.json lat_seed) with the
# repetition, the same for every variant of it: paired latency points sit
# at the same place in their boots.  A run is replayed with the same
# places.
lat_position()
{
	local h

	h=$(printf '%s %s' "$LAT_SEED" "$REP" | cksum | cut -d' ' -f1)
	echo $((h % ($1 + 1)))
}

# measure_point <pass> <rate>: one point of the throughput (tput) or the
# latency (lat) pass
# shellcheck disable=SC2094 # drain reads what the group wrote before it
measure_point()
{
	local pass=$1 rate=$2 raw=$RUN/raw/$VARIANT-r$REP-$1-$2.txt row starved=

	defer_scope_push
	defer stop_point_tools
	{
		lab_fault A
		echo "meta.run=$RUN_ID meta.variant=$VARIANT meta.rep=$REP meta.rate=$rate" \
			"meta.generator=$GENERATOR meta.pass=$pass meta.slot=$SLOT meta.pos=$POS" \
			"meta.settle_s=$SETTLE_S meta.settle_idle=$SETTLE_IDLE meta.speed=$SPEED meta.starve_s=$STARVE_S"
		snap A
		FLOOD_START_NS=$(date +%s%N)
		echo "meta.host_start_ns=$FLOOD_START_NS"
		# runs past D and is stopped there, so the window is all flood
		without_locks flood_cmd "$rate" $((WARMUP + WINDOW + 60)) >"$raw.flood" 2>&1 &
		FLOOD_PID=$!
		sleep "$WARMUP"
		lab_fault flood
		snap C "$STARVE_S" || starved=C
		if [ "$pass" = lat ] && [ -z "$starved" ]; then
			without_locks probe_cmd "${raw%.txt}.rtt" >"$raw.probe" 2>&1 &
			PROBE_PID=$!
		fi
		if [ -z "$starved" ]; then
			window_sleep "$raw.series" || starved=series
		fi
		if [ -z "$starved" ]; then
			snap D "$STARVE_S" || starved=D
		fi
		if [ -n "$starved" ]; then
			log "$CUR: starved: no answer to snapshot $starved within ${STARVE_S}s under the flood"
			echo "meta.starved=$starved"
			[ "$EXP" != soak ] || flood_on_starved
		fi
		echo "meta.host_stop_ns=$(date +%s%N)"
		end_flood "$raw" "$rate"
		[ -z "$starved" ] || wait_guest_recovers
		if [ -n "$PROBE_PID" ]; then
			end_probe "$raw"
			# a starved window has no latency figures (lab/exp/rx/point.awk)
			[ -n "$starved" ] || sed -n 's/^latprobe: \(sent=\)/probe.\1/p' "$raw.probe" | sed 's/ / probe./g'
			[ -n "$starved" ] || timer_latency "$raw"
		fi
		lab_fault drain
		drain "$raw"
		[ -z "$starved" ] || starved_series "$raw"
		snap B
	} >"$raw" || die "$CUR: cannot write $raw (disk full?)"
	[ "$GENERATOR" != iperf3 ] || mv "$raw.flood" "${raw%.txt}.iperf3.json"
	rm -f "$raw.flood" "$raw.result" "$raw.probe"
	[ ! -s "$raw.series" ] || mv "$raw.series" "${raw%.txt}.series"
	row=$(awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" "$raw") ||
		die "$CUR: could not compute the point from $raw"
	append_row "$row"
	defer_scope_pop
}

exp_prereqs()
{
	local t

	for t in flood latprobe iperf3_flood threadstat; do
		[ -x "$TOOLS/$t" ] || die "$TOOLS/$t missing: run 'make tools'"
	done
	initramfs_has bin/sampler "the sampler"
	[ -z "$LAT_RATES" ] || initramfs_has bin/cyclictest "cyclictest (rt-tests)"
	[ "$GENERATOR" != iperf3 ] && return 0
	need_cmd iperf3
	initramfs_has bin/iperf3-recv iperf3
}

exp_params()
{
	rx_params
}

rx_params()
{
	local probe

	probe="cyclictest $(dpkg-query -W -f '${Version}' rt-tests 2>/dev/null || echo '?') --policy=other --interval=1000 --verbose --nsecs"
	jq -n --arg probe "$probe" --arg rates "$RATES" --arg lat "$LAT_RATES" --argjson settle "$SETTLE_MAX" \
		--arg knee "$KNEE" --arg grid "$GRID" --arg lgrid "$LAT_GRID" --argjson starve "$STARVE_S" \
		--argjson burst "$BURST_US" --argjson batch "$BATCH" --arg hs "$HOST_SCHED" \
		--arg fs "$(flood_sched)" --arg qs "$(qemu_sched)" --arg vpin "$(vcpu_cpuset)" \
		--arg hpin "$(helper_cpuset)" --argjson rcvbuf "$RCVBUF" --arg mode "$MODE" \
		--argjson work "$WORK" --arg gen "$GENERATOR" \
		--arg iperf3 "$([ "$GENERATOR" != iperf3 ] || iperf3 --version | head -1)" \
		--argjson prate "$PROBE_RATE" --argjson ptimeout "$PROBE_TIMEOUT" --argjson series "$SERIES" \
		--argjson lseed "$LAT_SEED" --arg sidle "$(rule settle.idle_pct)" '
		{rates: $rates, lat_rates: $lat,
		 knee_pps: (if $knee == "" then null else ($knee | tonumber) end),
		 grid: $grid, lat_grid: $lgrid, starve_s: $starve,
		 rate_order: "ascending in the first n repetitions of every 2n (n variants), descending in the next n",
		 lat_position: "drawn per repetition, the same for its variants (lat_position of lab/exp/rx/hooks.sh)", lat_seed: $lseed,
		 settle_max_s: $settle, settle_idle_pct: ($sidle | tonumber),
		 vcpu_pin: $vpin, helper_pin: $hpin,
		 flood_burst_us: $burst, flood_batch: $batch, host_sched: $hs,
		 flood_sched: $fs, qemu_sched: $qs, rcvbuf: $rcvbuf, mode: $mode, work: $work,
		 generator: $gen, probe_rate: $prate, probe_timeout_ms: $ptimeout,
		 timer_period_us: 1000, timer_probe: $probe, series_s: $series}
		+ (if $gen == "iperf3" then {iperf3: $iperf3} else {} end)'
}

exp_describe()
{
	echo "rates='$RATES' lat-rates='$LAT_RATES'${KNEE:+ knee=$KNEE} host-sched=$HOST_SCHED"
}

exp_npoints()
{
	# shellcheck disable=SC2086
	echo $((REPS * $(echo $VARIANTS | wc -w) * ($(echo $RATES | wc -w) + $(echo $LAT_RATES | wc -w))))
}

exp_boot_args()
{
	echo "lab_rcvbuf=$RCVBUF lab_mode=$([ "$GENERATOR" = iperf3 ] && echo iperf3 || echo "$MODE") lab_work=$WORK"
}

# one point of the boot (POS: its place in the boot, from 1)
boot_point()
{
	POS=$((POS + 1))
	CUR="$VARIANT rep $REP $1 rate $2"
	measure_point "$1" "$2"
	point_done
}

latency_pass()
{
	local rate

	[ -n "$LAT_RATES" ] || return 0
	timer_probe_start
	for rate in $LAT_RATES; do
		boot_point lat "$rate"
	done
	timer_probe_stop
}

exp_guest()
{
	local rate order k=0 at

	apply_qemu_sched
	settle_guest
	POS=0
	order=$(rates_in_order "$REP")
	# shellcheck disable=SC2086 # the rates: words
	at=$(lat_position "$(echo $order | wc -w)")
	for rate in $order; do
		[ "$k" != "$at" ] || latency_pass
		boot_point tput "$rate"
		k=$((k + 1))
	done
	[ "$k" != "$at" ] || latency_pass
}

# one line per point; the receiver's CPU share only where the books close
# (books.closure_pct of lab/lib/rules.tsv), else the residual
exp_progress()
{
	local recv="receiver %s%% CPU" col=recv_cpu

	if [ "$(last_row_col starved)" = 1 ]; then
		last_row_printf "offered %s pps, delivered %s pps: starved (the sampler did not answer for ${STARVE_S}s)" \
			offered_pps delivered_pps
		return 0
	fi
	if [ "$(last_row_col closure_ok)" != 1 ]; then
		recv="receiver CPU not reported (books %s%%)"
		col=closure_pct
	fi
	last_row_printf "offered %s pps, delivered %s pps, $recv, guest idle %s%%, QEMU main loop waited %s%%" \
		offered_pps delivered_pps "$col" idle_cpu qemu_main_wait_pct
}

# The analysis (lab/analyze) writes summary.csv, verdicts.json and
# report.md; with plots on, plots/plot runs it and draws, once.
exp_summarize()
{
	if [ "$PLOT" = 0 ]; then
		summarize rx "$RUN"
		return
	fi
	"$LAB_TOP/plots/plot" "$RUN" || die "could not analyze and plot $RUN"
	cat "$RUN/summary.csv"
}
