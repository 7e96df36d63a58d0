// SPDX-License-Identifier: GPL-2.0
/*
 * iperf3_flood: the lab's guarded way to run an iperf3 UDP client, for
 * users who trust iperf3 more than the lab's own flooder.  It applies the
 * flooder's destination interlock (guard.h), then execs iperf3 with a
 * command line built here from the checked destination, so iperf3 can
 * only ever be pointed at a guest of this lab.
 *
 * The rate is in packets per second like flood's: iperf3 is given the
 * bitrate of that many datagrams of the payload size (-b 0: unlimited).
 * iperf3 prints its JSON report (-J) on stdout; on SIGINT it reports what
 * it sent so far and exits 1 with "interrupt - the client has terminated".
 */

#include <errno.h>
#include <error.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "guard.h"
#include "util.h"

#define IPERF3_PAYLOAD_MIN	16	/* iperf3's own UDP header */
#define IPERF3_PAYLOAD_MAX	1472
#define IPERF3_MAX_SECS		86400

static struct guard_dest cfg_to;
static int cfg_port = 9000;
static int cfg_payload = 18;
static uint64_t cfg_rate;		/* pps, 0: unlimited */
static int cfg_secs;
static uint64_t cfg_window;		/* iperf3 -w, 0: not given */
static const char *cfg_iperf3 = "iperf3";

static void usage(void)
{
	printf("Usage: iperf3_flood -d addr -t seconds -A allowlist [-p port]\n"
	       "                    [-s bytes] [-r pps] [-w bytes] [-I iperf3]\n"
	       "  -d addr     IPv4 unicast destination (must be in the allowlist)\n"
	       "  -A file     allowlist: one IPv4 address per line, # comments\n"
	       "  -t seconds  duration, 1..%d\n"
	       "  -p port     iperf3 server port (default 9000)\n"
	       "  -s bytes    UDP payload, %d..%d (default 18)\n"
	       "  -r pps      target rate, 0 = unlimited (default 0)\n"
	       "  -w bytes    socket buffers of both ends (iperf3 -w)\n"
	       "  -I path     the iperf3 program (default: iperf3 in PATH)\n"
	       "  -h, --help  this text\n"
	       "Execs iperf3 -c addr -u -J ...; its JSON report is on stdout.\n"
	       "Exit status: iperf3's; 2 bad usage, 3 destination refused.\n",
	       IPERF3_MAX_SECS, IPERF3_PAYLOAD_MIN, IPERF3_PAYLOAD_MAX);
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":A:d:hI:p:r:s:t:w:")) != -1) {
		switch (c) {
		case 'h':
			usage();
			break;
		case 'I':
			cfg_iperf3 = opt_path(c, optarg);
			break;
		case 'p':
			cfg_port = opt_int(c, optarg, 1, 65535);
			break;
		case 'r':
			cfg_rate = opt_u64(c, optarg, 0, 1000000000ULL);
			break;
		case 's':
			cfg_payload = opt_int(c, optarg, IPERF3_PAYLOAD_MIN,
					      IPERF3_PAYLOAD_MAX);
			break;
		case 't':
			cfg_secs = opt_int(c, optarg, 1, IPERF3_MAX_SECS);
			break;
		case 'w':
			cfg_window = opt_u64(c, optarg, 1, 1073741824ULL);
			break;
		default:
			if (!guard_dest_opt(c, optarg, &cfg_to))
				bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	guard_dest_required(&cfg_to);
	if (!cfg_secs)
		usage_error("-t duration is required");
}

int main(int argc, char **argv)
{
	char port[16], len[16], secs[16], bps[32], window[32];
	char *args[20];
	int n = 0;

	tool_init();
	parse_opts(argc, argv);
	guard_enforce(cfg_to.allowlist, cfg_to.addr, cfg_to.addr_str);

	snprintf(port, sizeof(port), "%d", cfg_port);
	snprintf(len, sizeof(len), "%d", cfg_payload);
	snprintf(secs, sizeof(secs), "%d", cfg_secs);
	/* payload bits of cfg_rate datagrams a second; 0 stays unlimited */
	snprintf(bps, sizeof(bps), "%" PRIu64, cfg_rate * cfg_payload * 8);
	snprintf(window, sizeof(window), "%" PRIu64, cfg_window);

	args[n++] = (char *)cfg_iperf3;
	args[n++] = "-c";
	args[n++] = (char *)cfg_to.addr_str;
	args[n++] = "-p";
	args[n++] = port;
	args[n++] = "-u";
	args[n++] = "-l";
	args[n++] = len;
	args[n++] = "-b";
	args[n++] = bps;
	args[n++] = "-t";
	args[n++] = secs;
	args[n++] = "-J";
	if (cfg_window) {
		args[n++] = "-w";
		args[n++] = window;
	}
	args[n] = NULL;

	fflush(stdout);
	/* a background job of a script starts with SIGINT ignored */
	signal(SIGINT, SIG_DFL);
	execvp(cfg_iperf3, args);
	error(1, errno, "exec %s", cfg_iperf3);
	return 1;
}
