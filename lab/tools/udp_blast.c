// SPDX-License-Identifier: GPL-2.0
/*
 * udp_blast: the guest's UDP sender for the TX experiment.  N threads,
 * each with its own connected UDP socket, send fixed-size datagrams with
 * sendmmsg as fast as the kernel takes them, for a given time or until
 * SIGINT/SIGTERM.  Per-thread counters are published in a shared file
 * (blaststat.h) for the sampler; the totals are printed at the end.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "blaststat.h"
#include "guard.h"
#include "shmfile.h"
#include "udpsock.h"
#include "util.h"

#define BLAST_PAYLOAD_MAX	1472	/* 1500 MTU - IPv4 - UDP headers */
#define BLAST_BATCH_MAX		1024	/* UIO_MAXIOV */
#define BLAST_MAX_NS		(86400ULL * NSEC_PER_SEC)

static const char *cfg_dest_str;
static struct in_addr cfg_dest;
static int cfg_port = 9;
static int cfg_payload = 18;
static int cfg_threads = 2;
static int cfg_batch = 8;
static bool cfg_pin;
static uint64_t cfg_duration_ns;	/* 0: until a signal */
static const char *cfg_counter_path;

static int stop_senders;		/* read with __atomic_load_n */
static struct blaststat local_stat;
static struct blaststat *counters = &local_stat;

static void usage(void)
{
	printf("Usage: udp_blast -d addr [-p port] [-s bytes] [-n threads] [-B batch]\n"
	       "                 [-t seconds] [-a] [-c counter_file]\n"
	       "  -d addr     IPv4 unicast destination\n"
	       "  -p port     destination UDP port (default 9)\n"
	       "  -s bytes    payload size, 1..%d (default 18)\n"
	       "  -n n        sender threads, each with its own socket, 1..%d\n"
	       "              (default 2)\n"
	       "  -B n        datagrams per sendmmsg call, 1..%d (default 8)\n"
	       "  -t seconds  stop after this long (default: at SIGINT/SIGTERM)\n"
	       "  -a          pin thread i to CPU i mod (number of CPUs)\n"
	       "  -c path     shared counter file (created, mmap'ed)\n"
	       "  -h, --help  this text\n"
	       "Prints 'udp_blast: dst=A:P threads=N payload=N batch=N pinned=0|1'\n"
	       "at start and 'udp_blast: sent=N errors=N duration_ns=N "
	       "rate_pps=N' at the end.\n",
	       BLAST_PAYLOAD_MAX, BLAST_THREADS_MAX, BLAST_BATCH_MAX);
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":aB:c:d:hn:p:s:t:")) != -1) {
		switch (c) {
		case 'a':
			cfg_pin = true;
			break;
		case 'B':
			cfg_batch = opt_int(c, optarg, 1, BLAST_BATCH_MAX);
			break;
		case 'c':
			cfg_counter_path = opt_path(c, optarg);
			break;
		case 'd':
			cfg_dest = opt_ipv4(c, optarg);
			cfg_dest_str = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'n':
			cfg_threads = opt_int(c, optarg, 1, BLAST_THREADS_MAX);
			break;
		case 'p':
			cfg_port = opt_int(c, optarg, 1, 65535);
			break;
		case 's':
			cfg_payload = opt_int(c, optarg, 1, BLAST_PAYLOAD_MAX);
			break;
		case 't':
			cfg_duration_ns = opt_seconds_ns(c, optarg, 1,
							 BLAST_MAX_NS);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!cfg_dest_str)
		usage_error("-d destination is required");
	if (!guard_is_unicast(cfg_dest))
		usage_error("-d %s is not a unicast address", cfg_dest_str);
}

static void setup_counters(void)
{
	struct blaststat *p;

	if (!cfg_counter_path)
		return;
	p = shm_create(cfg_counter_path, sizeof(*p));
	p->version = BLASTSTAT_VERSION;
	p->pid = getpid();
	p->threads = cfg_threads;
	__atomic_store_n(&p->magic, BLASTSTAT_MAGIC, __ATOMIC_RELEASE);
	counters = p;
}

static void *sender(void *arg)
{
	struct blast_thread_stat *st = arg;
	struct mmsghdr msgs[BLAST_BATCH_MAX];
	char payload[BLAST_PAYLOAD_MAX];
	struct iovec iov = { payload, cfg_payload };
	int n, fd = udp_connect(cfg_dest, cfg_port);

	udp_fill_payload(payload, 0, cfg_payload);
	udp_mmsg_init(msgs, cfg_batch, &iov);
	while (!__atomic_load_n(&stop_senders, __ATOMIC_RELAXED)) {
		n = sendmmsg(fd, msgs, cfg_batch, 0);
		if (n >= 0) {
			blaststat_store(&st->sent, st->sent + n);
			continue;
		}
		if (errno == EINTR)
			continue;
		if (!udp_send_error_is_soft(errno))
			error(1, errno, "sendmmsg");
		blaststat_store(&st->errors, st->errors + 1);
	}
	close(fd);
	return NULL;
}

static void start_senders(pthread_t *tids)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_attr_t attr;
	cpu_set_t set;
	int i, err;

	for (i = 0; i < cfg_threads; i++) {
		if (pthread_attr_init(&attr))
			error(1, 0, "pthread_attr_init");
		if (cfg_pin && ncpu > 0) {
			CPU_ZERO(&set);
			CPU_SET(i % ncpu, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		err = pthread_create(&tids[i], &attr, sender, &counters->t[i]);
		if (err)
			error(1, err, "pthread_create");
		pthread_attr_destroy(&attr);
	}
}

int main(int argc, char **argv)
{
	pthread_t tids[BLAST_THREADS_MAX];
	uint64_t start, end, sent = 0, errors = 0;
	sigset_t block, old;
	int i;

	tool_init();
	parse_opts(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	catch_stop_signals();
	setup_counters();
	printf("udp_blast: dst=%s:%d threads=%d payload=%d batch=%d pinned=%d\n",
	       cfg_dest_str, cfg_port, cfg_threads, cfg_payload, cfg_batch,
	       cfg_pin);

	/* Signals go to this thread only; the senders just send. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	start = now_ns(CLOCK_MONOTONIC);
	blaststat_store(&counters->start_ns, start);
	blaststat_store(&counters->running, 1);
	start_senders(tids);
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* In steps of a second: a signal racing the sleep costs <= 1 s. */
	end = start + (cfg_duration_ns ? cfg_duration_ns : BLAST_MAX_NS);
	while (!interrupted && now_ns(CLOCK_MONOTONIC) < end)
		sleep_until_ns(MIN(end, now_ns(CLOCK_MONOTONIC) + NSEC_PER_SEC),
			       &interrupted);
	__atomic_store_n(&stop_senders, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cfg_threads; i++)
		pthread_join(tids[i], NULL);
	end = now_ns(CLOCK_MONOTONIC);
	blaststat_store(&counters->end_ns, end);
	blaststat_store(&counters->running, 0);

	for (i = 0; i < cfg_threads; i++) {
		sent += counters->t[i].sent;
		errors += counters->t[i].errors;
	}
	printf("udp_blast: sent=%llu errors=%llu duration_ns=%llu rate_pps=%llu\n",
	       (unsigned long long)sent, (unsigned long long)errors,
	       (unsigned long long)(end - start),
	       (unsigned long long)((__uint128_t)sent * NSEC_PER_SEC /
				    (end - start ? end - start : 1)));
	return 0;
}
