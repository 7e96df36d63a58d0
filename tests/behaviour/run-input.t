#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab/run refuses bad input with one clear line and a non-zero exit, and
# creates nothing: no results directory, no netns, no libvirtd.
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"
# shellcheck source=lab/lib/guest.sh
. "$LAB_TOP/lab/lib/guest.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rundir=$tmp/out
# Locks of its own: it runs beside a kernel build (tests/run's side lane),
# whose kernels lock would otherwise meet every run below that gets that far
export LAB_LOCKS=$tmp/locks
run()
{
	"$LAB_TOP/lab/run" -o "$rundir" "$@"
}

# What a refused run could have left: compared with the state before it
# (another lab may legitimately be running next to this test).
lab_state()
{
	ip netns list | grep -w "$LAB_NS"
	ls -l "$LAB_LV/libvirtd.pid" 2>/dev/null
	pgrep -x libvirtd
}
before=$(lab_state)

nothing_created()
{
	[ ! -e "$rundir" ] && [ "$(lab_state)" = "$before" ]
}

dry_run()
{
	local out

	out=$(run --dry-run -v "vanilla ksoftirqd-fix threaded-napi" -n 6 -r "16000 48000" --lat-rates 16000 2>&1) || return 1
	echo "$out"
	grep -q '^run: dry run: 18 boots (3 variants x 6 repetitions), 54 points, about [0-9:]* (an estimate)$' <<<"$out" &&
		grep -q '^run: dry run: order of repetition 1: vanilla ksoftirqd-fix threaded-napi$' <<<"$out"
}
check "--dry-run: the boots, points and an estimate, and nothing run" dry_run
check "--dry-run: nothing created" nothing_created
refuse "a note of two lines" "--note must be one line of text" run --note "$(printf 'a\nb')"
refuse "unknown variant" "unknown variant 'nope' \(known: vanilla ksoftirqd-fix threaded-napi" run -v "vanilla nope"
refuse "rate that is not a number" "rate '10k' is not a number" run -r "1000 10k"
refuse "negative rate" "rate '-5' is not a number" run -r "-5"
refuse "option without its value" "option '-o' needs a value" run -o
refuse "no rate" "no rate given" run -r ""
refuse "zero repetitions" "repetitions '0' must be 1..100" run -n 0
refuse "window of zero seconds" "window '0' must be 1..3600" run -w 0
refuse "payload too large" "payload '2000' must be 1..1472" run -s 2000
refuse "payload not a number" "payload 'big' must be 1..1472" run -s big
refuse "rcvbuf not a number" "rcvbuf '4M' must be" run -b 4M
refuse "unknown receiver mode" "mode 'poll' must be recvfrom or recvmmsg" run -m poll
refuse "unknown generator" "generator 'pktgen' must be flood or iperf3" run -g pktgen
refuse "iperf3 with the lab receiver's options" "with --generator iperf3 iperf3's server receives" \
	run -g iperf3 -m recvmmsg
refuse "iperf3 with a payload below its header" "payload '8' is below iperf3's 16-byte UDP header" \
	run -g iperf3 -s 8
refuse "unknown accelerator" "accelerator 'hvf' must be kvm, tcg or auto" run -a hvf
refuse "URI that is not a qemu system URI" "libvirt URI 'xen:///' is not a qemu system URI" run -u xen:///
refuse "unknown option" "unknown option '--frobnicate'" run --frobnicate
refuse "kernel command line with quotes" "must not contain quotes" run --cmdline "a='b'"
refuse "a rate given twice" "a rate is given twice" run -r "1000 2000 1000"
refuse "a latency rate not among the rates" "latency rate '5000' is not one of the rates" \
	run -r "1000 2000" --lat-rates 5000
refuse "unknown host scheduling" "host-sched 'rt' must be default, flood-idle, qemu-fifo or auto" run --host-sched rt
refuse "burst of zero microseconds" "burst '0' must be 1..1000000" run --burst-us 0
refuse "series not a number" "series '1s' must be 0..3600" run --series 1s
refuse "unknown guest speed" "speed 'fast' must be native or icount:N with N = 1..10" run --speed fast
refuse "icount shift out of range" "speed 'icount:11' must be native or icount:N with N = 1..10" run --speed icount:11
refuse "a fixed speed under KVM" "speed 'icount:4' needs TCG \(QEMU's -icount\): use --speed native with --accel kvm" \
	run --speed icount:4 -a kvm
# an empty grid is no rate, not the unlimited point (a rate of 0)
refuse "an empty grid" "no rate given" run --grid ""
refuse "a grid multiple that is not a number" "grid multiple 'x' must be a number in \(0, 1000\]" run --grid "1 x"
refuse "a knee of zero" "knee '0' must be 1..10000000 pps" run --knee 0
refuse "a starvation timeout of zero" "starve '0' must be 1..600 seconds" run --starve 0
# Setting variants: the kernel they boot and every setting are checked
# against lab/kernel/variants and lab/exp/rx/settings before anything boots.
defences=$tmp/defences
printf '%s\t%s\t%s\n' ok+x vanilla sysctl:net.core.netdev_budget=64 \
	bad+kernel nope sysctl:net.core.netdev_budget=64 \
	bad+setting vanilla sysctl:net.core.nope=1 \
	bad+value vanilla sysctl:net.core.netdev_budget_usecs=2000 \
	bad+policy threaded-napi sched:napi=idle:1 \
	bad+slice ksoftirqd-fix sched:slice=50000 \
	bad+form vanilla sock:busy_poll >"$defences"
drun()
{
	LAB_DEFENCES_FILE=$defences run "$@"
}
refuse "a setting variant of an unknown kernel" "setting variant 'bad\+kernel' boots 'nope', not a kernel variant" \
	drun -v bad+kernel
refuse "a setting the lab does not know (a sysctl the guest lacks)" "setting 'sysctl:net.core.nope=1': no such setting" \
	drun -v bad+setting
refuse "a value the kernel refuses (netdev_budget_usecs below 2 jiffies)" \
	"setting 'sysctl:net.core.netdev_budget_usecs=2000': the kernel takes 8000\.\.2147483647" drun -v bad+value
refuse "a scheduling policy the lab does not set" "setting 'sched:napi=idle:1': the kernel takes fifo" \
	drun -v bad+policy
refuse "a slice below 6.12's 0.1 ms clamp" "setting 'sched:slice=50000': the kernel takes 100000\.\.100000000" \
	drun -v bad+slice
refuse "a setting without a value" "setting 'sock:busy_poll' is not kind:name=value" drun -v bad+form
refuse "an unknown variant names the setting variants too" "unknown variant 'nope' \(known: .*ok\+x" \
	drun -v nope
# every setting variant of the lab's own defences file
all_defences_check()
{
	(
		# shellcheck source=lab/exp/rx/params.sh
		. "$LAB_TOP/lab/exp/rx/params.sh"
		VARIANTS=$(known_setting_variants | tr '\n' ' ')
		check_opts
	)
}
check "every setting variant of lab/exp/rx/defences passes the checks" all_defences_check
# variants after check_opts with these options
variants_after()
{
	(
		# shellcheck source=lab/exp/rx/params.sh
		. "$LAB_TOP/lab/exp/rx/params.sh"
		parse_opts "$@" >/dev/null
		echo "$VARIANTS"
	)
}
defences_of_612()
{
	local v

	v=" $(variants_after --defences all) "
	echo "--defences all:$v" >>"$T_LOG"
	case $v in *" vanilla+busy-poll "*) ;; *) return 1 ;; esac
	case $v in *v6.1*|*+slice*) return 1 ;; esac
}
check "--defences all: the 6.12 defences, not 6.1's v6.1+threaded nor the slice ablation" defences_of_612
check "--upstream adds v6.1-revert, v6.1 and v6.1+threaded" \
	test "$(variants_after -v vanilla --upstream | tr -s ' ')" = "vanilla v6.1-revert v6.1 v6.1+threaded"
check "nothing created by any of the above" nothing_created

refuse "missing kernel, naming the one variant to build" "no kernel for vanilla at .*: run 'make kernels VARIANTS=vanilla'" \
	env LAB_KBUILD="$tmp/empty-kbuild" "$LAB_TOP/lab/run" -o "$rundir" -v vanilla
# The kernels are shared by every clone: one built from other patches or
# other config fragments (another clone's) is not booted.
fake_kernel()
{
	mkdir -p "$tmp/kb-$1/kernels/vanilla"
	: >"$tmp/kb-$1/kernels/vanilla/bzImage"
	printf 'series_hash=%s\nfragments_hash=%s\n' "$2" "$3" >"$tmp/kb-$1/kernels/vanilla/info"
}
fake_kernel series 0123456789ab "$(fragments_hash vanilla)"
fake_kernel config "$(variant_series_hash vanilla)" 0123456789ab
fake_kernel ours "$(variant_series_hash vanilla)" "$(fragments_hash vanilla)"
for k in series config; do
	refuse "a kernel built from other $k than this clone's" \
		"built from other patches or config fragments than this clone's.*run 'make kernels VARIANTS=vanilla'" \
		env LAB_KBUILD="$tmp/kb-$k" "$LAB_TOP/lab/run" -o "$rundir" -v vanilla
done
# ... while this clone's passes that check and stops at the next (no
# tools in an empty build directory)
refuse "a kernel with this clone's series and fragments stamps is taken (the run stops at the tools)" \
	"chanctl missing" env LAB_KBUILD="$tmp/kb-ours" LAB_BUILD="$tmp/empty-build" \
	"$LAB_TOP/lab/run" -o "$rundir" -v vanilla
refuse "not root" "lab/run needs root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LAB_TOP/lab/run" -o "$rundir"

# A PATH with everything but libvirt's tools.
mkdir -p "$tmp/bin"
# one ln per directory (one per file took 8 s); a name already linked
# from an earlier directory keeps that link, as PATH's order would
for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
	ln -s "$d"/* "$tmp/bin/" 2>/dev/null || true
done
rm -f "$tmp/bin/virsh" "$tmp/bin/libvirtd"
refuse "libvirt absent" "'virsh' not found: run 'make deps' first" \
	env PATH="$tmp/bin" "$LAB_TOP/lab/run" -o "$rundir"
check "nothing created by missing kernel, not root, no libvirt" nothing_created

# A second lab while one holds the lock.
mkdir -p "$LAB_LOCKS"
# One process holds both locks, so killing it frees them.
(
	exec 8>>"$LAB_LOCKS/run.lock" 9>>"$LAB_LOCKS/kernels.lock"
	flock 8 && flock 9 && exec sleep 30
) &
holder=$!
sleep 0.5
refuse "a second lab while one runs" "another lab run or kernel build is in progress" run -v vanilla
refuse "a kernel build while a lab runs" "another lab run or kernel build is in progress" \
	"$LAB_TOP/lab/kernel/build" vanilla
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
check "the locks are free once the holder is gone" \
	flock -n "$LAB_LOCKS/run.lock" flock -n "$LAB_LOCKS/kernels.lock" true
check "nothing created by the locked-out run" nothing_created

# The variant order of repetition r is williams r-1.  A design is balanced
# when, over its repetitions, each variant takes each position equally
# often and follows each other variant equally often.
# balanced <order command> <n>: the design of n items that command gives
balanced()
{
	local cmd=$1 n=$2 len r j items=() row

	for ((j = 0; j < n; j++)); do
		items+=("v$j")
	done
	len=$(williams_len "$n")
	for ((r = 0; r < len; r++)); do
		row=$("$cmd" "$r" "${items[@]}")
		echo "$row"
	done | awk -v n="$n" -v len="$len" '
		{ if (NF != n) bad = 1
		  for (j = 1; j <= NF; j++) { pos[$j, j]++; seen[$j]++ }
		  for (j = 2; j <= NF; j++) after[$(j - 1), $j]++ }
		END {
			for (a in seen) {
				if (seen[a] != len) bad = 1
				for (j = 1; j <= n; j++)
					if (pos[a, j] != len / n) bad = 1
				for (b in seen)
					if (a != b && after[a, b] != len / n) bad = 1
			}
			exit bad || length(seen) != n
		}'
}
for n in 1 2 3 4 5 6 11; do
	check "williams: $n variants, $(williams_len "$n") repetitions: positions and predecessors balanced" \
		balanced williams "$n"
done
# the order the lab used before: rotated left by r
rotation()
{
	local k=$1

	shift
	k=$((k % $#))
	set -- "${@:k+1}" "${@:1:k}"
	echo "$*"
}
rotation_refused()
{
	! balanced rotation 3
}
check "the check fails a cyclic rotation of 3 variants (each always after the same one)" \
	rotation_refused
check "williams: the first orders of 3 variants, and the mirror" \
	test "$(williams 0 a b c)/$(williams 1 a b c)/$(williams 3 a b c)/$(williams 6 a b c)/$(williams 0)" = "a b c/b c a/c b a/a b c/"
check "balanced_reps: at least 5, whole blocks of 2n, for 1..4 variants" \
	test "$(balanced_reps 5 a) $(balanced_reps 5 a b) $(balanced_reps 5 a b c) $(balanced_reps 5 a b c d)" = "6 8 6 8"
# The rate order of repetition r (lab/exp/rx/hooks.sh): ascending in the
# first n repetitions of every 2n, descending in the next n, unlimited (0)
# the highest load.  e2e/20-lab runs one repetition: its ascending order
# is checked there.
rates_of_rep()
{
	(
		RATES=$1 VARIANTS=$3
		eval "$(sed -n '/^rates_in_order()/,/^}/p' "$LAB_TOP/lab/exp/rx/hooks.sh")"
		rates_in_order "$2" | xargs
	)
}
check "rates_in_order: 3 variants, ascending in repetitions 1-3 and 7, descending in 4-6, unlimited (0) the highest" \
	test "$(rates_of_rep "48000 0 16000" 1 "a b c")/$(rates_of_rep "48000 0 16000" 3 "a b c")/$(rates_of_rep "48000 0 16000" 4 "a b c")/$(rates_of_rep "16000 48000" 6 "a b c")/$(rates_of_rep "16000 48000" 7 "a b c")" = \
	"16000 48000 0/16000 48000 0/0 48000 16000/48000 16000/16000 48000"
# Each rate direction is a complete Latin square of the Williams design:
# over one block (balance_len) every variant takes every slot once with
# the rates ascending and once with them descending.
direction_balanced()
{
	local n=$1 r j items=() dir

	for ((j = 0; j < n; j++)); do
		items+=("v$j")
	done
	for ((r = 1; r <= $(balance_len "$n"); r++)); do
		dir=$(rates_of_rep "1 2" "$r" "${items[*]}" | cut -d' ' -f1)
		echo "$dir $(williams $((r - 1)) "${items[@]}")"
	done | awk -v n="$n" '{ for (j = 2; j <= NF; j++) slot[$1, $j, j - 1]++ }
		END { for (k in slot) if (slot[k] != 1) exit 1; exit length(slot) != 2 * n * n }'
}
for n in 1 2 3 4 5 6 11; do
	check "balance: $n variants, $(balance_len "$n") repetitions: each rate direction a complete Latin square" \
		direction_balanced "$n"
done
# default_reps of lab/lib/opts.sh, in a subshell of its own
default_reps_of()
{
	(
		# shellcheck source=lab/lib/opts.sh
		. "$LAB_TOP/lab/lib/opts.sh"
		MIN_REPS=5 VARIANTS=$1 default_reps
	)
}
check "default repetitions: whole designs up to twice 5 (8 for 2 variants, 6 for 3, 10 for 5), 5 for 11 (22 would be one design)" \
	test "$(default_reps_of "a b")/$(default_reps_of "a b c")/$(default_reps_of "a b c d e")/$(default_reps_of "a b c d e f g h i j k")" = "8/6/10/5"
