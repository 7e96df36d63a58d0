// SPDX-License-Identifier: GPL-2.0
/*
 * udp_sink: the guest's receiving application.  One UDP socket on
 * INADDR_ANY:port, blocking reads (recvfrom per packet, or recvmmsg
 * batches), optional per-packet busy work, counters and their history
 * (per 10 ms of guest time) published in a shared file (sinkstat.h) for
 * the sampler.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "shmfile.h"
#include "sinkstat.h"
#include "udpsock.h"
#include "util.h"

#define SINK_SLOT_LEN	2048	/* per datagram; longer ones truncated */
#define SINK_BATCH_MAX	1024

static int cfg_port = 9000;
static int cfg_rcvbuf;			/* 0: leave the default */
static bool cfg_mmsg;
static int cfg_batch = 64;
static uint64_t cfg_work;
static const char *cfg_counter_path;
static const char *cfg_pidfile;

/* -o: socket options of the receiver (the lab's setting variants) */
#define SINK_SOCKOPT_MAX	4
static const struct sockopt_name {
	const char *name;
	int opt;
	int max;
	bool readable;	/* 6.12 has no getsockopt for SO_BUSY_POLL_BUDGET */
} sockopt_names[] = {
	{ "busy_poll", SO_BUSY_POLL, 0x7fffffff, true },
	{ "prefer_busy_poll", SO_PREFER_BUSY_POLL, 1, true },
	{ "busy_poll_budget", SO_BUSY_POLL_BUDGET, 65535, false },
};

static struct {
	const struct sockopt_name *o;
	int val;
} cfg_sockopt[SINK_SOCKOPT_MAX];
static int cfg_nsockopt;

static struct sinkstat local_stat;
static struct sinkstat *counters = &local_stat;
static volatile uint32_t work_sink;	/* keeps the busy work alive */

static void usage(void)
{
	printf("Usage: udp_sink [-p port] [-b rcvbuf] [-m [-B batch]] [-w iters]\n"
	       "                [-o sockopt=value]... [-c counter_file] [-P pidfile]\n"
	       "  -p port     UDP port on INADDR_ANY (default 9000)\n"
	       "  -b bytes    SO_RCVBUF (then SO_RCVBUFFORCE if permitted)\n"
	       "  -m          read with recvmmsg instead of recvfrom\n"
	       "  -B n        recvmmsg batch, 1..%d (default 64)\n"
	       "  -w n        busy-work iterations over each payload (default 0)\n"
	       "  -o o=v      set socket option o (busy_poll, prefer_busy_poll,\n"
	       "              busy_poll_budget) to v, read it back (6.12 cannot read\n"
	       "              busy_poll_budget) and print 'lab: set sock:o=v\n"
	       "              readback=R ok' (else FAIL, exit 1)\n"
	       "  -c path     shared counter file (created, mmap'ed)\n"
	       "  -P path     write our pid to this file\n"
	       "  -h, --help  this text\n"
	       "Prints 'udp_sink: port=P rcvbuf=N mode=recvfrom|recvmmsg work=W'\n"
	       "at start and 'udp_sink: packets=N bytes=N errors=N' on exit.\n",
	       SINK_BATCH_MAX);
	exit(0);
}

static void opt_sockopt(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t i, len = eq ? (size_t)(eq - arg) : 0;

	if (cfg_nsockopt == SINK_SOCKOPT_MAX)
		usage_error("at most %d -o options", SINK_SOCKOPT_MAX);
	for (i = 0; i < ARRAY_SIZE(sockopt_names); i++) {
		const struct sockopt_name *o = &sockopt_names[i];

		if (len != strlen(o->name) || strncmp(arg, o->name, len))
			continue;
		cfg_sockopt[cfg_nsockopt].o = o;
		cfg_sockopt[cfg_nsockopt].val = opt_int('o', eq + 1, 0, o->max);
		cfg_nsockopt++;
		return;
	}
	usage_error("-o %s: not busy_poll=, prefer_busy_poll= or busy_poll_budget=",
		    arg);
}

/* Set the -o options, read each back, say so; exit 1 on a refusal. */
static void apply_sockopts(int fd)
{
	socklen_t len;
	int i, got;
	bool ok;

	for (i = 0; i < cfg_nsockopt; i++) {
		const struct sockopt_name *o = cfg_sockopt[i].o;
		int val = cfg_sockopt[i].val;

		got = -1;
		len = sizeof(got);
		ok = !setsockopt(fd, SOL_SOCKET, o->opt, &val, sizeof(val));
		if (!ok || !o->readable) {
			printf("lab: set sock:%s=%d readback=%s %s\n", o->name, val,
			       o->readable ? "none" : "write-only(set)",
			       ok ? "ok" : "FAIL");
			if (!ok)
				error(1, errno, "socket option %s=%d", o->name, val);
			continue;
		}
		ok = !getsockopt(fd, SOL_SOCKET, o->opt, &got, &len) &&
		     got == val;
		printf("lab: set sock:%s=%d readback=%d %s\n", o->name, val, got,
		       ok ? "ok" : "FAIL");
		if (!ok)
			error(1, errno, "socket option %s=%d", o->name, val);
	}
}

static void parse_opts(int argc, char **argv)
{
	bool batch_set = false;
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":b:B:c:hmo:p:P:w:")) != -1) {
		switch (c) {
		case 'b':
			cfg_rcvbuf = opt_int(c, optarg, 1, 1 << 30);
			break;
		case 'B':
			cfg_batch = opt_int(c, optarg, 1, SINK_BATCH_MAX);
			batch_set = true;
			break;
		case 'c':
			if (!*optarg)
				usage_error("empty path for -c");
			cfg_counter_path = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'm':
			cfg_mmsg = true;
			break;
		case 'o':
			opt_sockopt(optarg);
			break;
		case 'p':
			cfg_port = opt_int(c, optarg, 1, 65535);
			break;
		case 'P':
			if (!*optarg)
				usage_error("empty path for -P");
			cfg_pidfile = optarg;
			break;
		case 'w':
			cfg_work = opt_u64(c, optarg, 0, 1000000000ULL);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (batch_set && !cfg_mmsg)
		usage_error("-B needs -m");
}

static void setup_signals(void)
{
	catch_stop_signals();
}

static void setup_counters(void)
{
	if (cfg_counter_path)
		counters = sinkstat_create(cfg_counter_path);
}

static void write_pidfile(void)
{
	FILE *f;

	if (!cfg_pidfile)
		return;
	f = fopen(cfg_pidfile, "w");
	if (!f)
		error(1, errno, "open %s", cfg_pidfile);
	fprintf(f, "%d\n", (int)getpid());
	if (fclose(f))
		error(1, errno, "write %s", cfg_pidfile);
}

static int effective_rcvbuf(int fd)
{
	socklen_t len;
	int val = 0;

	len = sizeof(val);
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &val, &len))
		error(1, errno, "getsockopt SO_RCVBUF");
	return val;
}

static void do_work(const unsigned char *buf, size_t len)
{
	uint32_t h = 0;
	uint64_t n;
	size_t i;

	for (n = 0; n < cfg_work; n++) {
		h = h * 31 + (uint32_t)n;
		for (i = 0; i < len; i++)
			h = h * 31 + buf[i];
	}
	work_sink = h;
}

static void account(size_t len)
{
	sinkstat_count(counters, len);
}

/* errno of a failed read: false if we should just go round again. */
static bool read_failed(void)
{
	switch (errno) {
	case EINTR:
	case EAGAIN:
		return false;
	case EBADF:
	case EFAULT:
	case EINVAL:
	case ENOTSOCK:
		error(1, errno, "recv");
	}
	sinkstat_store(&counters->errors, counters->errors + 1);
	return true;
}

static void loop_recvfrom(int fd)
{
	static unsigned char buf[SINK_SLOT_LEN];
	ssize_t ret;

	while (!interrupted) {
		/* MSG_TRUNC: the return value is the full datagram length */
		ret = recvfrom(fd, buf, sizeof(buf), MSG_TRUNC, NULL, NULL);
		if (ret < 0) {
			read_failed();
			continue;
		}
		if (cfg_work)
			do_work(buf, (size_t)ret < sizeof(buf) ?
				(size_t)ret : sizeof(buf));
		account(ret);
		sinkstat_stamp(counters);
	}
}

static void loop_recvmmsg(int fd)
{
	static unsigned char bufs[SINK_BATCH_MAX][SINK_SLOT_LEN];
	static struct mmsghdr msgs[SINK_BATCH_MAX];
	static struct iovec iovs[SINK_BATCH_MAX];
	int i, n;

	for (i = 0; i < cfg_batch; i++) {
		iovs[i].iov_base = bufs[i];
		iovs[i].iov_len = SINK_SLOT_LEN;
		msgs[i].msg_hdr.msg_iov = &iovs[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (!interrupted) {
		/* Blocks for the first datagram, then takes what is queued. */
		n = recvmmsg(fd, msgs, cfg_batch, MSG_TRUNC | MSG_WAITFORONE,
			     NULL);
		if (n < 0) {
			read_failed();
			continue;
		}
		for (i = 0; i < n; i++) {
			size_t len = msgs[i].msg_len;

			if (cfg_work)
				do_work(bufs[i], len < SINK_SLOT_LEN ?
					len : SINK_SLOT_LEN);
			account(len);
		}
		sinkstat_stamp(counters);
	}
}

int main(int argc, char **argv)
{
	int fd;

	tool_init();
	parse_opts(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup_signals();
	setup_counters();
	fd = udp_bind_any(cfg_port, cfg_rcvbuf);
	apply_sockopts(fd);
	write_pidfile();

	printf("udp_sink: port=%d rcvbuf=%d mode=%s work=%llu\n", cfg_port,
	       effective_rcvbuf(fd), cfg_mmsg ? "recvmmsg" : "recvfrom",
	       (unsigned long long)cfg_work);

	if (cfg_mmsg)
		loop_recvmmsg(fd);
	else
		loop_recvfrom(fd);

	printf("udp_sink: packets=%llu bytes=%llu errors=%llu\n",
	       (unsigned long long)counters->packets,
	       (unsigned long long)counters->bytes,
	       (unsigned long long)counters->errors);
	close(fd);
	return 0;
}
