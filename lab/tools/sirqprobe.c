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
 *   block  (-b path) a 4 KiB O_DIRECT read once per timeout period: a
 *          blk-mq completion (BLOCK_SOFTIRQ on a guest with two possible
 *          CPUs and one hardware queue)
 *
 * The threads are SCHED_OTHER, nice 0: they compete like any process.
 */

#include <errno.h>
#include <error.h>
#include <fcntl.h>
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
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "shmfile.h"
#include "sirqstat.h"
#include "util.h"

static const char *cfg_path = "/run/sirq.dat";
static uint64_t cfg_timeout_us = 10000;
static uint64_t cfg_secs;
static const char *cfg_block;
static bool cfg_wait;
static bool cfg_kind[SIRQ_KINDS] = { true, true, true, false };

#define BLOCK_IO	4096
#define BLOCK_SPAN	(64ULL << 20)

static struct sirqstat *samples;

static void usage(void)
{
	printf("Usage: sirqprobe [-c file] [-T timeout_us] [-t seconds] "
	       "[-k kinds] [-b path] [-w]\n"
	       "  -c path   the shared sample file (default /run/sirq.dat)\n"
	       "  -T us     timer and poll timeout, and the block probe's "
	       "period,\n"
	       "            1000..1000000 (default 10000)\n"
	       "  -t s      run this long (default: until SIGTERM)\n"
	       "  -k list   probes, comma-separated of timer,poll,rcu,block "
	       "(default\n"
	       "            timer,poll,rcu, and block with -b)\n"
	       "  -b path   the block probe's device (or file): 4 KiB "
	       "O_DIRECT reads\n"
	       "            within its first 64 MiB\n"
	       "  -w        create the sample file, then wait for SIGUSR1 "
	       "(the sampler's\n"
	       "            \"sirq start\") before the probes begin\n"
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
			usage_error("-k: unknown probe '%s' (timer, poll, rcu, block)",
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
	while ((c = getopt(argc, argv, ":b:c:hk:T:t:w")) != -1) {
		switch (c) {
		case 'b':
			cfg_block = opt_path(c, optarg);
			cfg_kind[SIRQ_BLOCK] = true;
			break;
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
		case 'w':
			cfg_wait = true;
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (cfg_kind[SIRQ_BLOCK] && !cfg_block)
		usage_error("-k block needs -b path");
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
			sirq_record(samples, SIRQ_TIMER, t1, t1 - t0);
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
			sirq_record(samples, SIRQ_POLL, t1, t1 - t0);
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
		sirq_record(samples, SIRQ_RCU, t1, t1 - t0);
	}
	return NULL;
}

/*
 * The device, opened O_DIRECT, and how many 4 KiB blocks of it the probe
 * reads (its first 64 MiB at most); exits on a device it cannot read.
 */
static int block_open(uint64_t *nblocks)
{
	uint64_t size = 0;
	struct stat st;
	int fd;

	fd = open(cfg_block, O_RDONLY | O_DIRECT);
	if (fd < 0 || fstat(fd, &st))
		error(1, errno, "block probe: %s", cfg_block);
	if (S_ISREG(st.st_mode)) {
		size = st.st_size;
	} else {
		off_t end = lseek(fd, 0, SEEK_END);

		if (end < 0)
			error(1, errno, "block probe: size of %s", cfg_block);
		size = end;
	}
	size = size < BLOCK_SPAN ? size : BLOCK_SPAN;
	if (size < BLOCK_IO)
		error(1, 0, "block probe: %s has no 4 KiB block", cfg_block);
	*nblocks = size / BLOCK_IO;
	return fd;
}

static void *block_probe(void *arg)
{
	uint64_t nblocks, blk = 0, t0, t1, next;
	void *buf;
	ssize_t n;
	int fd;

	(void)arg;
	fd = block_open(&nblocks);
	if (posix_memalign(&buf, BLOCK_IO, BLOCK_IO))
		error(1, ENOMEM, "block probe");
	next = now_ns(CLOCK_MONOTONIC);
	while (!interrupted) {
		t0 = now_ns(CLOCK_MONOTONIC);
		n = pread(fd, buf, BLOCK_IO, (off_t)(blk * BLOCK_IO));
		t1 = now_ns(CLOCK_MONOTONIC);
		if (n == BLOCK_IO)
			sirq_record(samples, SIRQ_BLOCK, t1, t1 - t0);
		else if (n >= 0)
			error(1, 0, "block probe: short read of %s", cfg_block);
		else if (errno != EINTR)
			error(1, errno, "block probe: read of %s", cfg_block);
		/* every block once, then again: no two reads of one block in a row */
		blk = (blk + 1) % nblocks;
		next += cfg_timeout_us * 1000;
		if (next < t1)
			next = t1;
		sleep_until_ns(next, &interrupted);
	}
	free(buf);
	close(fd);
	return NULL;
}

/*
 * -w: wait for SIGUSR1 (or end on SIGINT/SIGTERM) with the three blocked;
 * true to start the probes.
 */
static bool wait_for_start(void)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	printf("sirqprobe: waiting pid=%d (SIGUSR1 starts the probes)\n",
	       (int)getpid());
	fflush(stdout);
	while (sigwait(&set, &sig) || sig == 0)
		;
	return sig == SIGUSR1;
}

int main(int argc, char **argv)
{
	void *(*const fn[SIRQ_KINDS])(void *) = { timer_probe, poll_probe,
						  rcu_probe, block_probe };
	pthread_t th[SIRQ_KINDS];
	sigset_t set, old;
	int k, err;

	tool_init();
	parse_opts(argc, argv);
	catch_stop_signals();
	/*
	 * SIGUSR1 (the start) blocked for good, in every thread: a second one
	 * stays pending, never kills; SIGINT and SIGTERM blocked until the
	 * probe threads exist, so they go to the main thread, which ends them
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	sigaddset(&old, SIGUSR1);
	samples = shm_create(cfg_path, sizeof(*samples));
	samples->version = SIRQSTAT_VERSION;
	samples->pid = getpid();
	samples->timeout_ns = cfg_timeout_us * 1000;
	__atomic_store_n(&samples->magic, SIRQSTAT_MAGIC, __ATOMIC_RELEASE);
	if (cfg_wait && !wait_for_start()) {
		printf("sirqprobe: stopped before it started\n");
		return 0;
	}
	for (k = 0; k < SIRQ_KINDS; k++) {
		if (!cfg_kind[k])
			continue;
		err = pthread_create(&th[k], NULL, fn[k], NULL);
		if (err)
			error(1, err, "pthread_create");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	printf("sirqprobe: started pid=%d timeout_us=%llu block=%s\n",
	       (int)getpid(), (unsigned long long)cfg_timeout_us,
	       cfg_kind[SIRQ_BLOCK] ? cfg_block : "none");
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
	       (unsigned long long)samples->head);
	return 0;
}
