# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2153 # globals shared with lib.sh, params.sh and the hooks
# The one driver of the lab's experiments (lab/run, lab/tx, lab/soak are
# its entry points).  It owns the sequence:
#   options -> root -> locks -> prerequisites -> results directory ->
#   params.json -> points.csv header -> netns -> libvirtd ->
#   repetitions x variants (order from a Williams design; one boot each,
#   its cleanups in a scope of their own) -> summary -> plots
# and calls the experiment's hooks, defined by lab/exp/<exp>/hooks.sh
# (after lab/exp/<exp>/params.sh, the options):
#   exp_prereqs      what the experiment needs beyond a kernel per variant
#   exp_params       its parameters as one JSON object (merged into
#                    params.json)
#   exp_setup        after the netns exists (optional)
#   exp_npoints      how many points the run will have (for the ETA)
#   exp_describe     the run's one-line description
#   exp_before_boot  before each boot (optional)
#   exp_boot_args    the lab_* kernel parameters of a guest; EXP_VCPUS
#                    its vCPUs
#   exp_guest        measure every point of the booted guest, appending
#                    rows to points.csv and calling point_done after each
#   exp_progress     a progress text from the last row (named columns)
#   exp_summarize    summary.csv on stdout
#   exp_plot         plots and report (optional)
#   exp_dry_secs     --dry-run's estimate of the run (s) from its boots
#                    (optional; else boots, points, warm-up and window)
# and sets EXP (its directory name), EXP_RUN_PREFIX (of the run's id) and,
# if its rows are another experiment's, EXP_POINT (that point.awk).
# Sourced by lab/run after lab/lib/lib.sh.

# shellcheck source=lab/lib/guest.sh
. "$LAB_TOP/lab/lib/guest.sh"
# shellcheck source=lab/lib/session.sh
. "$LAB_TOP/lab/lib/session.sh"

TOOLS=$LAB_BUILD/tools
INITRD=$LAB_BUILD/initramfs.cpio
EXP_VCPUS=1

# The guest's sampler snapshot <tag>, keys prefixed "<tag>.".  With
# <seconds>, a guest that is running but cannot answer within them makes
# it false instead of fatal (a starved guest, lab/exp/rx/hooks.sh); a gone
# one is fatal at once (guest_lost).
snap_guest()
{
	local line rc=0

	line=$(SNAP_TIMEOUT_MS=$((${2:-20} * 1000)) guest_req snap "$1") || rc=$?
	if [ "$rc" != 0 ]; then
		[ -z "${2:-}" ] || [ "$rc" != 5 ] || ! guest_running || return 1
		SNAP_TIMEOUT_MS=$((${2:-20} * 1000)) guest_lost "$rc" "snapshot $1"
	fi
	printf '%s\n' "$line" | cut -d' ' -f3- | sed "s/\([a-z_0-9]*\)=/$1.\1=/g"
}

# A row, or nothing: points.csv never holds half a point.
append_row()
{
	printf '%s\n' "$1" >>"$RUN/points.csv" ||
		{ truncate_partial_row; die "$CUR: cannot append to $RUN/points.csv (disk full?)"; }
}

# Drop a half-written last line of points.csv (ENOSPC mid-write).
truncate_partial_row()
{
	local f=$RUN/points.csv size

	[ -s "$f" ] || return 0
	[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] && return 0
	size=$(($(stat -c %s "$f") - $(tail -n 1 "$f" | wc -c)))
	truncate -s "$size" "$f"
}

# After each point: count it and say where the run is.  One command
# substitution per command: in bash 5.2.15 (Debian 12) a SIGINT/SIGTERM
# trap that runs while the first of two substitutions of one command is
# running fails to parse ("unexpected EOF while looking for matching
# `)'"), so the signal is lost and nothing is cleaned up until the run
# ends (12 of 12 signals lost in a loop of such commands, none with one
# substitution per command).  A signal sent as a row lands
# (tests/e2e/25-faults.t) hits this function.
point_done()
{
	local now text elapsed eta

	DONE=$((DONE + 1))
	printf -v now '%(%s)T' -1
	now=$((now - START))
	text=$(exp_progress)
	elapsed=$(fmt_secs "$now")
	eta=$(fmt_secs $((now * (NPOINTS - DONE) / DONE)))
	log "[$DONE/$NPOINTS] $CUR: $text (elapsed $elapsed, ETA $eta)"
}

# last_row_printf <format> <column>...: up to eight columns of the last
# row of points.csv, by name, through printf (one awk)
last_row_printf()
{
	awk -F, -v fmt="$1" -v cols="${*:2}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ last = $0 }
		END {
			split(last, f, ",")
			k = split(cols, w, " ")
			for (i = 1; i <= k; i++)
				v[i] = f[c[w[i]]]
			printf fmt "\n", v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
		}' "$RUN/points.csv"
}

# The value of column <name> in the last row of points.csv.
last_row_col()
{
	last_row_printf %s "$1"
}

# One variant's kernel as JSON: its info stamp, guest command line, the
# mechanisms its kernel has (has=, comma-separated) and, for
# a setting variant, the kernel variant it boots and its settings.
kernel_json()
{
	jq -Rn --arg cmdline "$(variant_cmdline "$1" | sed 's/^ //')" \
		--arg kernel "$(variant_kernel "$1")" --arg settings "$(variant_settings "$1" | paste -sd' ')" \
		--arg has "$(variant_has "$(variant_kernel "$1")" | paste -sd,)" \
		'[inputs | capture("^(?<key>[^=]+)=(?<value>.*)$")] | from_entries + {cmdline: $cmdline, has: $has}
		 + (if $settings == "" then {} else {kernel: $kernel, settings: $settings} end)' \
		<"$(kernel_dir "$1")/info"
}

# params.json: what every experiment records, and the experiment's own.
# true when the repetitions are whole balanced blocks of the variants
# (balance_len: each rate direction a complete Latin square)
order_balanced()
{
	# shellcheck disable=SC2086
	if [ $((REPS % $(balance_len "$(echo $VARIANTS | wc -w)"))) = 0 ]; then
		echo true
	else
		echo false
	fi
}

write_params()
{
	local v kernels

	kernels=$(for v in $VARIANTS; do
		jq -n --arg v "$v" --argjson k "$(kernel_json "$v")" '{($v): $k}'
	done | jq -s 'add')
	jq -n --arg exp "$EXP" --arg run "$RUN_ID" \
		--arg commit "$(GIT_OPTIONAL_LOCKS=0 git -C "$LAB_TOP" describe --always --dirty 2>/dev/null || echo unknown)" \
		--arg model "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" \
		--argjson cpus "$(host_cpus)" --arg hkernel "$(uname -r)" \
		--arg accel "$ACCEL_USED" --arg haccel "$HOST_ACCEL" --arg uri "$(lab_uri)" \
		--arg speed "$SPEED" --arg icount "$(speed_icount "$SPEED")" --arg mips "$(speed_mips "$SPEED")" \
		--argjson reps "$REPS" --argjson warmup "$WARMUP" --argjson window "$WINDOW" \
		--argjson payload "$PAYLOAD" --argjson debug "$DEBUG" --arg extra "$CMDLINE_EXTRA" \
		--arg gcmd "$(guest_base_cmdline)" --argjson kernels "$kernels" --argjson exp_params "$(exp_params)" \
		--arg hpin "$HOST_SIDE_CPUS" --argjson balanced "$(order_balanced)" \
		--arg rver "$(rule rules.version)" --arg rsha "$(rules_sha)" \
		--arg note "$NOTE" --arg hostname "$(hostname 2>/dev/null || uname -n)" \
		--arg qemu "$(qemu-system-x86_64 --version 2>/dev/null | head -1)" \
		--arg libvirt "$(libvirtd --version 2>/dev/null | head -1)" '
		{experiment: $exp, run: $run, lab_commit: $commit, host_model: $model,
		 host_cpus: $cpus, host_side_cpus: $hpin, host_kernel: $hkernel, accel: $accel, host_accel: $haccel,
		 speed: $speed, icount: $icount, guest_mips: (if $mips == "" then null else ($mips | tonumber) end),
		 libvirt_uri: $uri,
		 reps: $reps, variant_order: "williams", order_balanced: $balanced,
		 warmup_s: $warmup, window_s: $window, payload: $payload,
		 debug: $debug, cmdline_extra: $extra, guest_cmdline: $gcmd,
		 rules_version: $rver, rules_sha: $rsha, note: $note, host_name: $hostname,
		 qemu_version: $qemu, libvirt_version: $libvirt, format: 2}
		+ $exp_params + {kernels: $kernels}' >"$RUN/params.json" ||
		die "cannot write $RUN/params.json"
}

# The kernels are shared by every clone (LAB_KBUILD): a variant's kernel
# is this clone's when its info stamp has this clone's series and config
# fragments
kernel_is_ours()
{
	local k info

	k=$(variant_kernel "$1")
	info=$(kernel_dir "$1")/info
	[ "$(sed -n 's/^series_hash=//p' "$info")" = "$(variant_series_hash "$k")" ] &&
		[ "$(sed -n 's/^fragments_hash=//p' "$info")" = "$(fragments_hash "$k")" ]
}

check_prereqs()
{
	local v

	need_cmd ip virsh qemu-system-x86_64 taskset jq cpio
	for v in $VARIANTS; do
		[ -f "$(kernel_dir "$v")/bzImage" ] ||
			die "no kernel for $v at $(kernel_dir "$v")/bzImage: run 'make kernels VARIANTS=$(variant_kernel "$v")'"
		kernel_is_ours "$v" ||
			die "the kernel at $(kernel_dir "$v") was built from other patches or config fragments than this clone's (another clone's, or before a change): run 'make kernels VARIANTS=$(variant_kernel "$v")'"
	done
	[ -x "$TOOLS/chanctl" ] || die "$TOOLS/chanctl missing: run 'make tools'"
	[ -f "$INITRD" ] || die "$INITRD missing: run 'make initramfs'"
	exp_prereqs
}

# initramfs_has <file> <what>: the initramfs carries it, or it is older
initramfs_has()
{
	cpio -t <"$INITRD" 2>/dev/null | grep -qx "$1" ||
		die "$INITRD has no $2 (older initramfs): run 'make initramfs'"
}

# The lab's own host processes (this driver, its tools, the private
# libvirtd and what they start) stay off the vCPU's core: libvirt pins
# the vCPU and QEMU's other threads itself (domain_xml), everything else
# inherits this.  Nothing to keep off when every core has a vCPU (one
# host core, or lab/tx's vCPU i on core i mod cores): pinned to a vCPU's
# core, the driver would wait on it and miss the guest's deadlines.
pin_host_side()
{
	HOST_SIDE_CPUS=$(helper_cpuset)
	if [ "$(host_cpus)" -lt 2 ] || [ "${EXP_VCPUS:-1}" -ge "$(host_cpus)" ]; then
		HOST_SIDE_CPUS=all
		return 0
	fi
	taskset -pc "$HOST_SIDE_CPUS" $$ >/dev/null ||
		die "cannot pin the lab's host processes to cores $HOST_SIDE_CPUS (taskset)"
}

# The guests of one repetition, each in a cleanup scope of its own.
run_repetition()
{
	local order

	# shellcheck disable=SC2086
	order=$(williams $((REP - 1)) $VARIANTS)
	SLOT=0
	for VARIANT in $order; do
		SLOT=$((SLOT + 1))
		CUR="$VARIANT rep $REP"
		log "$CUR: booting ($EXP_VCPUS vCPU$([ "$EXP_VCPUS" = 1 ] || echo s))"
		defer_scope_push
		[ "$(type -t exp_before_boot)" != function ] || exp_before_boot
		boot_guest "$(exp_boot_args)" "$EXP_VCPUS"
		netns_check_isolated
		exp_guest
		CUR="$VARIANT rep $REP"
		stop_guest
		defer_scope_pop
	done
}

# --dry-run: what the run would do, without root, locks or a guest.  The
# estimate takes the costs measured on a 2-core TCG host (a boot and its
# settle ~10 s at a fixed speed, ~6 s at native speed; a point its
# warm-up, its window and ~2.5 s of snapshots and drain).
dry_run()
{
	local nv boots boot_s secs

	# shellcheck disable=SC2086
	nv=$(echo $VARIANTS | wc -w)
	boots=$((REPS * nv))
	boot_s=$([ "${SPEED:-native}" = native ] && echo 6 || echo 10)
	NPOINTS=$(exp_npoints)
	secs=$((boots * boot_s + NPOINTS * (WARMUP + WINDOW) + NPOINTS * 5 / 2))
	# an experiment whose points are not all alike says its own
	[ "$(type -t exp_dry_secs)" != function ] || secs=$(exp_dry_secs "$boots")
	log "dry run: $(exp_describe) variants='$VARIANTS' reps=$REPS speed=$SPEED"
	log "dry run: $boots boots ($nv variants x $REPS repetitions), $NPOINTS points, about $(fmt_secs "$secs") (an estimate)"
	# shellcheck disable=SC2086 # the variants: words
	log "dry run: order of repetition 1: $(williams 0 $VARIANTS)"
}

# The verdicts of the run's analysis, one line each, and where the report is
print_verdicts()
{
	[ -s "$RUN/verdicts.json" ] || return 0
	jq -r 'def r: if type == "number" then . * 100 | round / 100 else . end;
		.claims[] | "verdict: \(.id) (\(.tree)): \(.verdict)" +
		((.ratio // (.parts // [] | .[0].ratio)) as $r | if $r == null or $r.interval == null then ""
		 else ", \($r.interval.median | r) [\($r.interval.lo | r)–\($r.interval.hi | r)] (n=\($r.interval.n))" end)' \
		"$RUN/verdicts.json" >&2 2>/dev/null || true
	[ ! -s "$RUN/report.md" ] || log "report: ${RUN#"$LAB_TOP"/}/report.md"
}

driver_main()
{
	parse_opts "$@"
	if [ "$DRY_RUN" = 1 ]; then
		dry_run
		run_deferred
		exit 0
	fi
	need_root "lab/$LAB_PROG"
	# Locks first: a second run is told one is in progress, whatever
	# else it lacks (an initramfs being rebuilt, a kernel being built).
	take_lab_lock run
	install_cleanup_traps
	# --variant's kernels: built (or found up to date) before the run
	# holds the kernels' lock for its own boots
	if [ -n "$OWN_NAMES" ]; then
		log "your variants: $OWN_NAMES (lab/kernel/build)"
		# shellcheck disable=SC2086 # one name per word
		DEBUG=$DEBUG "$LAB_TOP/lab/kernel/build" $OWN_NAMES || die "could not build $OWN_NAMES"
	fi
	take_lab_lock "kernels$([ "$DEBUG" = 1 ] && echo -debug)"
	check_prereqs
	pin_host_side
	HOST_ACCEL=$(host_accel)
	ACCEL_USED=$(speed_accel "$HOST_ACCEL")
	RUN_ID=$EXP_RUN_PREFIX$(date -u +%Y%m%d-%H%M%S)$([ "$DEBUG" != 1 ] || echo -debug)
	# absolute: libvirt resolves the guest's files from its own directory
	RUN=$(realpath -m "${OUT:-$LAB_RESULTS/$RUN_ID}")
	[ ! -e "$RUN/points.csv" ] || die "$RUN already holds results"
	mkdir -p "$RUN/raw" "$RUN/guests"
	write_params
	# the rules the run is judged under, beside today's (lab/analyze)
	cp "$LAB_RULES" "$RUN/rules.tsv" || die "cannot write $RUN/rules.tsv"
	# the variants of --variant, as built
	[ -z "$OWN_NAMES" ] || cp "$LAB_VARIANTS_FILE" "$RUN/variants" || die "cannot write $RUN/variants"
	awk -v header=1 -f "$LAB_TOP/lab/lib/stats.awk" -f "$LAB_TOP/lab/lib/snapshot.awk" \
		-f "${EXP_POINT:-$LAB_TOP/lab/exp/$EXP/point.awk}" >"$RUN/points.csv"
	netns_create
	[ "$(type -t exp_setup)" != function ] || exp_setup
	libvirtd_start
	log "run $RUN_ID: accel=$ACCEL_USED speed=$SPEED variants='$VARIANTS' $(exp_describe) reps=$REPS -> ${RUN#"$LAB_TOP"/}"
	NPOINTS=$(exp_npoints)
	DONE=0
	HEALTH_FAILED=0
	START=$(date +%s)
	for REP in $(seq "$REPS"); do
		run_repetition
	done
	# through a new file: the RX experiment's analysis writes summary.csv
	# into the run itself (lab/analyze) and prints it
	exp_summarize >"$RUN/summary.csv.new" || die "could not summarize $RUN"
	mv -f "$RUN/summary.csv.new" "$RUN/summary.csv"
	column -s, -t <"$RUN/summary.csv" >&2 || cat "$RUN/summary.csv" >&2
	[ "$(type -t exp_plot)" != function ] || exp_plot
	print_verdicts
	[ "$HEALTH_FAILED" = 0 ] || die "kernel health check failed, see $RUN/health.txt"
	log "done in $(fmt_secs $(($(date +%s) - START))): ${RUN#"$LAB_TOP"/}"
}
