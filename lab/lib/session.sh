# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # HEALTH_FAILED is the driver's
# One guest of a lab run: boot it, talk to its sampler, stop it, scan its
# console.  Shared by lab/run and lab/tx; sourced after lab/lib/lib.sh and
# lab/lib/guest.sh.  Uses the caller's globals:
#   VARIANT REP       the guest booted (domain lab-$VARIANT-r$REP)
#   RUN               results directory; GDIR is set to $RUN/guests/<guest>
#   CUR               "what we are doing" for messages
#   TOOLS INITRD      build/tools and the initramfs
#   ACCEL_USED DEBUG CMDLINE_EXTRA BOOT_TIMEOUT
#   HEALTH_FAILED     set to 1 when a console shows a kernel problem

# Guest sampler over the results channel: snap <tag> -> "snap <tag> k=v..."
guest_req()
{
	"$TOOLS/chanctl" -S "$(chan_sock "lab-$VARIANT-r$REP")" -t "${SNAP_TIMEOUT_MS:-20000}" "$@"
}

# Why a guest stopped answering, for error messages.
guest_fate()
{
	local state panic

	state=$(lab_virsh domstate "lab-$VARIANT-r$REP" 2>/dev/null | head -1)
	panic=$(tr -d '\r' <"$GDIR/console.log" 2>/dev/null | grep -m1 -E 'Kernel panic|BUG:|Oops' || true)
	echo "guest ${state:-gone (destroyed or crashed)}${panic:+, console: $panic} (see $GDIR/console.log)"
}

wait_guest_up()
{
	local name=$1 deadline

	deadline=$(($(date +%s) + BOOT_TIMEOUT))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		"$TOOLS/chanctl" -S "$(chan_sock "$name")" -w 2000 ping >/dev/null 2>&1 && return 0
		lab_virsh domstate "$name" 2>/dev/null | grep -q running ||
			die "$CUR: guest died while booting: $(guest_fate)"
	done
	die "$CUR: guest did not come up within ${BOOT_TIMEOUT}s: $(guest_fate)"
}

# the guest command line tokens of a variant's kernel (lab/kernel/variants)
variant_cmdline()
{
	awk -v v="$(variant_kernel "$1")" '$1 == v { for (i = 2; i <= NF; i++) if ($i ~ /^cmdline=/) printf " %s", substr($i, 9) }' \
		"$LAB_VARIANTS_FILE"
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
	cmdline="$LAB_GUEST_CMDLINE lab_ip=$LAB_GUEST_IP/$LAB_PREFIX lab_host=$LAB_HOST_IP,$LAB_HOST_MAC $exp$vcmd$scmd $CMDLINE_EXTRA"
	[ ${#LAB_SOCKDIR} -le 60 ] || die "LAB_SOCKDIR '$LAB_SOCKDIR' is too long for a UNIX socket path"
	mkdir -p "$LAB_SOCKDIR"
	rm -f "$(chan_sock "$name")"
	domain_xml "$name" "$kdir/bzImage" "$INITRD" "${cmdline% }" "$ACCEL_USED" "$GDIR" "$vcpus" >"$GDIR/domain.xml"
	tap_create_outside
	lab_virsh create "$GDIR/domain.xml" >/dev/null ||
		die "$CUR: libvirt could not start the guest (domain XML: $GDIR/domain.xml)"
	defer guest_destroy "$name"
	tap_move_in
	defer scan_console_on_exit "$GDIR" "$VARIANT"
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
	local name=lab-$VARIANT-r$REP

	guest_req quit >/dev/null 2>&1 || true
	# gone within ~0.5 s of "quit"; destroyed after 10 s
	for _ in $(seq 200); do
		lab_virsh domstate "$name" >/dev/null 2>&1 || break
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
