// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the TX experiment's parsers: the schedstat and status
 * parsers of procparse.c (Linux 6.12 formats) and the RTM_NEWQDISC
 * parser of qdisc_nl.c on messages built here.  TAP output, exit status
 * 1 on failure.
 */

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procparse.h"
#include "qdisc_nl.h"
#include "tap.h"

/* the end of /proc/<pid>/status of ksoftirqd/1 on 6.12 */
static const char fx_status[] =
	"Name:\tksoftirqd/1\n"
	"State:\tS (sleeping)\n"
	"Tgid:\t22\n"
	"Cpus_allowed_list:\t1\n"
	"Mems_allowed:\t1\n"
	"Mems_allowed_list:\t0\n"
	"voluntary_ctxt_switches:\t4711\n"
	"nonvoluntary_ctxt_switches:\t42\n";

static void test_proc(void)
{
	struct sched_info_stat si;
	struct ctxt_stat cs;
	unsigned int threads;
	uint64_t ns;

	check(!parse_pid_schedinfo("2947416 4003156 27\n", &si) &&
	      si.run_ns == 2947416 && si.wait_ns == 4003156 && si.pcount == 27,
	      "schedinfo: run, wait, pcount");
	check(parse_pid_schedinfo("2947416 4003156\n", &si),
	      "schedinfo: rejects a missing pcount");
	check(!parse_pid_status_ctxt(fx_status, &cs) && cs.voluntary == 4711 &&
	      cs.nonvoluntary == 42, "status: voluntary and nonvoluntary");
	check(parse_pid_status_ctxt("Name:\tx\nnonvoluntary_ctxt_switches:\t1\n",
				    &cs),
	      "status: nonvoluntary alone is not voluntary");
	check(!read_pid_schedinfo(getpid(), &si) && si.pcount >= 1,
	      "real /proc/self/schedstat: pcount >= 1");
	check(!read_pid_status_ctxt(getpid(), &cs), "real /proc/self/status");
	/*
	 * schedstat's run time is sum_exec_runtime as last updated (a tick,
	 * a switch): a process younger than a tick that never slept reads 0
	 * (155 of 200 such runs here).  Sleeping once brings it up to date.
	 */
	nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	check(!read_process_run_ns(getpid(), &ns, &threads) && ns > 0 &&
	      threads == 1, "read_process_run_ns: this process, one thread");
	check(read_process_run_ns(0x7ffffff0, &ns, &threads),
	      "read_process_run_ns: no such process");
}

struct msg {
	union {
		struct nlmsghdr nlh;
		char buf[512];
	};
};

static void put(struct msg *m, int type, const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)(m->buf +
					       NLMSG_ALIGN(m->nlh.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	m->nlh.nlmsg_len = NLMSG_ALIGN(m->nlh.nlmsg_len) + RTA_SPACE(len);
}

static void build(struct msg *m, bool pkt64)
{
	struct gnet_stats_basic b = { .bytes = 6000, .packets = 100 };
	struct gnet_stats_queue q = { .qlen = 3, .backlog = 180, .drops = 7,
				      .requeues = 2, .overlimits = 5 };
	uint64_t p64 = 5000000000ULL;
	struct tcmsg *tcm;
	struct rtattr *nest;

	memset(m, 0, sizeof(*m));
	m->nlh.nlmsg_type = RTM_NEWQDISC;
	m->nlh.nlmsg_len = NLMSG_LENGTH(sizeof(*tcm));
	tcm = NLMSG_DATA(&m->nlh);
	tcm->tcm_ifindex = 2;
	tcm->tcm_handle = 0x100000;
	tcm->tcm_parent = 0x10002;
	put(m, TCA_KIND, "tbf", 4);
	nest = (struct rtattr *)(m->buf + NLMSG_ALIGN(m->nlh.nlmsg_len));
	put(m, TCA_STATS2, NULL, 0);
	put(m, TCA_STATS_BASIC, &b, sizeof(b));
	if (pkt64)
		put(m, TCA_STATS_PKT64, &p64, sizeof(p64));
	put(m, TCA_STATS_QUEUE, &q, sizeof(q));
	nest->rta_len = m->buf + m->nlh.nlmsg_len - (char *)nest;
}

static void test_qdisc(void)
{
	struct qdisc_info qi;
	struct msg m;
	char h[16];

	build(&m, false);
	check(!qnl_parse_qdisc(&m.nlh, &qi) && !strcmp(qi.kind, "tbf") &&
	      qi.ifindex == 2 && qi.handle == 0x100000 && qi.parent == 0x10002,
	      "qdisc: kind, ifindex, handle, parent");
	check(qi.packets == 100 && qi.bytes == 6000, "qdisc: basic stats");
	check(qi.qlen == 3 && qi.backlog == 180 && qi.drops == 7 &&
	      qi.requeues == 2 && qi.overlimits == 5, "qdisc: queue stats");
	build(&m, true);
	check(!qnl_parse_qdisc(&m.nlh, &qi) && qi.packets == 5000000000ULL,
	      "qdisc: TCA_STATS_PKT64 wins over the 32-bit count");
	m.nlh.nlmsg_type = RTM_NEWLINK;
	check(qnl_parse_qdisc(&m.nlh, &qi), "qdisc: rejects other messages");
	qnl_handle_str(0xffffffff, h, sizeof(h));
	check(!strcmp(h, "root"), "handle: root");
	qnl_handle_str(0x10000, h, sizeof(h));
	check(!strcmp(h, "1:"), "handle: 1:");
	qnl_handle_str(0x100001, h, sizeof(h));
	check(!strcmp(h, "10:1"), "handle: 10:1 (hex, as tc prints)");
}

int main(void)
{
	test_proc();
	test_qdisc();
	return tap_done();
}
