# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# Options of lab/soak.  The flood itself (payload, receive buffer and
# receiver, bursts, host scheduling, guest speed, how long a snapshot
# under it may take) is the sweep's, read from its
# params.json; the rate is the sweep's verdict rate (its summary.csv).
# Sourced after lab/lib/lib.sh; environment variables of the same name
# give the defaults ("make soak SOAK_SECONDS=...").

VARIANTS=${VARIANTS:-"vanilla ksoftirqd-fix threaded-napi"}
SWEEP=${SOAK_RUN:-}
WINDOW=${SOAK_SECONDS:-600}
SERIES=${SOAK_SERIES:-10}
REPS=1
WARMUP=5
LAT_RATES=
# no latency pass in a soak: rx_params records the seed all the same
LAT_SEED=0
SETTLE_MAX=30
PROBE_RATE=200
PROBE_TIMEOUT=1000
PAYLOAD=18
KNEE=
GRID=
LAT_GRID=
# the sweep's, read in check_opts
STARVE_S=8
# for the usage line: the speed is the sweep's, read in check_opts
SPEED="the sweep's"
# shellcheck source=lab/lib/opts.sh
. "$LAB_TOP/lab/lib/opts.sh"

usage()
{
	cat <<USAGE
Usage: lab/soak [options]
Boot each variant once and flood it for the window at a sweep's verdict
rate, with the sweep's flood settings; sample the receiver every --series
seconds.  Stationary: the median of those samples within ±10 % of the
sweep's median.  Writes results/soak-<timestamp>/ and soak.txt into the
sweep (its report then shows the soak).

  -v, --variants "A B"  variants, one boot each               [$VARIANTS]
      --sweep DIR       the sweep (default: the latest results/2* with a
                        summary)                      [${SWEEP:-latest}]
  -w, --window S        seconds of flood per variant             [$WINDOW]
      --series S        seconds between receiver samples         [$SERIES]
USAGE
	common_usage soak-
}

driver_opt()
{
	OPT_ARGS=2
	case $1 in
	--sweep) arg "$@"; SWEEP=$OPTVAL ;;
	--series) arg "$@"; SERIES=$OPTVAL ;;
	-n|--reps|-r|--rates) bad "option '$1': a soak boots each variant once, at the sweep's verdict rate" ;;
	--speed) bad "option '$1': a soak runs at its sweep's guest speed (params.json)" ;;
	*) return 1 ;;
	esac
}

latest_sweep()
{
	local d last=""

	for d in "$LAB_RESULTS"/2*/; do
		[ -s "$d/summary.csv" ] && [ -s "$d/params.json" ] && last=${d%/}
	done
	[ -n "$last" ] || bad "no finished sweep in $LAB_RESULTS: run 'make lab' first or give --sweep"
	echo "$last"
}

# sweep_param <key>: a value of the sweep's params.json
sweep_param()
{
	jq -r --arg k "$1" '.[$k] // empty' "$SWEEP/params.json"
}

check_opts()
{
	SPEED=native
	check_common_opts
	in_range "$SERIES" 1 3600 || bad "series '$SERIES' must be 1..3600 seconds"
	[ "$SERIES" -le "$WINDOW" ] || bad "series '$SERIES' is longer than the window"
	SWEEP=${SWEEP:-$(latest_sweep)}
	SWEEP=${SWEEP%/}
	if [ ! -s "$SWEEP/summary.csv" ] || [ ! -s "$SWEEP/params.json" ]; then
		bad "$SWEEP is not a finished sweep (no summary.csv or params.json)"
	fi
	[ "$(sweep_param experiment)" = rx ] || bad "$SWEEP is not an RX sweep"
	RATES=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["verdict_rate"]; exit }' "$SWEEP/summary.csv")
	[ -n "$RATES" ] || bad "$SWEEP has no verdict rate (no rate passed every variant's gates): nothing to soak at"
	PAYLOAD=$(sweep_param payload) RCVBUF=$(sweep_param rcvbuf) MODE=$(sweep_param mode)
	WORK=$(sweep_param work) GENERATOR=$(sweep_param generator)
	BURST_US=$(sweep_param flood_burst_us) BATCH=$(sweep_param flood_batch)
	HOST_SCHED=$(sweep_param host_sched)
	# how long a snapshot under the flood may take (a sweep of an older
	# lab records none: the default)
	STARVE_S=$(sweep_param starve_s)
	STARVE_S=${STARVE_S:-8}
	# the sweep's guest speed (a sweep that records none ran at native speed)
	SPEED=$(sweep_param speed)
	SPEED=${SPEED:-native}
	speed_shift "$SPEED" >/dev/null || bad "$SWEEP records an unknown guest speed '$SPEED'"
	if [ "$SPEED" != native ] && [ "$ACCEL" = kvm ]; then
		bad "$SWEEP ran at speed $SPEED, which needs TCG: drop --accel kvm"
	fi
	[ "$GENERATOR" = flood ] || bad "$SWEEP was flooded by $GENERATOR: the soak floods with the lab's flooder only"
	if [ -z "$BURST_US" ] || [ -z "$HOST_SCHED" ]; then
		bad "$SWEEP is a sweep of an older lab (no flood_burst_us or host_sched)"
	fi
	return 0
}
