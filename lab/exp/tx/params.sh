# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # globals shared with the driver (lab/lib/driver.sh)
# Options of lab/tx (the TX experiment, trylock ablation): one parser, one
# usage(), every value checked before anything is created.  Sourced after
# lab/lib/lib.sh.  Environment variables of the same name (upper case) give
# the defaults, so "make tx REPS=..." works too.

VARIANTS=${VARIANTS:-"vanilla vanilla+trylock ksoftirqd-fix ksoftirqd-fix+trylock"}
# repetitions: default_reps (lab/lib/opts.sh), 6 for 3 variants
REPS=${REPS:-}
MIN_REPS=5
WARMUP=${WARMUP:-3}
WINDOW=${WINDOW:-10}
THREADS=${THREADS:-4}
PAYLOAD=${PAYLOAD:-18}
BATCH=${BATCH:-8}
VCPUS=${VCPUS:-2}
# Native: with -icount QEMU runs every vCPU in one host thread, in turn,
# and the qdisc contention this experiment is about needs them parallel.
SPEED=${SPEED:-native}
# shellcheck source=lab/lib/opts.sh
. "$LAB_TOP/lab/lib/opts.sh"

usage()
{
	cat <<USAGE
Usage: lab/tx [options]
The TX experiment (trylock ablation): boot each kernel variant as a
libvirt guest with several vCPUs whose threads send small UDP datagrams
out of eth0 through prio + tbf + fq_codel; measure the qdisc's packet
rate, NET_TX softirqs, ksoftirqd wakeups and the CPU split.  Writes
results/tx-<timestamp>/ (points.csv, summary.csv, params.json, raw
samples, guest consoles, report.md and tx.png/svg).

  -v, --variants "A B"  variants, interleaved per repetition   [$VARIANTS]
  -n, --reps N          repetitions (one boot per variant each; variant
                        order from a Williams design)  [whole designs,
                        >= $MIN_REPS, if that costs one more: 6 for 3 variants]
  -W, --warmup S        seconds of sending before the window     [$WARMUP]
  -w, --window S        measured seconds per boot                [$WINDOW]
  -t, --threads N       sender threads in the guest, 1..16       [$THREADS]
  -s, --payload B       UDP payload bytes, 1..1472               [$PAYLOAD]
  -B, --batch N         datagrams per sendmmsg call, 1..1024     [$BATCH]
  -c, --vcpus N         guest vCPUs, 2..8 (vCPU i on host core i mod cores)
                                                                 [$VCPUS]
USAGE
	common_usage tx-
}

# its own options; the shared ones are lab/lib/opts.sh's
driver_opt()
{
	OPT_ARGS=2
	case $1 in
	-t|--threads) arg "$@"; THREADS=$OPTVAL ;;
	-B|--batch) arg "$@"; BATCH=$OPTVAL ;;
	-c|--vcpus) arg "$@"; VCPUS=$OPTVAL ;;
	*) return 1 ;;
	esac
}

check_opts()
{
	check_common_opts
	# -icount runs every vCPU on one QEMU thread, one at a time, which
	# libvirt cannot pin ("cpu affinity is not supported"): the qdisc
	# lock would see no CPU running beside it
	[ "$SPEED" = native ] ||
		bad "speed '$SPEED': the TX experiment needs its vCPUs running at once; -icount runs them one at a time on one thread (use --speed native)"
	in_range "$THREADS" 1 16 || bad "threads '$THREADS' must be 1..16"
	in_range "$BATCH" 1 1024 || bad "batch '$BATCH' must be 1..1024 datagrams"
	# 8: CONFIG_NR_CPUS of lab/kernel/guest.config; one vCPU has no
	# other CPU to contend with for the qdisc lock
	in_range "$VCPUS" 2 8 || bad "vcpus '$VCPUS' must be 2..8"
	return 0
}
