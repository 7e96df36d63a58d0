/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Destination guard for the host-side traffic generators: a destination
 * is accepted only if it is a unicast IPv4 address that is listed in the
 * lab's allowlist file (one IPv4 address per line, '#' starts a comment,
 * blank lines ignored).  A missing, unreadable, empty or malformed
 * allowlist refuses everything.
 */
#ifndef LAB_GUARD_H
#define LAB_GUARD_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#define EXIT_REFUSED	3

/* Not 0/8, 127/8 (loopback), 224/4 (multicast) or 240/4 (incl. broadcast). */
bool guard_is_unicast(struct in_addr addr);

/*
 * Look @addr up in allowlist text @text.  Returns 1 if listed, 0 if not,
 * -1 if the text is malformed or lists nothing (reason in @why).
 */
int guard_allowlist_has(const char *text, struct in_addr addr,
			char *why, size_t whylen);

/*
 * The full check.  Returns 0 if @dst may be sent to; otherwise -1 with
 * @why set to the text that follows "refusing to send to <addr>: ".
 */
int guard_check(const char *allowlist, struct in_addr dst,
		char *why, size_t whylen);

/*
 * guard_check() for a tool's main(): if @dst (spelt @dst_str) is refused,
 * print "tool: refusing to send to <dst_str>: <why>" and exit
 * EXIT_REFUSED.  Call it before creating any socket.
 */
void guard_enforce(const char *allowlist, struct in_addr dst,
		   const char *dst_str);

/* A host-side generator's destination options: -d addr, -A allowlist. */
struct guard_dest {
	const char *allowlist;
	const char *addr_str;
	struct in_addr addr;
};

/*
 * In a getopt() loop: take option @c (-A or -d) with @arg into @g, exiting
 * EXIT_USAGE on a bad value.  Returns false for any other option.
 */
bool guard_dest_opt(int c, const char *arg, struct guard_dest *g);

/* After the loop: -d and -A were both given, or exit EXIT_USAGE. */
void guard_dest_required(const struct guard_dest *g);

#endif
