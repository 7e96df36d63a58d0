// SPDX-License-Identifier: GPL-2.0
/*
 * timerlat: the guest's timer-latency probe.  Sleeps with
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to each period boundary
 * and records how late it woke, in ns, in a ring that sampler reads
 * (tlatring.h).  SCHED_OTHER by default, so it waits for the CPU like any
 * normal task would.
 */

#include <errno.h>
#include <error.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "latstats.h"
#include "shmfile.h"
#include "tlatring.h"
#include "util.h"

#define PERIOD_MIN_US	10
#define PERIOD_MAX_US	1000000

static uint64_t cfg_period_us = 1000;
static const char *cfg_ring_path;
static bool cfg_fifo;

static struct tlat_ring local_ring;

static void usage(void)
{
	printf("Usage: timerlat [-i period_us] [-c ring_file] [-f]\n"
	       "  -i us     period, %d..%d (default 1000)\n"
	       "  -c path   shared ring file for sampler -l (created, mmap'ed)\n"
	       "  -f        run SCHED_FIFO priority 50 (default SCHED_OTHER)\n"
	       "  -h, --help  this text\n"
	       "Lateness = wake time - period boundary.  A wake more than a "
	       "period late\nskips to the next future boundary (counted in "
	       "overruns).\n"
	       "Prints 'timerlat: period_ns=N policy=other|fifo' at start and\n"
	       "'timerlat: count=N overruns=N p50_us=X p90_us=X p99_us=X "
	       "p999_us=X max_us=X'\n(over the samples the ring holds) on "
	       "SIGINT/SIGTERM.\n", PERIOD_MIN_US, PERIOD_MAX_US);
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":c:fhi:")) != -1) {
		switch (c) {
		case 'c':
			cfg_ring_path = opt_path(c, optarg);
			break;
		case 'f':
			cfg_fifo = true;
			break;
		case 'h':
			usage();
			break;
		case 'i':
			cfg_period_us = opt_u64(c, optarg, PERIOD_MIN_US,
						PERIOD_MAX_US);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

static struct tlat_ring *setup(void)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct tlat_ring *r = &local_ring;

	catch_stop_signals();
	if (cfg_fifo && sched_setscheduler(0, SCHED_FIFO, &sp))
		error(1, errno, "SCHED_FIFO 50");
	/*
	 * Measure scheduling, not timer coalescing: SCHED_OTHER sleeps get
	 * 50 us of slack by default (RT ones none).
	 */
	if (prctl(PR_SET_TIMERSLACK, 1UL))
		error(0, errno, "warning: PR_SET_TIMERSLACK");
	if (cfg_ring_path)
		r = shm_create(cfg_ring_path, sizeof(*r));
	/* no page faults in the loop: lock (and so populate) the ring too */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		error(0, errno, "warning: mlockall");
	r->version = TLAT_VERSION;
	r->period_ns = cfg_period_us * 1000;
	r->pid = getpid();
	__atomic_store_n(&r->magic, TLAT_MAGIC, __ATOMIC_RELEASE);
	return r;
}

static void run(struct tlat_ring *r)
{
	uint64_t period = r->period_ns, target, wake, skip;

	target = now_ns(CLOCK_MONOTONIC) + period;
	while (sleep_until_ns(target, &interrupted)) {
		wake = now_ns(CLOCK_MONOTONIC);
		tlat_ring_push(r, wake > target ? wake - target : 0);
		target += period;
		if (target <= wake) {
			/* a period or more late: skip to a future boundary */
			skip = (wake - target) / period + 1;
			target += skip * period;
			__atomic_store_n(&r->overruns, r->overruns + skip,
					 __ATOMIC_RELAXED);
		}
	}
}

static void report(const struct tlat_ring *r)
{
	static uint64_t lat[TLAT_RING];
	uint64_t count = r->count;
	uint64_t from = count >= TLAT_RING ? count - TLAT_RING + 1 : 0;
	char why[128], buf[512];
	struct strbuf sb = STRBUF_INIT(buf);
	struct lat_summary s;

	sb_printf(&sb, "timerlat: count=%llu overruns=%llu",
		  (unsigned long long)count, (unsigned long long)r->overruns);
	if (count && !tlat_ring_read(r, from, count, lat, why, sizeof(why)) &&
	    !lat_compute(lat, count - from, 0, 0, &s)) {
		sb_printf(&sb, " ");
		lat_format(&s, &sb);
	}
	printf("%s\n", buf);
}

int main(int argc, char **argv)
{
	struct tlat_ring *r;

	tool_init();
	parse_opts(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	r = setup();
	printf("timerlat: period_ns=%llu policy=%s\n",
	       (unsigned long long)r->period_ns, cfg_fifo ? "fifo" : "other");
	run(r);
	report(r);
	return 0;
}
