// SPDX-License-Identifier: GPL-2.0
/*
 * tunnapi: a tun device whose NAPI instance comes and goes, for the guest's
 * threaded-NAPI checks (tests/e2e/22-series.t).  With IFF_NAPI the tun
 * driver adds a NAPI instance when a queue attaches (TUNSETIFF) and deletes
 * it when the queue's file is closed; a persistent device (-p) outlives the
 * close with no instance at all, the state in which 6.12 refuses writes to
 * /sys/class/net/<dev>/threaded.
 *
 *   tunnapi -p NAME         create NAME (IFF_TUN | IFF_NO_PI | IFF_NAPI),
 *                           make it persistent, detach: it stays, without
 *                           a NAPI instance
 *   tunnapi -t SECS NAME    attach a queue to NAME (its NAPI instance comes
 *                           back) for SECS seconds, then detach
 *   tunnapi -d NAME         delete the persistent device
 *
 * Prints one line, "tunnapi <name> created|attached|deleted", on success
 * (before the hold, for -t); on failure the error, and exits 1.
 */

#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util.h"

enum tun_action { ACT_NONE, ACT_CREATE, ACT_HOLD, ACT_DELETE };

static enum tun_action cfg_action;
static int cfg_hold_s;
static const char *cfg_name;

static void usage(void)
{
	printf("Usage: tunnapi -p NAME | -t SECS NAME | -d NAME\n"
	       "  -p          create the persistent tun device NAME with IFF_NAPI, detach\n"
	       "  -t secs     attach a queue to NAME (its NAPI instance) for 0..3600 s\n"
	       "  -d          delete the persistent device NAME\n"
	       "  -h, --help  this text\n"
	       "Needs CAP_NET_ADMIN and /dev/net/tun (CONFIG_TUN).  Prints\n"
	       "'tunnapi NAME created|attached|deleted'.\n");
	exit(0);
}

static void set_action(enum tun_action a)
{
	if (cfg_action != ACT_NONE)
		usage_error("-p, -t and -d exclude each other");
	cfg_action = a;
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":dhpt:")) != -1) {
		switch (c) {
		case 'd':
			set_action(ACT_DELETE);
			break;
		case 'h':
			usage();
			break;
		case 'p':
			set_action(ACT_CREATE);
			break;
		case 't':
			set_action(ACT_HOLD);
			cfg_hold_s = opt_int(c, optarg, 0, 3600);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (cfg_action == ACT_NONE)
		usage_error("one of -p, -t or -d is required");
	if (optind + 1 != argc)
		usage_error("want one device name");
	cfg_name = argv[optind];
	if (!*cfg_name || strlen(cfg_name) >= IFNAMSIZ || strchr(cfg_name, '/'))
		usage_error("'%s' is not a device name", cfg_name);
}

/* Attach a queue of @name (creating the device if need be): the fd */
static int tun_attach(const char *name)
{
	struct ifreq ifr;
	int fd;

	fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		error(1, errno, "/dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI | IFF_NAPI;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr))
		error(1, errno, "TUNSETIFF %s", name);
	return fd;
}

/* Make the device of @fd persistent (@on) or not: exits on failure */
static void set_persist(int fd, int on)
{
	if (ioctl(fd, TUNSETPERSIST, on))
		error(1, errno, "TUNSETPERSIST %d %s", on, cfg_name);
}

int main(int argc, char **argv)
{
	int fd;

	tool_init();
	parse_opts(argc, argv);
	fd = tun_attach(cfg_name);
	switch (cfg_action) {
	case ACT_CREATE:
		set_persist(fd, 1);
		printf("tunnapi %s created\n", cfg_name);
		break;
	case ACT_HOLD:
		printf("tunnapi %s attached\n", cfg_name);
		fflush(stdout);
		sleep(cfg_hold_s);
		break;
	case ACT_DELETE:
		set_persist(fd, 0);
		printf("tunnapi %s deleted\n", cfg_name);
		break;
	case ACT_NONE:
		break;
	}
	close(fd);
	return 0;
}
