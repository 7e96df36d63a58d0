// SPDX-License-Identifier: GPL-2.0
/* Shared option-value parsing and I/O helpers; see util.h. */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;	/* empty, sign or whitespace */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_int(const char *s, int min, int max, int *out)
{
	const char *p = s;
	long v;
	char *end;

	if (!s)
		return -1;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_seconds_ns(const char *s, uint64_t max_ns, uint64_t *out)
{
	uint64_t sec = 0, frac = 0, scale = 100000000ULL;
	const char *p = s;
	int ndig = 0;

	if (!s || *p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX / 1000000000ULL - 9) / 10)
			return -1;
		sec = sec * 10 + (*p - '0');
	}
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++, ndig++) {
			if (ndig >= 9)
				return -1;
			frac += (*p - '0') * scale;
			scale /= 10;
		}
		if (!ndig)
			return -1;
	}
	if (*p != '\0')
		return -1;
	if (sec > max_ns / 1000000000ULL ||
	    sec * 1000000000ULL + frac > max_ns)
		return -1;
	*out = sec * 1000000000ULL + frac;
	return 0;
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see -h)\n");
	exit(EXIT_USAGE);
}

void bad_option(int c, int opt)
{
	if (opt > ' ' && opt < 127) {
		if (c == ':')
			usage_error("option -%c needs a value", opt);
		usage_error("unknown option -%c", opt);
	}
	usage_error("unknown option");
}

uint64_t opt_u64(int opt, const char *s, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (parse_u64(s, min, max, &v))
		usage_error("invalid value '%s' for -%c: want an integer "
			    "in %llu..%llu", s, opt,
			    (unsigned long long)min, (unsigned long long)max);
	return v;
}

int opt_int(int opt, const char *s, int min, int max)
{
	int v;

	if (parse_int(s, min, max, &v))
		usage_error("invalid value '%s' for -%c: want an integer "
			    "in %d..%d", s, opt, min, max);
	return v;
}

uint64_t opt_seconds_ns(int opt, const char *s, uint64_t min_ns,
			uint64_t max_ns)
{
	uint64_t v;

	if (parse_seconds_ns(s, max_ns, &v) || v < min_ns)
		usage_error("invalid value '%s' for -%c: want seconds "
			    "(e.g. 2.5), more than 0 and at most %llu",
			    s, opt,
			    (unsigned long long)(max_ns / 1000000000ULL));
	return v;
}

struct in_addr opt_ipv4(int opt, const char *s)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		usage_error("invalid value '%s' for -%c: want a dotted IPv4 "
			    "address", s, opt);
	return a;
}

const char *opt_path(int opt, const char *s)
{
	if (!*s)
		usage_error("empty path for -%c", opt);
	return s;
}

const char *opt_ifname(int opt, const char *s)
{
	if (!*s || strlen(s) >= IF_NAMESIZE || strpbrk(s, " /:\t\n"))
		usage_error("invalid interface name '%s' for -%c", s, opt);
	return s;
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->overflow || sb->len >= sb->size) {
		sb->overflow = true;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->size - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sb->size - sb->len) {
		sb->buf[sb->len] = '\0';
		sb->overflow = true;
		return;
	}
	sb->len += n;
}

static bool is_counter_token(const char *t, size_t len)
{
	size_t k = 0, v;

	while (k < len && ((t[k] >= 'a' && t[k] <= 'z') ||
			   (t[k] >= '0' && t[k] <= '9') || t[k] == '_'))
		k++;
	if (k == 0 || k > 32 || k == len || t[k] != '=')
		return false;
	for (v = k + 1; v < len; v++)
		if (t[v] < '0' || t[v] > '9')
			return false;
	return len - k - 1 >= 1 && len - k - 1 <= 20;
}

int sb_append_counters(struct strbuf *sb, const char *text)
{
	int n = 0;

	while (*text) {
		size_t len;

		text += strspn(text, " \t\n");
		len = strcspn(text, " \t\n");
		if (len && is_counter_token(text, len)) {
			sb_printf(sb, " %.*s", (int)len, text);
			n++;
		}
		text += len;
	}
	return n;
}

int write_all(int fd, const void *buf, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	const char *p = buf;
	int tries = 0;
	ssize_t ret;

	while (len) {
		ret = write(fd, p, len);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && tries++ < 50) {
				poll(&pfd, 1, 100);
				continue;
			}
			return -1;
		}
		p += ret;
		len -= ret;
	}
	return 0;
}

uint64_t now_ns(int clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		error(1, errno, "clock_gettime");
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

struct timespec ns_to_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / NSEC_PER_SEC,
		.tv_nsec = ns % NSEC_PER_SEC,
	};

	return ts;
}

bool sleep_until_ns(uint64_t when, volatile sig_atomic_t *stop)
{
	struct timespec ts = ns_to_timespec(when);
	int ret;

	while (!*stop) {
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				      NULL);
		if (!ret)
			return true;
		if (ret != EINTR)
			error(1, ret, "clock_nanosleep");
	}
	return false;
}

uint64_t paced_due_ns(uint64_t start, uint64_t n, uint64_t rate)
{
	return start + (n / rate) * NSEC_PER_SEC +
	       (n % rate) * NSEC_PER_SEC / rate;
}

void tool_init(void)
{
	program_invocation_name = program_invocation_short_name;
}

volatile sig_atomic_t interrupted;

static void stop_handler(int sig)
{
	(void)sig;
	interrupted = 1;
}

void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = stop_handler };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		error(1, errno, "sigaction");
}

bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help"))
			return true;
	return false;
}
