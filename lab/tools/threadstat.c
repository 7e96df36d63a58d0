// SPDX-License-Identifier: GPL-2.0
/*
 * threadstat: what the host's scheduler did to the threads that carry a
 * lab guest and its traffic, for the overload gates.  One line of
 * key=value counters per call, sampled before and after a window:
 *
 *   qemu_threads=N qemu_<class>_{run_ns,wait_ns,pcount}=...
 *       class: main (QEMU's main loop, the thread-group leader: it moves
 *       packets between the tap and the virtio rings), vcpu ("CPU n/..."
 *       threads, or "ALL CPUs/TCG", the one thread of TCG with icount),
 *       other (call_rcu, workers, ...)
 *   <name>_{run_ns,wait_ns,pcount}=...   every thread of -t name=pid
 *
 * run_ns is time on a CPU and wait_ns time runnable but waiting for one
 * (/proc/<pid>/task/<tid>/schedstat); their shares of a window say
 * whether QEMU got the host CPU it needed.  -a lists every host thread
 * instead ("tid cpu run_ns wait_ns comm"), to find who ran meanwhile.
 */

#include <errno.h>
#include <error.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procparse.h"
#include "util.h"

#define MAX_NAMED	8
#define NAME_MAX_LEN	24

struct sched_sum {
	uint64_t run_ns, wait_ns, pcount;
	unsigned int threads;
};

struct named {
	char name[NAME_MAX_LEN + 1];
	pid_t pid;
};

static pid_t cfg_qemu;
static struct named cfg_named[MAX_NAMED];
static int cfg_nnamed;
static bool cfg_all;

static void usage(void)
{
	printf("Usage: threadstat [-q qemu_pid] [-t name=pid]... | -a\n"
	       "  -q pid       QEMU process: its threads summed by class\n"
	       "               (main, vcpu, other)\n"
	       "  -t name=pid  a process whose threads are summed under name\n"
	       "               ([a-z0-9_], 1..%d chars; up to %d of them)\n"
	       "  -a           every host thread: tid cpu run_ns wait_ns "
	       "comm\n"
	       "  -h, --help   this text\n"
	       "Prints one line of key=value counters (ns from "
	       "/proc/<pid>/task/<tid>/schedstat).\n"
	       "A process that is gone gives zeros.\n",
	       NAME_MAX_LEN, MAX_NAMED);
	exit(0);
}

static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";

static void opt_named(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;
	struct named *n;
	int pid;

	if (!len || len > NAME_MAX_LEN || strspn(arg, name_chars) != len)
		usage_error("-t needs name=pid with a name of [a-z0-9_], "
			    "1..%d chars: '%s'", NAME_MAX_LEN, arg);
	if (cfg_nnamed == MAX_NAMED)
		usage_error("at most %d -t options", MAX_NAMED);
	if (parse_int(eq + 1, 1, INT32_MAX, &pid))
		usage_error("-t %s: '%s' is not a pid", arg, eq + 1);
	n = &cfg_named[cfg_nnamed++];
	memcpy(n->name, arg, len);
	n->name[len] = '\0';
	n->pid = pid;
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":ahq:t:")) != -1) {
		switch (c) {
		case 'a':
			cfg_all = true;
			break;
		case 'h':
			usage();
			break;
		case 'q':
			cfg_qemu = opt_int(c, optarg, 1, INT32_MAX);
			break;
		case 't':
			opt_named(optarg);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (cfg_all && (cfg_qemu || cfg_nnamed))
		usage_error("-a lists every thread: no -q or -t with it");
	if (!cfg_all && !cfg_qemu && !cfg_nnamed)
		usage_error("nothing to sample: give -q, -t or -a");
}

static void sum_add(struct sched_sum *s, const struct sched_info_stat *si)
{
	s->run_ns += si->run_ns;
	s->wait_ns += si->wait_ns;
	s->pcount += si->pcount;
	s->threads++;
}

/* QEMU's thread classes, by what each thread does. */
enum { Q_MAIN, Q_VCPU, Q_OTHER, Q_NCLASS };
static const char *const qclass[Q_NCLASS] = { "main", "vcpu", "other" };

static int qemu_thread(pid_t pid, pid_t tid, void *arg)
{
	struct sched_sum *q = arg;
	struct sched_info_stat si;
	struct task_stat ts;
	unsigned int n;
	char c;

	if (read_task_schedinfo(pid, tid, &si) || read_task_stat(pid, tid, &ts))
		return 0;
	if (tid == pid)
		sum_add(&q[Q_MAIN], &si);
	else if (sscanf(ts.comm, "CPU %u/%c", &n, &c) == 2 ||
		 !strcmp(ts.comm, "ALL CPUs/TCG"))
		sum_add(&q[Q_VCPU], &si);
	else
		sum_add(&q[Q_OTHER], &si);
	return 0;
}

static int any_thread(pid_t pid, pid_t tid, void *arg)
{
	struct sched_sum *s = arg;
	struct sched_info_stat si;

	if (!read_task_schedinfo(pid, tid, &si))
		sum_add(s, &si);
	return 0;
}

static int list_thread(pid_t pid, pid_t tid, void *arg)
{
	struct sched_info_stat si;
	struct task_stat ts;

	(void)arg;
	if (read_task_schedinfo(pid, tid, &si) || read_task_stat(pid, tid, &ts))
		return 0;
	printf("%d %d %llu %llu %s\n", (int)tid, ts.cpu,
	       (unsigned long long)si.run_ns, (unsigned long long)si.wait_ns,
	       ts.comm);
	return 0;
}

static void print_sum(const char *prefix, const struct sched_sum *s)
{
	printf(" %s_run_ns=%llu %s_wait_ns=%llu %s_pcount=%llu", prefix,
	       (unsigned long long)s->run_ns, prefix,
	       (unsigned long long)s->wait_ns, prefix,
	       (unsigned long long)s->pcount);
}

int main(int argc, char **argv)
{
	struct sched_sum q[Q_NCLASS] = { { 0 } };
	char key[NAME_MAX_LEN + 8];
	int i;

	tool_init();
	parse_opts(argc, argv);
	if (cfg_all) {
		if (visit_tasks(0, list_thread, NULL))
			error(1, errno, "/proc");
		return 0;
	}
	if (cfg_qemu) {
		visit_tasks(cfg_qemu, qemu_thread, q);
		printf("qemu_threads=%u", q[Q_MAIN].threads +
		       q[Q_VCPU].threads + q[Q_OTHER].threads);
		for (i = 0; i < Q_NCLASS; i++) {
			snprintf(key, sizeof(key), "qemu_%s", qclass[i]);
			print_sum(key, &q[i]);
		}
	}
	for (i = 0; i < cfg_nnamed; i++) {
		struct sched_sum s = { 0 };

		visit_tasks(cfg_named[i].pid, any_thread, &s);
		print_sum(cfg_named[i].name, &s);
	}
	printf("\n");
	return 0;
}
