// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lab/tools: the /proc parsers (procparse.c) on fixture
 * text in the Linux 6.12 formats, the option-value helpers (util.c) and
 * the allowlist guard (guard.c).  TAP output, exit status 1 on failure.
 */

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"
#include "procparse.h"
#include "util.h"
#include "tap.h"

static const char fx_stat[] =
	"cpu  32086 7 17108 48221 3854 11 520 3 0 0\n"
	"cpu0 12765 0 7239 30547 169 0 187 0 0 0\n"
	"cpu1 19321 7 9868 17673 3684 11 333 3 0 0\n"
	"intr 1460378 0 9 0 0 0 0 0 0 0 0 0 0 156 0 0 0\n"
	"ctxt 2627358\n"
	"btime 1733212030\n"
	"processes 18738\n"
	"procs_running 2\n"
	"procs_blocked 0\n"
	"softirq 485210 0 40968 4 3765 245027 0 3 75829 0 119614\n";

static const char fx_softirqs[] =
	"                    CPU0       CPU1       \n"
	"          HI:          0          0\n"
	"       TIMER:      18038      22930\n"
	"      NET_TX:          4         17\n"
	"      NET_RX:       1865       1900\n"
	"       BLOCK:          0     245027\n"
	"    IRQ_POLL:          0          0\n"
	"     TASKLET:          3          0\n"
	"       SCHED:      38828      37001\n"
	"     HRTIMER:          0          0\n"
	"         RCU:      43763      76194\n";

static const char fx_net_dev[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:    3267      29    0    0    0     0          0         0     3267      29    0    0    0     0       0          0\n"
	"  eth0: 181992999    4276    5    6    0     0          0         0   159861    2298    0    9    0     0       0          0\n"
	" eth01:       1       2    3    4    5     6          7         8        9      10   11   12   13    14      15         16\n";

static const char fx_snmp[] =
	"Ip: Forwarding DefaultTTL InReceives InHdrErrors InAddrErrors ForwDatagrams InUnknownProtos InDiscards InDelivers OutRequests OutDiscards OutNoRoutes ReasmTimeout ReasmReqds ReasmOKs ReasmFails FragOKs FragFails FragCreates OutTransmits\n"
	"Ip: 2 64 4303 0 0 0 0 0 4303 2317 0 0 0 0 0 0 0 0 0 2317\n"
	"Icmp: InMsgs InErrors InCsumErrors InDestUnreachs\n"
	"Icmp: 1 0 0 1\n"
	"Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
	"Tcp: 1 200 120000 -1 13 2 0 0 0 4276 2292 0 0 2 0\n"
	"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	"Udp: 26 3 7 27 5 2 1 0 0\n"
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors InCsumErrors IgnoredMulti MemErrors\n"
	"UdpLite: 90 91 92 93 94 95 96 97 98\n";

/* Same counters, columns in another order: mapping must use the names. */
static const char fx_snmp_shuffled[] =
	"UdpLite: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors\n"
	"UdpLite: 90 91 92 93 94 95\n"
	"Udp: MemErrors SndbufErrors RcvbufErrors OutDatagrams InErrors NoPorts InDatagrams\n"
	"Udp: 0 2 5 27 7 3 26\n";

static const char fx_snmp_no_rcvbuf[] =
	"Udp: InDatagrams NoPorts InErrors OutDatagrams SndbufErrors\n"
	"Udp: 26 3 7 27 2\n";

static const char fx_softnet[] =
	"0000000f 00000001 00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
	"000010c2 00000010 0000000a 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001 00000000 00000001\n"
	"ffffffff 00000000 00000100 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000002\n";

static const char fx_pid_stat[] =
	"4242 (my (weird) prog) ) S 1 4242 4242 0 -1 4194560 120 0 0 0 "
	"1234 567 0 0 20 0 1 0 80880 3133440 406 18446744073709551615 1 1 0 "
	"0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static const char fx_kthread_stat[] =
	"15 (ksoftirqd/0) S 2 0 0 0 -1 69238848 0 0 0 0 3 41 0 0 20 0 1 0 "
	"5 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 0 0 "
	"0 0 0 0 0 0 0 0 0 0 0 0\n";

static void test_proc_stat(void)
{
	struct cpu_stat st = { 0 };

	check(!parse_proc_stat(fx_stat, &st), "proc_stat: parses");
	check(st.user == 32086 && st.nice == 7 && st.system == 17108 &&
	      st.idle == 48221 && st.iowait == 3854 && st.irq == 11 &&
	      st.softirq == 520 && st.steal == 3,
	      "proc_stat: aggregate cpu line, not cpu0/cpu1");
	check(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n", &st),
	      "proc_stat: rejects text without aggregate line");
	check(parse_proc_stat("cpu  1 2 3\n", &st),
	      "proc_stat: rejects a short cpu line");
}

static void test_softirqs(void)
{
	struct softirq_stat st = { 0 };

	check(!parse_softirqs(fx_softirqs, &st), "softirqs: parses");
	check(st.net_rx == 1865 + 1900, "softirqs: NET_RX summed over CPUs");
	check(st.net_tx == 4 + 17, "softirqs: NET_TX summed over CPUs");
	check(st.timer == 18038 + 22930,
	      "softirqs: TIMER summed over CPUs (not HRTIMER's row)");
	check(st.rcu == 43763 + 76194, "softirqs: RCU summed over CPUs");
	check(st.block == 245027, "softirqs: BLOCK summed over CPUs");
	check(parse_softirqs("  CPU0\n  HI: 0\n", &st),
	      "softirqs: rejects text without NET_RX");
}

static void test_net_dev(void)
{
	struct netdev_stat st = { 0 };

	check(!parse_net_dev(fx_net_dev, "eth0", &st), "net_dev: finds eth0");
	check(st.rx_bytes == 181992999 && st.rx_packets == 4276 &&
	      st.rx_errors == 5 && st.rx_dropped == 6,
	      "net_dev: eth0 rx counters");
	check(st.tx_packets == 2298 && st.tx_dropped == 9,
	      "net_dev: eth0 tx counters");
	check(!parse_net_dev(fx_net_dev, "lo", &st) && st.rx_packets == 29 &&
	      st.tx_packets == 29 && st.rx_bytes == 3267, "net_dev: lo");
	check(!parse_net_dev(fx_net_dev, "eth01", &st) &&
	      st.rx_packets == 2 && st.tx_dropped == 12,
	      "net_dev: eth01 not confused with eth0");
	check(parse_net_dev(fx_net_dev, "eth1", &st),
	      "net_dev: absent interface is an error");
	check(parse_net_dev(fx_net_dev, "eth", &st),
	      "net_dev: interface name prefix does not match");
}

static void test_snmp(void)
{
	struct udp_stat st = { 0 };

	check(!parse_net_snmp_udp(fx_snmp, &st), "snmp: parses Udp");
	check(st.in_datagrams == 26 && st.no_ports == 3 && st.in_errors == 7 &&
	      st.out_datagrams == 27 && st.rcvbuf_errors == 5 &&
	      st.sndbuf_errors == 2, "snmp: Udp values, not UdpLite or Ip");
	memset(&st, 0, sizeof(st));
	check(!parse_net_snmp_udp(fx_snmp_shuffled, &st) &&
	      st.in_datagrams == 26 && st.no_ports == 3 &&
	      st.in_errors == 7 && st.out_datagrams == 27 &&
	      st.rcvbuf_errors == 5 && st.sndbuf_errors == 2,
	      "snmp: columns mapped by header name");
	check(parse_net_snmp_udp(fx_snmp_no_rcvbuf, &st),
	      "snmp: missing RcvbufErrors column is an error");
	check(parse_net_snmp_udp("Udp: InDatagrams NoPorts\nTcp: 1 2\n", &st),
	      "snmp: header without values is an error");
}

/* /proc/net/udp as 6.12 prints it: lines padded to 127 columns */
static const char fx_udp[] =
	"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
	"retrnsmt   uid  timeout inode ref pointer drops            \n"
	"  1: 00000000:2329 00000000:0000 07 00000000:00000000 00:00000000 "
	"00000000     0        0 101 2 0000000000000000 37          \n"
	"  2: 00000000:2328 00000000:0000 07 00000000:0003F000 00:00000000 "
	"00000000     0        0 102 2 0000000000000000 912345      \n"
	" 31: 0100007F:2329 00000000:0000 07 00000000:00000000 00:00000000 "
	"00000000     0        0 103 2 0000000000000000 5\n";

static void test_udp_drops(void)
{
	uint64_t d = 99;

	check(!parse_net_udp_drops(fx_udp, 9001, &d) && d == 42,
	      "net/udp: drops of port 9001's sockets summed (37 + 5)");
	check(!parse_net_udp_drops(fx_udp, 9000, &d) && d == 912345,
	      "net/udp: another port's drops apart");
	check(!parse_net_udp_drops(fx_udp, 53, &d) && d == 0,
	      "net/udp: no socket on the port: 0");
	check(parse_net_udp_drops("sl local rem\n  1: junk\n", 9001, &d),
	      "net/udp: a table without the drops column is an error");
	check(parse_net_udp_drops("   sl  local_address drops\n  1: x\n", 9001, &d),
	      "net/udp: a line that does not parse is an error");
}

static void test_softnet(void)
{
	struct softnet_stat st = { 0 };

	check(!parse_softnet_stat(fx_softnet, &st), "softnet: parses");
	check(st.cpus == 3, "softnet: three CPU rows");
	check(st.processed == 0xfULL + 0x10c2 + 0xffffffffULL,
	      "softnet: processed summed (hex)");
	check(st.dropped == 0x11 && st.time_squeeze == 0x10c,
	      "softnet: dropped and time_squeeze summed (hex)");
	check(parse_softnet_stat("", &st), "softnet: empty is an error");
	check(parse_softnet_stat("0000000f zz 0\n", &st),
	      "softnet: garbage column is an error");
}

static void test_pid_stat(void)
{
	struct task_stat st = { 0 };
	uint64_t ns = 0;

	check(!parse_pid_stat(fx_pid_stat, &st), "pid_stat: parses");
	check(!strcmp(st.comm, "my (weird) prog) "),
	      "pid_stat: comm with spaces and ')' kept whole");
	check(st.state == 'S', "pid_stat: state");
	check(st.utime == 1234 && st.stime == 567, "pid_stat: utime stime");
	check(!parse_pid_stat(fx_kthread_stat, &st) &&
	      !strcmp(st.comm, "ksoftirqd/0") && st.utime == 3 &&
	      st.stime == 41, "pid_stat: kernel thread");
	check(parse_pid_stat("12 (x S 1 2\n", &st),
	      "pid_stat: rejects missing ')'");
	check(parse_pid_stat("12 (x) S 1 2 3\n", &st),
	      "pid_stat: rejects truncated line");
	check(!parse_pid_schedstat("2947416 4003156 2\n", &ns) &&
	      ns == 2947416, "schedstat: run time is the first field");
	check(parse_pid_schedstat("x 1 2\n", &ns),
	      "schedstat: rejects garbage");
}

static const char fx_schedstat[] =
	"version 16\n"
	"timestamp 4294937296\n"
	"cpu0 0 0 1200 300 900 800 5000000000 100000 1500\n"
	"domain0 00000003 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"cpu1 0 0 1000 200 700 600 3000000000 200000 900\n";

static void test_attribution_sources(void)
{
	struct schedstat_cpu ss;
	struct task_stat st = { 0 };
	uint64_t us = 0;
	char cs[16];

	check(!parse_pid_stat(fx_pid_stat, &st) && st.cpu == 1,
	      "pid_stat: processor (the last CPU) after 23 more fields");
	check(!parse_pid_stat("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12\n", &st) &&
	      st.cpu == -1, "pid_stat: no processor field -> cpu -1");
	check(!parse_schedstat(fx_schedstat, &ss) && ss.goidle == 500 &&
	      ss.cpu_time_ns == 8000000000ULL,
	      "schedstat: sched_goidle and rq_cpu_time summed over cpu lines");
	check(parse_schedstat("version 16\ncpu0 1 2 3\n", &ss),
	      "schedstat: a short cpu line is an error");
	check(parse_schedstat("version 16\n", &ss),
	      "schedstat: no cpu line is an error");
	check(!parse_pressure_total("full avg10=0.00 avg60=1.50 avg300=0.20 "
				    "total=123456\n", "full", &us) &&
	      us == 123456, "pressure: the full line's total (µs)");
	check(!parse_pressure_total("some avg10=0.00 avg60=0.00 avg300=0.00 "
				    "total=7\nfull avg10=0.00 avg60=0.00 "
				    "avg300=0.00 total=9\n", "full", &us) &&
	      us == 9, "pressure: the row asked for, not the first");
	check(parse_pressure_total("some avg10=0.00 total=7\n", "full", &us),
	      "pressure: a missing row is an error");
	check(!parse_clocksource("tsc\n", cs, sizeof(cs)) && !strcmp(cs, "tsc"),
	      "clocksource: one word");
	check(!parse_clocksource("kvm-clock\n", cs, sizeof(cs)) &&
	      !strcmp(cs, "kvm-clock"), "clocksource: with a dash");
	check(parse_clocksource("tsc hpet\n", cs, sizeof(cs)),
	      "clocksource: two words are an error");
	check(parse_clocksource("a-clocksource-name-too-long\n", cs, sizeof(cs)),
	      "clocksource: a name that does not fit is an error");
}

static void test_comm_match(void)
{
	check(comm_matches("ksoftirqd/0", "ksoftirqd/0", false),
	      "comm: exact match");
	check(!comm_matches("ksoftirqd/10", "ksoftirqd/1", false),
	      "comm: exact does not match longer name");
	check(comm_matches("napi/eth0-8193", "napi/", true),
	      "comm: prefix match");
	check(!comm_matches("kworker/napi/", "napi/", true),
	      "comm: prefix anchored at start");
}

static void test_real_proc(void)
{
	struct task_stat st;
	struct cpu_stat cpu;
	uint64_t ns;
	pid_t pids[4];
	int i, n;

	check(!read_proc_stat(&cpu) && cpu.user + cpu.system + cpu.idle > 0,
	      "real /proc/stat parses");
	check(!read_pid_stat(getpid(), &st) &&
	      !strcmp(st.comm, "test_procparse"), "real /proc/self/stat comm");
	check(!read_pid_schedstat(getpid(), &ns) && ns > 0,
	      "real /proc/self/schedstat");
	n = find_tasks_by_comm("test_procparse", false, pids, 4);
	for (i = 0; i < n && i < 4; i++)
		if (pids[i] == getpid())
			break;
	check(n >= 1 && i < n && i < 4,
	      "find_tasks_by_comm finds this process");
	check(find_tasks_by_comm("no-such-task-x", true, pids, 4) == 0,
	      "find_tasks_by_comm: no match gives 0");
}

static void test_parse_u64(void)
{
	uint64_t v = 77;
	int i = 77;

	check(!parse_u64("0", 0, 10, &v) && v == 0, "u64: 0");
	check(!parse_u64("18446744073709551615", 0, UINT64_MAX, &v) &&
	      v == UINT64_MAX, "u64: max value");
	v = 77;
	check(parse_u64("", 0, 10, &v) && v == 77, "u64: rejects empty");
	check(parse_u64("12x", 0, 100, &v), "u64: rejects 12x");
	check(parse_u64("-1", 0, UINT64_MAX, &v), "u64: rejects -1");
	check(parse_u64("+1", 0, 10, &v), "u64: rejects +1");
	check(parse_u64(" 1", 0, 10, &v), "u64: rejects leading space");
	check(parse_u64("1 ", 0, 10, &v), "u64: rejects trailing space");
	check(parse_u64("18446744073709551616", 0, UINT64_MAX, &v),
	      "u64: rejects overflow");
	check(parse_u64("11", 0, 10, &v), "u64: rejects above max");
	check(parse_u64("0", 1, 10, &v), "u64: rejects below min");
	check(parse_u64("0x10", 0, 100, &v), "u64: rejects hex");
	check(!parse_int("-5", -10, 10, &i) && i == -5, "int: -5");
	check(parse_int("", 0, 10, &i), "int: rejects empty");
	check(parse_int("7q", 0, 10, &i), "int: rejects 7q");
	check(parse_int("2147483648", 0, 2147483647, &i),
	      "int: rejects above INT_MAX");
	check(parse_int("99999999999999999999", 0, 10, &i),
	      "int: rejects overflow");
	check(parse_int("-1", 0, 10, &i), "int: rejects -1 below min 0");
	check(parse_int("-", -5, 5, &i), "int: rejects lone '-'");
}

static void test_parse_seconds(void)
{
	const uint64_t max = 86400ULL * 1000000000ULL;
	uint64_t v = 0;

	check(!parse_seconds_ns("2.5", max, &v) && v == 2500000000ULL,
	      "seconds: 2.5");
	check(!parse_seconds_ns("3", max, &v) && v == 3000000000ULL,
	      "seconds: 3");
	check(!parse_seconds_ns("0.000000001", max, &v) && v == 1,
	      "seconds: 1 ns");
	check(parse_seconds_ns("1.0000000001", max, &v),
	      "seconds: rejects 10 decimals");
	check(parse_seconds_ns("", max, &v), "seconds: rejects empty");
	check(parse_seconds_ns("2.", max, &v), "seconds: rejects '2.'");
	check(parse_seconds_ns(".5", max, &v), "seconds: rejects '.5'");
	check(parse_seconds_ns("1e3", max, &v), "seconds: rejects 1e3");
	check(parse_seconds_ns("-1", max, &v), "seconds: rejects -1");
	check(parse_seconds_ns("86400.5", max, &v),
	      "seconds: rejects above max");
	check(parse_seconds_ns("99999999999999999999", max, &v),
	      "seconds: rejects overflow");
}

static struct in_addr ip(const char *s)
{
	struct in_addr a = { 0 };

	inet_pton(AF_INET, s, &a);
	return a;
}

static void test_guard(void)
{
	const char *list = "# lab guests\n\n  10.99.0.2  # guest0\n"
			   "192.168.122.7\r\n";
	char why[128];

	check(guard_allowlist_has(list, ip("10.99.0.2"), why,
				  sizeof(why)) == 1, "guard: listed address");
	check(guard_allowlist_has(list, ip("192.168.122.7"), why,
				  sizeof(why)) == 1, "guard: CRLF line");
	check(guard_allowlist_has(list, ip("10.99.0.3"), why,
				  sizeof(why)) == 0, "guard: unlisted address");
	check(guard_allowlist_has("# nothing\n\n", ip("10.99.0.2"), why,
				  sizeof(why)) == -1, "guard: empty list refused");
	check(guard_allowlist_has("10.99.0.2\n10.99.0\n", ip("10.99.0.2"),
				  why, sizeof(why)) == -1 &&
	      strstr(why, "line 2"), "guard: malformed line refused");
	check(!guard_is_unicast(ip("127.0.0.1")), "guard: loopback refused");
	check(!guard_is_unicast(ip("0.0.0.0")), "guard: 0.0.0.0 refused");
	check(!guard_is_unicast(ip("255.255.255.255")),
	      "guard: broadcast refused");
	check(!guard_is_unicast(ip("239.1.2.3")), "guard: multicast refused");
	check(guard_is_unicast(ip("10.99.0.2")), "guard: unicast accepted");
	check(guard_check("/nonexistent/allowlist", ip("10.99.0.2"), why,
			  sizeof(why)) == -1, "guard: missing file refused");
}

int main(void)
{
	printf("TAP version 13\n");
	test_proc_stat();
	test_softirqs();
	test_net_dev();
	test_snmp();
	test_udp_drops();
	test_softnet();
	test_pid_stat();
	test_comm_match();
	test_attribution_sources();
	test_real_proc();
	test_parse_u64();
	test_parse_seconds();
	test_guard();
	return tap_done();
}
