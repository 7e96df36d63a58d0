// SPDX-License-Identifier: GPL-2.0
/* The TX experiment's snapshot keys; see txstat.h. */

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blaststat.h"
#include "procparse.h"
#include "qdisc_nl.h"
#include "txstat.h"

#define QDISC_MAX	32

static const char *const kinds[] = { "prio", "tbf", "fq_codel" };
#define NKINDS	ARRAY_SIZE(kinds)

static void add(struct strbuf *r, const char *key, uint64_t v)
{
	sb_printf(r, " %s=%llu", key, (unsigned long long)v);
}

static void add_q(struct strbuf *r, const char *kind, const char *field,
		  uint64_t v)
{
	sb_printf(r, " qdisc_%s_%s=%llu", kind, field, (unsigned long long)v);
}

/*
 * ksoftirqd/<cpu>, or 0 if that CPU has none: looked up once (the lab's
 * guests never hotplug CPUs), so a 1-vCPU guest does not scan /proc for
 * ksoftirqd/1 at every snapshot.
 */
static pid_t ksoftirqd_pid(int cpu)
{
	static pid_t pids[2];
	static bool looked[2];
	char name[16];

	if (!looked[cpu]) {
		snprintf(name, sizeof(name), "ksoftirqd/%d", cpu);
		if (find_tasks_by_comm(name, false, &pids[cpu], 1) != 1)
			pids[cpu] = 0;
		looked[cpu] = true;
	}
	return pids[cpu];
}

static void ksoftirqd_keys(struct strbuf *r)
{
	struct sched_info_stat si[2] = { { 0 } };
	struct ctxt_stat cs[2] = { { 0 } };
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		pid_t pid = ksoftirqd_pid(cpu);

		if (pid && (read_pid_schedinfo(pid, &si[cpu]) ||
			    read_pid_status_ctxt(pid, &cs[cpu]))) {
			memset(&si[cpu], 0, sizeof(si[cpu]));
			memset(&cs[cpu], 0, sizeof(cs[cpu]));
		}
	}
	add(r, "ksoftirqd1_run_ns", si[1].run_ns);
	add(r, "ksoftirqd0_pcount", si[0].pcount);
	add(r, "ksoftirqd1_pcount", si[1].pcount);
	add(r, "ksoftirqd0_wakeups", cs[0].voluntary);
	add(r, "ksoftirqd1_wakeups", cs[1].voluntary);
}

static void blast_keys(struct strbuf *r, struct shm_view *view)
{
	const struct blaststat *b = shm_view_map(view);
	uint64_t sent = 0, errors = 0, run_ns = 0;
	unsigned int i, threads = 0, tasks;

	if (b && !blaststat_ok(b))
		b = NULL;
	if (b) {
		threads = b->threads;
		for (i = 0; i < threads && i < BLAST_THREADS_MAX; i++) {
			sent += blaststat_load(&b->t[i].sent);
			errors += blaststat_load(&b->t[i].errors);
		}
		if (read_process_run_ns(b->pid, &run_ns, &tasks))
			run_ns = 0;	/* exited; counters stay valid */
	}
	add(r, "blast_pid", b ? b->pid : 0);
	add(r, "blast_threads", threads);
	add(r, "blast_running", b ? blaststat_load(&b->running) : 0);
	add(r, "blast_start_ns", b ? blaststat_load(&b->start_ns) : 0);
	add(r, "blast_end_ns", b ? blaststat_load(&b->end_ns) : 0);
	add(r, "blast_sent", sent);
	add(r, "blast_errors", errors);
	add(r, "blast_run_ns", run_ns);
}

static void qdisc_keys(struct strbuf *r, const char *ifname)
{
	static int fd = -1;
	struct qdisc_info qi[QDISC_MAX], sum[NKINDS];
	unsigned int k;
	int i, n = -1, ifindex = if_nametoindex(ifname);

	memset(sum, 0, sizeof(sum));
	if (fd < 0)
		fd = qnl_open();
	if (fd >= 0 && ifindex > 0)
		n = qnl_dump(fd, ifindex, qi, QDISC_MAX);
	for (i = 0; i < n && i < QDISC_MAX; i++) {
		for (k = 0; k < NKINDS; k++) {
			if (strcmp(qi[i].kind, kinds[k]))
				continue;
			sum[k].packets += qi[i].packets;
			sum[k].drops += qi[i].drops;
			sum[k].requeues += qi[i].requeues;
			sum[k].overlimits += qi[i].overlimits;
			sum[k].qlen += qi[i].qlen;
		}
	}
	add(r, "qdisc_n", n > 0 ? n : 0);
	for (k = 0; k < NKINDS; k++) {
		add_q(r, kinds[k], "packets", sum[k].packets);
		add_q(r, kinds[k], "drops", sum[k].drops);
		add_q(r, kinds[k], "requeues", sum[k].requeues);
		add_q(r, kinds[k], "overlimits", sum[k].overlimits);
		add_q(r, kinds[k], "qlen", sum[k].qlen);
	}
}

void tx_snap(struct strbuf *r, const char *ifname, struct shm_view *blast)
{
	ksoftirqd_keys(r);
	blast_keys(r, blast);
	qdisc_keys(r, ifname);
}
