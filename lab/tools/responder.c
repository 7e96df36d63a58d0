// SPDX-License-Identifier: GPL-2.0
/*
 * responder: the guest's UDP echo server for latprobe.  One socket on
 * INADDR_ANY:port; every datagram goes back to its sender unchanged.
 * Default scheduling on purpose: its replies are delayed by whatever
 * delays any normal task on the guest (softirq work, ksoftirqd, ...).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sinkstat.h"
#include "udpsock.h"
#include "util.h"

#define RESP_BUF_LEN	65536	/* any UDP datagram */

static int cfg_port = 9001;
static const char *cfg_counter_path;
static struct sinkstat local_stat;
static struct sinkstat *counters = &local_stat;

static void usage(void)
{
	printf("Usage: responder [-p port] [-c counters]\n"
	       "  -p port   UDP port on INADDR_ANY (default 9001)\n"
	       "  -c path   publish the datagrams received for the sampler "
	       "(sinkstat.h)\n"
	       "  -h, --help  this text\n"
	       "Echoes every datagram back to its sender.  Prints "
	       "'responder: port=P' at start\n"
	       "and 'responder: echoed=N' on SIGINT/SIGTERM.\n");
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":c:hp:")) != -1) {
		switch (c) {
		case 'c':
			cfg_counter_path = opt_path(c, optarg);
			break;
		case 'h':
			usage();
			break;
		case 'p':
			cfg_port = opt_int(c, optarg, 1, 65535);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

static void setup_signals(void)
{
	catch_stop_signals();
}

/* errno of a failed recv or send: fatal, or just go round again. */
static void check_errno(const char *what)
{
	switch (errno) {
	case EBADF:
	case EFAULT:
	case EINVAL:
	case ENOTSOCK:
		error(1, errno, "%s", what);
	}
}

static uint64_t echo_loop(int fd)
{
	static unsigned char buf[RESP_BUF_LEN];
	struct sockaddr_in peer;
	socklen_t plen;
	uint64_t echoed = 0;
	ssize_t len;

	while (!interrupted) {
		plen = sizeof(peer);
		len = recvfrom(fd, buf, sizeof(buf), 0,
			       (struct sockaddr *)&peer, &plen);
		if (len < 0) {
			check_errno("recvfrom");
			continue;
		}
		sinkstat_count(counters, len);
		if (sendto(fd, buf, len, 0, (struct sockaddr *)&peer,
			   plen) == len)
			echoed++;
		else
			check_errno("sendto");
	}
	return echoed;
}

int main(int argc, char **argv)
{
	uint64_t echoed;
	int fd;

	tool_init();
	parse_opts(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup_signals();
	if (cfg_counter_path)
		counters = sinkstat_create(cfg_counter_path);
	fd = udp_bind_any(cfg_port, 0);
	printf("responder: port=%d\n", cfg_port);
	echoed = echo_loop(fd);
	printf("responder: echoed=%llu\n", (unsigned long long)echoed);
	close(fd);
	return 0;
}
