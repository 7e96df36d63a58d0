/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the lab's C tools: strict parsing of option values
 * and robust writes.
 *
 * The parse_*() functions accept the whole string or nothing: no empty
 * string, no leading whitespace or sign (for unsigned), no trailing junk,
 * decimal only, value within [min, max].  They return 0 on success and
 * -1 otherwise (*out untouched), so they can be unit tested.  The opt_*()
 * wrappers are for parse_opts(): on bad input they print one line on
 * stderr and exit with status 2 (EXIT_USAGE).
 */
#ifndef LAB_UTIL_H
#define LAB_UTIL_H

#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define EXIT_USAGE	2
#define NSEC_PER_SEC	1000000000ULL
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))


int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_int(const char *s, int min, int max, int *out);
/* "2", "2.5", "0.001": seconds with up to 9 decimals, into ns. */
int parse_seconds_ns(const char *s, uint64_t max_ns, uint64_t *out);

uint64_t opt_u64(int opt, const char *s, uint64_t min, uint64_t max);
int opt_int(int opt, const char *s, int min, int max);
uint64_t opt_seconds_ns(int opt, const char *s, uint64_t min_ns,
			uint64_t max_ns);
/* A dotted IPv4 address (inet_pton). */
struct in_addr opt_ipv4(int opt, const char *s);
/* A non-empty path. */
const char *opt_path(int opt, const char *s);
/* A network interface name: 1..15 characters, none of " /:\t\n". */
const char *opt_ifname(int opt, const char *s);

/* Print "prog: <msg>" on stderr and exit EXIT_USAGE. */
void usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/*
 * For getopt()'s '?' and ':' returns; optstrings start with ':' and
 * opterr is 0, so this is the only message.  Call as bad_option(c, optopt).
 */
void bad_option(int c, int opt) __attribute__((noreturn));

/*
 * Text built by printf-style appends into a fixed buffer.  An append that
 * does not fit is dropped whole and sets @overflow; the text stays
 * NUL-terminated.
 */
struct strbuf {
	char *buf;
	size_t size, len;
	bool overflow;
};

#define STRBUF_INIT(array)	{ .buf = (array), .size = sizeof(array) }

void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Append " key=value" for each blank-separated token of @text that is a
 * counter: key of 1..32 characters [a-z0-9_], value of 1..20 digits.
 * Other tokens are skipped.  Returns how many were appended.
 */
int sb_append_counters(struct strbuf *sb, const char *text);

/*
 * write() the whole buffer, retrying on EINTR and partial writes, and
 * waiting up to ~5 s in total while the fd says EAGAIN.
 * Returns 0 or -1 with errno set.
 */
int write_all(int fd, const void *buf, size_t len);

uint64_t now_ns(int clock);
struct timespec ns_to_timespec(uint64_t ns);
/*
 * Sleep on CLOCK_MONOTONIC until @when (ns), resuming after signals.
 * Returns true when @when is reached, false as soon as *@stop is set
 * (a handler setting it interrupts the sleep with EINTR).
 */
bool sleep_until_ns(uint64_t when, volatile sig_atomic_t *stop);
/*
 * When event @n of a series paced at @rate per second is due: @start +
 * n / rate seconds, in ns, without overflow.
 */
uint64_t paced_due_ns(uint64_t start, uint64_t n, uint64_t rate);

/*
 * Set by SIGINT and SIGTERM once catch_stop_signals() has run.  The
 * handler has no SA_RESTART: a blocked read, sleep or poll returns EINTR.
 */
extern volatile sig_atomic_t interrupted;
void catch_stop_signals(void);

/* Make error() and messages say "tool:" rather than the full argv[0]. */
void tool_init(void);

/* "--help" among the options (before any "--"), as GNU tools take it. */
bool wants_help(int argc, char **argv);

#endif
