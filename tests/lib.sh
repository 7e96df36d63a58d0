# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # T_FAILED is the test's
# Helpers for tests/*.t: each check prints one TAP-like line
# "ok - <what>" or "not ok - <what>"; tests/run numbers and counts them.
# Sourced after lab/lib/lib.sh.

T_LOG=${T_LOG:-/dev/null}
T_FAILED=0

# pass/fail with a description
# Each result's time since the previous one goes to T_LOG ("took"), so a
# slow test can be read check by check (make test's budget, DEVELOPERS.md).
T_LAST=${EPOCHREALTIME:-}
t_result()
{
	local now=${EPOCHREALTIME:-}

	if [ -n "${T_LOG:-}" ] && [ -n "$now" ] && [ -n "$T_LAST" ]; then
		awk -v a="$T_LAST" -v b="$now" -v d="$2" 'BEGIN { printf "took %.1f s: %s\n", b - a, d }' >>"$T_LOG"
	fi
	T_LAST=$now
	if [ "$1" = 0 ]; then
		echo "ok - $2"
	else
		echo "not ok - $2"
		T_FAILED=1
	fi
}

# check <desc> <cmd...>: the command must succeed.  A failing check's
# last lines of output (in T_LOG) follow its "not ok" as "# " comments,
# so that a log kept only as the TAP stream (CI's) says what failed.
check()
{
	local desc=$1 rc=0 from=0

	shift
	[ ! -f "$T_LOG" ] || from=$(stat -c %s "$T_LOG")
	"$@" >>"$T_LOG" 2>&1 || rc=$?
	t_result $((rc != 0)) "$desc"
	[ $rc = 0 ] || [ ! -f "$T_LOG" ] ||
		tail -c +$((from + 1)) "$T_LOG" | tail -4 | cut -c1-300 | sed 's/^/#   /'
}

# refuse <desc> <pattern> <cmd...>: the command must fail (non-zero) and
# say something matching <pattern> (grep -E) in one of its last lines.
refuse()
{
	local desc=$1 pat=$2 rc=0 out

	shift 2
	out=$("$@" 2>&1) || rc=$?
	printf '%s\n' "--- $*" "$out" >>"$T_LOG"
	if [ $rc -ne 0 ] && printf '%s\n' "$out" | tail -3 | grep -qE -- "$pat"; then
		t_result 0 "$desc"
	else
		t_result 1 "$desc (rc=$rc, output: $(printf '%s' "$out" | tail -1))"
	fi
}

skip()
{
	echo "ok - $1 # SKIP $2"
}

# Column of a CSV by header name: csv_col <file> <name>
csv_col()
{
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } c { print $c }' "$1"
}

# slots <points.csv> <rep>: "variant=slot " for each variant of repetition
# rep, in the order they booted (slot: its place in the repetition)
slots()
{
	awk -F, -v rep="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["rep"] == rep && !seen[$c["variant"]]++ { printf "%s=%s ", $c["variant"], $c["slot"] }' "$1"
}

# tput_order <points.csv> <rep> <variant>: the throughput pass's rates of
# that boot, in the order measured
tput_order()
{
	awk -F, -v rep="$2" -v v="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["rep"] == rep && $c["variant"] == v && $c["pass"] == "tput" { printf "%s ", $c["rate_target"] }' "$1"
}

# One points.csv row (lab/exp/rx/point.awk's header) from name=value pairs, the
# other columns 0: point_row variant=v rep=1 ...
point_row()
{
	awk -v header=1 -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk" |
		awk -F, -v kv="$*" 'BEGIN { n = split(kv, p, " "); for (i = 1; i <= n; i++) { split(p[i], x, "="); v[x[1]] = x[2] } }
		{ for (i = 1; i <= NF; i++) printf "%s%s", ($i in v ? v[$i] : 0), (i < NF ? "," : "\n") }'
}

point_header()
{
	awk -v header=1 -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/rx/point.awk"
}

# guest_irqs_ok <console.log...>: each guest's "lab: boot irq" line has
# the timer on the IO-APIC and eth0's queues on MSI ("PCI-MSIX-<bdf>" in
# 6.12, "PCI-MSI" in 6.1).  acpi=noirq (lab/lib/guest.sh) takes PCI INTx
# routes from the MP table; without one (a kernel without X86_MPPARSE)
# the guest would fall back to the 8259 PIC and lose MSI.
guest_irqs_ok()
{
	local f line

	[ $# -gt 0 ] || return 1
	for f in "$@"; do
		line=$(tr -d '\r' <"$f" | grep -a '^lab: boot irq ')
		echo "$f: $line" >>"$T_LOG"
		grep -q ' timer=IO-APIC ' <<<"$line " &&
			grep -q ' virtio0-input\.0=PCI-MSI' <<<"$line " &&
			grep -q ' virtio0-output\.0=PCI-MSI' <<<"$line " || return 1
	done
}

# guest_traceable <console.log...>: each guest booted with the softirq
# experiment's tracepoints (lab/kernel/guest.config, lab/guest/init's
# "lab: boot trace" line), every one of them there and none on
guest_traceable()
{
	local f line

	[ $# -gt 0 ] || return 1
	for f in "$@"; do
		line=$(tr -d '\r' <"$f" | grep -a '^lab: boot trace ')
		echo "$f: $line" >>"$T_LOG"
		[ -n "$line" ] && ! grep -q '_[a-z]*=0 ' <<<"$line " && grep -q ' softirq_raise=1 ' <<<"$line " &&
			grep -q ' enabled=0 $' <<<"$line " || return 1
	done
}
