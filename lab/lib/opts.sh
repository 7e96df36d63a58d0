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
# --variant NAME=DIR, each; the names, once set up (own_variants_setup)
OWN_VARIANTS=${OWN_VARIANTS:-}
OWN_NAMES=
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
      --variant NAME=DIR  a kernel of your own, added to the variants:
                        the patches in DIR (git format-patch output, or
                        a quilt "series" file and its patches) on
                        vanilla's tree; DIR/config a config fragment for
                        it alone, DIR/has the mechanisms its tree
                        contains (has= of lab/kernel/variants); built
                        when needed.  Repeatable; no spaces in DIR
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
	--variant) arg "$@"; OWN_VARIANTS="${OWN_VARIANTS:+$OWN_VARIANTS }$OPTVAL" ;;
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

# own_variant_dir <spec>: the directory of --variant NAME=DIR, checked
# (a name of its own, a directory with a series file or *.patch files)
own_variant_dir()
{
	local spec=$1 name dir

	name=${spec%%=*} dir=${spec#*=}
	if [ "$name" = "$spec" ] || [ -z "$name" ] || [ -z "$dir" ]; then
		bad "--variant '$spec': NAME=DIR, please"
	fi
	[[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || bad "--variant '$name': a name of letters, digits, '_', '.' and '-'"
	! known_variants | grep -qxF -- "$name" ||
		bad "--variant $name: $LAB_VARIANTS_FILE has a variant of that name"
	# shellcheck disable=SC2086 # one spec per word
	[ "$(printf '%s\n' $OWN_VARIANTS | grep -c "^$name=")" = 1 ] ||
		bad "--variant $name: given twice"
	dir=$(realpath -e -- "$dir" 2>/dev/null) || dir=
	[ -d "${dir:-/nonexistent}" ] || bad "--variant $name: no directory '${spec#*=}'"
	if [ -f "$dir/series" ]; then
		series_patches "$dir" >/dev/null
	elif ! compgen -G "$dir/*.patch" >/dev/null; then
		bad "--variant $name: no series file and no *.patch in $dir"
	fi
	printf '%s\n' "$dir"
}

# own_variant_line <name> <dir> <workdir>: the variants-file line of
# --variant NAME=DIR (a series file made in <workdir>/NAME for a directory
# of git format-patch output)
own_variant_line()
{
	local name=$1 dir=$2 work=$3 sdir=$2 f line

	if [ ! -f "$dir/series" ]; then
		sdir=$work/$name
		mkdir -p "$sdir" || die "cannot make $sdir"
		for f in "$dir"/*.patch; do
			# git format-patch --cover-letter's cover carries no diff
			case ${f##*/} in
			0000-cover-letter.patch) continue ;;
			esac
			cp "$f" "$sdir/" || die "cannot copy $f"
			basename "$f" >>"$sdir/series"
		done
	fi
	line="$name	$sdir"
	[ ! -s "$dir/has" ] || line="$line	has=$(tr -d ' \t\n' <"$dir/has")"
	[ ! -f "$dir/config" ] || line="$line	config=$dir/config"
	# where it came from (a made series lives only as long as the run)
	printf '# --variant %s=%s: %s\n%s\n' "$name" "$dir" \
		"$([ "$sdir" = "$dir" ] && echo "its series file" || echo "its *.patch files, in name order")" "$line"
}

# --variant NAME=DIR: a variants file of the lab's and these (a temporary
# one, LAB_VARIANTS_FILE for this process and what it starts, kept in the
# results directory), the names added to VARIANTS and to OWN_NAMES
# (driver_main builds them).  Every spec is checked before anything is
# written.  No tracked file changes.
own_variants_setup()
{
	local spec dirs=() work i=0

	[ -n "$OWN_VARIANTS" ] || return 0
	for spec in $OWN_VARIANTS; do
		dirs+=("$(own_variant_dir "$spec")") || exit 1
	done
	mkdir -p "$LAB_BUILD" || die "cannot make $LAB_BUILD"
	work=$(mktemp -d "$LAB_BUILD/own-variants.XXXXXX") || die "cannot make a directory in $LAB_BUILD"
	defer rm -rf "$work"
	cp "$LAB_VARIANTS_FILE" "$work/variants" || die "cannot copy $LAB_VARIANTS_FILE"
	for spec in $OWN_VARIANTS; do
		own_variant_line "${spec%%=*}" "${dirs[i]}" "$work" >>"$work/variants"
		i=$((i + 1))
		case " $VARIANTS " in
		*" ${spec%%=*} "*) ;;
		*) VARIANTS="$VARIANTS ${spec%%=*}" ;;
		esac
		OWN_NAMES="${OWN_NAMES:+$OWN_NAMES }${spec%%=*}"
	done
	LAB_VARIANTS_FILE=$work/variants
	export LAB_VARIANTS_FILE
}

check_common_opts()
{
	own_variants_setup
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
