// SPDX-License-Identifier: GPL-2.0
/*
 * schedset: the scheduling class of guest threads, by command name, for
 * the lab's setting variants (busybox has no chrt).  Sets every task whose
 * command name starts with the prefix to the policy and priority, or (-s)
 * to SCHED_OTHER with a custom EEVDF slice (sched_attr.sched_runtime, 6.12
 * and later), reads each back, and prints one line per task:
 *   lab: set sched:<label>=<policy>:<prio> readback=<policy>:<prio> pid=N comm=C ok
 *   lab: set sched:<label>=<ns> readback=<ns> pid=N comm=C ok
 * (FAIL instead of ok, and exit 1, when the kernel refused or read back
 * something else; exit 1 too when no task matches).  A kernel without
 * custom slices (6.1: CFS) reads back 0, so a slice on it FAILs.
 */

#include <errno.h>
#include <error.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procparse.h"
#include "util.h"

#define MAX_TASKS	64
/* the range 6.12's __setscheduler_params() clamps a custom slice to */
#define SLICE_MIN_NS	100000ULL
#define SLICE_MAX_NS	100000000ULL

/*
 * struct sched_attr of include/uapi/linux/sched/types.h, first version
 * (SCHED_ATTR_SIZE_VER0); that header clashes with glibc's <sched.h>.
 */
struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static const char *cfg_prefix;
static const char *cfg_label;
static int cfg_policy = -1;
static int cfg_prio;
static uint64_t cfg_slice_ns;	/* 0: no slice, set the policy */

static const struct {
	const char *name;
	int policy;
} policies[] = {
	{ "fifo", SCHED_FIFO },
	{ "rr", SCHED_RR },
	{ "other", SCHED_OTHER },
};

static void usage(void)
{
	printf("Usage: schedset -c comm_prefix -p fifo|rr|other [-r prio] [-l label]\n"
	       "       schedset -c comm_prefix -s slice_ns [-l label]\n"
	       "  -c prefix   tasks whose command name starts so (e.g. napi/)\n"
	       "  -p policy   fifo, rr or other\n"
	       "  -r prio     1..99 for fifo and rr, 0 for other (default 0)\n"
	       "  -s ns       SCHED_OTHER with this EEVDF slice, %llu..%llu ns\n"
	       "              (sched_attr.sched_runtime; Linux 6.12 and later)\n"
	       "  -l label    the setting's name in the output (default: prefix)\n"
	       "  -h, --help  this text\n"
	       "Prints 'lab: set sched:<label>=<policy>:<prio> "
	       "readback=<policy>:<prio> pid=N comm=C ok|FAIL' per task,\n"
	       "or with -s 'lab: set sched:<label>=<ns> readback=<ns> pid=N comm=C ok|FAIL'.\n",
	       SLICE_MIN_NS, SLICE_MAX_NS);
	exit(0);
}

static const char *policy_name(int policy)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "?";
}

static void opt_policy(const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(policies); i++)
		if (!strcmp(arg, policies[i].name)) {
			cfg_policy = policies[i].policy;
			return;
		}
	usage_error("-p %s: not fifo, rr or other", arg);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":c:hl:p:r:s:")) != -1) {
		switch (c) {
		case 'c':
			cfg_prefix = opt_path(c, optarg);
			break;
		case 'h':
			usage();
			break;
		case 'l':
			cfg_label = opt_path(c, optarg);
			break;
		case 'p':
			opt_policy(optarg);
			break;
		case 'r':
			cfg_prio = opt_int(c, optarg, 0, 99);
			break;
		case 's':
			cfg_slice_ns = opt_u64(c, optarg, SLICE_MIN_NS,
					       SLICE_MAX_NS);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (cfg_slice_ns) {
		if (cfg_policy >= 0 && cfg_policy != SCHED_OTHER)
			usage_error("-s sets SCHED_OTHER, not %s",
				    policy_name(cfg_policy));
		cfg_policy = SCHED_OTHER;
	}
	if (!cfg_prefix || cfg_policy < 0)
		usage_error("-c and -p (or -s) are required");
	if ((cfg_policy == SCHED_OTHER) != (cfg_prio == 0))
		usage_error("priority %d does not go with %s", cfg_prio,
			    policy_name(cfg_policy));
	if (!cfg_label)
		cfg_label = cfg_prefix;
}

/* the task's command name, "?" if it exited meanwhile */
static const char *task_comm(pid_t pid, struct task_stat *ts)
{
	return read_pid_stat(pid, ts) ? "?" : ts->comm;
}

/* Give one task the slice, read it back; true if it took. */
static bool set_slice(pid_t pid, const char *comm)
{
	struct sched_attr attr = { .size = sizeof(attr) };
	uint64_t got = 0;
	int err = 0;
	bool ok;

	/* from what the kernel has (its nice value kept; nice 0 if unread) */
	syscall(SYS_sched_getattr, pid, &attr, sizeof(attr), 0);
	attr.size = sizeof(attr);
	attr.sched_policy = SCHED_OTHER;
	attr.sched_flags = 0;
	attr.sched_priority = 0;
	attr.sched_runtime = cfg_slice_ns;
	if (syscall(SYS_sched_setattr, pid, &attr, 0))
		err = errno;
	memset(&attr, 0, sizeof(attr));
	if (syscall(SYS_sched_getattr, pid, &attr, sizeof(attr), 0) == 0 &&
	    attr.sched_policy == SCHED_OTHER)
		got = attr.sched_runtime;
	ok = !err && got == cfg_slice_ns;
	printf("lab: set sched:%s=%llu readback=%llu pid=%d comm=%s %s\n",
	       cfg_label, (unsigned long long)cfg_slice_ns,
	       (unsigned long long)got, (int)pid, comm, ok ? "ok" : "FAIL");
	if (err)
		error(0, err, "sched_setattr %d", (int)pid);
	return ok;
}

/* Set one task, read it back; true if it took. */
static bool set_task(pid_t pid)
{
	struct sched_param sp = { .sched_priority = cfg_prio };
	struct task_stat ts;
	const char *comm = task_comm(pid, &ts);
	int policy, err = 0;
	bool ok;

	if (cfg_slice_ns)
		return set_slice(pid, comm);

	if (sched_setscheduler(pid, cfg_policy, &sp))
		err = errno;
	policy = sched_getscheduler(pid);
	sp.sched_priority = -1;
	if (policy >= 0 && sched_getparam(pid, &sp))
		policy = -1;
	ok = !err && policy == cfg_policy && sp.sched_priority == cfg_prio;
	printf("lab: set sched:%s=%s:%d readback=%s:%d pid=%d comm=%s %s\n",
	       cfg_label, policy_name(cfg_policy), cfg_prio,
	       policy_name(policy), sp.sched_priority, (int)pid, comm,
	       ok ? "ok" : "FAIL");
	if (err)
		error(0, err, "sched_setscheduler %d", (int)pid);
	return ok;
}

int main(int argc, char **argv)
{
	pid_t pids[MAX_TASKS];
	bool ok = true;
	int i, n;

	tool_init();
	parse_opts(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	n = find_tasks_by_comm(cfg_prefix, true, pids, MAX_TASKS);
	if (n <= 0) {
		if (cfg_slice_ns)
			printf("lab: set sched:%s=%llu readback=none FAIL\n",
			       cfg_label, (unsigned long long)cfg_slice_ns);
		else
			printf("lab: set sched:%s=%s:%d readback=none FAIL\n",
			       cfg_label, policy_name(cfg_policy), cfg_prio);
		error(1, 0, "no task named %s*", cfg_prefix);
	}
	for (i = 0; i < n && i < MAX_TASKS; i++)
		ok &= set_task(pids[i]);
	return ok ? 0 : 1;
}
