/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU attribution keys of a guest snapshot (sampler's "snap"): where
 * the guest's CPU time went, in a form whose books can be closed.
 *
 *   ncpu clocksource cpu_<user|nice|system|idle|iowait|irq|softirq|steal>
 *   hz psi_irq_ok psi_irq_us sched_goidle tasks_n tasks_run_ns
 *   <g>_run_ns <g>_wait_ns <g>_pcount <g>_utime <g>_stime <g>_nvcsw
 *   <g>_nivcsw     for g in sink ksoftirqd napi sampler responder
 *   napi_threads sink_pid
 *
 * cpu_* are /proc/stat's aggregate line (USER_HZ ticks); tasks_run_ns is
 * the run time (schedstat, ns) summed over every thread in /proc, kernel
 * threads included; psi_irq_us is /proc/pressure/irq's total (psi_irq_ok
 * 0: no such file).  With IRQ time accounting active, a task's run time
 * excludes hard and soft irq time except ksoftirqd's, and psi_irq_us is
 * exactly that excluded time, so over a window
 *   tasks_run + psi_irq + idle + steal + iowait
 * is the window times ncpu: lab/exp/rx/point.awk checks it (the closure).
 * /proc/stat's user, system and softirq columns are tick-sampled (softirq
 * holds the ticks ksoftirqd ran): under TCG the tick lands where QEMU
 * delivers it, not at random, and those columns can be off by tens of
 * percent, so the attribution does not use them.  The idle column is
 * NO_HZ idle time, exact; irq is exact hardirq time.  sched_goidle
 * (/proc/schedstat) counts the switches to the idle task: each costs the
 * idle task time outside NO_HZ's idle sleep (tick stop and restart, the
 * switch itself), time no counter above holds.
 */
#ifndef LAB_CPUSTAT_H
#define LAB_CPUSTAT_H

#include <sys/types.h>

#include "util.h"

/*
 * Append the keys above for the receiving process @recv_pid (0: none
 * found) and the command names of the other groups.
 */
void cpu_snap(struct strbuf *r, pid_t recv_pid, const char *resp_comm);

#endif
