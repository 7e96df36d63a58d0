// SPDX-License-Identifier: GPL-2.0
/* Qdiscs over raw rtnetlink; see qdisc_nl.h. */

#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "qdisc_nl.h"

#define QNL_BUF		(32 * 1024)
#define PSCHED_NS_PER_TICK	64	/* PSCHED_SHIFT 6 */

static uint32_t qnl_seq;

/* A request being built: header, tcmsg, attributes. */
struct qnl_req {
	union {
		struct nlmsghdr nlh;
		char buf[1024];
	};
};

static struct tcmsg *req_init(struct qnl_req *r, int type, int flags,
			      int ifindex, uint32_t parent, uint32_t handle)
{
	struct tcmsg *tcm;

	memset(r, 0, sizeof(*r));
	r->nlh.nlmsg_len = NLMSG_LENGTH(sizeof(*tcm));
	r->nlh.nlmsg_type = type;
	r->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->nlh.nlmsg_seq = ++qnl_seq;
	tcm = NLMSG_DATA(&r->nlh);
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = parent;
	tcm->tcm_handle = handle;
	return tcm;
}

static struct rtattr *req_attr(struct qnl_req *r, int type, const void *data,
			       size_t len)
{
	struct rtattr *rta;
	size_t off = NLMSG_ALIGN(r->nlh.nlmsg_len);

	if (off + RTA_SPACE(len) > sizeof(r->buf))
		return NULL;	/* the fixed requests below always fit */
	rta = (struct rtattr *)(r->buf + off);
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	r->nlh.nlmsg_len = off + RTA_SPACE(len);
	return rta;
}

/* Close a nest opened with req_attr(r, type, NULL, 0). */
static void req_nest_end(struct qnl_req *r, struct rtattr *nest)
{
	nest->rta_len = r->buf + r->nlh.nlmsg_len - (char *)nest;
}

int qnl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, one = 1;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	/* Best effort: older kernels just give no message. */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* The extended-ack message of an NLMSG_ERROR, if there is one. */
static void ack_message(const struct nlmsghdr *nlh, char *why, size_t len)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const struct rtattr *rta;
	size_t off;
	int left;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	left = (int)nlh->nlmsg_len - (int)NLMSG_LENGTH(off);
	rta = (const struct rtattr *)((const char *)e + NLMSG_ALIGN(off));
	for (; RTA_OK(rta, left); rta = RTA_NEXT(rta, left))
		if (rta->rta_type == NLMSGERR_ATTR_MSG)
			snprintf(why, len, "%.*s",
				 (int)RTA_PAYLOAD(rta), (const char *)RTA_DATA(rta));
}

/* One batch of netlink messages, retried on EINTR; its length or -1. */
static int recv_batch(int fd, char *buf, size_t size)
{
	ssize_t n;

	do {
		n = recv(fd, buf, size, 0);
	} while (n < 0 && errno == EINTR);
	return n;
}

/* Send a request with NLM_F_ACK and wait for its ack. */
static int transact(int fd, struct qnl_req *r, char *why, size_t whylen)
{
	static char buf[QNL_BUF];
	struct nlmsghdr *nlh;
	int len;

	if (why && whylen)
		why[0] = '\0';
	r->nlh.nlmsg_flags |= NLM_F_ACK;
	if (send(fd, r->buf, r->nlh.nlmsg_len, 0) < 0)
		return -1;
	for (;;) {
		len = recv_batch(fd, buf, sizeof(buf));
		if (len < 0)
			return -1;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (nlh->nlmsg_seq != r->nlh.nlmsg_seq ||
			    nlh->nlmsg_type != NLMSG_ERROR)
				continue;
			if (!e->error)
				return 0;
			if (why && whylen)
				ack_message(nlh, why, whylen);
			errno = -e->error;
			return -1;
		}
	}
}

static int add_prio(int fd, int ifindex, char *why, size_t whylen)
{
	struct tc_prio_qopt opt = {
		.bands = 3,
		/* the kernel's default (prio_change with no priomap) */
		.priomap = { 1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1 },
	};
	struct qnl_req r;

	req_init(&r, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE, ifindex,
		 TC_H_ROOT, TC_H_MAKE(1U << 16, 0));
	req_attr(&r, TCA_KIND, "prio", sizeof("prio"));
	req_attr(&r, TCA_OPTIONS, &opt, sizeof(opt));
	return transact(fd, &r, why, whylen);
}

static int add_tbf(int fd, int ifindex, const struct qdisc_tree_cfg *cfg,
		   char *why, size_t whylen)
{
	uint64_t rate_Bps = cfg->tbf_rate_bps / 8;
	struct tc_tbf_qopt opt = {
		.rate = {
			.linklayer = TC_LINKLAYER_ETHERNET,
			.rate = rate_Bps >= ~0U ? ~0U : (uint32_t)rate_Bps,
		},
		.limit = cfg->tbf_limit,
		/* the burst as time at the rate, in psched ticks */
		.buffer = (uint32_t)((__uint128_t)cfg->tbf_burst *
				     1000000000ULL / rate_Bps /
				     PSCHED_NS_PER_TICK),
	};
	struct rtattr *nest;
	struct qnl_req r;

	req_init(&r, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, ifindex,
		 TC_H_MAKE(1U << 16, 2), TC_H_MAKE(0x10U << 16, 0));
	req_attr(&r, TCA_KIND, "tbf", sizeof("tbf"));
	nest = req_attr(&r, TCA_OPTIONS, NULL, 0);
	req_attr(&r, TCA_TBF_PARMS, &opt, sizeof(opt));
	req_attr(&r, TCA_TBF_BURST, &cfg->tbf_burst, sizeof(cfg->tbf_burst));
	if (rate_Bps >= ~0U)
		req_attr(&r, TCA_TBF_RATE64, &rate_Bps, sizeof(rate_Bps));
	req_nest_end(&r, nest);
	return transact(fd, &r, why, whylen);
}

static int add_fq_codel(int fd, int ifindex, const struct qdisc_tree_cfg *cfg,
			char *why, size_t whylen)
{
	struct rtattr *nest;
	struct qnl_req r;

	req_init(&r, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, ifindex,
		 TC_H_MAKE(0x10U << 16, 1), TC_H_MAKE(0x20U << 16, 0));
	req_attr(&r, TCA_KIND, "fq_codel", sizeof("fq_codel"));
	nest = req_attr(&r, TCA_OPTIONS, NULL, 0);
	if (cfg->fq_codel_limit)
		req_attr(&r, TCA_FQ_CODEL_LIMIT, &cfg->fq_codel_limit,
			 sizeof(cfg->fq_codel_limit));
	req_nest_end(&r, nest);
	return transact(fd, &r, why, whylen);
}

int qnl_install_tree(int fd, int ifindex, const struct qdisc_tree_cfg *cfg,
		     char *why, size_t whylen)
{
	struct qnl_req r;

	if (!cfg->tbf_rate_bps || cfg->tbf_rate_bps / 8 == 0 ||
	    !cfg->tbf_burst || !cfg->tbf_limit) {
		snprintf(why, whylen, "tbf rate, burst and limit must be > 0");
		errno = EINVAL;
		return -1;
	}
	/* Start from the device's default root; none to delete is fine. */
	req_init(&r, RTM_DELQDISC, 0, ifindex, TC_H_ROOT, 0);
	transact(fd, &r, NULL, 0);

	if (add_prio(fd, ifindex, why, whylen))
		return -1;
	if (add_tbf(fd, ifindex, cfg, why, whylen))
		return -1;
	return add_fq_codel(fd, ifindex, cfg, why, whylen);
}

static void parse_stats2(const struct rtattr *nest, struct qdisc_info *qi)
{
	const struct rtattr *rta = RTA_DATA(nest);
	int left = RTA_PAYLOAD(nest);

	for (; RTA_OK(rta, left); rta = RTA_NEXT(rta, left)) {
		const void *d = RTA_DATA(rta);
		size_t len = RTA_PAYLOAD(rta);

		if (rta->rta_type == TCA_STATS_BASIC &&
		    len >= sizeof(struct gnet_stats_basic)) {
			struct gnet_stats_basic b;

			memcpy(&b, d, sizeof(b));
			qi->bytes = b.bytes;
			if (qi->packets < b.packets)	/* PKT64 may come first */
				qi->packets = b.packets;
		} else if (rta->rta_type == TCA_STATS_PKT64 &&
			   len >= sizeof(uint64_t)) {
			memcpy(&qi->packets, d, sizeof(uint64_t));
		} else if (rta->rta_type == TCA_STATS_QUEUE &&
			   len >= sizeof(struct gnet_stats_queue)) {
			struct gnet_stats_queue q;

			memcpy(&q, d, sizeof(q));
			qi->qlen = q.qlen;
			qi->backlog = q.backlog;
			qi->drops = q.drops;
			qi->requeues = q.requeues;
			qi->overlimits = q.overlimits;
		}
	}
}

int qnl_parse_qdisc(const struct nlmsghdr *nlh, struct qdisc_info *qi)
{
	const struct tcmsg *tcm = NLMSG_DATA(nlh);
	const struct rtattr *rta;
	int left;

	if (nlh->nlmsg_type != RTM_NEWQDISC ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*tcm)))
		return -1;
	memset(qi, 0, sizeof(*qi));
	qi->ifindex = tcm->tcm_ifindex;
	qi->handle = tcm->tcm_handle;
	qi->parent = tcm->tcm_parent;
	left = nlh->nlmsg_len - NLMSG_LENGTH(sizeof(*tcm));
	rta = (const struct rtattr *)((const char *)tcm +
				      NLMSG_ALIGN(sizeof(*tcm)));
	for (; RTA_OK(rta, left); rta = RTA_NEXT(rta, left)) {
		if (rta->rta_type == TCA_KIND)
			snprintf(qi->kind, sizeof(qi->kind), "%.*s",
				 (int)RTA_PAYLOAD(rta),
				 (const char *)RTA_DATA(rta));
		else if (rta->rta_type == TCA_STATS2)
			parse_stats2(rta, qi);
	}
	return qi->kind[0] ? 0 : -1;
}

int qnl_dump(int fd, int ifindex, struct qdisc_info *qi, int max)
{
	static char buf[QNL_BUF];
	struct nlmsghdr *nlh;
	struct qnl_req r;
	struct qdisc_info one;
	int n = 0, len;

	req_init(&r, RTM_GETQDISC, NLM_F_DUMP, ifindex, 0, 0);
	if (send(fd, r.buf, r.nlh.nlmsg_len, 0) < 0)
		return -1;
	for (;;) {
		len = recv_batch(fd, buf, sizeof(buf));
		if (len < 0)
			return -1;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			if (nlh->nlmsg_seq != r.nlh.nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE)
				return n;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				errno = e->error ? -e->error : EPROTO;
				return -1;
			}
			if (qnl_parse_qdisc(nlh, &one) ||
			    (ifindex && one.ifindex != ifindex))
				continue;
			if (n < max)
				qi[n] = one;
			n++;
		}
	}
}

void qnl_handle_str(uint32_t handle, char *buf, size_t len)
{
	if (handle == TC_H_ROOT)
		snprintf(buf, len, "root");
	else if (TC_H_MIN(handle))
		snprintf(buf, len, "%x:%x", TC_H_MAJ(handle) >> 16,
			 TC_H_MIN(handle));
	else
		snprintf(buf, len, "%x:", TC_H_MAJ(handle) >> 16);
}
