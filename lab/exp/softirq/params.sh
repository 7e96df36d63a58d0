# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# Options of lab/softirq (the softirq experiment, lab/exp/softirq): one
# parser, one usage(), every value checked before anything is created.
# Sourced after lab/lib/lib.sh.  Environment variables of the same name
# (upper case) give the defaults, so "make softirq REPS=..." works too.

VARIANTS=${VARIANTS:-"vanilla ksoftirqd-fix threaded-napi"}
# UPSTREAM=1: the 6.1 pair of the revert beside them
UPSTREAM=${UPSTREAM:-0}
UPSTREAM_VARIANTS="v6.1-revert v6.1"
# repetitions: default_reps (lab/lib/opts.sh), 6 for 3 variants
REPS=${REPS:-}
MIN_REPS=5
WARMUP=${WARMUP:-1}
# the untraced window of a phase, and its traced one: the first-raise to
# entry p99 of TIMER needs softirq.min_samples (1,000) entries, and under
# the flood the guest enters TIMER ~100 times a second with the fix, ~85
# (vanilla at 2 x the knee) to ~135 (threaded NAPI): 9 s windows held
# 704-949 (run softirq-20261207-105221), so 12 s; vanilla starved at 6 x
# the knee enters it ~20 times a second (its tasks arm no timers), which
# no window of this length makes 1,000.  The request/response probe's p99
# needs as many answers in the untraced window (600/s x 2 s).
WINDOW=${WINDOW:-2}
TRACE_WINDOW=${TRACE_WINDOW:-12}
# which phases also get a traced window: flood (the flooded ones, rate >
# 0: the claims'), all, none
TRACED=${TRACED:-flood}
PAYLOAD=${PAYLOAD:-18}
SPEED=${SPEED:-icount:4}
KNEE=${KNEE:-}
# the flooded phases, multiples of the knee (0: no flood)
FLOOD_GRID=${FLOOD_GRID:-"0 2 6"}
# the busy phases: nice-0 busy loops, with traffic at TRAFFIC_GRID x the
# knee and the request/response probe
BUSY=${BUSY:-"1 2 4"}
TRAFFIC_GRID=${TRAFFIC_GRID:-0.375}
PROBE_RATE=${PROBE_RATE:-600}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-1000}
# sirqprobe's timer and poll timeout (µs)
SIRQ_TIMEOUT_US=${SIRQ_TIMEOUT_US:-10000}
SETTLE_MAX=${SETTLE_MAX:-30}
STARVE_S=${STARVE_S:-8}
# lab/exp/rx/flood.sh's generator settings, as lab/run's defaults
GENERATOR=flood
BURST_US=100
BATCH=32
RCVBUF=0
SERIES=0
HOST_SCHED=default
# shellcheck source=lab/lib/opts.sh
. "$LAB_TOP/lab/lib/opts.sh"

usage()
{
	cat <<USAGE
Usage: lab/softirq [options]
The softirq experiment: what deferring to ksoftirqd costs the other
softirq users, and a busy CPU.  Each variant boots as a guest with one
vCPU online of two possible and a virtio-blk disk, whose probes of the
other softirq users run from the settle's end (a timer-wheel timeout,
its hrtimer control, an RCU grace period, a 4 KiB O_DIRECT disk read:
sirqprobe); per boot:
  flooded phases  the flood at each --flood-grid multiple of the knee
  busy phases     --busy nice-0 busy loops with traffic at --traffic x
                  the knee and the request/response probe
each measured untraced (--window) and then, for the phases --traced
names, traced (--trace-window: softirq, scheduler, irq and NAPI events).  Writes
results/softirq-<timestamp>/ (points.csv, raw samples and traces,
params.json, report.md, verdicts.json).

  -v, --variants "A B"  variants, interleaved per repetition   [$VARIANTS]
      --upstream        add the 6.1 pair (v6.1-revert v6.1)
  -n, --reps N          repetitions (one boot per variant each; variant
                        order from a Williams design)  [whole designs,
                        >= $MIN_REPS, if that costs one more: 6 for 3 variants]
  -W, --warmup S        seconds of load before a window            [$WARMUP]
  -w, --window S        untraced window of a phase (s)             [$WINDOW]
      --trace-window S  traced window of a phase (s)         [$TRACE_WINDOW]
      --traced WHICH    phases with a traced window too: flood (the
                        flooded ones), all, none                 [$TRACED]
  -s, --payload B       UDP payload bytes                         [$PAYLOAD]
      --knee K          the knee (pps) the grids multiply
                        [$KNEE_ICOUNT4 at icount:4, x2 per step faster]
      --flood-grid "X"  flooded phases, multiples of the knee [$FLOOD_GRID]
      --busy "N..."     busy phases: busy loops, 0..16 each        [$BUSY]
      --traffic X       the busy phases' traffic, x the knee [$TRAFFIC_GRID]
      --probe-rate N    request/response probes per second    [$PROBE_RATE]
      --probe-timeout M ms before a probe counts as lost   [$PROBE_TIMEOUT]
      --sirq-timeout U  the timer probes' timeout and the block probe's
                        period (µs)                   [$SIRQ_TIMEOUT_US]
      --settle-max S    seconds to wait for a booted guest to go idle [$SETTLE_MAX]
      --starve S        seconds a snapshot under the flood may take [$STARVE_S]
USAGE
	common_usage softirq-
}

driver_opt()
{
	OPT_ARGS=2
	case $1 in
	--upstream) UPSTREAM=1; OPT_ARGS=1 ;;
	--trace-window) arg "$@"; TRACE_WINDOW=$OPTVAL ;;
	--traced) arg "$@"; TRACED=$OPTVAL ;;
	--knee) arg "$@"; KNEE=$OPTVAL ;;
	--flood-grid) arg "$@"; FLOOD_GRID=$OPTVAL ;;
	--busy) arg "$@"; BUSY=$OPTVAL ;;
	--traffic) arg "$@"; TRAFFIC_GRID=$OPTVAL ;;
	--probe-rate) arg "$@"; PROBE_RATE=$OPTVAL ;;
	--probe-timeout) arg "$@"; PROBE_TIMEOUT=$OPTVAL ;;
	--sirq-timeout) arg "$@"; SIRQ_TIMEOUT_US=$OPTVAL ;;
	--settle-max) arg "$@"; SETTLE_MAX=$OPTVAL ;;
	--starve) arg "$@"; STARVE_S=$OPTVAL ;;
	*) return 1 ;;
	esac
}

check_opts()
{
	local x v

	case $UPSTREAM in
	0) ;;
	1) for v in $UPSTREAM_VARIANTS; do
		case " $VARIANTS " in
		*" $v "*) ;;
		*) VARIANTS="$VARIANTS $v" ;;
		esac
	   done ;;
	*) bad "UPSTREAM='$UPSTREAM' must be 0 or 1" ;;
	esac
	check_common_opts
	[ "$SPEED" != native ] ||
		bad "the softirq experiment needs a fixed-speed guest (--speed icount:N): its rates are multiples of the knee"
	[ -n "$KNEE" ] || KNEE=$(speed_knee "$SPEED")
	in_range "$KNEE" 1 10000000 || bad "knee '$KNEE' must be 1..10000000 pps"
	in_range "$TRACE_WINDOW" 1 60 || bad "trace window '$TRACE_WINDOW' must be 1..60 seconds"
	case $TRACED in
	flood|all|none) ;;
	*) bad "traced '$TRACED' must be flood, all or none" ;;
	esac
	for x in $FLOOD_GRID; do
		[ "$x" = 0 ] || check_grid "$x"
	done
	# shellcheck disable=SC2086 # the multiples: words
	[ -n "$FLOOD_GRID$BUSY" ] || bad "no phase: --flood-grid and --busy are both empty"
	for x in $BUSY; do
		in_range "$x" 0 16 || bad "busy '$x' must be 0..16 busy loops"
	done
	check_grid "$TRAFFIC_GRID"
	in_range "$PROBE_RATE" 1 100000 || bad "probe rate '$PROBE_RATE' must be 1..100000 per second"
	in_range "$PROBE_TIMEOUT" 1 60000 || bad "probe timeout '$PROBE_TIMEOUT' must be 1..60000 ms"
	in_range "$SIRQ_TIMEOUT_US" 1000 1000000 || bad "sirq timeout '$SIRQ_TIMEOUT_US' must be 1000..1000000 µs"
	in_range "$SETTLE_MAX" 0 600 || bad "settle-max '$SETTLE_MAX' must be 0..600 seconds"
	in_range "$STARVE_S" 1 600 || bad "starve '$STARVE_S' must be 1..600 seconds"
	FLOOD_RATES=$(for x in $FLOOD_GRID; do
		if [ "$x" = 0 ]; then echo 0; else grid_rates "$KNEE" "$x"; fi
	done | paste -sd' ')
	TRAFFIC=$(grid_rates "$KNEE" "$TRAFFIC_GRID")
	return 0
}
