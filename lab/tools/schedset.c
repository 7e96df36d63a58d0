// SPDX-License-Identifier: GPL-2.0
/*
 * schedset: the scheduling class of guest threads, by command name, for
 * the lab's setting variants (busybox has no chrt).  Sets every task whose
 * command name starts with the prefix to the policy and priority, reads
 * each back, and prints one line per task:
 *   lab: set sched:<label>=<policy>:<prio> readback=<policy>:<prio> pid=N ok
 * (FAIL instead of ok, and exit 1, when the kernel refused or read back
 * something else; exit 1 too when no task matches).
 */

#include <errno.h>
#include <error.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procparse.h"
#include "util.h"

#define MAX_TASKS	64

static const char *cfg_prefix;
static const char *cfg_label;
static int cfg_policy = -1;
static int cfg_prio;

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
	       "  -c prefix   tasks whose command name starts so (e.g. napi/)\n"
	       "  -p policy   fifo, rr or other\n"
	       "  -r prio     1..99 for fifo and rr, 0 for other (default 0)\n"
	       "  -l label    the setting's name in the output (default: prefix)\n"
	       "  -h, --help  this text\n"
	       "Prints 'lab: set sched:<label>=<policy>:<prio> "
	       "readback=<policy>:<prio> pid=N ok|FAIL' per task.\n");
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
	while ((c = getopt(argc, argv, ":c:hl:p:r:")) != -1) {
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
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!cfg_prefix || cfg_policy < 0)
		usage_error("-c and -p are required");
	if ((cfg_policy == SCHED_OTHER) != (cfg_prio == 0))
		usage_error("priority %d does not go with %s", cfg_prio,
			    policy_name(cfg_policy));
	if (!cfg_label)
		cfg_label = cfg_prefix;
}

/* Set one task, read it back; true if it took. */
static bool set_task(pid_t pid)
{
	struct sched_param sp = { .sched_priority = cfg_prio };
	int policy, err = 0;
	bool ok;

	if (sched_setscheduler(pid, cfg_policy, &sp))
		err = errno;
	policy = sched_getscheduler(pid);
	sp.sched_priority = -1;
	if (policy >= 0 && sched_getparam(pid, &sp))
		policy = -1;
	ok = !err && policy == cfg_policy && sp.sched_priority == cfg_prio;
	printf("lab: set sched:%s=%s:%d readback=%s:%d pid=%d %s\n", cfg_label,
	       policy_name(cfg_policy), cfg_prio, policy_name(policy),
	       sp.sched_priority, (int)pid, ok ? "ok" : "FAIL");
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
		printf("lab: set sched:%s=%s:%d readback=none FAIL\n", cfg_label,
		       policy_name(cfg_policy), cfg_prio);
		error(1, 0, "no task named %s*", cfg_prefix);
	}
	for (i = 0; i < n && i < MAX_TASKS; i++)
		ok &= set_task(pids[i]);
	return ok ? 0 : 1;
}
