# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# subreaper: the command's exit status comes back, what the command
# orphans is the reaper's child (not PID 1's) and is reaped as it exits,
# and the reaper leaves once every descendant is gone.
# Sourced by test_tools.sh, which provides OUT, T and the check helpers.

check "subreaper --help" eval '"$OUT/subreaper" --help | grep -q "^Usage: subreaper"'
expect_exit 2 "subreaper without a command" "$OUT/subreaper"
expect_exit 5 "subreaper: the command's exit status" "$OUT/subreaper" sh -c 'exit 5'
expect_exit 143 "subreaper: a command killed by SIGTERM: 128 + 15" "$OUT/subreaper" sh -c 'kill -TERM $$'
expect_exit 127 "subreaper: a command that cannot be run: 127" "$OUT/subreaper" "$T/no-such-command"

# orphan_reaped: the command leaves a 0.5 s sleep behind and exits
orphan_reaped()
{
	local orphan reaper

	orphan=$("$OUT/subreaper" sh -c 'sleep 0.5 >/dev/null 2>&1 & echo $!') || return 1
	reaper=$(awk '$1 == "PPid:" { print $2 }' "/proc/$orphan/status" 2>/dev/null)
	echo "orphan $orphan, its parent $reaper: $(cat "/proc/$reaper/comm" 2>/dev/null)" >&2
	[ "$(cat "/proc/$reaper/comm" 2>/dev/null)" = subreaper ] || return 1
	# gone (not a zombie) within 0.2 s of its end, the reaper with it
	sleep 0.7
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -e "/proc/$orphan" ] || break
		sleep 0.02
	done
	echo "after 0.7-0.9 s: orphan $([ -e "/proc/$orphan" ] && echo left || echo gone)," \
		"reaper $(awk '$1 == "State:" { print $2 }' "/proc/$reaper/status" 2>/dev/null || echo gone)" >&2
	[ ! -e "/proc/$orphan" ] &&
		! awk '$1 == "State:" && $2 != "Z" { found = 1 } END { exit !found }' "/proc/$reaper/status" 2>/dev/null
}
check "subreaper: the command's orphan is the reaper's, reaped at its end; the reaper then leaves" orphan_reaped
