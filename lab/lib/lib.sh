# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# Shared shell helpers for every lab script.  Source it; do not run it.
#
# Conventions: log() for progress on stderr, die() for one clear line and
# exit 1, defer() registers a cleanup command for the end of its scope
# (defer_scope_push/pop) or of the process.

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LAB_BUILD=${LAB_BUILD:-$LAB_TOP/build}
LAB_RESULTS=${LAB_RESULTS:-$LAB_TOP/results}
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/livelock-lab}
# The kernel trees, the variants' work trees and objects, the built
# kernels: outside the clone, beside ccache, so a fresh clone (CI's) finds
# them built; lab/run boots one only if it was built from this clone's
# series and config fragments (check_prereqs, lab/lib/driver.sh)
LAB_KBUILD=${LAB_KBUILD:-$LAB_CACHE/kbuild}
# The locks are the machine's: the netns, tap and vCPU core have fixed
# names and places, and the kernels are shared by every clone
LAB_LOCKS=${LAB_LOCKS:-$LAB_CACHE/locks}
LAB_VARIANTS_FILE=${LAB_VARIANTS_FILE:-$LAB_TOP/lab/kernel/variants}
LAB_DEFENCES_FILE=${LAB_DEFENCES_FILE:-$LAB_TOP/lab/exp/rx/defences}
# every gate and claim threshold, for rule() of lab/lib/stats.awk
LAB_RULES=${LAB_RULES:-$LAB_TOP/lab/lib/rules.tsv}
export LAB_RULES
# The cores the lab may use, counted once: after pin_host_side (driver.sh)
# nproc counts only the helper cores, and the vCPU's core would be lost.
LAB_HOST_CPUS=${LAB_HOST_CPUS:-$(nproc)}
export LAB_HOST_CPUS

LAB_PROG=${LAB_PROG:-$(basename "$0")}

log()
{
	printf '%s: %s\n' "$LAB_PROG" "$*" >&2
}

die()
{
	printf '%s: error: %s\n' "$LAB_PROG" "$*" >&2
	exit 1
}

# Scoped cleanup, in the style of the kernel selftests' lib/sh/defer.sh:
# defer CMD [ARG...] registers CMD with its arguments (quoted as given)
# to run when the current scope ends (defer_scope_pop: per guest, per
# point) or, for what is left, at exit, error, SIGINT and SIGTERM; last
# registered, first run.
LAB_DEFER=()
LAB_DEFER_SCOPES=()

defer()
{
	LAB_DEFER+=("$(printf '%q ' "$@")")
}

defer_scope_push()
{
	LAB_DEFER_SCOPES+=("${#LAB_DEFER[@]}")
}

# One deferred command; a failure is reported with the command and the
# last line it wrote, and the cleanup goes on.  Deferred commands are
# idempotent: one with nothing left to clean up succeeds.
cleanup_run()
{
	local out rc=0

	out=$(eval "$1" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 0 ] || log "cleanup: '${1% }' failed (exit $rc)${out:+: $(printf '%s\n' "$out" | tail -1)}"
}

# Run the innermost scope's commands (all of them with no scope open).
defer_scope_pop()
{
	local base=0 i

	if [ ${#LAB_DEFER_SCOPES[@]} -gt 0 ]; then
		base=${LAB_DEFER_SCOPES[-1]}
		unset 'LAB_DEFER_SCOPES[-1]'
	fi
	for ((i = ${#LAB_DEFER[@]} - 1; i >= base; i--)); do
		cleanup_run "${LAB_DEFER[i]}"
		unset 'LAB_DEFER[i]'
	done
}

run_deferred()
{
	LAB_DEFER_SCOPES=()
	defer_scope_pop
}

on_signal()
{
	log "interrupted by SIG$1, cleaning up"
	run_deferred
	trap - "$1"
	kill -s "$1" $$
}

install_cleanup_traps()
{
	trap run_deferred EXIT
	trap 'on_signal INT' INT
	trap 'on_signal TERM' TERM
	trap 'on_signal HUP' HUP
}

need_root()
{
	[ "$(id -u)" = 0 ] || die "$1 needs root (run as root or with sudo)"
}

# A gnuplot string literal of $1 (plots/plot, plots/tx-plot, lab/compare)
gp_str()
{
	printf "'%s'" "${1//\'/\'\'}"
}

need_cmd()
{
	local c

	for c; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found: run 'make deps' first"
	done
}

# Variants: one per line in lab/kernel/variants,
# "name [tree=version] [series-dir...] [has=mechanism,...] [config=fragment]
# [cmdline=param...]".
known_variants()
{
	awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$LAB_VARIANTS_FILE"
}

variant_series_dirs()
{
	awk -v v="$1" '$1 == v { for (i = 2; i <= NF; i++) if ($i !~ /=/) print $i }' \
		"$LAB_VARIANTS_FILE"
}

# variant_values <variant> <key>: the values of its <key>= tokens, one a
# line, in the line's order
variant_values()
{
	awk -v v="$1" -v k="$2=" '$1 == v { for (i = 2; i <= NF; i++)
		if (index($i, k) == 1) print substr($i, length(k) + 1) }' "$LAB_VARIANTS_FILE"
}

# The mechanisms its tree must contain (has=, lab/kernel/check-tree), one a
# line; none for a variant without has=
variant_has()
{
	variant_values "$1" has | tr ',' '\n' | grep . || true
}

# The Debian linux-source the variant builds from (tree=, the last one;
# default 6.12)
variant_tree()
{
	local t

	t=$(variant_values "$1" tree)
	t=${t##*$'\n'}
	echo "${t:-6.12}"
}

# The control of a tree: its first variant without series (vanilla, v6.1)
tree_control()
{
	local v

	for v in $(known_variants); do
		if [ "$(variant_tree "$v")" = "$1" ] && [ -z "$(variant_series_dirs "$v")" ]; then
			echo "$v"
			return 0
		fi
	done
}

check_variants()
{
	local v known

	known=$(known_variants | tr '\n' ' ')
	[ $# -gt 0 ] || die "no variant given (known: ${known% })"
	for v; do
		known_variants | grep -qxF -- "$v" ||
			die "unknown variant '$v' (known: ${known% })"
	done
}

# Setting variants (lab/exp/rx/defences): a kernel variant booted with
# settings, "name <TAB> kernel <TAB> setting...".
known_setting_variants()
{
	awk -F'\t' '!/^[[:space:]]*(#|$)/ { print $1 }' "$LAB_DEFENCES_FILE" 2>/dev/null
}

# the kernel variant a (kernel or setting) variant boots
variant_kernel()
{
	local k

	k=$(awk -F'\t' -v v="$1" '$1 == v { print $2; exit }' "$LAB_DEFENCES_FILE" 2>/dev/null)
	echo "${k:-$1}"
}

# its settings, one per line (none for a kernel variant)
variant_settings()
{
	awk -F'\t' -v v="$1" '$1 == v { n = split($3, s, " "); for (i = 1; i <= n; i++) print s[i]; exit }' \
		"$LAB_DEFENCES_FILE" 2>/dev/null
}

# check_run_variants <variant...>: kernel or setting variants
check_run_variants()
{
	local v known

	known=$( (known_variants; known_setting_variants) | tr '\n' ' ')
	[ $# -gt 0 ] || die "no variant given (known: ${known% })"
	for v; do
		case " $known" in
		*" $v "*) ;;
		*) die "unknown variant '$v' (known: ${known% })" ;;
		esac
	done
}

# Patches of one series directory, in the order of its quilt-style
# "series" file (comments and blank lines ignored).
series_patches()
{
	local dir=$1

	case $dir in
	/*) ;;
	*) dir=$LAB_TOP/$dir ;;
	esac

	[ -f "$dir/series" ] || die "$1: no series file"
	awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$dir/series" |
		while read -r p; do
			[ -f "$dir/$p" ] || die "$1/series lists missing patch $p"
			printf '%s\n' "$dir/$p"
		done
}

# The patches of a variant, in git am order: its series directories' in
# turn, each in the order of its series file.
variant_patches()
{
	local d

	for d in $(variant_series_dirs "$1"); do
		series_patches "$d"
	done
}

# Hash of everything that makes a variant's source: its patches, in order.
variant_series_hash()
{
	variant_patches "$1" | xargs -r cat | sha256sum | cut -c1-12
}

# The pristine tree of a kernel version (6.12: $LAB_KBUILD/linux, where
# the initramfs takes gen_init_cpio from; others linux-<version>)
tree_dir()
{
	if [ "$1" = 6.12 ]; then
		echo "$LAB_KBUILD/linux"
	else
		echo "$LAB_KBUILD/linux-$1"
	fi
}

# The config fragments of a variant's kernel, in merge order: the guest's,
# its tree's own where its Kconfig needs more, and with DEBUG=1 the
# debug options
config_fragments()
{
	local t

	t=$LAB_TOP/lab/kernel/guest-$(variant_tree "$1").config
	echo "$LAB_TOP/lab/kernel/guest.config"
	[ ! -f "$t" ] || echo "$t"
	[ "${DEBUG:-0}" = 0 ] || echo "$LAB_TOP/lab/kernel/debug.config"
	# config=<fragment>: the variant's own, last (its options win)
	variant_values "$1" config | awk -v top="$LAB_TOP" '{ print (/^\// ? $0 : top "/" $0) }'
}

# Hash of a variant's config fragments (stamped into its kernel's info)
fragments_hash()
{
	config_fragments "$1" | xargs cat | sha256sum | cut -c1-12
}

# Elapsed seconds as m:ss.
fmt_secs()
{
	printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

# Locks, held until the process exits:
#   run           one lab run at a time (the netns, tap and private
#                 libvirtd have fixed names)
#   kernels[-debug] a build replaces the kernels a run of that flavour
#                 boots: builds and runs of one flavour exclude each other
# take_lab_lock <lock> [what this process is doing]
take_lab_lock()
{
	local name=$1 fd

	mkdir -p "$LAB_LOCKS"
	exec {fd}>>"$LAB_LOCKS/$name.lock"
	flock -n "$fd" ||
		die "another lab run or kernel build is in progress (lock $LAB_LOCKS/$name.lock held by $(cat "$LAB_LOCKS/$name.who" 2>/dev/null || echo '?'))"
	echo "pid $$: $LAB_PROG ${*:2} (in $LAB_TOP)" >"$LAB_LOCKS/$name.who"
	LAB_LOCK_FDS="${LAB_LOCK_FDS:-} $fd"
}

# Run a command that may outlive this process (a daemon, a sleeper)
# without the lock file descriptors, so it cannot hold a lock after we
# exit.
without_locks()
{
	local fd

	for fd in ${LAB_LOCK_FDS:-}; do
		eval "exec $fd>&-"
	done
	"$@"
}

# williams_len <n>: repetitions in one Williams design of n variants: n
# for an even n or one variant, 2n (the design and its mirror) for an odd
# n > 1.
williams_len()
{
	if [ $(($1 % 2)) = 1 ] && [ "$1" -gt 1 ]; then
		echo $((2 * $1))
	else
		echo "$1"
	fi
}

# balance_len <n>: the repetitions of one balanced block of n variants:
# 2n, the first n with the rates ascending, the next n descending
# (rates_in_order of lab/exp/rx/hooks.sh), each direction a complete
# Latin square of the Williams design (for an even n a Williams square of
# its own; for an odd n the design's two halves), so that neither a rate
# direction nor a slot favours a variant.
balance_len()
{
	echo $((2 * $1))
}

# balanced_reps <at least> <item...>: the smallest whole number of
# balanced blocks (balance_len) that gives at least that many repetitions
balanced_reps()
{
	local min=$1 len

	shift
	len=$(balance_len $#)
	echo $(((min + len - 1) / len * len))
}

# williams <r> <item...>: the order of repetition r (from 0) in a Williams
# design: over williams_len repetitions each item takes each position
# equally often and follows each other item equally often, so neither a
# slot nor a predecessor favours a variant.  Row i is 0, 1, n-1, 2, n-2,
# ... plus i (mod n); for an odd n rows n..2n-1 are rows 0..n-1 reversed.
# williams 0 a b c -> "a b c", 1 -> "b c a", 3 -> "c b a".
williams()
{
	local r=$1 n i j k design_row=()

	shift
	n=$#
	[ "$n" -gt 0 ] || return 0
	r=$((r % $(williams_len "$n")))
	i=$((r % n))
	for ((j = 0; j < n; j++)); do
		if [ "$j" = 0 ]; then
			k=0
		elif [ $((j % 2)) = 1 ]; then
			k=$(((j + 1) / 2))
		else
			k=$((n - j / 2))
		fi
		k=$(((k + i) % n + 1))
		if [ "$r" -ge "$n" ]; then
			design_row=("${!k}" "${design_row[@]}")
		else
			design_row+=("${!k}")
		fi
	done
	echo "${design_row[*]}"
}

# rule <name>: a value of the lab's rules (lab/lib/rules.tsv), or die
rule()
{
	local x

	x=$(awk -F'\t' -v k="$1" '$1 == k { print $2; found = 1 } END { exit !found }' "$LAB_RULES") ||
		die "no rule '$1' in $LAB_RULES"
	echo "$x"
}

# rules_sha: the first 12 hex digits of the rules' sha256 (lab/analyze's
# rules_sha, params.json's)
rules_sha()
{
	sha256sum "$LAB_RULES" | cut -c1-12
}

# summarize <experiment> <results dir>: summary.csv on stdout, or die.
# The RX experiment's is lab/analyze's (which also writes verdicts.json
# and report.md into the run); the TX experiment's lab/exp/tx/summarize.awk.
summarize()
{
	local csv=$2/points.csv tmp

	[ -s "$csv" ] || die "$csv missing or empty"
	[ "$(wc -l <"$csv")" -ge 2 ] || die "$csv holds no points"
	if [ "$1" = rx ]; then
		"$LAB_TOP/lab/analyze" "$2" || die "could not analyze $2"
		cat "$2/summary.csv"
		return 0
	fi
	awk -v file="$csv" -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/exp/$1/summarize.awk" "$csv" ||
		die "could not summarize $csv"
}

# params_tsv <params.json>: one "path<TAB>value" line per scalar, object
# keys joined by ".", array elements numbered from 1, null empty; fails
# (jq's message on stderr) if the file is not JSON.
params_tsv()
{
	jq -r 'paths(scalars or . == null) as $p
		| [($p | map(if type == "number" then . + 1 | tostring else . end) | join(".")),
		   (getpath($p) // "" | tostring)] | @tsv' "$1"
}
