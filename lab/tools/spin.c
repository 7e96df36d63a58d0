// SPDX-License-Identifier: GPL-2.0
/*
 * spin: the revert's busy CPU (lab/exp/softirq): N nice-0 busy loops,
 * threads of one process, each counting its iterations in a shared file
 * (sirqstat.h, struct spinstat) so that their progress is exact in an
 * instruction-counted guest.  Runs until SIGTERM.
 */

#include <errno.h>
#include <error.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shmfile.h"
#include "sirqstat.h"
#include "util.h"

/* iterations between two stores of a loop's counter */
#define SPIN_BATCH	4096

static const char *cfg_path = "/run/spin.dat";
static int cfg_loops = 1;
static struct spinstat *stat;

static void usage(void)
{
	printf("Usage: spin [-n loops] [-c file]\n"
	       "  -n N      busy loops, 1..%d (default 1)\n"
	       "  -c path   the shared counter file (default /run/spin.dat)\n"
	       "  -h, --help  this text\n", SPIN_MAX);
	exit(0);
}

static void *loop(void *arg)
{
	uint64_t *ctr = arg, n = 0;
	volatile uint64_t sink = 0;
	int i;

	while (!interrupted) {
		for (i = 0; i < SPIN_BATCH; i++)
			sink += i;
		n += SPIN_BATCH;
		__atomic_store_n(ctr, n, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[SPIN_MAX];
	sigset_t set, old;
	int c, i, err;

	tool_init();
	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":c:hn:")) != -1) {
		switch (c) {
		case 'c':
			cfg_path = opt_path(c, optarg);
			break;
		case 'h':
			usage();
			break;
		case 'n':
			cfg_loops = opt_int(c, optarg, 1, SPIN_MAX);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	stat = shm_create(cfg_path, sizeof(*stat));
	stat->nloops = cfg_loops;
	__atomic_store_n(&stat->magic, SPINSTAT_MAGIC, __ATOMIC_RELEASE);
	catch_stop_signals();
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	for (i = 0; i < cfg_loops; i++) {
		err = pthread_create(&th[i], NULL, loop, &stat->iters[i]);
		if (err)
			error(1, err, "pthread_create");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (!interrupted)
		pause();
	for (i = 0; i < cfg_loops; i++)
		pthread_join(th[i], NULL);
	return 0;
}
