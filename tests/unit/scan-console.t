#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab/guest/scan-console: every kind of splat it must catch, in the form a
# 6.12 kernel prints it, is a hit; a clean console of a DEBUG=1 (lockdep)
# guest, whose boot talks about lockdep and bugs without any splat, is not.
# tests/run: side
set -u
# shellcheck source=lab/lib/lib.sh
. "$(dirname "$0")/../../lab/lib/lib.sh"
# shellcheck source=tests/lib.sh
. "$LAB_TOP/tests/lib.sh"

SCAN=$LAB_TOP/lab/guest/scan-console
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the boot of a lockdep kernel, serial console (CRLF), trimmed
clean()
{
	printf '%s\r\n' \
		'[    0.000000] Linux version 6.12.118-vanilla (lab@lab) #1 SMP PREEMPT_DYNAMIC' \
		'[    0.111702] rcu: 	RCU lockdep checking is enabled.' \
		'[    0.183221] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar' \
		'[    0.183819] ... MAX_LOCKDEP_SUBCLASSES:  8' \
		'[    0.185143] ... MAX_LOCKDEP_CHAINS:      65536' \
		'[    0.185619]  memory used by lock dependency info: 6429 kB' \
		'[    0.870655] PCI: Using host bridge windows from ACPI; if necessary, use "pci=nocrs" and report a bug' \
		'[    0.440022] clocksource: Switched to clocksource tsc-early' \
		'[    1.491536] tsc: Refined TSC clocksource calibration: 2599.979 MHz' \
		'[    1.492059] clocksource: Switched to clocksource tsc' \
		'lab: boot release=6.12.118-vanilla threaded=0 napi_threads='
}

# expect_hit <what> <line>: a clean console plus that line is one hit
expect_hit()
{
	local f=$tmp/hit.log out rc=0

	{ clean; printf '%s\r\n' "$2"; } >"$f"
	out=$("$SCAN" "$f" vanilla) || rc=$?
	printf '%s: rc=%s %s\n' "$1" "$rc" "$out" >>"$T_LOG"
	t_result "$([ "$rc" = 1 ] && echo "$out" | grep -q "^FAIL vanilla .*: 1 hit(s)" && echo 0 || echo 1)" \
		"scan-console: $1 is a hit"
}

clean >"$tmp/clean.log"
check "scan-console: a clean lockdep boot is ok" \
	bash -c "'$SCAN' '$tmp/clean.log' vanilla | grep -q '^ok vanilla'"
expect_hit "WARN" '[  12.3] WARNING: CPU: 0 PID: 12 at kernel/softirq.c:362 __local_bh_enable_ip+0x9c/0xd0'
expect_hit "BUG" '[  12.3] BUG: kernel NULL pointer dereference, address: 0000000000000008'
expect_hit "Oops" '[  12.3] Oops: 0002 [#1] SMP'
expect_hit "soft lockup" '[  40.1] watchdog: BUG soft lockup - CPU#0 stuck for 22s! [ksoftirqd/0:15]'
expect_hit "hard lockup" '[  40.1] Watchdog detected hard LOCKUP on cpu 0'
expect_hit "hung task" '[ 245.0] INFO: task kworker/0:1:25 blocked for more than 120 seconds.'
expect_hit "RCU stall" '[  61.2] rcu: INFO: rcu_sched self-detected stall on CPU'
expect_hit "lockdep: circular locking" '[  12.3] WARNING: possible circular locking dependency detected'
expect_hit "lockdep: inconsistent state" '[  12.3] inconsistent lock state'
expect_hit "lockdep: turned off by a report" '[  12.3] INFO: lockdep is turned off.'
expect_hit "suspicious RCU usage" '[  12.3] suspicious RCU usage.'
expect_hit "sleeping in atomic" '[  12.3] BUG: sleeping function called from invalid context at kernel/softirq.c:1'
expect_hit "panic" '[  12.3] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100'
expect_hit "TSC demoted by the clocksource watchdog" '[  30.1] tsc: Marking TSC unstable due to clocksource watchdog'
expect_hit "clocksource watchdog skew" "[  30.1] clocksource: timekeeping watchdog on CPU0: Marking clocksource 'tsc' as unstable because the skew is too large:"
expect_hit "TSC found unstable after boot" '[  30.1] TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'.'
expect_hit "switch to a fallback clocksource" '[  30.2] clocksource: Switched to clocksource hpet'
check "scan-console: a missing log is reported as a failure" \
	bash -c "! '$SCAN' '$tmp/nonexistent.log' vanilla | grep -q '^ok'"
[ "$T_FAILED" = 0 ]
