# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# What the lab's experiments (lab/run, lab/tx, lab/soak) share in their options: value
# checks, the options every driver takes, their usage lines and their
# checks, the parsing loop.  Sourced by lab/exp/rx/params.sh and lab/exp/tx/params.sh
# after lab/lib/lib.sh; the driver defines the defaults, usage(), driver_opt()
# for its own options and check_opts() for their values.

ACCEL=${ACCEL:-}
LIBVIRT_URI=${LIBVIRT_URI:-}
OUT=${OUT:-}
DEBUG=${DEBUG:-0}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-240}
CMDLINE_EXTRA=${CMDLINE_EXTRA:-}
PLOT=${PLOT:-1}
NOTE=${NOTE:-}
DRY_RUN=0
# the experiment's params.sh sets its own default first (lab/lib/guest.sh)
SPEED=${SPEED:-native}

is_uint()
{
	case $1 in
	''|*[!0-9]*) return 1 ;;
	esac
	[ ${#1} -le 12 ]
}

# in_range <value> <min> <max>
in_range()
{
	is_uint "$1" && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

bad()
{
	die "$1 (see lab/$LAB_PROG --help)"
}

# arg <option> [<value>...]: the option's value in OPTVAL, or a clear error
arg()
{
	[ $# -ge 2 ] || bad "option '$1' needs a value"
	OPTVAL=$2
}

# The usage lines of the options common_opt() takes, after the driver's.
common_usage()
{
	cat <<USAGE
  -a, --accel A         kvm or tcg (default: detect; icount: tcg)
      --speed S         guest speed: icount:N, a fixed rate of 1000/2^N
                        M instructions per second of host time (TCG,
                        N = 1..10), or native (as fast as the host runs
                        it)                                      [$SPEED]
  -u, --uri URI         use this libvirt instead of a private libvirtd
  -o, --out DIR         results directory  [results/$1<timestamp>]
      --debug           boot the DEBUG=1 (lockdep) kernels
      --no-plot         leave the plots and the report for later
      --cmdline X       extra guest kernel command line (tests)
      --note TEXT       a note kept in params.json and the report's title
      --dry-run         print the boots, points and an estimate of the
                        time, and exit
  -h, --help            this text
Known variants: $(known_variants | tr '\n' ' ')$([ "${SETTING_VARIANTS:-0}" != 1 ] || printf '\nSetting variants (lab/exp/rx/defences): %s' "$(known_setting_variants | tr '\n' ' ')")
USAGE
}

# common_opt <args...>: take one option every driver has, setting
# OPT_ARGS to how many arguments it used; false if $1 is not one.
common_opt()
{
	OPT_ARGS=2
	case $1 in
	-h|--help) usage; exit 0 ;;
	-v|--variants) arg "$@"; VARIANTS=$OPTVAL ;;
	-n|--reps) arg "$@"; REPS=$OPTVAL ;;
	-W|--warmup) arg "$@"; WARMUP=$OPTVAL ;;
	-w|--window) arg "$@"; WINDOW=$OPTVAL ;;
	-s|--payload) arg "$@"; PAYLOAD=$OPTVAL ;;
	-a|--accel) arg "$@"; ACCEL=$OPTVAL ;;
	--speed) arg "$@"; SPEED=$OPTVAL ;;
	-u|--uri) arg "$@"; LIBVIRT_URI=$OPTVAL ;;
	-o|--out) arg "$@"; OUT=$OPTVAL ;;
	--debug) DEBUG=1; OPT_ARGS=1 ;;
	--no-plot) PLOT=0; OPT_ARGS=1 ;;
	--cmdline) arg "$@"; CMDLINE_EXTRA=$OPTVAL ;;
	--note) arg "$@"; NOTE=$OPTVAL ;;
	--dry-run) DRY_RUN=1; OPT_ARGS=1 ;;
	*) return 1 ;;
	esac
}

# parse_opts <args...>: every option through the driver's driver_opt()
# (same contract as common_opt), then common_opt(); then check_opts().
parse_opts()
{
	while [ $# -gt 0 ]; do
		driver_opt "$@" || common_opt "$@" || bad "unknown option '$1'"
		shift "$OPT_ARGS"
	done
	check_opts
}

# Whole Williams designs, at least MIN_REPS, when that costs at most
# twice MIN_REPS (6 for 3 variants, 8 for 2, 10 for --upstream's 5);
# else MIN_REPS, and the report says the order is not balanced
# (--defences all: 11 variants would need 22).  Up to 2026-12-07 the
# limit was one more repetition, so 2 variants and --upstream got 5,
# unbalanced.
default_reps()
{
	local r

	# shellcheck disable=SC2086
	r=$(balanced_reps "$MIN_REPS" $VARIANTS)
	if [ "$r" -le $((2 * MIN_REPS)) ]; then
		echo "$r"
	else
		echo "$MIN_REPS"
	fi
}

check_common_opts()
{
	# shellcheck disable=SC2086
	if [ "${SETTING_VARIANTS:-0}" = 1 ]; then
		check_run_variants $VARIANTS
	else
		check_variants $VARIANTS
	fi
	[ -n "$REPS" ] || REPS=$(default_reps)
	in_range "$REPS" 1 100 || bad "repetitions '$REPS' must be 1..100"
	in_range "$WARMUP" 0 600 || bad "warm-up '$WARMUP' must be 0..600 seconds"
	in_range "$WINDOW" 1 3600 || bad "window '$WINDOW' must be 1..3600 seconds"
	in_range "$PAYLOAD" 1 1472 || bad "payload '$PAYLOAD' must be 1..1472 bytes"
	case ${ACCEL:-auto} in
	kvm|tcg|auto) ;;
	*) bad "accelerator '$ACCEL' must be kvm, tcg or auto" ;;
	esac
	[ "$ACCEL" != auto ] || ACCEL=
	speed_shift "$SPEED" >/dev/null ||
		bad "speed '$SPEED' must be native or icount:N with N = 1..10 (1000/2^N M instructions/s)"
	if [ "$SPEED" != native ] && [ "$ACCEL" = kvm ]; then
		bad "speed '$SPEED' needs TCG (QEMU's -icount): use --speed native with --accel kvm"
	fi
	case $LIBVIRT_URI in
	''|qemu:///system|qemu+*://*/system*|qemu:///system\?*) ;;
	*) bad "libvirt URI '$LIBVIRT_URI' is not a qemu system URI (qemu:///system, qemu+ssh://host/system)" ;;
	esac
	case $CMDLINE_EXTRA in
	*[\'\<\>\&\"]*) bad "--cmdline must not contain quotes, <, > or &" ;;
	esac
	[ ${#NOTE} -le 200 ] || bad "--note is at most 200 characters"
	case $NOTE in
	*[[:cntrl:]]*) bad "--note must be one line of text" ;;
	esac
	return 0
}

# The knee of a fixed-speed guest at icount:4 (pps): vanilla delivers 97 %
# of 8 kpps and at most ~9.6 kpps there; scaled with the instruction rate
# (lab/run, lab/softirq)
KNEE_ICOUNT4=8000

# speed_knee <speed>: the default knee of a fixed-speed guest (pps), ""
# for native
speed_knee()
{
	local n

	n=$(speed_shift "$1")
	[ -z "$n" ] || awk -v k="$KNEE_ICOUNT4" -v n="$n" 'BEGIN { printf "%.0f\n", k * 2 ^ (4 - n) }'
}

check_grid()
{
	local x

	for x in "$@"; do
		awk -v x="$x" 'BEGIN { exit !(x ~ /^[0-9]+(\.[0-9]+)?$/ && x > 0 && x <= 1000) }' ||
			bad "grid multiple '$x' must be a number in (0, 1000]"
	done
}

# grid_rates <knee> <multiple>...: the rates, rounded to whole pps
grid_rates()
{
	local knee=$1

	shift
	# no multiples, no rates (not one rate of 0, the unlimited point)
	[ $# -gt 0 ] || return 0
	printf '%s\n' "$@" | awk -v k="$knee" '{ printf "%s%.0f", (NR > 1 ? " " : ""), k * $1 } END { print "" }'
}
