# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # HEALTH_FAILED is the driver's
# One guest of a lab run: boot it, talk to its sampler, stop it, scan its
# console.  Shared by lab/run and lab/tx; sourced after lab/lib/lib.sh and
# lab/lib/guest.sh.  Uses the caller's globals:
#   VARIANT REP       the guest booted (domain lab-$VARIANT-r$REP)
#   QEMU_PID          set here, by boot_guest: its QEMU process
#   RUN               results directory; GDIR is set to $RUN/guests/<guest>
#   CUR               "what we are doing" for messages
#   TOOLS INITRD      build/tools and the initramfs
#   ACCEL_USED DEBUG CMDLINE_EXTRA BOOT_TIMEOUT
#   HEALTH_FAILED     set to 1 when a console shows a kernel problem

# Guest sampler over the results channel: snap <tag> -> "snap <tag> k=v...".
# chanctl's exit status tells a silent guest (5: no reply within the
# timeout) from a gone one (6: no socket, refused, or closed by QEMU).
guest_req()
{
	"$TOOLS/chanctl" -S "$(chan_sock "lab-$VARIANT-r$REP")" -t "${SNAP_TIMEOUT_MS:-20000}" "$@"
}

# qemu_exited <pid>: that QEMU process is gone, or a zombie (it has exited
# and waits to be reaped)
qemu_exited()
{
	local state

	[ -n "$1" ] || return 1
	state=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 0
	[ -z "$state" ] || [ "$state" = Z ] || [ "$state" = X ]
}

# The guest is running: its QEMU process is alive, its channel socket is
# there and libvirt says so.  The first two come first: libvirt learns of a
# QEMU that exits (destroyed, crashed, a guest that powered off) only when
# it handles the exit, and says "running", then "in shutdown", until then;
# QEMU removes the socket as it exits.  A running guest that does not
# answer is starved, or hung; a guest that is not running is gone.
guest_running()
{
	local name=lab-$VARIANT-r$REP

	! qemu_exited "${QEMU_PID:-}" && [ -S "$(chan_sock "$name")" ] &&
		lab_virsh domstate "$name" 2>/dev/null | grep -qx running
}

# Why a guest stopped answering, for error messages: gone (with what
# showed it) or libvirt's state, and a kernel panic or oops on its console.
guest_fate()
{
	local name=lab-$VARIANT-r$REP state panic how=

	state=$(lab_virsh domstate "$name" 2>/dev/null | head -1)
	if [ -n "${QEMU_PID:-}" ] && qemu_exited "$QEMU_PID"; then
		how="its QEMU (pid $QEMU_PID) has exited"
	elif [ ! -S "$(chan_sock "$name")" ]; then
		how="its channel socket is gone"
	elif [ -z "$state" ]; then
		how="libvirt no longer knows it"
	fi
	panic=$(tr -d '\r' <"$GDIR/console.log" 2>/dev/null | grep -m1 -E 'Kernel panic|BUG:|Oops' || true)
	if [ -n "$how" ]; then
		state="gone (destroyed or crashed: $how; libvirt says '${state:-no such domain}')"
	fi
	echo "guest $state${panic:+, console: $panic} (see $GDIR/console.log)"
}

# guest_lost <chanctl exit status> <what did not answer>: die, saying why
guest_lost()
{
	case $1 in
	4) die "$CUR: the guest refused $2 (an 'err' reply)" ;;
	6) die "$CUR: guest did not answer $2: $(guest_fate)" ;;
	esac
	guest_running || die "$CUR: guest did not answer $2: $(guest_fate)"
	die "$CUR: guest did not answer $2 within $((${SNAP_TIMEOUT_MS:-20000} / 1000)) s: $(guest_fate)"
}

wait_guest_up()
{
	local name=$1 deadline

	deadline=$(($(date +%s) + BOOT_TIMEOUT))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		"$TOOLS/chanctl" -S "$(chan_sock "$name")" -w 2000 ping >/dev/null 2>&1 && return 0
		guest_running || die "$CUR: guest died while booting: $(guest_fate)"
	done
	die "$CUR: guest did not come up within ${BOOT_TIMEOUT}s: $(guest_fate)"
}

# Test-only fault injection (tests/e2e/25-faults.t), LAB_FAULT=<fault>@<stage>[:<n>],
# the n-th time (default 1st) the run reaches <stage>: boot (libvirt has
# started the guest, its kernel is booting), A (before a point's snapshot
# A), flood (under a point's flood, before snapshot C), drain (a point's
# flood over, before the drain).
#   destroy  destroys the guest, as an operator's "virsh destroy" beside
#            the run would; it waits until QEMU has exited, not for libvirt
#            (which lags), so the stage's next request meets the gone guest.
#   stall    stops the guest's QEMU (SIGSTOP) for --starve + 2 s, as a host
#            that gives the guest no CPU at all would: the guest answers
#            nothing while the lab waits, so the point is starved whatever
#            the kernel under test does, and its clock falls behind the
#            host's by the stall.
LAB_FAULT_SEEN=0
lab_fault()
{
	local want=${LAB_FAULT:-} fault n

	fault=${want%%@*}
	want=${want#*@}
	[ "${want%:*}" = "$1" ] || return 0
	n=1
	[ "${want##*:}" = "$want" ] || n=${want##*:}
	LAB_FAULT_SEEN=$((LAB_FAULT_SEEN + 1))
	[ "$LAB_FAULT_SEEN" = "$n" ] || return 0
	case $fault in
	destroy)
		lab_virsh destroy "lab-$VARIANT-r$REP" >/dev/null 2>&1 &
		for _ in $(seq 100); do
			! qemu_exited "$QEMU_PID" || break
			sleep 0.05
		done
		log "$CUR: fault: destroyed the guest at $1 ($(date +%s%N))" ;;
	stall)
		kill -STOP "$QEMU_PID"
		(sleep $((${STARVE_S:-8} + 2)); kill -CONT "$QEMU_PID" 2>/dev/null) &
		log "$CUR: fault: stalled the guest at $1 for $((${STARVE_S:-8} + 2)) s ($(date +%s%N))" ;;
	*)
		die "LAB_FAULT '$LAB_FAULT': the fault is destroy or stall" ;;
	esac
}

# the guest command line tokens of a variant's kernel (lab/kernel/variants)
variant_cmdline()
{
	variant_values "$(variant_kernel "$1")" cmdline | awk '{ printf " %s", $0 }'
}

kernel_dir()
{
	echo "$LAB_KBUILD/kernels/$(variant_kernel "$1")$([ "$DEBUG" = 1 ] && echo -debug)"
}

# lab_set=<setting>,... for a setting variant's guest (lab/guest/init)
settings_cmdline()
{
	local s

	s=$(variant_settings "$1" | paste -sd,)
	[ -z "$s" ] || echo " lab_set=$s"
}

# boot_guest <experiment cmdline> [vcpus]: boot $VARIANT for repetition
# $REP with the experiment's lab_* parameters on its kernel command line,
# and wait until its sampler answers.
boot_guest()
{
	local exp=$1 vcpus=${2:-1} kdir name cmdline want got vcmd scmd

	kdir=$(kernel_dir "$VARIANT")
	name=lab-$VARIANT-r$REP
	GDIR=$RUN/guests/$VARIANT-r$REP
	mkdir -p "$GDIR"
	# one command substitution per command (see point_done in driver.sh)
	vcmd=$(variant_cmdline "$VARIANT")
	scmd=$(settings_cmdline "$VARIANT")
	cmdline="$(guest_base_cmdline) lab_ip=$LAB_GUEST_IP/$LAB_PREFIX lab_host=$LAB_HOST_IP,$LAB_HOST_MAC $exp$vcmd$scmd $CMDLINE_EXTRA"
	[ ${#LAB_SOCKDIR} -le 60 ] || die "LAB_SOCKDIR '$LAB_SOCKDIR' is too long for a UNIX socket path"
	mkdir -p "$LAB_SOCKDIR"
	rm -f "$(chan_sock "$name")"
	if [ "${EXP_BLOCK_DISK:-0}" = 1 ]; then
		block_disk_image "$GDIR"
		defer rm -f "$GDIR/disk.img"
	fi
	domain_xml "$name" "$kdir/bzImage" "$INITRD" "${cmdline% }" "$ACCEL_USED" "$GDIR" "$vcpus" >"$GDIR/domain.xml"
	tap_create_outside
	QEMU_PID=''
	lab_virsh create "$GDIR/domain.xml" >/dev/null ||
		die "$CUR: libvirt could not start the guest (domain XML: $GDIR/domain.xml)"
	defer guest_destroy "$name"
	QEMU_PID=$(qemu_pid "$name") || die "$CUR: cannot find the guest's QEMU process: $(guest_fate)"
	tap_move_in
	defer scan_console_on_exit "$GDIR" "$VARIANT"
	lab_fault boot
	wait_guest_up "$name"
	want=$(sed -n 's/^release=//p' "$kdir/info")
	got=$(sed -n 's/.*lab: boot release=\([^ ]*\).*/\1/p' "$GDIR/console.log" | tr -d '\r')
	[ "$got" = "$want" ] || die "$CUR: guest runs '$got', expected '$want'"
	settings_applied
}

# A run that dies mid-guest still scans and keeps that guest's console.
scan_console_on_exit()
{
	grep -qF "$1/console.log" "$RUN/health.txt" 2>/dev/null && return 0
	"$LAB_TOP/lab/guest/scan-console" "$1/console.log" "$2" >>"$RUN/health.txt"
}

# destroy a guest that is still there (stop_guest may have stopped it)
guest_destroy()
{
	lab_virsh domstate "$1" >/dev/null 2>&1 || return 0
	lab_virsh destroy "$1" >/dev/null 2>&1 ||
		! lab_virsh domstate "$1" 2>/dev/null | grep -q running
}

stop_guest()
{
	local name=lab-$VARIANT-r$REP end

	guest_req quit >/dev/null 2>&1 || true
	# gone within ~0.5 s of "quit"; destroyed after 10 s
	end=$(($(date +%s%N) + 10000000000))
	while lab_virsh domstate "$name" >/dev/null 2>&1; do
		if [ "$(date +%s%N)" -ge "$end" ]; then
			log "$CUR: the guest did not end within 10 s of quit: destroying it"
			break
		fi
		sleep 0.05
	done
	guest_destroy "$name" || true
	"$LAB_TOP/lab/guest/scan-console" "$GDIR/console.log" "$VARIANT" >>"$RUN/health.txt" ||
		HEALTH_FAILED=1
}

# A setting variant's settings, as the guest read them back: for every
# one, "lab: set <setting> readback=<value> ... ok" lines on the console
# (one per napi thread for sched:), none FAIL, or die.
settings_applied()
{
	local s line

	while read -r s; do
		[ -n "$s" ] || continue
		line=$(tr -d '\r' <"$GDIR/console.log" | grep -aF "lab: set $s ")
		[ -n "$line" ] || die "$CUR: the guest did not apply $s (see $GDIR/console.log)"
		! grep -qv ' ok$' <<<"$line" ||
			die "$CUR: the guest refused $s: $(grep -v ' ok$' <<<"$line" | head -1 | sed 's/^lab: set //')"
	done <<<"$(variant_settings "$VARIANT")"
}
