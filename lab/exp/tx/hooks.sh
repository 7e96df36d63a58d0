# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# The TX experiment (lab/tx), an ablation of 3bcb846ca4cf ("net: get rid
# of spin_trylock() in net_tx_action()", v4.8); see lab/exp/tx/meta and
# README.md.  Hooks of lab/lib/driver.sh; sourced after
# lab/exp/tx/params.sh.
#
# The guest (lab_exp=tx, lab/guest/tx-init) installs prio + tbf + fq_codel
# on eth0 and starts udp_blast's senders at boot; they run for warm-up +
# window + TX_SLACK seconds.  Per boot:
#   snapshot A (booted) -> until the senders have run the warm-up ->
#   snapshot C -> window -> snapshot D -> senders stop, qdisc drains ->
#   snapshot B
# Rates and CPU shares come from C..D, totals from B (point.awk).

EXP=tx
EXP_RUN_PREFIX=tx-
EXP_VCPUS=$VCPUS
# An address of the lab /24 and a MAC that nobody owns: the frames reach
# the host's tap and are dropped there (see lab/guest/tx-init).
TX_DST=10.77.0.3,52:54:00:77:00:03
# The senders run this much longer than warm-up + window: time for the
# snapshots, so that they still send when the window closes.
TX_SLACK=5

# Host side of the tap: what the guest sent (0 before the tap exists).
tap_rx()
{
	local s=/sys/class/net/$LAB_TAP/statistics

	in_ns sh -c "echo t_ns=\$(date +%s%N) tap_rx_packets=\$(cat $s/rx_packets 2>/dev/null || echo 0) tap_rx_dropped=\$(cat $s/rx_dropped 2>/dev/null || echo 0)"
}

snap()
{
	tap_rx | sed "s/\([a-z_0-9]*\)=/tap$1.\1=/g"
	snap_guest "$1"
}

# key <name> <key=value text>: the value
key()
{
	tr ' ' '\n' <<<" $2" | sed -n "s/^$1=//p" | head -1
}

# Sleep until the senders have run <s> seconds (by the guest's clock).
sleep_until_sent_for()
{
	local line left

	line=$(guest_req snap wait) || guest_lost $? "snapshot wait"
	[ "$(key blast_running "$line")" = 1 ] ||
		die "$CUR: the guest's senders are not running (see $GDIR/console.log)"
	left=$(awk -v s="$1" -v t="$(key t_ns "$line")" -v b="$(key blast_start_ns "$line")" \
		'BEGIN { x = s - (t - b) / 1e9; printf "%.3f", (x > 0 ? x : 0) }')
	sleep "$left"
}

# After the window: wait for the senders to stop and the qdisc to empty.
wait_drained()
{
	local deadline line last=-1 now

	deadline=$(($(date +%s) + TX_SLACK + 30))
	while [ "$(date +%s)" -lt "$deadline" ]; do
		line=$(guest_req snap drain) || guest_lost $? "snapshot drain"
		now=$(key nic_tx_packets "$line")
		if [ "$(key blast_running "$line")" = 0 ] &&
		   [ "$(key qdisc_prio_qlen "$line")" = 0 ] && [ "$now" = "$last" ]; then
			return 0
		fi
		last=$now
		sleep 0.5
	done
	die "$CUR: senders still running or qdisc not empty $((TX_SLACK + 30)) s after the window"
}

measure()
{
	local raw=$RUN/raw/$VARIANT-r$REP.txt row

	{
		echo "meta.run=$RUN_ID meta.variant=$VARIANT meta.rep=$REP meta.vcpus=$VCPUS meta.threads=$THREADS meta.payload=$PAYLOAD meta.batch=$BATCH"
		cat "$GDIR/tap0.txt"
		snap A
		sleep_until_sent_for "$WARMUP"
		snap C
		sleep "$WINDOW"
		snap D
	} >"$raw"
	grep -q '\bD\.blast_running=1\b' "$raw" ||
		die "$CUR: the senders stopped before the window closed (slow guest? raise TX_SLACK in lab/tx)"
	wait_drained
	snap B >>"$raw"
	row=$(awk -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" -f "$LAB_TOP/lab/exp/tx/point.awk" "$raw") ||
		die "$CUR: could not compute the row from $raw"
	append_row "$row"
}

tx_cmdline()
{
	echo "lab_exp=tx lab_tx_threads=$THREADS lab_tx_payload=$PAYLOAD lab_tx_batch=$BATCH lab_tx_secs=$((WARMUP + WINDOW + TX_SLACK)) lab_tx_dst=$TX_DST"
}

vcpu_pins()
{
	local i s=""

	for ((i = 0; i < VCPUS; i++)); do
		s="$s${s:+ }$i:$((i % $(host_cpus)))"
	done
	echo "$s"
}

exp_prereqs()
{
	initramfs_has bin/udp_blast udp_blast
}

exp_params()
{
	jq -n --argjson vcpus "$VCPUS" --arg pins "$(vcpu_pins)" --arg epin "$(helper_cpuset)" \
		--argjson threads "$THREADS" --argjson batch "$BATCH" \
		--argjson secs "$((WARMUP + WINDOW + TX_SLACK))" \
		--arg dst "${TX_DST%,*} (MAC ${TX_DST#*,})" '
		{vcpus: $vcpus, vcpu_pin: $pins, emulator_pin: $epin, threads: $threads,
		 batch: $batch, sender_pin: "thread i on guest CPU i mod \($vcpus)",
		 senders_run_s: $secs, destination: $dst,
		 qdisc: "prio 1: root bands 3 default priomap; tbf 10: parent 1:2 rate 10000000000 bit/s burst 1048576 limit 4194304; fq_codel 20: parent 10:1 defaults"}'
}

# The destination is on-link and nobody's: the host must not route it.
exp_setup()
{
	in_ns sysctl -qw net.ipv4.conf.all.forwarding=0 2>/dev/null || true
}

exp_describe()
{
	echo "vcpus=$VCPUS threads=$THREADS payload=$PAYLOAD"
}

exp_npoints()
{
	# shellcheck disable=SC2086
	echo $((REPS * $(echo $VARIANTS | wc -w)))
}

# Before each boot: the tap's counters (it exists between guests).
exp_before_boot()
{
	mkdir -p "$RUN/guests/$VARIANT-r$REP"
	tap_rx | sed 's/\([a-z_0-9]*\)=/tap0.\1=/g' >"$RUN/guests/$VARIANT-r$REP/tap0.txt"
}

exp_boot_args()
{
	tx_cmdline
}

exp_guest()
{
	measure
	point_done
}

exp_progress()
{
	last_row_printf "qdisc %s pps, NET_TX %s/s, ksoftirqd wakeups %s/s" \
		qdisc_pps net_tx_softirq_ps ksoftirqd_wakeups_ps
}

exp_summarize()
{
	summarize tx "$RUN"
}

exp_plot()
{
	[ "$PLOT" = 0 ] || "$LAB_TOP/plots/tx-plot" "$RUN"
}
