// SPDX-License-Identifier: GPL-2.0
/*
 * sirqprobe: user-visible probes of the softirq users other than the
 * network (lab/exp/softirq): one thread per probe, each calling back to
 * back and recording every call's duration in a shared file (sirqstat.h)
 * that the sampler summarises over a window ("sirq <from> <to>").
 *
 *   timer  recv() with SO_RCVTIMEO: a timer-wheel timeout (TIMER_SOFTIRQ)
 *   poll   poll() with the same timeout: an hrtimer (hardirq), the control
 *   rcu    close() of an AF_PACKET socket: synchronize_net() (RCU_SOFTIRQ)
 *
 * The threads are SCHED_OTHER, nice 0: they compete like any process.
 */

#include <errno.h>
#include <error.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "shmfile.h"
#include "sirqstat.h"
#include "util.h"

static const char *cfg_path = "/run/sirq.dat";
static uint64_t cfg_timeout_us = 10000;
static uint64_t cfg_secs;
static bool cfg_kind[SIRQ_KINDS] = { true, true, true };

static struct sirqstat *stat;

static void usage(void)
{
	printf("Usage: sirqprobe [-c file] [-T timeout_us] [-t seconds] "
	       "[-k kinds]\n"
	       "  -c path   the shared sample file (default /run/sirq.dat)\n"
	       "  -T us     timer and poll timeout, 1000..1000000 "
	       "(default 10000)\n"
	       "  -t s      run this long (default: until SIGTERM)\n"
	       "  -k list   probes, comma-separated of timer,poll,rcu "
	       "(default all)\n"
	       "  -h, --help  this text\n");
	exit(0);
}

static void parse_kinds(const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int k;

	if (!copy)
		error(1, errno, "strdup");
	memset(cfg_kind, 0, sizeof(cfg_kind));
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < SIRQ_KINDS; k++)
			if (!strcmp(tok, sirq_names[k]))
				break;
		if (k == SIRQ_KINDS)
			usage_error("-k: unknown probe '%s' (timer, poll, rcu)",
				    tok);
		cfg_kind[k] = true;
	}
	free(copy);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":c:hk:T:t:")) != -1) {
		switch (c) {
		case 'c':
			cfg_path = opt_path(c, optarg);
			break;
		case 'h':
			usage();
			break;
		case 'k':
			parse_kinds(optarg);
			break;
		case 'T':
			cfg_timeout_us = opt_u64(c, optarg, 1000, 1000000);
			break;
		case 't':
			cfg_secs = opt_u64(c, optarg, 1, 86400);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

/* A UDP socket on loopback that nobody sends to. */
static int idle_socket(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)))
		error(1, errno, "idle socket");
	return fd;
}

static void *timer_probe(void *arg)
{
	struct timeval tv = { .tv_sec = cfg_timeout_us / 1000000,
			      .tv_usec = cfg_timeout_us % 1000000 };
	int fd = idle_socket();
	uint64_t t0, t1;
	char b;

	(void)arg;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		error(1, errno, "SO_RCVTIMEO");
	while (!interrupted) {
		t0 = now_ns(CLOCK_MONOTONIC);
		if (recv(fd, &b, 1, 0) >= 0 ||
		    (errno != EAGAIN && errno != EINTR))
			error(1, errno, "timer probe: recv did not time out");
		t1 = now_ns(CLOCK_MONOTONIC);
		if (errno == EAGAIN)
			sirq_record(stat, SIRQ_TIMER, t1, t1 - t0);
	}
	return NULL;
}

static void *poll_probe(void *arg)
{
	struct pollfd p = { .fd = idle_socket(), .events = POLLIN };
	uint64_t t0, t1;
	int ret;

	(void)arg;
	while (!interrupted) {
		t0 = now_ns(CLOCK_MONOTONIC);
		ret = poll(&p, 1, cfg_timeout_us / 1000);
		t1 = now_ns(CLOCK_MONOTONIC);
		if (ret > 0)
			error(1, 0, "poll probe: the idle socket is readable");
		if (ret == 0)
			sirq_record(stat, SIRQ_POLL, t1, t1 - t0);
		else if (errno != EINTR)
			error(1, errno, "poll probe");
	}
	return NULL;
}

static void *rcu_probe(void *arg)
{
	uint64_t t0, t1;
	int fd;

	(void)arg;
	while (!interrupted) {
		/* protocol 0: no hook registered, only the release's wait */
		fd = socket(AF_PACKET, SOCK_DGRAM, 0);
		if (fd < 0)
			error(1, errno, "rcu probe: AF_PACKET socket");
		t0 = now_ns(CLOCK_MONOTONIC);
		close(fd);
		t1 = now_ns(CLOCK_MONOTONIC);
		sirq_record(stat, SIRQ_RCU, t1, t1 - t0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*const fn[SIRQ_KINDS])(void *) = { timer_probe, poll_probe,
						  rcu_probe };
	pthread_t th[SIRQ_KINDS];
	sigset_t set, old;
	int k, err;

	tool_init();
	parse_opts(argc, argv);
	stat = shm_create(cfg_path, sizeof(*stat));
	stat->version = SIRQSTAT_VERSION;
	stat->pid = getpid();
	stat->timeout_ns = cfg_timeout_us * 1000;
	__atomic_store_n(&stat->magic, SIRQSTAT_MAGIC, __ATOMIC_RELEASE);
	catch_stop_signals();
	/* the signals go to the main thread, which ends the probes */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	for (k = 0; k < SIRQ_KINDS; k++) {
		if (!cfg_kind[k])
			continue;
		err = pthread_create(&th[k], NULL, fn[k], NULL);
		if (err)
			error(1, err, "pthread_create");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	printf("sirqprobe: started pid=%d timeout_us=%llu\n", (int)getpid(),
	       (unsigned long long)cfg_timeout_us);
	fflush(stdout);
	if (cfg_secs)
		sleep_until_ns(now_ns(CLOCK_MONOTONIC) + cfg_secs * 1000000000ULL,
			       &interrupted);
	else
		while (!interrupted)
			pause();
	interrupted = 1;
	/* a thread blocked in its call wakes at its timeout or grace period */
	for (k = 0; k < SIRQ_KINDS; k++)
		if (cfg_kind[k])
			pthread_join(th[k], NULL);
	printf("sirqprobe: stopped samples=%llu\n",
	       (unsigned long long)stat->head);
	return 0;
}
