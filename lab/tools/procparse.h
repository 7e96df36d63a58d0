/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that understands /proc formats (Linux 6.12).
 *
 * Every parse_*() works on a NUL-terminated text buffer so it can be unit
 * tested with fixture strings; it returns 0 on success and -1 if the text
 * does not have the expected shape (or the item is absent).  The read_*()
 * wrappers read the real file and return 0, or -1 with errno set
 * (ENOENT for a vanished task, EPROTO for a malformed file).
 */
#ifndef LAB_PROCPARSE_H
#define LAB_PROCPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* /proc/stat aggregate "cpu" line, USER_HZ ticks. */
struct cpu_stat {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* /proc/softirqs, summed over all CPU columns. */
struct softirq_stat {
	uint64_t net_rx, net_tx, timer, rcu, block;
};

/* /proc/net/dev, one interface. */
struct netdev_stat {
	uint64_t rx_packets, rx_bytes, rx_dropped, rx_errors;
	uint64_t tx_packets, tx_dropped;
};

/* /proc/net/snmp "Udp:" line, mapped by header name. */
struct udp_stat {
	uint64_t in_datagrams, no_ports, in_errors, rcvbuf_errors;
	uint64_t out_datagrams, sndbuf_errors;
};

/* /proc/net/softnet_stat, hex columns summed over CPU rows. */
struct softnet_stat {
	uint64_t processed, dropped, time_squeeze;
	unsigned int cpus;
};

#define TASK_COMM_MAX	64

/* /proc/<pid>/stat */
struct task_stat {
	char comm[TASK_COMM_MAX];
	char state;
	uint64_t utime, stime;		/* USER_HZ ticks */
	int cpu;			/* last CPU it ran on, -1 if absent */
};

int parse_proc_stat(const char *buf, struct cpu_stat *st);
int parse_softirqs(const char *buf, struct softirq_stat *st);
int parse_net_dev(const char *buf, const char *ifname, struct netdev_stat *st);
int parse_net_snmp_udp(const char *buf, struct udp_stat *st);
int parse_softnet_stat(const char *buf, struct softnet_stat *st);
/*
 * /proc/net/udp: the drops of the sockets bound to local @port, summed
 * (the last column: datagrams the kernel dropped at that socket, a full
 * receive buffer among them).  0 if the table parses; no such socket is 0.
 */
int parse_net_udp_drops(const char *buf, unsigned int port, uint64_t *drops);
int read_net_udp_drops(unsigned int port, uint64_t *drops);
int parse_pid_stat(const char *buf, struct task_stat *st);
int parse_pid_schedstat(const char *buf, uint64_t *run_ns);

/* Exact match, or prefix match if @prefix. */
bool comm_matches(const char *comm, const char *name, bool prefix);

/*
 * Read a whole (small) file into buf, NUL-terminated.  Returns the length,
 * or -1 with errno set (EFBIG if it does not fit).
 */
ssize_t read_text_file(const char *path, char *buf, size_t size);

int read_proc_stat(struct cpu_stat *st);
int read_softirqs(struct softirq_stat *st);
int read_net_dev(const char *ifname, struct netdev_stat *st);
int read_net_snmp_udp(struct udp_stat *st);
int read_softnet_stat(struct softnet_stat *st);
int read_pid_stat(pid_t pid, struct task_stat *st);
int read_pid_schedstat(pid_t pid, uint64_t *run_ns);

/*
 * Scan /proc for tasks (thread-group leaders and kernel threads) whose
 * comm equals @name, or starts with it if @prefix.  Stores up to @max pids
 * and returns how many matched in total (may be more than @max), or -1.
 */
int find_tasks_by_comm(const char *name, bool prefix, pid_t *pids, int max);

/*
 * /proc/<pid>/schedstat in full: run time and run-queue wait (ns), and
 * pcount, the number of times the task got a CPU (each wakeup of a
 * sleeping kernel thread counts one).
 */
struct sched_info_stat {
	uint64_t run_ns, wait_ns, pcount;
};

/* /proc/<pid>/status context switch counters. */
struct ctxt_stat {
	uint64_t voluntary, nonvoluntary;
};

int parse_pid_schedinfo(const char *buf, struct sched_info_stat *st);
int parse_pid_status_ctxt(const char *buf, struct ctxt_stat *st);
int read_pid_schedinfo(pid_t pid, struct sched_info_stat *st);
int read_pid_status_ctxt(pid_t pid, struct ctxt_stat *st);

/*
 * Run time (ns) of every thread of process @pid, summed over
 * /proc/<pid>/task/<tid>/schedstat; *@threads gets their number.
 */
int read_process_run_ns(pid_t pid, uint64_t *run_ns, unsigned int *threads);

/* The same files for one thread: /proc/<pid>/task/<tid>/... */
int read_task_stat(pid_t pid, pid_t tid, struct task_stat *st);
int read_task_schedinfo(pid_t pid, pid_t tid, struct sched_info_stat *st);
int read_task_status_ctxt(pid_t pid, pid_t tid, struct ctxt_stat *st);

/*
 * Call @fn for every thread of process @pid, or of every process (kernel
 * threads included) if @pid is 0.  Threads that exit meanwhile are
 * skipped by the caller's reads failing.  Stops at the first non-zero
 * return of @fn and returns it; 0 when all were visited, -1 (errno set)
 * if /proc cannot be read.
 */
typedef int (*task_fn)(pid_t pid, pid_t tid, void *arg);

int visit_tasks(pid_t pid, task_fn fn, void *arg);

/*
 * The current clocksource (sysfs clocksource0/current_clocksource), one
 * word without the newline.
 */
int parse_clocksource(const char *buf, char *name, size_t size);
int read_clocksource(char *name, size_t size);

/*
 * /proc/pressure/irq, "full ... total=<us>": with IRQ time accounting,
 * the hardirq and softirq time run in irq context (not ksoftirqd's), in
 * µs, exact but for up to a tick of lag.  -1 (ENOENT) without CONFIG_PSI.
 */
/*
 * /proc/schedstat (version 15 or 16), summed over the "cpuN" lines: how
 * often the scheduler switched to the idle task, and the run time of all
 * tasks but idle (ns).
 */
struct schedstat_cpu {
	uint64_t goidle, cpu_time_ns;
};

int parse_schedstat(const char *buf, struct schedstat_cpu *st);
int read_schedstat(struct schedstat_cpu *st);

int parse_pressure_total(const char *buf, const char *row, uint64_t *us);
int read_pressure_irq(uint64_t *us);

#endif
