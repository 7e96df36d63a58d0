// SPDX-License-Identifier: GPL-2.0
/*
 * flood: UDP flooder for the lab's network namespace.  Sends fixed-size
 * datagrams with sendmmsg to one allowlisted guest, either as fast as
 * possible or paced to a target rate with absolute-time sleeps.  Paced,
 * it sends in bursts of at most -u microseconds' worth of datagrams
 * (default 100: 30 datagrams at 300 kpps), far below what the guest
 * receiver's default socket buffer holds, with a 1 ns timer slack so the
 * bursts are as even as the host's timers allow.
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
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "udpsock.h"
#include "util.h"

#define FLOOD_PAYLOAD_MAX	1472	/* 1500 MTU - IPv4 - UDP headers */
#define FLOOD_BATCH_MAX		1024	/* UIO_MAXIOV */
#define FLOOD_MAX_NS		(86400ULL * NSEC_PER_SEC)

static struct guard_dest cfg_to;
static int cfg_port = 9000;
static int cfg_payload = 18;
static uint64_t cfg_rate;		/* pps, 0: unlimited */
static uint64_t cfg_duration_ns;
static int cfg_batch = 32;
static uint64_t cfg_burst_us = 100;

static void usage(void)
{
	printf("Usage: flood -d addr -t seconds -A allowlist [-p port] [-s bytes]\n"
	       "             [-r pps] [-B batch] [-u burst_us]\n"
	       "  -d addr     IPv4 unicast destination (must be in the allowlist)\n"
	       "  -A file     allowlist: one IPv4 address per line, # comments\n"
	       "  -t seconds  duration, > 0, fractions allowed (e.g. 2.5)\n"
	       "  -p port     destination UDP port (default 9000)\n"
	       "  -s bytes    payload size, 1..%d (default 18)\n"
	       "  -r pps      target rate, 0 = unlimited (default 0)\n"
	       "  -B n        sendmmsg batch, 1..%d (default 32)\n"
	       "  -u us       paced: bursts of at most this many µs of the rate,\n"
	       "              1..1000000 (default 100); at least 1 datagram\n"
	       "  -h, --help  this text\n"
	       "Prints 'flood: sent=N errors=N duration_ns=N rate_pps=N "
	       "target_pps=R batch=B'.\n"
	       "Exit status: 0 done, 1 failure, 2 bad usage, 3 destination "
	       "refused.\n", FLOOD_PAYLOAD_MAX, FLOOD_BATCH_MAX);
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":A:B:d:hp:r:s:t:u:")) != -1) {
		switch (c) {
		case 'B':
			cfg_batch = opt_int(c, optarg, 1, FLOOD_BATCH_MAX);
			break;
		case 'h':
			usage();
			break;
		case 'p':
			cfg_port = opt_int(c, optarg, 1, 65535);
			break;
		case 'r':
			cfg_rate = opt_u64(c, optarg, 0, 1000000000ULL);
			break;
		case 's':
			cfg_payload = opt_int(c, optarg, 1, FLOOD_PAYLOAD_MAX);
			break;
		case 't':
			cfg_duration_ns = opt_seconds_ns(c, optarg, 1,
							 FLOOD_MAX_NS);
			break;
		case 'u':
			cfg_burst_us = opt_u64(c, optarg, 1, 1000000);
			break;
		default:
			if (!guard_dest_opt(c, optarg, &cfg_to))
				bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	guard_dest_required(&cfg_to);
	if (!cfg_duration_ns)
		usage_error("-t duration is required");
}

static void setup(void)
{
	catch_stop_signals();
	/* even bursts: no 50 µs of default slack on every paced sleep */
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0))
		error(0, errno, "warning: PR_SET_TIMERSLACK");
}

static void do_flood(int fd)
{
	static struct mmsghdr msgs[FLOOD_BATCH_MAX];
	static char payload[FLOOD_PAYLOAD_MAX];
	uint64_t sent = 0, errors = 0, start, end, now, elapsed;
	uint64_t rate_pps;
	struct iovec iov;
	int batch = cfg_batch;
	int n;

	udp_fill_payload(payload, 0, cfg_payload);
	iov.iov_base = payload;
	iov.iov_len = cfg_payload;
	udp_mmsg_init(msgs, FLOOD_BATCH_MAX, &iov);
	if (cfg_rate) {
		uint64_t per_burst = cfg_rate * cfg_burst_us / 1000000;

		if (per_burst < 1)
			per_burst = 1;
		if (per_burst < (uint64_t)batch)
			batch = per_burst;
	}

	start = now_ns(CLOCK_MONOTONIC);
	end = start + cfg_duration_ns;
	now = start;
	while (!interrupted) {
		if (cfg_rate) {
			/* failed sends count too, or errors would spin */
			uint64_t due = paced_due_ns(start, sent + errors,
						    cfg_rate);

			if (due >= end)
				break;
			if (!sleep_until_ns(due, &interrupted))
				break;
		} else if (now >= end) {
			break;
		}
		n = sendmmsg(fd, msgs, batch, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (!udp_send_error_is_soft(errno))
				error(1, errno, "sendmmsg");
			errors++;
		} else {
			sent += n;
		}
		now = now_ns(CLOCK_MONOTONIC);
		if (now >= end)
			break;
	}
	now = now_ns(CLOCK_MONOTONIC);
	elapsed = now - start;
	rate_pps = elapsed ? (__uint128_t)sent * NSEC_PER_SEC / elapsed
			   : 0;
	printf("flood: sent=%llu errors=%llu duration_ns=%llu rate_pps=%llu "
	       "target_pps=%llu batch=%d\n", (unsigned long long)sent,
	       (unsigned long long)errors, (unsigned long long)elapsed,
	       (unsigned long long)rate_pps, (unsigned long long)cfg_rate,
	       batch);
}

int main(int argc, char **argv)
{
	int fd;

	tool_init();
	parse_opts(argc, argv);
	guard_enforce(cfg_to.allowlist, cfg_to.addr, cfg_to.addr_str);
	setup();
	fd = udp_connect(cfg_to.addr, cfg_port);
	do_flood(fd);
	close(fd);
	return 0;
}
