// SPDX-License-Identifier: GPL-2.0
/*
 * qdisc_setup: the guest's tc for the TX experiment (busybox tc cannot
 * configure tbf or fq_codel).  "install" replaces the root qdisc of an
 * interface by prio + tbf + fq_codel (see qdisc_nl.h for the exact
 * hierarchy); "show" prints one line per qdisc with its counters.
 */

#include <errno.h>
#include <error.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qdisc_nl.h"
#include "util.h"

#define SHOW_MAX	64

static const char *cfg_ifname = "eth0";
static struct qdisc_tree_cfg cfg_tree = QNL_TREE_DEFAULTS;
static const char *cfg_cmd;

static void usage(void)
{
	printf("Usage: qdisc_setup [-i ifname] [-r rate_bps] [-b burst] [-l limit]\n"
	       "                   [-L packets] install|show\n"
	       "  install     root prio (3 bands, default priomap) 1:, tbf 10: under\n"
	       "              band 1 (class 1:2), fq_codel 20: under the tbf (10:1)\n"
	       "  show        one line per qdisc of the interface:\n"
	       "              'qdisc kind=K handle=H parent=P packets=N bytes=N\n"
	       "              drops=N requeues=N overlimits=N qlen=N backlog=N'\n"
	       "  -i name     interface (default eth0)\n"
	       "  -r bps      tbf rate in bits/s (default 10000000000)\n"
	       "  -b bytes    tbf burst (default 1048576)\n"
	       "  -l bytes    tbf limit (default 4194304)\n"
	       "  -L n        fq_codel packet limit (default: fq_codel's, 10240)\n"
	       "  -h, --help  this text\n");
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":b:hi:l:L:r:")) != -1) {
		switch (c) {
		case 'b':
			cfg_tree.tbf_burst = opt_u64(c, optarg, 2048, 1U << 30);
			break;
		case 'h':
			usage();
			break;
		case 'i':
			cfg_ifname = opt_ifname(c, optarg);
			break;
		case 'l':
			cfg_tree.tbf_limit = opt_u64(c, optarg, 2048, 1U << 30);
			break;
		case 'L':
			cfg_tree.fq_codel_limit = opt_u64(c, optarg, 1, 1U << 20);
			break;
		case 'r':
			cfg_tree.tbf_rate_bps = opt_u64(c, optarg, 8000,
							1000000000000ULL);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc - 1)
		usage_error("one command expected: install or show");
	cfg_cmd = argv[optind];
	if (strcmp(cfg_cmd, "install") && strcmp(cfg_cmd, "show"))
		usage_error("unknown command '%s' (install or show)", cfg_cmd);
}

static void show(int fd, int ifindex)
{
	struct qdisc_info qi[SHOW_MAX];
	char h[16], p[16];
	int i, n;

	n = qnl_dump(fd, ifindex, qi, SHOW_MAX);
	if (n < 0)
		error(1, errno, "RTM_GETQDISC dump");
	for (i = 0; i < n && i < SHOW_MAX; i++) {
		qnl_handle_str(qi[i].handle, h, sizeof(h));
		qnl_handle_str(qi[i].parent, p, sizeof(p));
		printf("qdisc kind=%s handle=%s parent=%s packets=%llu "
		       "bytes=%llu drops=%u requeues=%u overlimits=%u qlen=%u "
		       "backlog=%u\n", qi[i].kind, h, p,
		       (unsigned long long)qi[i].packets,
		       (unsigned long long)qi[i].bytes, qi[i].drops,
		       qi[i].requeues, qi[i].overlimits, qi[i].qlen,
		       qi[i].backlog);
	}
}

int main(int argc, char **argv)
{
	char why[256] = "";
	int fd, ifindex;

	tool_init();
	parse_opts(argc, argv);
	ifindex = if_nametoindex(cfg_ifname);
	if (!ifindex)
		error(1, errno, "interface %s", cfg_ifname);
	fd = qnl_open();
	if (fd < 0)
		error(1, errno, "rtnetlink socket");
	if (!strcmp(cfg_cmd, "install")) {
		if (qnl_install_tree(fd, ifindex, &cfg_tree, why, sizeof(why)))
			error(1, errno, "install on %s%s%s", cfg_ifname,
			      *why ? ": " : "", why);
		printf("qdisc_setup: %s: prio 1: root bands 3, tbf 10: "
		       "parent 1:2 rate %llu bit/s burst %u limit %u, "
		       "fq_codel 20: parent 10:1 limit ", cfg_ifname,
		       (unsigned long long)cfg_tree.tbf_rate_bps,
		       cfg_tree.tbf_burst, cfg_tree.tbf_limit);
		if (cfg_tree.fq_codel_limit)
			printf("%u\n", cfg_tree.fq_codel_limit);
		else
			printf("default\n");
	} else {
		show(fd, ifindex);
	}
	close(fd);
	return 0;
}
