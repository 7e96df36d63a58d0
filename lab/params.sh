# SPDX-License-Identifier: GPL-2.0
# Options of lab/run: one parser, one usage(), every value checked before
# anything is created.  Sourced after lab/lib.sh.  Environment variables of
# the same name (upper case) give the defaults, so "make lab VARIANTS=..."
# works too.

VARIANTS=${VARIANTS:-"vanilla ksoftirqd-fix threaded-napi"}
RATES=${RATES:-"10000 30000 100000 300000 0"}
REPS=${REPS:-3}
WARMUP=${WARMUP:-2}
WINDOW=${WINDOW:-5}
PAYLOAD=${PAYLOAD:-18}
RCVBUF=${RCVBUF:-0}
MODE=${MODE:-recvfrom}
WORK=${WORK:-0}
ACCEL=${ACCEL:-}
LIBVIRT_URI=${LIBVIRT_URI:-}
OUT=${OUT:-}
DEBUG=${DEBUG:-0}
PROBE_RATE=${PROBE_RATE:-200}
PROBE_TIMEOUT=${PROBE_TIMEOUT:-1000}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
CMDLINE_EXTRA=${CMDLINE_EXTRA:-}

usage()
{
	cat <<USAGE
Usage: lab/run [options]
Boot each kernel variant as a 1-vCPU libvirt guest and flood it with UDP
from the lab netns; write results/<timestamp>/ (points.csv, params.json,
summary.csv, raw samples, guest consoles).

  -v, --variants "A B"  variants, interleaved per repetition   [$VARIANTS]
  -r, --rates "R..."    offered rates in packets/s, 0 = unlimited [$RATES]
  -n, --reps N          repetitions (one boot per variant each)  [$REPS]
  -W, --warmup S        seconds of flood before the window       [$WARMUP]
  -w, --window S        measured seconds per point               [$WINDOW]
  -s, --payload B       UDP payload bytes, 1..1472               [$PAYLOAD]
  -b, --rcvbuf B        receiver SO_RCVBUF, 0 = kernel default   [$RCVBUF]
  -m, --mode M          receiver: recvfrom or recvmmsg           [$MODE]
      --work N          receiver busy-work iterations per packet [$WORK]
      --probe-rate N    latency probes per second during a window [$PROBE_RATE]
      --probe-timeout M ms before a probe counts as lost         [$PROBE_TIMEOUT]
  -a, --accel A         kvm or tcg (default: detect)
  -u, --uri URI         use this libvirt instead of a private libvirtd
  -o, --out DIR         results directory  [results/<timestamp>]
      --debug           boot the DEBUG=1 (lockdep) kernels
      --cmdline X       extra guest kernel command line (tests)
  -h, --help            this text
Known variants: $(known_variants | tr '\n' ' ')
USAGE
}

is_uint()
{
	case $1 in
	''|*[!0-9]*) return 1 ;;
	esac
	[ ${#1} -le 12 ]
}

bad()
{
	die "$1 (see lab/run --help)"
}

parse_opts()
{
	while [ $# -gt 0 ]; do
		case $1 in
		-h|--help) usage; exit 0 ;;
		-v|--variants) VARIANTS=${2?}; shift ;;
		-r|--rates) RATES=${2?}; shift ;;
		-n|--reps) REPS=${2?}; shift ;;
		-W|--warmup) WARMUP=${2?}; shift ;;
		-w|--window) WINDOW=${2?}; shift ;;
		-s|--payload) PAYLOAD=${2?}; shift ;;
		-b|--rcvbuf) RCVBUF=${2?}; shift ;;
		-m|--mode) MODE=${2?}; shift ;;
		--work) WORK=${2?}; shift ;;
		--probe-rate) PROBE_RATE=${2?}; shift ;;
		--probe-timeout) PROBE_TIMEOUT=${2?}; shift ;;
		-a|--accel) ACCEL=${2?}; shift ;;
		-u|--uri) LIBVIRT_URI=${2?}; shift ;;
		-o|--out) OUT=${2?}; shift ;;
		--debug) DEBUG=1 ;;
		--cmdline) CMDLINE_EXTRA=${2?}; shift ;;
		*) bad "unknown option '$1'" ;;
		esac
		shift
	done
	check_opts
}

check_opts()
{
	local r

	# shellcheck disable=SC2086
	check_variants $VARIANTS
	[ -n "$RATES" ] || bad "no rate given"
	for r in $RATES; do
		is_uint "$r" || bad "rate '$r' is not a number of packets per second"
		[ "$r" -le 10000000 ] || bad "rate '$r' is above 10,000,000 pps"
	done
	is_uint "$REPS" && [ "$REPS" -ge 1 ] && [ "$REPS" -le 100 ] ||
		bad "repetitions '$REPS' must be 1..100"
	is_uint "$WARMUP" && [ "$WARMUP" -le 600 ] || bad "warm-up '$WARMUP' must be 0..600 seconds"
	is_uint "$WINDOW" && [ "$WINDOW" -ge 1 ] && [ "$WINDOW" -le 3600 ] ||
		bad "window '$WINDOW' must be 1..3600 seconds"
	is_uint "$PAYLOAD" && [ "$PAYLOAD" -ge 1 ] && [ "$PAYLOAD" -le 1472 ] ||
		bad "payload '$PAYLOAD' must be 1..1472 bytes"
	is_uint "$RCVBUF" && [ "$RCVBUF" -le 1073741824 ] ||
		bad "rcvbuf '$RCVBUF' must be 0..1073741824 bytes"
	case $MODE in
	recvfrom|recvmmsg) ;;
	*) bad "mode '$MODE' must be recvfrom or recvmmsg" ;;
	esac
	is_uint "$WORK" || bad "work '$WORK' must be a number of iterations"
	is_uint "$PROBE_RATE" && [ "$PROBE_RATE" -ge 1 ] && [ "$PROBE_RATE" -le 100000 ] ||
		bad "probe rate '$PROBE_RATE' must be 1..100000 per second"
	is_uint "$PROBE_TIMEOUT" && [ "$PROBE_TIMEOUT" -ge 1 ] && [ "$PROBE_TIMEOUT" -le 60000 ] ||
		bad "probe timeout '$PROBE_TIMEOUT' must be 1..60000 ms"
	case ${ACCEL:-auto} in
	kvm|tcg|auto) ;;
	*) bad "accelerator '$ACCEL' must be kvm, tcg or auto" ;;
	esac
	[ "$ACCEL" != auto ] || ACCEL=
	case $LIBVIRT_URI in
	''|qemu:///system|qemu+*://*/system*|qemu:///system\?*) ;;
	*) bad "libvirt URI '$LIBVIRT_URI' is not a qemu system URI (qemu:///system, qemu+ssh://host/system)" ;;
	esac
	case $CMDLINE_EXTRA in
	*[\'\<\>\&\"]*) bad "--cmdline must not contain quotes, <, > or &" ;;
	esac
	return 0
}
