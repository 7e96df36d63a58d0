// SPDX-License-Identifier: GPL-2.0
/*
 * chanctl: host-side client of the guest's results channel, a UNIX stream
 * socket made by QEMU/libvirt for the virtio-serial port.  Sends one
 * request line and prints the matching reply line.
 *
 * Exit status: 0 answered, 2 bad usage, 4 the guest answered "err ...",
 * 5 no answer within the timeout (the guest is there, its sampler silent),
 * 6 the channel is gone: no socket, connection refused, or closed before
 * the reply.  QEMU serves the socket and keeps a connection open as long
 * as it runs, whatever the guest does, so 6 means QEMU has exited or is
 * exiting (a destroyed or crashed guest), not a starved one.
 */

#include <errno.h>
#include <error.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define EXIT_ERR_REPLY	4
#define EXIT_NO_REPLY	5
#define EXIT_GONE	6
#define LINE_MAX_LEN	16384
#define REQ_MAX_LEN	255
#define PING_EVERY_MS	500
#define SUN_PATH_MAX	sizeof(((struct sockaddr_un *)0)->sun_path)

static const char *cfg_socket;
static int cfg_timeout_ms = 5000;
static int cfg_wait_ms;			/* 0: no wait mode */
static char cfg_request[REQ_MAX_LEN + 1];

static void usage(void)
{
	printf("Usage: chanctl -S socket [-t timeout_ms] [-w wait_ms] "
	       "[request words...]\n"
	       "  -S path   UNIX socket of the guest's results channel\n"
	       "  -t ms     wait this long for the reply (default 5000)\n"
	       "  -w ms     first retry 'ping' until 'pong' or ms elapse\n"
	       "  -h, --help  this text\n"
	       "Prints the reply line.  Exit status: 0 answered, 2 usage,\n"
	       "4 the guest replied 'err ...', 5 no reply within the timeout,\n"
	       "6 the channel is gone (no socket, refused, closed: QEMU exited).\n");
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	size_t len = 0;
	int c, i;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	/* '+': stop at the first request word */
	while ((c = getopt(argc, argv, "+:hS:t:w:")) != -1) {
		switch (c) {
		case 'h':
			usage();
			break;
		case 'S':
			if (!*optarg || strlen(optarg) >= SUN_PATH_MAX)
				usage_error("invalid socket path '%s' for -S",
					    optarg);
			cfg_socket = optarg;
			break;
		case 't':
			cfg_timeout_ms = opt_int(c, optarg, 1, 3600 * 1000);
			break;
		case 'w':
			cfg_wait_ms = opt_int(c, optarg, 1, 3600 * 1000);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (!cfg_socket)
		usage_error("-S socket is required");
	if (optind == argc && !cfg_wait_ms)
		usage_error("no request given");
	for (i = optind; i < argc; i++) {
		size_t wl = strlen(argv[i]);

		if (!wl || strpbrk(argv[i], " \t\r\n"))
			usage_error("invalid request word '%s'", argv[i]);
		if (len + wl + 1 > REQ_MAX_LEN)
			usage_error("request too long");
		if (len)
			cfg_request[len++] = ' ';
		memcpy(cfg_request + len, argv[i], wl);
		len += wl;
		cfg_request[len] = '\0';
	}
}

static uint64_t now_ms(void)
{
	return now_ns(CLOCK_MONOTONIC) / 1000000;
}

/* Connected fd, or -1 with errno set. */
static int chan_connect(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	strcpy(addr.sun_path, cfg_socket);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		error(1, errno, "socket");
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static int send_line(int fd, const char *req)
{
	char buf[REQ_MAX_LEN + 2];
	int n;

	n = snprintf(buf, sizeof(buf), "%s\n", req);
	return write_all(fd, buf, n);
}

/* Is @line the answer to @req?  (err lines count as answers.) */
static bool is_answer(const char *line, const char *req)
{
	size_t wl = strcspn(req, " ");
	const char *want = NULL;

	if (!strncmp(line, "err", 3) && (!line[3] || line[3] == ' '))
		return true;
	if (wl == 4 && !strncmp(req, "ping", 4))
		want = "pong";
	else if (wl == 4 && !strncmp(req, "quit", 4))
		want = "bye";
	if (want) {
		size_t l = strlen(want);

		return !strncmp(line, want, l) && (!line[l] || line[l] == ' ');
	}
	/*
	 * same first word; snap, tlat and cyclic replies repeat the
	 * request's arguments, which must match too (stale replies)
	 */
	if (strncmp(line, req, wl) || (line[wl] && line[wl] != ' '))
		return false;
	if ((wl == 4 && (!strncmp(req, "snap", 4) || !strncmp(req, "tlat", 4))) ||
	    (wl == 6 && !strncmp(req, "cyclic", 6))) {
		size_t rl = strlen(req);

		return !strncmp(line, req, rl) && (!line[rl] || line[rl] == ' ');
	}
	return true;
}

struct linebuf {
	char buf[LINE_MAX_LEN + 1];
	size_t len;
	bool overlong;
};

/*
 * Read until a line answers @req or @deadline passes.  The answer is left
 * in lb->buf.  Returns 1 on answer, 0 on timeout, -1 on EOF/error.
 * If @resend_ms, @req is sent again every that many ms.
 */
static int await_answer(int fd, const char *req, struct linebuf *lb,
			uint64_t deadline, int resend_ms)
{
	uint64_t next_send = resend_ms ? now_ms() + resend_ms : UINT64_MAX;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t ret;
	char *nl;

	for (;;) {
		uint64_t now = now_ms(), until = deadline;
		int ret_poll;

		while ((nl = memchr(lb->buf, '\n', lb->len))) {
			size_t used = nl - lb->buf + 1;
			bool skip = lb->overlong;

			*nl = '\0';
			if (used >= 2 && nl[-1] == '\r')
				nl[-1] = '\0';
			lb->overlong = false;
			if (!skip && is_answer(lb->buf, req))
				return 1;
			memmove(lb->buf, nl + 1, lb->len - used);
			lb->len -= used;
		}
		/* drop an overlong line */
		if (lb->len == LINE_MAX_LEN) {
			lb->len = 0;
			lb->overlong = true;
		}
		if (now >= deadline)
			return 0;
		if (now >= next_send) {
			if (send_line(fd, req))
				return -1;
			next_send = now + resend_ms;
		}
		if (next_send < until)
			until = next_send;
		ret_poll = poll(&pfd, 1, until - now);
		if (ret_poll < 0 && errno != EINTR)
			error(1, errno, "poll");
		if (ret_poll <= 0)
			continue;
		ret = read(fd, lb->buf + lb->len, LINE_MAX_LEN - lb->len);
		if (ret < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (ret <= 0)
			return -1;
		lb->len += ret;
	}
}

static void print_answer(struct linebuf *lb)
{
	printf("%s\n", lb->buf);
	fflush(stdout);
	if (!strncmp(lb->buf, "err", 3))
		exit(EXIT_ERR_REPLY);
}

/* Wait mode: ping until pong or the time is up.  Returns a connected fd. */
static int wait_for_guest(void)
{
	uint64_t deadline = now_ms() + cfg_wait_ms;
	static struct linebuf lb;
	int fd, ret;

	while (now_ms() < deadline) {
		fd = chan_connect();
		if (fd < 0) {
			usleep(100 * 1000);
			continue;
		}
		lb.len = 0;
		lb.overlong = false;
		if (!send_line(fd, "ping")) {
			ret = await_answer(fd, "ping", &lb, deadline,
					   PING_EVERY_MS);
			if (ret == 1 && !strcmp(lb.buf, "pong")) {
				if (!cfg_request[0])
					print_answer(&lb);
				return fd;
			}
		}
		close(fd);
		usleep(100 * 1000);
	}
	error(EXIT_NO_REPLY, 0, "no reply to 'ping' on %s within %d ms",
	      cfg_socket, cfg_wait_ms);
	return -1;
}

int main(int argc, char **argv)
{
	static struct linebuf lb;
	uint64_t deadline;
	int fd, ret;

	tool_init();
	parse_opts(argc, argv);
	signal(SIGPIPE, SIG_IGN);

	if (cfg_wait_ms) {
		fd = wait_for_guest();
		if (!cfg_request[0])
			return 0;
	} else {
		fd = chan_connect();
		if (fd < 0)
			error(errno == ENOENT || errno == ECONNREFUSED ?
			      EXIT_GONE : EXIT_NO_REPLY, errno,
			      "cannot connect to %s", cfg_socket);
	}
	deadline = now_ms() + cfg_timeout_ms;
	if (send_line(fd, cfg_request))
		error(EXIT_GONE, errno, "cannot send '%s' to %s",
		      cfg_request, cfg_socket);
	ret = await_answer(fd, cfg_request, &lb, deadline, 0);
	if (ret == 1) {
		print_answer(&lb);
		return 0;
	}
	if (ret < 0)
		error(EXIT_GONE, 0, "channel %s closed before a reply to "
		      "'%s'", cfg_socket, cfg_request);
	error(EXIT_NO_REPLY, 0, "no reply to '%s' within %d ms",
	      cfg_request, cfg_timeout_ms);
	return EXIT_NO_REPLY;
}
