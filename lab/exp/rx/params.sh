# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# Options of lab/run: one parser, one usage(), every value checked before
# anything is created.  Sourced after lab/lib/lib.sh.  Environment variables of
# the same name (upper case) give the defaults, so "make lab VARIANTS=..."
# works too.

VARIANTS=${VARIANTS:-"vanilla ksoftirqd-fix threaded-napi"}
# UPSTREAM=1: upstream's own code beside them, the 6.1 variants
UPSTREAM=${UPSTREAM:-0}
UPSTREAM_VARIANTS="v6.1-revert v6.1 v6.1+threaded"
DEFENCES=${DEFENCES:-}
SETTING_VARIANTS=1
# Rates: absolute with --rates, else multiples (--grid, --lat-grid) of the
# knee (--knee), the rate past which the slowest kernel variant stops
# delivering what it is offered.  A fixed-speed guest's knee is a property
# of its instruction rate, not of the host: 8 kpps at icount:4 (vanilla
# delivers 97 % of 8 kpps and at most ~9.6 kpps), scaled with the rate.
# A native-speed guest has none: its default rates are absolute.
RATES=${RATES:-}
RATES_GIVEN=${RATES:+1}
LAT_RATES=${LAT_RATES-default}
KNEE=${KNEE:-}
GRID=${GRID:-"0.5 1 2 4 6"}
LAT_GRID=${LAT_GRID:-"2"}
NATIVE_RATES="30000 60000 100000 150000 200000 300000 500000"
NATIVE_LAT_RATES=300000
# repetitions: default_reps (lab/lib/opts.sh), 6 for 3 variants
REPS=${REPS:-}
MIN_REPS=5
WARMUP=${WARMUP:-1}
WINDOW=${WINDOW:-2}
PAYLOAD=${PAYLOAD:-18}
RCVBUF=${RCVBUF:-0}
MODE=${MODE:-recvfrom}
GENERATOR=${GENERATOR:-flood}
WORK=${WORK:-0}
PROBE_RATE=${PROBE_RATE:-200}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-1000}
BURST_US=${BURST_US:-100}
# auto: flood-idle at native speed, where QEMU's main loop needs the
# shared core before the flooder; default at a fixed speed.  There the
# guest's clock stands still while the main loop waits for that core (it
# holds the global lock the vCPU needs and starts the clock warp of a
# halted vCPU), and guests lose up to 37 % of a window at 0.5-1 x the
# knee: the clock gate removes those points.  qemu-fifo keeps most of
# them (main loop wait 15 -> 2 %) but costs the flooder its target at
# 2 x the knee, where core 0 is ~95 % busy and every packet then
# preempts it (13 of 18 points off by up to 27 %), and a SCHED_IDLE
# flooder starves behind any other load (a busy loop on core 0 cut it
# to 60 pps).  README, "What the host does to the guest".
HOST_SCHED=${HOST_SCHED:-auto}
SERIES=${SERIES:-0}
BATCH=${BATCH:-32}
SETTLE_MAX=${SETTLE_MAX:-30}
# the latency pass's place in each boot (lat_position, lab/exp/rx/hooks.sh)
LAT_SEED=${LAT_SEED:-$((RANDOM * 32768 + RANDOM))}
STARVE_S=${STARVE_S:-8}
# a fixed-speed guest: the flood overloads it, not the host (lab/lib/guest.sh)
SPEED=${SPEED:-icount:4}
# shellcheck source=lab/lib/opts.sh
. "$LAB_TOP/lab/lib/opts.sh"

usage()
{
	cat <<USAGE
Usage: lab/run [options]
Boot each kernel variant as a 1-vCPU libvirt guest and flood it with UDP
from the lab netns; write results/<timestamp>/ (points.csv, params.json,
summary.csv, raw samples, guest consoles).  Per boot: settle, then a
throughput pass over --rates (no latency probes running), then a latency
pass over --lat-rates (probes running).

  -v, --variants "A B"  variants, order from a Williams design: kernel
                        or setting variants              [$VARIANTS]
      --defences all    add every setting variant (lab/exp/rx/defences):
                        the livelock defences of 6.12  [${DEFENCES:-none}]
      --upstream        add upstream's own code on 6.1 LTS: v6.1 (the fix
                        as shipped), v6.1-revert, v6.1+threaded
                        (UPSTREAM=1)                        [$UPSTREAM]
  -r, --rates "R..."    offered rates in packets/s; 0 = unlimited, a
                        stress point, never a verdict point
                        [--grid x --knee; native: $NATIVE_RATES]
      --lat-rates "R..." rates of the latency pass ("" = none)
                        [--lat-grid x --knee; native: $NATIVE_LAT_RATES]
      --knee K          the knee (pps) the grids multiply
                        [$KNEE_ICOUNT4 at icount:4, x2 per step faster]
      --grid "X..."     throughput rates as multiples of the knee [$GRID]
      --lat-grid "X..." latency-pass rates, multiples of the knee [$LAT_GRID]
  -n, --reps N          repetitions (one boot per variant each; variant
                        order from a Williams design)  [whole designs,
                        >= $MIN_REPS, if that costs one more: 6 for 3 variants]
  -W, --warmup S        seconds of flood before the window       [$WARMUP]
  -w, --window S        measured seconds per point               [$WINDOW]
  -s, --payload B       UDP payload bytes, 1..1472               [$PAYLOAD]
  -b, --rcvbuf B        receiver SO_RCVBUF, 0 = kernel default   [$RCVBUF]
  -m, --mode M          receiver: recvfrom or recvmmsg           [$MODE]
      --work N          receiver busy-work iterations per packet [$WORK]
  -g, --generator G     flood (the lab's flooder and receiver) or
                        iperf3 (iperf3's UDP client and server)  [$GENERATOR]
      --probe-rate N    latency probes per second during a window [$PROBE_RATE]
      --probe-timeout M ms before a probe counts as lost         [$PROBE_TIMEOUT]
      --burst-us U      the flooder's paced bursts: U µs of the rate [$BURST_US]
      --batch N         datagrams per sendmmsg, at most (unlimited: each) [$BATCH]
      --settle-max S    seconds to wait for a booted guest to go idle [$SETTLE_MAX]
      --starve S        seconds a snapshot under the flood may take; a
                        guest that cannot answer is starved and keeps
                        its A..B totals and the receiver's
                        history                               [$STARVE_S]
      --series S        also sample the receiver every S seconds of a
                        window (raw/*.series; lab/soak)          [$SERIES]
      --host-sched M    how the host schedules the flooder and QEMU's
                        emulator threads (they share the host CPU(s)
                        $(helper_cpuset)): default (all SCHED_OTHER), flood-idle
                        (the flooder SCHED_IDLE), qemu-fifo (QEMU's main
                        loop and other non-vCPU threads SCHED_FIFO 1),
                        auto (flood-idle at native speed, else
                        default)
                        [$HOST_SCHED]
USAGE
	common_usage ""
}

# its own options; the shared ones are lab/lib/opts.sh's
driver_opt()
{
	OPT_ARGS=2
	case $1 in
	-r|--rates) arg "$@"; RATES=$OPTVAL RATES_GIVEN=1 ;;
	--knee) arg "$@"; KNEE=$OPTVAL ;;
	--grid) arg "$@"; GRID=$OPTVAL ;;
	--lat-grid) arg "$@"; LAT_GRID=$OPTVAL ;;
	--lat-rates) arg "$@"; LAT_RATES=$OPTVAL ;;
	--burst-us) arg "$@"; BURST_US=$OPTVAL ;;
	--settle-max) arg "$@"; SETTLE_MAX=$OPTVAL ;;
	--starve) arg "$@"; STARVE_S=$OPTVAL ;;
	--host-sched) arg "$@"; HOST_SCHED=$OPTVAL ;;
	--defences) arg "$@"; DEFENCES=$OPTVAL ;;
	--upstream) UPSTREAM=1; OPT_ARGS=1 ;;
	--series) arg "$@"; SERIES=$OPTVAL ;;
	--batch) arg "$@"; BATCH=$OPTVAL ;;
	-b|--rcvbuf) arg "$@"; RCVBUF=$OPTVAL ;;
	-m|--mode) arg "$@"; MODE=$OPTVAL ;;
	-g|--generator) arg "$@"; GENERATOR=$OPTVAL ;;
	--work) arg "$@"; WORK=$OPTVAL ;;
	--probe-rate) arg "$@"; PROBE_RATE=$OPTVAL ;;
	--probe-timeout) arg "$@"; PROBE_TIMEOUT=$OPTVAL ;;
	*) return 1 ;;
	esac
}

# check_setting <setting>: a kind:name=value of lab/exp/rx/settings, with a
# value in its range, or a clear error
check_setting()
{
	local key=${1%%=*} val=${1#*=} line lo hi words

	if [ "$key" = "$1" ] || [ -z "$val" ]; then
		bad "setting '$1' is not kind:name=value"
	fi
	line=$(awk -F'\t' -v k="$key" '$1 == k' "$LAB_TOP/lab/exp/rx/settings")
	[ -n "$line" ] ||
		bad "setting '$1': no such setting ($(awk -F'\t' '!/^#/ && NF { printf "%s ", $1 }' "$LAB_TOP/lab/exp/rx/settings"))"
	IFS=$'\t' read -r _ lo hi <<<"$line"
	if [ -n "$hi" ]; then
		in_range "$val" "$lo" "$hi" || bad "setting '$1': the kernel takes $lo..$hi"
		return 0
	fi
	words=$lo
	case "|$words|" in
	*"|$val|"*) return 0 ;;
	esac
	# fifo:1..99: a policy and a priority range
	if [ "${val%%:*}" != "$val" ] && grep -qE "(^|\|)${val%%:*}:[0-9]+\.\.[0-9]+" <<<"$words"; then
		hi=$(grep -oE "${val%%:*}:[0-9]+\.\.[0-9]+" <<<"$words" | head -1)
		lo=${hi#*:}
		in_range "${val#*:}" "${lo%..*}" "${lo#*..}" && return 0
	fi
	bad "setting '$1': the kernel takes $words"
}

check_defences()
{
	local v s k

	for v in $VARIANTS; do
		k=$(variant_kernel "$v")
		[ "$k" != "$v" ] || continue
		known_variants | grep -qxF -- "$k" ||
			bad "setting variant '$v' boots '$k', not a kernel variant ($(known_variants | tr '\n' ' '))"
		while read -r s; do
			[ -z "$s" ] || check_setting "$s"
		done <<<"$(variant_settings "$v")"
	done
}

# Fill RATES and LAT_RATES not given as rates from the grids and the knee
# (native speed: the absolute defaults); KNEE stays what the grids used.
default_rates()
{
	# shellcheck disable=SC2086 # the multiples: words
	check_grid $GRID $LAT_GRID
	[ -n "$KNEE" ] || KNEE=$(speed_knee "$SPEED")
	if [ -n "$KNEE" ]; then
		in_range "$KNEE" 1 10000000 || bad "knee '$KNEE' must be 1..10000000 pps"
	fi
	if [ -n "$RATES_GIVEN" ]; then
		GRID=
	elif [ -z "$KNEE" ]; then
		RATES=$NATIVE_RATES GRID=
	else
		# shellcheck disable=SC2086 # the multiples: words
		RATES=$(grid_rates "$KNEE" $GRID)
	fi
	if [ "$LAT_RATES" != default ]; then
		LAT_GRID=
	elif [ -z "$KNEE" ]; then
		LAT_RATES=$NATIVE_LAT_RATES LAT_GRID=
	else
		# shellcheck disable=SC2086
		LAT_RATES=$(grid_rates "$KNEE" $LAT_GRID)
	fi
	return 0
}

check_opts()
{
	local r v

	case $DEFENCES in
	'') ;;
	all)
		for v in $(known_setting_variants); do
			[ "$(variant_tree "$(variant_kernel "$v")")" = 6.12 ] || continue
			# a scheduler ablation, not a defence
			! variant_settings "$v" | grep -q '^sched:slice=' || continue
			case " $VARIANTS " in
			*" $v "*) ;;
			*) VARIANTS="$VARIANTS $v" ;;
			esac
		done ;;
	*) bad "defences '$DEFENCES' must be all" ;;
	esac
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
	check_defences
	default_rates
	[ -n "$RATES" ] || bad "no rate given"
	for r in $RATES $LAT_RATES; do
		is_uint "$r" || bad "rate '$r' is not a number of packets per second"
		[ "$r" -le 10000000 ] || bad "rate '$r' is above 10,000,000 pps"
	done
	# shellcheck disable=SC2086 # the rates: words
	[ "$(printf '%s\n' $RATES | sort | uniq -d)" = "" ] || bad "a rate is given twice in --rates"
	for r in $LAT_RATES; do
		# shellcheck disable=SC2086
		printf '%s\n' $RATES | grep -qx "$r" ||
			bad "latency rate '$r' is not one of the rates: the latency pass measures throughput points again"
	done
	in_range "$BURST_US" 1 1000000 || bad "burst '$BURST_US' must be 1..1000000 µs"
	in_range "$SETTLE_MAX" 0 600 || bad "settle-max '$SETTLE_MAX' must be 0..600 seconds"
	in_range "$STARVE_S" 1 600 || bad "starve '$STARVE_S' must be 1..600 seconds"
	in_range "$SERIES" 0 3600 || bad "series '$SERIES' must be 0..3600 seconds"
	in_range "$BATCH" 1 1024 || bad "batch '$BATCH' must be 1..1024 datagrams"
	case $HOST_SCHED in
	default|flood-idle|qemu-fifo) ;;
	auto) HOST_SCHED=$([ "$SPEED" = native ] && echo flood-idle || echo default) ;;
	*) bad "host-sched '$HOST_SCHED' must be default, flood-idle, qemu-fifo or auto" ;;
	esac
	in_range "$RCVBUF" 0 1073741824 ||
		bad "rcvbuf '$RCVBUF' must be 0..1073741824 bytes"
	case $MODE in
	recvfrom|recvmmsg) ;;
	*) bad "mode '$MODE' must be recvfrom or recvmmsg" ;;
	esac
	is_uint "$WORK" || bad "work '$WORK' must be a number of iterations"
	case $GENERATOR in
	flood) ;;
	iperf3)
		if [ "$MODE" != recvfrom ] || [ "$WORK" != 0 ]; then
			bad "--mode and --work set the lab's receiver; with --generator iperf3 iperf3's server receives"
		fi
		[ "$PAYLOAD" -ge 16 ] ||
			bad "payload '$PAYLOAD' is below iperf3's 16-byte UDP header" ;;
	*) bad "generator '$GENERATOR' must be flood or iperf3" ;;
	esac
	in_range "$PROBE_RATE" 1 100000 ||
		bad "probe rate '$PROBE_RATE' must be 1..100000 per second"
	in_range "$PROBE_TIMEOUT" 1 60000 ||
		bad "probe timeout '$PROBE_TIMEOUT' must be 1..60000 ms"
	return 0
}
