// SPDX-License-Identifier: GPL-2.0
/* Allowlist guard for traffic generators; see guard.h. */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"
#include "util.h"

#define ALLOWLIST_MAX	(64 * 1024)

bool guard_is_unicast(struct in_addr addr)
{
	uint32_t a = ntohl(addr.s_addr);

	if ((a >> 24) == 0 || (a >> 24) == 127)
		return false;
	/* 224/4 multicast, 240/4 reserved and broadcast */
	if ((a >> 28) >= 0xe)
		return false;
	return true;
}

int guard_allowlist_has(const char *text, struct in_addr addr,
			char *why, size_t whylen)
{
	int lineno = 0, entries = 0, listed = 0;
	const char *p = text;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		const char *s = p, *e;
		struct in_addr a;
		char word[64];

		lineno++;
		e = memchr(s, '#', eol - s);
		if (!e)
			e = eol;
		while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' ||
				 e[-1] == '\r'))
			e--;
		if (e > s) {
			if ((size_t)(e - s) >= sizeof(word))
				goto bad;
			memcpy(word, s, e - s);
			word[e - s] = '\0';
			if (inet_pton(AF_INET, word, &a) != 1)
				goto bad;
			entries++;
			if (a.s_addr == addr.s_addr)
				listed = 1;
		}
		p = *eol ? eol + 1 : eol;
		continue;
bad:
		snprintf(why, whylen, "line %d is not an IPv4 address",
			 lineno);
		return -1;
	}
	if (!entries) {
		snprintf(why, whylen, "lists no address");
		return -1;
	}
	return listed;
}

int guard_check(const char *allowlist, struct in_addr dst,
		char *why, size_t whylen)
{
	static char text[ALLOWLIST_MAX + 1];
	char reason[128];
	size_t len = 0;
	ssize_t ret;
	int fd;

	if (!guard_is_unicast(dst)) {
		snprintf(why, whylen, "not a unicast address");
		return -1;
	}
	fd = open(allowlist, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "cannot read allowlist %s: %s",
			 allowlist, strerror(errno));
		return -1;
	}
	while (len < ALLOWLIST_MAX) {
		ret = read(fd, text + len, ALLOWLIST_MAX - len);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			snprintf(why, whylen, "cannot read allowlist %s: %s",
				 allowlist, strerror(errno));
			close(fd);
			return -1;
		}
		if (!ret)
			break;
		len += ret;
	}
	close(fd);
	text[len] = '\0';
	if (len == ALLOWLIST_MAX || strlen(text) != len) {
		snprintf(why, whylen, "allowlist %s is too big or not text",
			 allowlist);
		return -1;
	}
	switch (guard_allowlist_has(text, dst, reason, sizeof(reason))) {
	case 1:
		return 0;
	case 0:
		snprintf(why, whylen,
			 "not a guest of this lab (allowlist %s)", allowlist);
		return -1;
	default:
		snprintf(why, whylen, "allowlist %s %s", allowlist, reason);
		return -1;
	}
}

void guard_enforce(const char *allowlist, struct in_addr dst,
		   const char *dst_str)
{
	char why[512];

	if (guard_check(allowlist, dst, why, sizeof(why)))
		error(EXIT_REFUSED, 0, "refusing to send to %s: %s", dst_str,
		      why);
}

bool guard_dest_opt(int c, const char *arg, struct guard_dest *g)
{
	switch (c) {
	case 'A':
		g->allowlist = opt_path(c, arg);
		return true;
	case 'd':
		g->addr = opt_ipv4(c, arg);
		g->addr_str = arg;
		return true;
	}
	return false;
}

void guard_dest_required(const struct guard_dest *g)
{
	if (!g->addr_str)
		usage_error("-d destination is required");
	if (!g->allowlist)
		usage_error("-A allowlist is required");
}
