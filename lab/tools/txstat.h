/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TX experiment's part of a sampler snapshot (lab/tx), appended after
 * the receive-side keys, in this fixed order:
 *
 *   ksoftirqd1_run_ns                 run time of ksoftirqd/1 (ns)
 *   ksoftirqd0_pcount ksoftirqd1_pcount
 *                                     times each got a CPU (schedstat)
 *   ksoftirqd0_wakeups ksoftirqd1_wakeups
 *                                     voluntary context switches: each
 *                                     is one sleep, so one wakeup
 *   blast_pid blast_threads blast_running blast_start_ns blast_end_ns
 *   blast_sent blast_errors blast_run_ns
 *                                     udp_blast's counters (blaststat.h)
 *                                     and the run time of all its threads
 *   qdisc_n                           qdiscs on the interface
 *   qdisc_<kind>_{packets,drops,requeues,overlimits,qlen}
 *                                     for kind prio, tbf, fq_codel: the
 *                                     sums over the interface's qdiscs of
 *                                     that kind (0 if there is none)
 */
#ifndef LAB_TXSTAT_H
#define LAB_TXSTAT_H

#include "shmfile.h"
#include "util.h"

void tx_snap(struct strbuf *r, const char *ifname, struct shm_view *blast);

#endif
