// SPDX-License-Identifier: GPL-2.0
/*
 * sampler: the guest's measurement agent.  Answers one-line requests on
 * the results channel (a virtio-serial port, or stdin/stdout with -c -):
 *
 *   ping        -> pong
 *   snap <tag>  -> snap <tag> t_ns=... key=value ... (fixed keys, fixed order)
 *   cyclic start
 *               -> cyclic start pid=N interval_us=N: the timer probe,
 *                  cyclictest, runs (-C; cyclic.h) from now on, its
 *                  samples counted in every snap (tlat_count)
 *   cyclic stop -> cyclic stop count=N: stopped (its log stays)
 *   tlat <from> <to>
 *               -> tlat <from> <to> n=... p50_us=... ... overruns=N
 *                  head_overruns=N tail_overruns=N|- over the probe's
 *                  samples [from, to) (cyclic_reply)
 *   sirq start  -> sirq started pid=N: a sirqprobe -w starts its probes
 *   sirq <from> <to>
 *               -> sirq <from> <to> timer_n=N timer_p50_us=X ... block_max_us=X
 *                  sirq_lost=N: sirqprobe's samples stamped in
 *                  [from, to) (-q; sirqstat.h)
 *   spin <n>    -> spin n=N pid=N: n nice-0 busy loops (spin, in PATH,
 *                  counting in -S's file) from now on, the old ones
 *                  stopped; 0: none
 *   trace on|off, trace dump <tag>
 *               -> trace ...: the softirq experiment's traced windows,
 *                  dumped to the trace port (-T; tracectl.h)
 *   quit        -> bye, then exit 0
 *   other       -> err unknown request: <text>
 */

#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "blaststat.h"
#include "cpustat.h"
#include "cyclic.h"
#include "procparse.h"
#include "shmfile.h"
#include "sinkstat.h"
#include "sirqstat.h"
#include "tracectl.h"
#include "txstat.h"
#include "util.h"

#define REQ_MAX		256
#define REPLY_MAX	8192
#define CYCLIC_STOP_MS	5000

static const char *cfg_chan = "-";
static const char *cfg_ifname = "eth0";
static bool cfg_fifo;
static int cfg_resp_port;
/* the receiver's command name, when it publishes no counters (-R) */
static const char *cfg_recv_comm = "udp_sink";
/* key=value counters another receiver writes to a file (-x) */
static const char *cfg_extra_path;

/* the timer probe: interval (-C; 0: none), its log (-F) */
static unsigned int cfg_cyclic_us;
static const char *cfg_cyclic_log = "/run/cyclictest.log";
static pid_t cyclic_pid;

/* udp_sink's counters (-s) */
static struct shm_view sink_view = { .size = sizeof(struct sinkstat) };
/* responder's counters (-r): its datagrams are in udp_in too */
static struct shm_view resp_view = { .size = sizeof(struct sinkstat) };
/* udp_blast's counters (-b), TX experiment */
static struct shm_view blast_view = { .size = sizeof(struct blaststat) };
/* sirqprobe's samples (-q) and spin's counters (-S), softirq experiment */
static struct shm_view sirq_view = { .size = sizeof(struct sirqstat) };
static struct shm_view spin_view = { .size = sizeof(struct spinstat) };
static pid_t spin_pid;
/* the trace port (-T) */
static const char *cfg_trace_port;

static int in_fd = -1, out_fd = -1;
static bool use_stdio;

static void usage(void)
{
	printf("Usage: sampler [-c device|-] [-i ifname] [-s sink_counters]\n"
	       "               [-r responder_counters] [-P port] [-R comm] [-x file]\n"
	       "               [-C interval_us [-F log]] [-b blast_counters] [-f]\n"
	       "  -c path   channel to serve (default '-': stdin/stdout)\n"
	       "  -i name   interface for nic_* counters (default eth0)\n"
	       "  -s path   udp_sink's counter file (udp_sink -c)\n"
	       "  -r path   responder's counter file (responder -c)\n"
	       "  -P port   responder's UDP port: its socket's drops "
	       "(resp_drops, /proc/net/udp)\n"
	       "  -R comm   receiver's command name if it has no counter "
	       "file (default udp_sink)\n"
	       "  -x path   file of key=value counters added to every snapshot\n"
	       "  -C us     serve cyclic start|stop: cyclictest (in PATH) "
	       "waking every us,\n"
	       "            %d..%d\n"
	       "  -F path   cyclictest's sample log (default "
	       "/run/cyclictest.log)\n"
	       "  -b path   udp_blast's counter file (udp_blast -c)\n"
	       "  -q path   sirqprobe's sample file (sirqprobe -c)\n"
	       "  -S path   spin's counter file (spin -c)\n"
	       "  -T path   the trace port (trace dump)\n"
	       "  -f        run SCHED_FIFO priority 50\n"
	       "  -h, --help  this text\n"
	       "Requests: ping, snap <tag>, cyclic start|stop, tlat <from> "
	       "<to>, sirq <from> <to>,\nspin <n>, trace on|off|dump <tag>, "
	       "quit (one per line).\n", CYCLIC_MIN_US, CYCLIC_MAX_US);
	exit(0);
}

static void parse_opts(int argc, char **argv)
{
	int c;

	if (wants_help(argc, argv))
		usage();
	opterr = 0;
	while ((c = getopt(argc, argv, ":b:C:c:F:fhi:P:q:R:r:S:s:T:x:")) != -1) {
		switch (c) {
		case 'b':
			blast_view.path = opt_path(c, optarg);
			break;
		case 'C':
			cfg_cyclic_us = opt_u64(c, optarg, CYCLIC_MIN_US,
						CYCLIC_MAX_US);
			break;
		case 'c':
			cfg_chan = opt_path(c, optarg);
			break;
		case 'F':
			cfg_cyclic_log = opt_path(c, optarg);
			break;
		case 'f':
			cfg_fifo = true;
			break;
		case 'h':
			usage();
			break;
		case 'i':
			cfg_ifname = opt_ifname(c, optarg);
			break;
		case 'P':
			cfg_resp_port = opt_int(c, optarg, 1, 65535);
			break;
		case 'q':
			sirq_view.path = opt_path(c, optarg);
			break;
		case 'R':
			cfg_recv_comm = opt_path(c, optarg);
			break;
		case 'S':
			spin_view.path = opt_path(c, optarg);
			break;
		case 'T':
			cfg_trace_port = opt_path(c, optarg);
			break;
		case 'r':
			resp_view.path = opt_path(c, optarg);
			break;
		case 's':
			sink_view.path = opt_path(c, optarg);
			break;
		case 'x':
			cfg_extra_path = opt_path(c, optarg);
			break;
		default:
			bad_option(c, optopt);
		}
	}
	if (optind != argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

static void setup(void)
{
	struct sched_param sp = { .sched_priority = 50 };

	catch_stop_signals();
	signal(SIGPIPE, SIG_IGN);

	if (cfg_fifo && sched_setscheduler(0, SCHED_FIFO, &sp))
		error(0, errno, "warning: SCHED_FIFO 50");
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		error(0, errno, "warning: mlockall");

	use_stdio = !strcmp(cfg_chan, "-");
	if (use_stdio) {
		in_fd = STDIN_FILENO;
		out_fd = STDOUT_FILENO;
		return;
	}
	in_fd = open(cfg_chan, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (in_fd < 0)
		error(1, errno, "open %s", cfg_chan);
	out_fd = in_fd;
}

static const struct sinkstat *sink_map(struct shm_view *v)
{
	const struct sinkstat *ss = shm_view_map(v);

	return ss && sinkstat_ok(ss) ? ss : NULL;
}

/* spin's counters, or NULL */
static const struct spinstat *sirq_map_spin(void)
{
	const struct spinstat *s = shm_view_map(&spin_view);

	if (s && __atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != SPINSTAT_MAGIC)
		return NULL;
	return s;
}

static void add_u64(struct strbuf *r, const char *key, uint64_t v)
{
	sb_printf(r, " %s=%llu", key, (unsigned long long)v);
}

/* The counters of -x, if the file is there (it is replaced, not edited). */
static void add_extra(struct strbuf *r)
{
	char text[512];
	ssize_t len;
	int fd;

	if (!cfg_extra_path)
		return;
	fd = open(cfg_extra_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return;
	text[len] = '\0';
	sb_append_counters(r, text);
}

/* The receiving process: udp_sink's published pid, or by command name. */
static pid_t recv_pid(const struct sinkstat *ss)
{
	struct task_stat ts;
	pid_t pid = ss ? (pid_t)sinkstat_load(&ss->pid) : 0;

	if (pid > 0 && !read_pid_stat(pid, &ts))
		return pid;
	if (find_tasks_by_comm(cfg_recv_comm, false, &pid, 1) > 0)
		return pid;
	return 0;
}

static void do_snap(struct strbuf *r, const char *tag)
{
	struct softirq_stat si = { 0 };
	struct netdev_stat nic = { 0 };
	struct udp_stat udp = { 0 };
	struct softnet_stat sn = { 0 };
	const struct sinkstat *ss, *rs;
	uint64_t t_ns, resp_drops;

	t_ns = now_ns(CLOCK_MONOTONIC);
	ss = sink_map(&sink_view);
	sb_printf(r, "snap %s", tag);
	add_u64(r, "t_ns", t_ns);
	cpu_snap(r, recv_pid(ss), "responder");
	read_softirqs(&si);
	read_net_dev(cfg_ifname, &nic);
	read_net_snmp_udp(&udp);
	read_softnet_stat(&sn);
	add_u64(r, "net_rx_softirqs", si.net_rx);
	add_u64(r, "net_tx_softirqs", si.net_tx);
	add_u64(r, "timer_softirqs", si.timer);
	add_u64(r, "rcu_softirqs", si.rcu);
	add_u64(r, "block_softirqs", si.block);
	add_u64(r, "nic_rx_packets", nic.rx_packets);
	add_u64(r, "nic_rx_bytes", nic.rx_bytes);
	add_u64(r, "nic_rx_dropped", nic.rx_dropped);
	add_u64(r, "nic_rx_errors", nic.rx_errors);
	add_u64(r, "nic_tx_packets", nic.tx_packets);
	add_u64(r, "nic_tx_dropped", nic.tx_dropped);
	add_u64(r, "udp_in", udp.in_datagrams);
	add_u64(r, "udp_noports", udp.no_ports);
	add_u64(r, "udp_inerrors", udp.in_errors);
	add_u64(r, "udp_rcvbuferrors", udp.rcvbuf_errors);
	add_u64(r, "udp_out", udp.out_datagrams);
	add_u64(r, "softnet_processed", sn.processed);
	add_u64(r, "softnet_dropped", sn.dropped);
	add_u64(r, "softnet_squeezed", sn.time_squeeze);
	add_u64(r, "sink_packets", ss ? sinkstat_load(&ss->packets) : 0);
	add_u64(r, "sink_bytes", ss ? sinkstat_load(&ss->bytes) : 0);
	add_u64(r, "tlat_count", cfg_cyclic_us ? cyclic_count(cfg_cyclic_log) : 0);
	rs = sink_map(&resp_view);
	add_u64(r, "resp_packets", rs ? sinkstat_load(&rs->packets) : 0);
	if (!cfg_resp_port || read_net_udp_drops(cfg_resp_port, &resp_drops))
		resp_drops = 0;
	add_u64(r, "resp_drops", resp_drops);
	tx_snap(r, cfg_ifname, &blast_view);
	add_u64(r, "spin_iters", spin_total(sirq_map_spin()));
	add_extra(r);
}

/* Start or stop the timer probe. */
static void do_cyclic(struct strbuf *r, const char *arg)
{
	char why[128];
	pid_t pid;

	if (!cfg_cyclic_us) {
		sb_printf(r, "err cyclic: no probe (sampler -C)");
	} else if (!strcmp(arg, "start")) {
		if (cyclic_pid > 0) {
			sb_printf(r, "err cyclic start: running (pid %d)",
				  (int)cyclic_pid);
			return;
		}
		cyclic_pid = cyclic_spawn("cyclictest", cfg_cyclic_us,
					  cfg_cyclic_log,
					  cfg_fifo ? CYCLIC_MAIN_PRIO : 0);
		if (cyclic_pid < 0) {
			sb_printf(r, "err cyclic start: %s", strerror(errno));
			cyclic_pid = 0;
			return;
		}
		sb_printf(r, "cyclic start pid=%d interval_us=%u",
			  (int)cyclic_pid, cfg_cyclic_us);
	} else if (!strcmp(arg, "stop")) {
		if (cyclic_pid <= 0) {
			sb_printf(r, "err cyclic stop: not started");
			return;
		}
		pid = cyclic_pid;
		cyclic_pid = 0;
		if (cyclic_stop(pid, CYCLIC_STOP_MS, why, sizeof(why)))
			sb_printf(r, "err cyclic stop: cyclictest %s", why);
		else
			sb_printf(r, "cyclic stop count=%llu", (unsigned long long)
				  cyclic_count(cfg_cyclic_log));
	} else {
		sb_printf(r, "err cyclic needs start or stop");
	}
}

/* The probe's samples [from, to) of its log. */
static void do_tlat(struct strbuf *r, const char *args)
{
	FILE *f = cfg_cyclic_us ? fopen(cfg_cyclic_log, "re") : NULL;

	cyclic_reply(f, cfg_cyclic_us, args, r);
	if (f)
		fclose(f);
}

/* "sinkseries <from_ns> <to_ns> <step_ns> <base>": sinkstat_series() */
static void do_sinkseries(struct strbuf *r, const char *args)
{
	uint64_t from, to, step, base;

	if (sscanf(args, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &from, &to, &step, &base) != 4) {
		sb_printf(r, "err sinkseries needs from_ns to_ns step_ns base");
		return;
	}
	sinkstat_series(sink_map(&sink_view),
			sinkstat_slot_of(now_ns(CLOCK_MONOTONIC_COARSE)),
			from, to, step, base, r);
}

static const char tag_chars[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-";

static bool valid_tag(const char *tag)
{
	const char *p;

	if (!*tag || strlen(tag) > 64)
		return false;
	for (p = tag; *p; p++)
		if (!strchr(tag_chars, *p))
			return false;
	return true;
}

/*
 * "sirq start": the probes of a sirqprobe started with -w begin (SIGUSR1;
 * once started, sirqprobe ignores it).
 * "sirq <from_ns> <to_ns>": sirq_summary()
 */
static void do_sirq(struct strbuf *r, const char *args)
{
	const struct sirqstat *s = shm_view_map(&sirq_view);
	uint64_t from, to;

	if (s && __atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != SIRQSTAT_MAGIC)
		s = NULL;
	if (!strcmp(args, "start")) {
		if (!s)
			sb_printf(r, "err sirq: no sample file (sampler -q, sirqprobe)");
		else if (kill((pid_t)s->pid, SIGUSR1))
			sb_printf(r, "err sirq start: pid %d: %s", (int)s->pid,
				  strerror(errno));
		else
			sb_printf(r, "sirq started pid=%d", (int)s->pid);
		return;
	}
	if (sscanf(args, "%" SCNu64 " %" SCNu64, &from, &to) != 2 || from > to) {
		sb_printf(r, "err sirq needs from_ns to_ns, or start");
		return;
	}
	if (!s) {
		sb_printf(r, "err sirq: no sample file (sampler -q, sirqprobe)");
		return;
	}
	sb_printf(r, "sirq %" PRIu64 " %" PRIu64, from, to);
	sirq_summary(s, from, to, r);
}

/* "spin <n>": the busy loops, SCHED_OTHER nice 0 whatever the sampler's */
static void do_spin(struct strbuf *r, const char *args)
{
	struct sched_param sp = { 0 };
	posix_spawnattr_t attr;
	char nbuf[16], why[128];
	sigset_t none, dfl;
	char *argv[6];
	int n, err;

	if (parse_int(args, 0, SPIN_MAX, &n) || !spin_view.path) {
		sb_printf(r, "err spin needs 0..%d (and sampler -S)", SPIN_MAX);
		return;
	}
	if (spin_pid > 0 && cyclic_stop(spin_pid, CYCLIC_STOP_MS, why,
					sizeof(why))) {
		spin_pid = 0;
		sb_printf(r, "err spin: the old loops %s", why);
		return;
	}
	spin_pid = 0;
	if (!n) {
		sb_printf(r, "spin n=0");
		return;
	}
	snprintf(nbuf, sizeof(nbuf), "%d", n);
	argv[0] = "spin";
	argv[1] = "-n";
	argv[2] = nbuf;
	argv[3] = "-c";
	argv[4] = (char *)spin_view.path;
	argv[5] = NULL;
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER |
				 POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setschedpolicy(&attr, SCHED_OTHER);
	posix_spawnattr_setschedparam(&attr, &sp);
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	err = posix_spawnp(&spin_pid, "spin", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (err) {
		spin_pid = 0;
		sb_printf(r, "err spin: %s", strerror(err));
		return;
	}
	sb_printf(r, "spin n=%d pid=%d", n, (int)spin_pid);
}

/* "trace on|off|dump <tag>" */
static void do_trace(struct strbuf *r, const char *args)
{
	if (!strcmp(args, "on"))
		trace_on(r);
	else if (!strcmp(args, "off"))
		trace_off(r);
	else if (!strncmp(args, "dump ", 5) && valid_tag(args + 5))
		trace_dump(cfg_trace_port, args + 5, r);
	else
		sb_printf(r, "err trace needs on, off or dump <tag>");
}

static void send_reply(struct strbuf *r)
{
	sb_printf(r, "\n");
	if (r->overflow)
		error(1, 0, "reply too long");
	if (write_all(out_fd, r->buf, r->len)) {
		if (use_stdio)
			error(1, errno, "write");
		error(0, errno, "warning: reply lost");
	}
}

/* Handle one request line (no newline).  Returns false on quit. */
static bool handle(char *line)
{
	char buf[REPLY_MAX], *end, *args;
	struct strbuf r = STRBUF_INIT(buf);
	size_t wl;

	while (*line == ' ' || *line == '\t')
		line++;
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' ||
			      end[-1] == '\r'))
		*--end = '\0';
	if (!*line)
		return true;		/* blank line: ignore */
	/* first word, then the arguments after the blanks */
	wl = strcspn(line, " \t");
	args = line + wl + strspn(line + wl, " \t");

	if (!strcmp(line, "ping")) {
		sb_printf(&r, "pong");
	} else if (!strcmp(line, "quit")) {
		sb_printf(&r, "bye");
		send_reply(&r);
		return false;
	} else if (wl == 6 && !strncmp(line, "cyclic", 6)) {
		do_cyclic(&r, args);
	} else if (wl == 10 && !strncmp(line, "sinkseries", 10)) {
		do_sinkseries(&r, args);
	} else if (wl == 4 && !strncmp(line, "tlat", 4)) {
		do_tlat(&r, args);
	} else if (wl == 4 && !strncmp(line, "sirq", 4)) {
		do_sirq(&r, args);
	} else if (wl == 4 && !strncmp(line, "spin", 4)) {
		do_spin(&r, args);
	} else if (wl == 5 && !strncmp(line, "trace", 5)) {
		do_trace(&r, args);
	} else if (wl == 4 && !strncmp(line, "snap", 4)) {
		if (valid_tag(args))
			do_snap(&r, args);
		else
			sb_printf(&r, "err snap needs one tag of "
				  "[A-Za-z0-9_.:-], at most 64 chars");
	} else {
		sb_printf(&r, "err unknown request: %s", line);
	}
	send_reply(&r);
	return true;
}

static void serve(void)
{
	static char buf[REQ_MAX + 1];
	size_t len = 0;
	bool discarding = false;
	ssize_t ret;

	while (!interrupted) {
		char *nl;

		ret = read(in_fd, buf + len, REQ_MAX - len);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0 && errno != EAGAIN)
			error(1, errno, "read %s", cfg_chan);
		if (ret <= 0) {
			if (use_stdio && ret == 0)
				return;
			/* Host side not connected: drop partial input. */
			len = 0;
			discarding = false;
			usleep(100 * 1000);
			continue;
		}
		len += ret;
		buf[len] = '\0';
		while ((nl = memchr(buf, '\n', len))) {
			size_t used = nl - buf + 1;

			*nl = '\0';
			if (discarding)
				discarding = false;
			else if (!handle(buf))
				return;
			memmove(buf, nl + 1, len - used);
			len -= used;
		}
		if (len == REQ_MAX) {
			char rbuf[64];
			struct strbuf r = STRBUF_INIT(rbuf);

			if (!discarding) {
				sb_printf(&r, "err request too long "
					  "(max %d bytes)", REQ_MAX - 1);
				send_reply(&r);
			}
			discarding = true;
			len = 0;
		}
	}
}

/*
 * Two snapshots, thrown away, before the first request.  In a fresh guest
 * the first ones cost the sampler ~3x a later one (at 62.5 M instructions/s
 * ~130 ms against ~45 ms: page faults, /proc's entries of every task made
 * for the first time), which the host's settle, waiting for a quiet
 * second after boot, would take for boot work.
 */
static void warm_up(void)
{
	char buf[REPLY_MAX];
	int i;

	for (i = 0; i < 2; i++) {
		struct strbuf r = STRBUF_INIT(buf);

		do_snap(&r, "warm-up");
	}
}

int main(int argc, char **argv)
{
	tool_init();
	parse_opts(argc, argv);
	setup();
	warm_up();
	serve();
	if (spin_pid > 0) {
		char why[128];

		cyclic_stop(spin_pid, CYCLIC_STOP_MS, why, sizeof(why));
	}
	if (cyclic_pid > 0) {
		char why[128];

		cyclic_stop(cyclic_pid, CYCLIC_STOP_MS, why, sizeof(why));
	}
	return 0;
}
