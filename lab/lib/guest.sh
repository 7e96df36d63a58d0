# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# Lab network namespace, private libvirtd and guest domains.  Sourced by
# lab/run and the tests after lab/lib/lib.sh; every resource created here is
# registered with defer() so it goes away on exit, error or Ctrl-C.

LAB_NS=${LAB_NS:-livelock-lab}
LAB_TAP=${LAB_TAP:-labtap0}
LAB_HOST_IP=10.77.0.1
LAB_HOST_MAC=52:54:00:77:00:01
LAB_GUEST_IP=10.77.0.2
LAB_GUEST_MAC=52:54:00:77:00:02
LAB_PREFIX=24
# Every guest's kernel command line starts so.  TSC stays the clocksource
# and is trusted (no clocksource watchdog): a demoted TSC switches IRQ
# time accounting off, and the CPU attribution (lab/exp/rx/point.awk's closure)
# would no longer add up.  Each snapshot records the clocksource and
# lab/guest/scan-console fails a console that shows a demotion.
# acpi=noirq: PCI INTx routes come from the MP table, not from ACPI's _PRT
# (lab/kernel/guest.config, X86_MPPARSE: 2.2 s of every fixed-speed boot);
# the virtio devices use MSI-X, and the IO-APIC stays on.
LAB_GUEST_CMDLINE="console=ttyS0 panic=-1 tsc=reliable clocksource=tsc acpi=noirq"
LAB_LV=$LAB_BUILD/libvirt
LAB_ALLOWLIST=$LAB_BUILD/state/allowlist
# The guests' results channels are UNIX sockets, whose paths may not pass
# 107 bytes: they live here, not in the (arbitrarily deep) results tree.
LAB_SOCKDIR=${LAB_SOCKDIR:-/run/livelock-lab}

# chan_sock <domain>: the host end of that guest's results channel
chan_sock()
{
	echo "$LAB_SOCKDIR/$1.sock"
}

in_ns()
{
	ip netns exec "$LAB_NS" "$@"
}

# The lab netns: lo, one tap for the guest, no other link and no route
# beyond the guest's /24.  Flood traffic cannot leave it.
netns_create()
{
	ip netns del "$LAB_NS" 2>/dev/null || true
	ip netns add "$LAB_NS" || die "cannot create netns $LAB_NS"
	defer ip netns del "$LAB_NS"
	ip -n "$LAB_NS" link set lo up
	# Nothing but lab traffic on the tap: no IPv6 chatter (router
	# solicitations, MLD), no ARP (static entries on both sides).
	in_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
	mkdir -p "$(dirname "$LAB_ALLOWLIST")"
	printf '# guests of the running lab (flood/probe allowlist)\n%s\n' \
		"$LAB_GUEST_IP" >"$LAB_ALLOWLIST"
	defer rm -f "$LAB_ALLOWLIST"
	# The private libvirtd runs inside the netns and opens the tap there.
	# A libvirt outside it (LIBVIRT_URI) gets a tap in its own namespace,
	# moved into the netns once QEMU holds it (tap_move_in).
	if [ -z "${LIBVIRT_URI:-}" ]; then
		ip -n "$LAB_NS" tuntap add dev "$LAB_TAP" mode tap ||
			die "cannot create tap $LAB_TAP (is /dev/net/tun there?)"
		tap_configure
	fi
}

tap_configure()
{
	ip -n "$LAB_NS" link set "$LAB_TAP" address "$LAB_HOST_MAC"
	ip -n "$LAB_NS" addr add "$LAB_HOST_IP/$LAB_PREFIX" dev "$LAB_TAP"
	ip -n "$LAB_NS" link set "$LAB_TAP" up
	# A guest that never answers ARP must not stall the flood.
	ip -n "$LAB_NS" neigh replace "$LAB_GUEST_IP" lladdr "$LAB_GUEST_MAC" \
		dev "$LAB_TAP" nud permanent
}

# External libvirt only: a fresh tap in the main namespace for QEMU to
# open (no address, no route), then moved into the lab netns.
tap_create_outside()
{
	[ -n "${LIBVIRT_URI:-}" ] || return 0
	ip -n "$LAB_NS" link del "$LAB_TAP" 2>/dev/null || true
	ip tuntap add dev "$LAB_TAP" mode tap || die "cannot create tap $LAB_TAP"
	defer tap_del_outside
}

# the outside tap, unless it was moved into the netns (which takes it along)
tap_del_outside()
{
	ip link show "$LAB_TAP" >/dev/null 2>&1 || return 0
	ip link del "$LAB_TAP"
}

tap_move_in()
{
	[ -n "${LIBVIRT_URI:-}" ] || return 0
	ip link set "$LAB_TAP" netns "$LAB_NS" ||
		die "cannot move $LAB_TAP into $LAB_NS"
	tap_configure
}

netns_check_isolated()
{
	local links routes

	links=$(ip -n "$LAB_NS" -o link show | awk -F': ' '{ print $2 }' | sed 's/@.*//' | sort | tr '\n' ' ')
	[ "$links" = "$LAB_TAP lo " ] || die "netns $LAB_NS has unexpected links: $links"
	routes=$(ip -n "$LAB_NS" route show | grep -v "^10.77.0.0/$LAB_PREFIX " || true)
	[ -z "$routes" ] || die "netns $LAB_NS has routes out: $routes"
}

# Host-side counters of the tap, read inside the netns, with the host
# time (ns) they were read at, the netns's IP OutRequests (ip_out: every
# packet the netns sent, iperf3's TCP control connection too) and its
# ICMP OutMsgs (icmp_out: the port unreachables the host sends the guest
# for a reply that comes after latprobe closed its socket; they cross the
# tap like the flood).
tap_counters()
{
	local s=/sys/class/net/$LAB_TAP/statistics

	in_ns sh -c "echo t_ns=\$(date +%s%N) tap_tx_packets=\$(cat $s/tx_packets) tap_tx_dropped=\$(cat $s/tx_dropped); cat /proc/net/snmp" |
		awk 'NR == 1 { line = $0; next }
		     ($1 == "Ip:" || $1 == "Icmp:") && !h[$1] { for (i = 2; i <= NF; i++) col[$1, $i] = i; h[$1] = 1; next }
		     $1 == "Ip:" { line = line " ip_out=" $col["Ip:", "OutRequests"] }
		     $1 == "Icmp:" { line = line " icmp_out=" $col["Icmp:", "OutMsgs"] }
		     END { print line }'
}

# ---- libvirt -------------------------------------------------------------

lab_uri()
{
	if [ -n "${LIBVIRT_URI:-}" ]; then
		echo "$LIBVIRT_URI"
	else
		echo "qemu+unix:///system?socket=$LAB_LV/run/libvirt-sock"
	fi
}

lab_virsh()
{
	virsh -q -c "$(lab_uri)" "$@"
}

libvirtd_write_config()
{
	local d

	for d in etc run lib log cache; do
		mkdir -p "$LAB_LV/$d"
	done
	cat >"$LAB_LV/etc/qemu.conf" <<CONF
# written by the livelock lab: root-run QEMU, no labelling, no virtlogd
user = "root"
group = "root"
dynamic_ownership = 0
security_driver = "none"
stdio_handler = "file"
CONF
	cat >"$LAB_LV/etc/libvirtd.conf" <<CONF
# written by the livelock lab
log_outputs = "3:file:/var/log/libvirt/libvirtd.log"
CONF
}

libvirtd_kill_stale()
{
	local f

	for f in "$LAB_LV"/run/qemu/*.pid "$LAB_LV"/libvirtd.pid; do
		[ -f "$f" ] || continue
		kill -9 "$(cat "$f")" 2>/dev/null || true
		rm -f "$f"
	done
	rm -rf "${LAB_LV:?}/run" "${LAB_LV:?}/lib"
}

# A private libvirtd inside the lab netns: its config, state and socket
# are bind-mounted from $LAB_LV in a mount namespace of its own, so it
# neither sees nor touches a system libvirt.  It runs below
# lab/tools/subreaper, which reaps it and its QEMUs as they exit: libvirt
# waits for a stopped QEMU's PID to go, and a PID 1 that is not systemd
# may reap orphans late (~2 s per guest under a firecracker init).
libvirtd_start()
{
	local i reaper=$LAB_BUILD/tools/subreaper

	[ -z "${LIBVIRT_URI:-}" ] || return 0
	need_cmd libvirtd virsh
	[ -x "$reaper" ] || die "$reaper missing: run 'make tools'"
	getent passwd libvirt-qemu >/dev/null ||
		die "user libvirt-qemu missing (libvirtd needs it): run 'make deps'"
	libvirtd_kill_stale
	libvirtd_write_config
	defer libvirtd_stop
	( without_locks in_ns "$reaper" unshare -m sh -c '
		set -e
		lv=$1
		mount --make-rprivate /
		mount --bind "$lv/etc" /etc/libvirt
		mount --bind "$lv/run" /run/libvirt 2>/dev/null ||
			{ mkdir -p /run/libvirt && mount --bind "$lv/run" /run/libvirt; }
		mkdir -p /var/lib/libvirt /var/log/libvirt /var/cache/libvirt
		mount --bind "$lv/lib" /var/lib/libvirt
		mount --bind "$lv/log" /var/log/libvirt
		mount --bind "$lv/cache" /var/cache/libvirt
		# "ip netns exec" remounted /sys: bring back the cgroup v1
		# controllers so libvirt can place vCPU and emulator threads.
		if [ -d /sys/fs/cgroup ] && [ -d /proc/1/root/sys/fs/cgroup/cpu ]; then
			mount -t tmpfs cgroup_root /sys/fs/cgroup
			for c in cpu cpuacct cpuset memory devices freezer blkio pids; do
				mkdir -p /sys/fs/cgroup/$c
				mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c 2>/dev/null || rmdir /sys/fs/cgroup/$c
			done
		fi
		exec libvirtd --daemon --pid-file "$lv/libvirtd.pid"
	' sh "$LAB_LV" ) >"$LAB_LV/start.log" 2>&1 ||
		{ cat "$LAB_LV/start.log" >&2; die "libvirtd failed to start"; }
	for i in $(seq 50); do
		lab_virsh version >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	tail -5 "$LAB_LV/log/libvirtd.log" >&2 2>/dev/null || true
	die "libvirtd started but does not answer on $LAB_LV/run/libvirt-sock"
}

# Its guests are gone by now (each is destroyed with its scope) and its
# state is thrown away: a clean exit is given 0.5 s, then it is killed.
# (libvirtd 9.0 took 1.9 s to exit on SIGTERM, once per lab/run.)
libvirtd_stop()
{
	local pid i

	[ -f "$LAB_LV/libvirtd.pid" ] || return 0
	pid=$(cat "$LAB_LV/libvirtd.pid")
	kill "$pid" 2>/dev/null || true
	for i in 1 2 3 4 5; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	libvirtd_kill_stale
}

# ---- accelerator ---------------------------------------------------------

# KVM only when it can really run a guest: hardware virtualisation flags,
# a usable /dev/kvm, and QEMU agreeing to start with it.  /dev/kvm alone
# proves nothing (a kvm_pvm host has one and cannot boot a stock kernel).
host_accel()
{
	if [ -n "${ACCEL:-}" ]; then
		case $ACCEL in
		kvm|tcg) echo "$ACCEL"; return 0 ;;
		*) die "ACCEL must be kvm or tcg, not '$ACCEL'" ;;
		esac
	fi
	if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ] &&
	   timeout 20 qemu-system-x86_64 -accel kvm -machine pc -cpu host \
		-display none -nodefaults -no-reboot -m 16 \
		-S -qmp stdio >/dev/null 2>&1 <<<'{"execute":"qmp_capabilities"}{"execute":"quit"}'; then
		echo kvm
	else
		echo tcg
	fi
}

# ---- guest speed ---------------------------------------------------------
# Under TCG a native-speed guest runs as fast as its host core emulates it,
# about as fast as QEMU's main loop can hand it packets, so which of the two
# gives out first under a flood moved from host to host.  icount:N fixes the
# guest's speed instead: QEMU counts instructions and, with align=on and
# sleep=on, runs 10^9 / 2^N of them per second of host time, sleeping when
# ahead; the guest's clocks (TSC, jiffies, hrtimers) advance with that count.
# So the guest is the same machine on every host fast enough to keep up:
# the gate_clock column (QEMU's TCG thread had slack to sleep) shows a
# host that did not.

# speed_shift <speed>: the icount shift N of icount:N, "" for native;
# false for anything else
speed_shift()
{
	case $1 in
	native) echo ;;
	icount:[1-9]|icount:10) echo "${1#icount:}" ;;
	*) return 1 ;;
	esac
}

# QEMU's -icount argument for a speed ("" for native)
speed_icount()
{
	local n

	n=$(speed_shift "$1") || return 1
	[ -z "$n" ] || echo "shift=$n,align=on,sleep=on"
}

# the guest's instruction rate in M/s (empty for native)
speed_mips()
{
	local n

	n=$(speed_shift "$1") || return 1
	[ -z "$n" ] || awk -v n="$n" 'BEGIN { print 1000 / 2 ^ n }'
}

# speed_accel <host accelerator>: what the guest runs under.  A
# fixed-speed guest (SPEED icount:N) runs under TCG whatever the host has;
# a native-speed one gets the host's.
speed_accel()
{
	if [ "${SPEED:-native}" != native ]; then
		echo tcg
	else
		echo "$1"
	fi
}

# ---- domains -------------------------------------------------------------

host_cpus()
{
	echo "$LAB_HOST_CPUS"
}

# vCPU on the last host core; emulator threads and the flooder on the rest.
vcpu_cpuset()
{
	echo $(($(host_cpus) - 1))
}

helper_cpuset()
{
	local n

	n=$(host_cpus)
	if [ "$n" -ge 2 ]; then
		echo "0-$((n - 2))"
	else
		echo 0
	fi
}

# domain_xml <name> <kernel> <initrd> <cmdline> <accel> <rundir> [vcpus]
# One vCPU (the default) sits on the last host core; with more, vCPU i is
# pinned to host core i mod (host cores) (lab/tx).  EXP_TRACE_PORT=1 adds
# the trace port, virtio-serial "lab.1" into <rundir>/trace.txt (lab/softirq).
# EXP_BLOCK_DISK=1 adds the block probe's disk, virtio-blk "vda" with one
# queue on <rundir>/disk.img (block_disk_image), and a second possible
# vCPU, never present (current 1 of 2): two possible CPUs, one online,
# and blk-mq completes in BLOCK_SOFTIRQ (lab/kernel/guest.config); the
# guest boots with acpi=off to see it (guest_base_cmdline).  A second vCPU
# taken offline in the guest would do too, but under -icount QEMU runs
# both in one round-robin thread and the guest then took the flood in 4x
# fewer NET_RX passes, idled 5-7 % at 16 kpps and lost its clock in 22
# windows of 144 (7 and 4 in the one-vCPU runs before; docs/softirq.md):
# not the RX sweep's machine.
domain_xml()
{
	local name=$1 kernel=$2 initrd=$3 cmdline=$4 accel=$5 dir=$6 vcpus=${7:-1}
	local type=qemu cpu="<cpu mode='maximum'/>" tune="" pins="" i icount qemu=""
	local vcpu="<vcpu placement='static'>$vcpus</vcpu>" disk=""

	icount=$(speed_icount "${SPEED:-native}") || die "bad guest speed '${SPEED:-}'"
	if [ -n "$icount" ]; then
		[ "$accel" = tcg ] || die "guest speed $SPEED needs TCG, not $accel"
		# libvirt 9.0 has no element for -icount: QEMU command-line passthrough
		qemu="<qemu:commandline><qemu:arg value='-icount'/><qemu:arg value='$icount'/></qemu:commandline>"
	fi

	if [ "$accel" = kvm ]; then
		type=kvm
		cpu="<cpu mode='host-passthrough'/>"
	fi
	if [ "$vcpus" -gt 1 ]; then
		for ((i = 0; i < vcpus; i++)); do
			pins="$pins<vcpupin vcpu='$i' cpuset='$((i % $(host_cpus)))'/>"
		done
		tune="<cputune>$pins<emulatorpin cpuset='$(helper_cpuset)'/></cputune>"
	elif [ "$(host_cpus)" -ge 2 ]; then
		tune="<cputune><vcpupin vcpu='0' cpuset='$(vcpu_cpuset)'/><emulatorpin cpuset='$(helper_cpuset)'/></cputune>"
	fi
	if [ "${EXP_BLOCK_DISK:-0}" = 1 ]; then
		[ "$vcpus" = 1 ] || die "the block probe's guest has one online vCPU, not $vcpus"
		vcpu="<vcpu placement='static' current='1'>2</vcpu>"
		disk="
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='writeback' queues='1'/>
      <source file='$dir/disk.img'/>
      <target dev='vda' bus='virtio'/>
    </disk>"
	fi
	cat <<XML
<domain type='$type' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>
  <name>$name</name>
  <memory unit='MiB'>256</memory>
  $vcpu
  $tune
  <os>
    <type arch='x86_64' machine='pc'>hvm</type>
    <kernel>$kernel</kernel>
    <initrd>$initrd</initrd>
    <cmdline>$cmdline</cmdline>
  </os>
  <features><acpi/><apic/></features>
  $cpu
  <clock offset='utc'/>
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>destroy</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <emulator>$(command -v qemu-system-x86_64)</emulator>
    <interface type='ethernet'>
      <mac address='$LAB_GUEST_MAC'/>
      <target dev='$LAB_TAP' managed='no'/>
      <model type='virtio'/>
    </interface>
    <serial type='file'>
      <source path='$dir/console.log'/>
      <target port='0'/>
    </serial>
    <channel type='unix'>
      <source mode='bind' path='$(chan_sock "$name")'/>
      <target type='virtio' name='lab.0'/>
    </channel>$([ "${EXP_TRACE_PORT:-0}" = 0 ] || printf "
    <channel type='file'>
      <source path='%s/trace.txt'/>
      <target type='virtio' name='lab.1'/>
    </channel>" "$dir")
$disk
    <memballoon model='none'/>
  </devices>
  $qemu
</domain>
XML
}

# guest_base_cmdline: LAB_GUEST_CMDLINE, with acpi=off instead of
# acpi=noirq for a guest with the block probe's second possible CPU
# (EXP_BLOCK_DISK): 6.12 counts a disabled MADT entry as possible only
# under a hypervisor it recognises (acpi_is_processor_usable()), and TCG
# is none, while the BIOS's MP table entry counts.  Interrupts are routed
# from the MP table either way; without ACPI there is no HPET or PM
# timer, and the TSC is calibrated against the PIT, exact at a fixed
# instruction rate.
guest_base_cmdline()
{
	if [ "${EXP_BLOCK_DISK:-0}" = 1 ]; then
		echo "${LAB_GUEST_CMDLINE/acpi=noirq/acpi=off}"
	else
		echo "$LAB_GUEST_CMDLINE"
	fi
}

# block_disk_image <rundir>: the block probe's disk, 64 MiB, sparse (it
# reads zeros from the host's page cache: the guest's completion path is
# what it measures, not a disk)
block_disk_image()
{
	rm -f "$1/disk.img"
	truncate -s 64M "$1/disk.img" || die "cannot create $1/disk.img"
}

# qemu_pid <domain>: the guest's QEMU process (its threads are sampled by
# lab/tools/threadstat for the overload gates)
qemu_pid()
{
	local f=$LAB_LV/run/qemu/$1.pid pid

	if [ -z "${LIBVIRT_URI:-}" ] && [ -s "$f" ]; then
		pid=$(cat "$f")
	else
		pid=$(pgrep -o -f -- "guest=$1," || true)
	fi
	[ -n "$pid" ] && [ -d "/proc/$pid" ] || return 1
	echo "$pid"
}
