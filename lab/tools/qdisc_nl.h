/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Qdiscs over rtnetlink (raw NETLINK_ROUTE sockets, no libmnl): install
 * the TX experiment's hierarchy and read every qdisc's counters.
 *
 * The hierarchy mirrors "prio+tbf+fq_codel" of commit 3bcb846ca4cf:
 *
 *   1:   prio, root, 3 bands, the default priomap (priority 0 -> band 1)
 *   10:  tbf, parent 1:2 (band 1), rate far above what the guest can
 *        send so that it never throttles, burst and limit in bytes
 *   20:  fq_codel, parent 10:1 (tbf's only class), its defaults unless
 *        a packet limit is given
 *
 * Bands 0 and 2 keep prio's default pfifo children (not dumped).
 */
#ifndef LAB_QDISC_NL_H
#define LAB_QDISC_NL_H

#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;

#define QNL_KIND_MAX	16
#define QNL_ROOT	0xffffffffU	/* TC_H_ROOT */

struct qdisc_info {
	char kind[QNL_KIND_MAX];
	int ifindex;
	uint32_t handle, parent;
	uint64_t bytes, packets;
	uint32_t qlen, backlog, drops, requeues, overlimits;
};

struct qdisc_tree_cfg {
	uint64_t tbf_rate_bps;		/* bits per second */
	uint32_t tbf_burst;		/* bytes */
	uint32_t tbf_limit;		/* bytes */
	uint32_t fq_codel_limit;	/* packets, 0: fq_codel's default */
};

/* Defaults: 10 Gbit/s, 1 MiB burst, 4 MiB limit, fq_codel defaults. */
#define QNL_TREE_DEFAULTS { 10000000000ULL, 1U << 20, 4U << 20, 0 }

/* An rtnetlink socket with extended acks on; -1 with errno on failure. */
int qnl_open(void);

/*
 * Replace the root qdisc of @ifindex by the hierarchy above.  Returns 0,
 * or -1 with errno set and the kernel's message (if any) in @why.
 */
int qnl_install_tree(int fd, int ifindex, const struct qdisc_tree_cfg *cfg,
		     char *why, size_t whylen);

/*
 * The qdiscs of @ifindex (0: all devices), in dump order; up to @max are
 * stored.  Returns how many matched, or -1 with errno set.
 */
int qnl_dump(int fd, int ifindex, struct qdisc_info *qi, int max);

/* One RTM_NEWQDISC message into @qi: 0, or -1 if it is not one. */
int qnl_parse_qdisc(const struct nlmsghdr *nlh, struct qdisc_info *qi);

/* "root", "1:", "10:1" */
void qnl_handle_str(uint32_t handle, char *buf, size_t len);

#endif
