// SPDX-License-Identifier: GPL-2.0
/* The CPU attribution keys of a guest snapshot; see cpustat.h. */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "cpustat.h"
#include "procparse.h"

#define MAX_NAPI	64

/* The times of a group of threads, summed. */
struct thread_sum {
	uint64_t run_ns, wait_ns, pcount;
	uint64_t utime, stime;		/* USER_HZ ticks */
	uint64_t nvcsw, nivcsw;
	unsigned int threads;
};

static int sum_thread(pid_t pid, pid_t tid, void *arg)
{
	struct thread_sum *s = arg;
	struct sched_info_stat si;
	struct task_stat ts;
	struct ctxt_stat cs;

	if (read_task_schedinfo(pid, tid, &si) ||
	    read_task_stat(pid, tid, &ts) ||
	    read_task_status_ctxt(pid, tid, &cs))
		return 0;	/* exited meanwhile */
	s->run_ns += si.run_ns;
	s->wait_ns += si.wait_ns;
	s->pcount += si.pcount;
	s->utime += ts.utime;
	s->stime += ts.stime;
	s->nvcsw += cs.voluntary;
	s->nivcsw += cs.nonvoluntary;
	s->threads++;
	return 0;
}

/* Add every thread of process @pid; false if it is gone. */
static bool process_add(pid_t pid, struct thread_sum *s)
{
	unsigned int before = s->threads;

	if (pid <= 0)
		return false;
	visit_tasks(pid, sum_thread, s);
	return s->threads > before;
}

struct all_sum {
	uint64_t run_ns;
	unsigned int n;
};

static int sum_run(pid_t pid, pid_t tid, void *arg)
{
	struct all_sum *a = arg;
	struct sched_info_stat si;

	if (read_task_schedinfo(pid, tid, &si))
		return 0;
	a->run_ns += si.run_ns;
	a->n++;
	return 0;
}

static void add_u64(struct strbuf *r, const char *key, uint64_t v)
{
	sb_printf(r, " %s=%llu", key, (unsigned long long)v);
}

static void add_group(struct strbuf *r, const char *g,
		      const struct thread_sum *s)
{
	sb_printf(r, " %s_run_ns=%llu %s_wait_ns=%llu %s_pcount=%llu",
		  g, (unsigned long long)s->run_ns,
		  g, (unsigned long long)s->wait_ns,
		  g, (unsigned long long)s->pcount);
	sb_printf(r, " %s_utime=%llu %s_stime=%llu %s_nvcsw=%llu "
		  "%s_nivcsw=%llu",
		  g, (unsigned long long)s->utime,
		  g, (unsigned long long)s->stime,
		  g, (unsigned long long)s->nvcsw,
		  g, (unsigned long long)s->nivcsw);
}

void cpu_snap(struct strbuf *r, pid_t recv_pid, const char *resp_comm)
{
	struct thread_sum sink = { 0 }, ksi = { 0 }, napi = { 0 };
	struct thread_sum self = { 0 }, resp = { 0 };
	struct all_sum all = { 0 };
	struct cpu_stat cpu = { 0 };
	struct schedstat_cpu ss = { 0 };
	uint64_t psi_irq = 0;
	bool psi_ok;
	pid_t pids[MAX_NAPI];
	char cs[32];
	int i, n;

	/* the totals first and close together: they are compared */
	read_proc_stat(&cpu);
	psi_ok = !read_pressure_irq(&psi_irq);
	read_schedstat(&ss);
	visit_tasks(0, sum_run, &all);

	if (!process_add(recv_pid, &sink))
		recv_pid = 0;	/* exited; its counters stay valid */
	if (find_tasks_by_comm("ksoftirqd/0", false, pids, 1) > 0)
		process_add(pids[0], &ksi);
	n = find_tasks_by_comm("napi/", true, pids, MAX_NAPI);
	for (i = 0; i < n && i < MAX_NAPI; i++)
		process_add(pids[i], &napi);
	process_add(getpid(), &self);
	if (find_tasks_by_comm(resp_comm, false, pids, 1) > 0)
		process_add(pids[0], &resp);

	if (read_clocksource(cs, sizeof(cs)))
		strcpy(cs, "unknown");
	add_u64(r, "ncpu", sysconf(_SC_NPROCESSORS_ONLN));
	sb_printf(r, " clocksource=%s", cs);
	add_u64(r, "cpu_user", cpu.user);
	add_u64(r, "cpu_nice", cpu.nice);
	add_u64(r, "cpu_system", cpu.system);
	add_u64(r, "cpu_idle", cpu.idle);
	add_u64(r, "cpu_iowait", cpu.iowait);
	add_u64(r, "cpu_irq", cpu.irq);
	add_u64(r, "cpu_softirq", cpu.softirq);
	add_u64(r, "cpu_steal", cpu.steal);
	add_u64(r, "hz", sysconf(_SC_CLK_TCK));
	add_u64(r, "psi_irq_ok", psi_ok);
	add_u64(r, "psi_irq_us", psi_irq);
	add_u64(r, "sched_goidle", ss.goidle);
	add_u64(r, "tasks_n", all.n);
	add_u64(r, "tasks_run_ns", all.run_ns);
	add_u64(r, "sink_pid", recv_pid);
	add_group(r, "sink", &sink);
	add_group(r, "ksoftirqd", &ksi);
	add_u64(r, "napi_threads", napi.threads);
	add_group(r, "napi", &napi);
	add_group(r, "sampler", &self);
	add_group(r, "responder", &resp);
}
