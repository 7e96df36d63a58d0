// SPDX-License-Identifier: GPL-2.0
/*
 * latprobe: round-trip latency probe for the lab's network namespace.
 * Sends small UDP probes at a fixed rate to the guest's responder, each
 * carrying its sequence number and CLOCK_MONOTONIC send time, and
 * measures every RTT on this host.  One thread: it sleeps in ppoll(),
 * taking replies, until the next probe is due and then to the exact due
 * time with clock_nanosleep(TIMER_ABSTIME).
 *
 * A probe with no reply within the timeout is lost; a reply after it is
 * still lost (and counted late).  Percentiles rank the lost probes above
 * every RTT (latstats.h), so loss never makes the guest look fast.
 * SIGINT/SIGTERM stop the run at once; probes still waiting count lost.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "latstats.h"
#include "udpsock.h"
#include "util.h"

#define PROBE_MIN_LEN	16	/* seq (u64) + send time (u64) */
#define PROBE_MAX_LEN	1472	/* 1500 MTU - IPv4 - UDP headers */
#define PROBE_MAX_NS	(86400ULL * NSEC_PER_SEC)
#define PROBE_MAX_RATE	100000
#define PROBES_MAX	10000000ULL
#define TIMEOUT_MAX_MS	60000

static struct guard_dest cfg_to;
static int cfg_port = 9001;
static uint64_t cfg_rate = 200;
static uint64_t cfg_duration_ns;
static uint64_t cfg_probes;		/* from -r and -t */
static uint64_t cfg_timeout_ns = 1000 * 1000000ULL;
static const char *cfg_raw_path;
static int cfg_payload = 32;

enum probe_state { PROBE_UNSENT, PROBE_PENDING, PROBE_RECEIVED, PROBE_LATE };

struct probes {
	uint64_t *send_ns;		/* per sequence number */
	uint64_t *rtt_ns;
	uint8_t *state;			/* enum probe_state */
	uint64_t next;			/* next sequence number to send */
	uint64_t last_send_ns;
	uint64_t sent, received, late, dups, garbage, send_errors;
};

static unsigned char payload[PROBE_MAX_LEN];

static void usage(void)
{
	printf("Usage: latprobe -d addr -t seconds -A allowlist [-p port] [-r pps]\n"
	       "                [-T timeout_ms] [-s bytes] [-o raw_file]\n"
	       "  -d addr     IPv4 unicast destination (must be in the allowlist)\n"
	       "  -A file     allowlist: one IPv4 address per line, # comments\n"
	       "  -t seconds  how long to send, > 0, fractions allowed\n"
	       "  -p port     responder's UDP port (default 9001)\n"
	       "  -r pps      probes per second, 1..%d (default 200)\n"
	       "  -T ms       probe timeout, 1..%d (default 1000)\n"
	       "  -s bytes    payload size, %d..%d (default 32)\n"
	       "  -o path     raw file: 'seq send_ns rtt_ns' or 'seq send_ns "
	       "lost' per probe\n"
	       "  -h, --help  this text\n"
	       "Prints 'latprobe: duplicates=N garbage=N send_errors=N', then\n"
	       "'latprobe: sent=N received=N lost=N late=N p50_us=X p90_us=X "
	       "p99_us=X\np999_us=X max_us=X lost_bounded=names|none' (lost "
	       "probes rank above every\nRTT; a percentile among them is shown "
	       "as the timeout and named in lost_bounded).\n"
	       "Exit status: 0 done, 1 failure, 2 bad usage, 3 destination "
	       "refused.\n", PROBE_MAX_RATE, TIMEOUT_MAX_MS, PROBE_MIN_LEN,
	       PROBE_MAX_LEN);
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":A:d:ho:p:r:s:t:T:")) != -1) {
		switch (c) {
		case 'h':
			usage();
			break;
		case 'o':
			cfg_raw_path = opt_path(c, optarg);
			break;
		case 'p':
			cfg_port = opt_int(c, optarg, 1, 65535);
			break;
		case 'r':
			cfg_rate = opt_u64(c, optarg, 1, PROBE_MAX_RATE);
			break;
		case 's':
			cfg_payload = opt_int(c, optarg, PROBE_MIN_LEN,
					      PROBE_MAX_LEN);
			break;
		case 't':
			cfg_duration_ns = opt_seconds_ns(c, optarg, 1,
							 PROBE_MAX_NS);
			break;
		case 'T':
			cfg_timeout_ns = opt_u64(c, optarg, 1, TIMEOUT_MAX_MS) *
					 1000000ULL;
			break;
		default:
			if (!guard_dest_opt(c, optarg, &cfg_to))
				bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	guard_dest_required(&cfg_to);
	if (!cfg_duration_ns)
		usage_error("-t duration is required");
	/* ceil(duration * rate): probe n is due at n / rate seconds */
	cfg_probes = ((__uint128_t)cfg_duration_ns * cfg_rate +
		      NSEC_PER_SEC - 1) / NSEC_PER_SEC;
	if (cfg_probes > PROBES_MAX)
		usage_error("-r x -t makes %llu probes, more than %llu",
			    (unsigned long long)cfg_probes, PROBES_MAX);
}

static void setup(struct probes *p)
{
	catch_stop_signals();
	/* wake from ppoll() at the due time, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL);

	p->send_ns = calloc(cfg_probes, sizeof(*p->send_ns));
	p->rtt_ns = calloc(cfg_probes, sizeof(*p->rtt_ns));
	p->state = calloc(cfg_probes, sizeof(*p->state));
	if (!p->send_ns || !p->rtt_ns || !p->state)
		error(1, errno, "calloc %llu probes",
		      (unsigned long long)cfg_probes);
	udp_fill_payload((char *)payload, PROBE_MIN_LEN, PROBE_MAX_LEN);
}

static int setup_socket(void)
{
	int fd;

	/* not connected: sends never fail on ICMP errors from earlier ones */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		error(1, errno, "socket");
	return fd;
}

static void send_probe(int fd, struct probes *p)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(cfg_port),
		.sin_addr = cfg_to.addr,
	};
	uint64_t seq = p->next++, t;
	unsigned char buf[PROBE_MAX_LEN];

	memcpy(buf, payload, cfg_payload);
	t = now_ns(CLOCK_MONOTONIC);
	memcpy(buf, &seq, sizeof(seq));
	memcpy(buf + 8, &t, sizeof(t));
	if (sendto(fd, buf, cfg_payload, 0, (struct sockaddr *)&addr,
		   sizeof(addr)) == cfg_payload) {
		p->send_ns[seq] = t;
		p->state[seq] = PROBE_PENDING;
		p->sent++;
		p->last_send_ns = t;
		return;
	}
	if (errno != ENOBUFS && errno != EAGAIN && errno != EHOSTUNREACH &&
	    errno != ENETUNREACH && errno != EINTR)
		error(1, errno, "sendto %s:%d", cfg_to.addr_str, cfg_port);
	p->send_errors++;	/* not sent: not counted in sent or lost */
}

/* One datagram received at @now: a reply, a duplicate, or garbage. */
static void take_reply(struct probes *p, const unsigned char *buf,
		       ssize_t len, const struct sockaddr_in *from,
		       uint64_t now)
{
	uint64_t seq, t;

	if (from->sin_addr.s_addr != cfg_to.addr.s_addr ||
	    from->sin_port != htons(cfg_port) || len != cfg_payload)
		goto garbage;
	memcpy(&seq, buf, sizeof(seq));
	memcpy(&t, buf + 8, sizeof(t));
	if (seq >= p->next || p->state[seq] == PROBE_UNSENT ||
	    t != p->send_ns[seq] ||
	    memcmp(buf + PROBE_MIN_LEN, payload + PROBE_MIN_LEN,
		   len - PROBE_MIN_LEN))
		goto garbage;
	if (p->state[seq] != PROBE_PENDING) {
		p->dups++;
		return;
	}
	if (now - t > cfg_timeout_ns) {
		p->state[seq] = PROBE_LATE;
		p->late++;
		return;
	}
	p->state[seq] = PROBE_RECEIVED;
	p->rtt_ns[seq] = now - t;
	p->received++;
	return;
garbage:
	p->garbage++;
}

static void drain(int fd, struct probes *p)
{
	unsigned char buf[PROBE_MAX_LEN];
	struct sockaddr_in from;
	socklen_t flen;
	ssize_t len;

	for (;;) {
		flen = sizeof(from);
		len = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC,
			       (struct sockaddr *)&from, &flen);
		if (len < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			error(1, errno, "recvfrom");
		}
		take_reply(p, buf, len, &from, now_ns(CLOCK_MONOTONIC));
	}
}

/*
 * Take replies until @until (CLOCK_MONOTONIC ns); with @done_early, stop
 * as soon as no probe is pending.
 */
static void take_replies(int fd, struct probes *p, uint64_t until,
			 bool done_early)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct timespec ts;
	uint64_t now;
	int ret;

	while (!interrupted) {
		if (done_early && p->sent == p->received + p->late)
			return;
		now = now_ns(CLOCK_MONOTONIC);
		if (now >= until)
			return;
		ts = ns_to_timespec(until - now);
		ret = ppoll(&pfd, 1, &ts, NULL);
		if (ret < 0 && errno != EINTR)
			error(1, errno, "ppoll");
		if (ret > 0)
			drain(fd, p);
	}
}

static void run(int fd, struct probes *p)
{
	uint64_t start = now_ns(CLOCK_MONOTONIC), due;

	while (!interrupted && p->next < cfg_probes) {
		due = paced_due_ns(start, p->next, cfg_rate);
		take_replies(fd, p, due, false);
		if (!sleep_until_ns(due, &interrupted))
			break;
		send_probe(fd, p);
	}
	if (p->sent)
		take_replies(fd, p, p->last_send_ns + cfg_timeout_ns, true);
}

static void write_raw(FILE *f, const struct probes *p)
{
	uint64_t seq;

	for (seq = 0; seq < p->next; seq++) {
		unsigned long long s = seq, t = p->send_ns[seq];

		if (p->state[seq] == PROBE_RECEIVED)
			fprintf(f, "%llu %llu %llu\n", s, t,
				(unsigned long long)p->rtt_ns[seq]);
		else if (p->state[seq] != PROBE_UNSENT)
			fprintf(f, "%llu %llu lost\n", s, t);
	}
	if (ferror(f) | fclose(f))
		error(1, errno, "write %s", cfg_raw_path);
}

static void report(struct probes *p)
{
	char buf[512];
	struct strbuf sb = STRBUF_INIT(buf);
	struct lat_summary s, answered;
	uint64_t seq, n = 0;

	/* the RTTs of the received probes, packed at the front */
	for (seq = 0; seq < p->next; seq++)
		if (p->state[seq] == PROBE_RECEIVED)
			p->rtt_ns[n++] = p->rtt_ns[seq];
	lat_compute(p->rtt_ns, n, p->sent - p->received, cfg_timeout_ns, &s);
	sb_printf(&sb, "latprobe: sent=%llu received=%llu lost=%llu "
		  "late=%llu ", (unsigned long long)p->sent,
		  (unsigned long long)p->received,
		  (unsigned long long)(p->sent - p->received),
		  (unsigned long long)p->late);
	lat_format(&s, &sb);
	/* the p99 of the answered probes alone: a latency, never a bound */
	sb_printf(&sb, " answered_p99_us=");
	if (!lat_compute(p->rtt_ns, n, 0, cfg_timeout_ns, &answered))
		lat_format_us(answered.val[LAT_P99], &sb);
	sb_printf(&sb, " lost_bounded=");
	lat_format_bounded(&s, &sb);
	printf("latprobe: duplicates=%llu garbage=%llu send_errors=%llu\n",
	       (unsigned long long)p->dups, (unsigned long long)p->garbage,
	       (unsigned long long)p->send_errors);
	printf("%s\n", buf);
}

int main(int argc, char **argv)
{
	static struct probes p;
	FILE *raw = NULL;
	int fd;

	tool_init();
	parse_opts(argc, argv);
	guard_enforce(cfg_to.allowlist, cfg_to.addr, cfg_to.addr_str);
	if (cfg_raw_path) {
		raw = fopen(cfg_raw_path, "w");
		if (!raw)
			error(1, errno, "open %s", cfg_raw_path);
	}
	setup(&p);
	fd = setup_socket();
	run(fd, &p);
	close(fd);
	if (raw)
		write_raw(raw, &p);
	report(&p);
	return 0;
}
