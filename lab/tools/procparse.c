// SPDX-License-Identifier: GPL-2.0
/* Parsers for the /proc files the lab samples; see procparse.h. */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procparse.h"
#include "util.h"

#define PROC_BUF_SIZE	(64 * 1024)

static char proc_buf[PROC_BUF_SIZE];

/* Start of the next line after p, or NULL at the end of the buffer. */
static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

/* Parse one unsigned token in @base, not crossing a newline. */
static int get_u64(const char **pp, int base, uint64_t *out)
{
	const char *p = *pp;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isxdigit((unsigned char)*p) ||
	    (base == 10 && !isdigit((unsigned char)*p)))
		return -1;
	errno = 0;
	*out = strtoull(p, &end, base);
	if (errno || (*end && !isspace((unsigned char)*end)))
		return -1;
	*pp = end;
	return 0;
}

/* Skip one whitespace-separated token on the current line. */
static int skip_token(const char **pp)
{
	const char *p = *pp;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return -1;
	while (*p && !isspace((unsigned char)*p))
		p++;
	*pp = p;
	return 0;
}

/* Find the line whose first word (after leading blanks) is @word. */
static const char *find_row(const char *buf, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = buf; p && *p; p = next_line(p)) {
		const char *q = p;

		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, word, len) && (q[len] == ' ' ||
					       q[len] == '\t'))
			return q + len;
	}
	return NULL;
}

int parse_proc_stat(const char *buf, struct cpu_stat *st)
{
	uint64_t *v[] = { &st->user, &st->nice, &st->system, &st->idle,
			  &st->iowait, &st->irq, &st->softirq, &st->steal };
	const char *p = find_row(buf, "cpu");
	size_t i;

	if (!p)
		return -1;
	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (get_u64(&p, 10, v[i]))
			return -1;
	return 0;
}

/* Sum all the numbers on the row named @word (e.g. "NET_RX:"). */
static int sum_row(const char *buf, const char *word, uint64_t *sum)
{
	const char *p = find_row(buf, word);
	uint64_t v;
	int n = 0;

	if (!p)
		return -1;
	*sum = 0;
	while (!get_u64(&p, 10, &v)) {
		*sum += v;
		n++;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	return (n && (!*p || *p == '\n')) ? 0 : -1;
}

int parse_softirqs(const char *buf, struct softirq_stat *st)
{
	if (sum_row(buf, "NET_RX:", &st->net_rx) ||
	    sum_row(buf, "NET_TX:", &st->net_tx) ||
	    sum_row(buf, "TIMER:", &st->timer) ||
	    sum_row(buf, "RCU:", &st->rcu) ||
	    sum_row(buf, "BLOCK:", &st->block))
		return -1;
	return 0;
}

int parse_net_dev(const char *buf, const char *ifname, struct netdev_stat *st)
{
	size_t len = strlen(ifname);
	const char *p;
	uint64_t v[16];
	int i;

	for (p = buf; p && *p; p = next_line(p)) {
		const char *q = p;

		while (*q == ' ')
			q++;
		if (strncmp(q, ifname, len) || q[len] != ':')
			continue;
		q += len + 1;
		for (i = 0; i < 16; i++)
			if (get_u64(&q, 10, &v[i]))
				return -1;
		st->rx_bytes = v[0];
		st->rx_packets = v[1];
		st->rx_errors = v[2];
		st->rx_dropped = v[3];
		st->tx_packets = v[9];
		st->tx_dropped = v[11];
		return 0;
	}
	return -1;
}

int parse_net_snmp_udp(const char *buf, struct udp_stat *st)
{
	static const struct {
		const char *name;
		size_t off;
	} map[] = {
		{ "InDatagrams", offsetof(struct udp_stat, in_datagrams) },
		{ "NoPorts", offsetof(struct udp_stat, no_ports) },
		{ "InErrors", offsetof(struct udp_stat, in_errors) },
		{ "RcvbufErrors", offsetof(struct udp_stat, rcvbuf_errors) },
		{ "OutDatagrams", offsetof(struct udp_stat, out_datagrams) },
		{ "SndbufErrors", offsetof(struct udp_stat, sndbuf_errors) },
	};
	const size_t nmap = ARRAY_SIZE(map);
	const char *hdr, *val;
	unsigned int found = 0;
	size_t i;

	/* The header row is the first "Udp:" line, the values the next. */
	for (hdr = buf; hdr && *hdr; hdr = next_line(hdr))
		if (!strncmp(hdr, "Udp: ", 5))
			break;
	if (!hdr || !*hdr)
		return -1;
	val = next_line(hdr);
	if (!val || strncmp(val, "Udp: ", 5))
		return -1;
	hdr += 5;
	val += 5;

	for (;;) {
		const char *name;
		size_t nlen;
		uint64_t v;

		while (*hdr == ' ')
			hdr++;
		if (!*hdr || *hdr == '\n')
			break;
		name = hdr;
		while (*hdr && !isspace((unsigned char)*hdr))
			hdr++;
		nlen = hdr - name;
		if (get_u64(&val, 10, &v))
			return -1;	/* fewer values than names */
		for (i = 0; i < nmap; i++) {
			if (strlen(map[i].name) == nlen &&
			    !strncmp(map[i].name, name, nlen)) {
				*(uint64_t *)((char *)st + map[i].off) = v;
				found |= 1U << i;
			}
		}
	}
	return found == (1U << nmap) - 1 ? 0 : -1;
}

int parse_softnet_stat(const char *buf, struct softnet_stat *st)
{
	const char *p;
	uint64_t v[3];
	int i;

	memset(st, 0, sizeof(*st));
	for (p = buf; p && *p; p = next_line(p)) {
		const char *q = p;

		if (*p == '\n')
			continue;
		for (i = 0; i < 3; i++)
			if (get_u64(&q, 16, &v[i]))
				return -1;
		st->processed += v[0];
		st->dropped += v[1];
		st->time_squeeze += v[2];
		st->cpus++;
	}
	return st->cpus ? 0 : -1;
}

int parse_pid_stat(const char *buf, struct task_stat *st)
{
	const char *open = strchr(buf, '(');
	const char *close = strrchr(buf, ')');
	const char *p;
	uint64_t cpu;
	size_t len;
	int i;

	if (!open || !close || close < open)
		return -1;
	len = close - open - 1;
	if (len >= sizeof(st->comm))
		len = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, len);
	st->comm[len] = '\0';

	p = close + 1;
	if (*p != ' ' || !p[1] || isspace((unsigned char)p[1]))
		return -1;
	st->state = p[1];
	/*
	 * After ')': state ppid pgrp session tty_nr tpgid flags minflt
	 * cminflt majflt cmajflt utime stime ...
	 */
	for (i = 0; i < 11; i++)
		if (skip_token(&p))
			return -1;
	if (get_u64(&p, 10, &st->utime) || get_u64(&p, 10, &st->stime))
		return -1;
	/*
	 * ... cutime cstime priority nice num_threads itrealvalue
	 * starttime vsize rss rsslim startcode endcode startstack kstkesp
	 * kstkeip signal blocked sigignore sigcatch wchan nswap cnswap
	 * exit_signal processor: 23 tokens, then the last CPU.
	 */
	st->cpu = -1;
	for (i = 0; i < 23; i++)
		if (skip_token(&p))
			return 0;
	if (!get_u64(&p, 10, &cpu) && cpu < 4096)
		st->cpu = cpu;
	return 0;
}

int parse_pid_schedstat(const char *buf, uint64_t *run_ns)
{
	const char *p = buf;

	return get_u64(&p, 10, run_ns);
}

bool comm_matches(const char *comm, const char *name, bool prefix)
{
	if (prefix)
		return !strncmp(comm, name, strlen(name));
	return !strcmp(comm, name);
}

static ssize_t read_file(const char *path, char *buf, size_t size,
			 bool partial_ok)
{
	size_t len = 0;
	ssize_t ret;
	int fd, err;

	if (size < 2) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len < size - 1) {
		ret = read(fd, buf + len, size - 1 - len);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0) {
			err = errno;
			close(fd);
			errno = err;
			return -1;
		}
		if (!ret)
			break;
		len += ret;
	}
	buf[len] = '\0';
	if (len == size - 1 && !partial_ok) {
		char c;

		if (read(fd, &c, 1) > 0) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
	}
	close(fd);
	return len;
}

ssize_t read_text_file(const char *path, char *buf, size_t size)
{
	return read_file(path, buf, size, false);
}

/* Read @path into proc_buf and run @ret = parser; EPROTO if it fails. */
#define READ_AND_PARSE(path, partial, expr)				\
	({								\
		int __r = -1;						\
		if (read_file(path, proc_buf, sizeof(proc_buf),		\
			      partial) >= 0) {				\
			__r = (expr);					\
			if (__r)					\
				errno = EPROTO;				\
		}							\
		__r;							\
	})

int read_proc_stat(struct cpu_stat *st)
{
	/* The aggregate line comes first; the "intr" line may be huge. */
	return READ_AND_PARSE("/proc/stat", true,
			      parse_proc_stat(proc_buf, st));
}

int read_softirqs(struct softirq_stat *st)
{
	return READ_AND_PARSE("/proc/softirqs", false,
			      parse_softirqs(proc_buf, st));
}

int read_net_dev(const char *ifname, struct netdev_stat *st)
{
	return READ_AND_PARSE("/proc/net/dev", false,
			      parse_net_dev(proc_buf, ifname, st));
}

int read_net_snmp_udp(struct udp_stat *st)
{
	return READ_AND_PARSE("/proc/net/snmp", false,
			      parse_net_snmp_udp(proc_buf, st));
}

int parse_net_udp_drops(const char *buf, unsigned int port, uint64_t *drops)
{
	uint64_t d, sum = 0;
	unsigned int lport;
	const char *p, *last;

	if (!buf || !strstr(buf, "local_address") || !strstr(buf, "drops"))
		return -1;
	for (p = next_line(buf); p && *p; p = next_line(p)) {
		/* "  sl: IP:PORT IP:PORT st ... drops", hex addresses */
		if (sscanf(p, " %*u: %*x:%x", &lport) != 1)
			return -1;
		for (last = p; *p && *p != '\n'; p++)
			if (p[0] == ' ' && p[1] != ' ' && p[1] != '\n' && p[1])
				last = p + 1;
		if (get_u64(&last, 10, &d))
			return -1;
		if (lport == port)
			sum += d;
	}
	*drops = sum;
	return 0;
}

int read_net_udp_drops(unsigned int port, uint64_t *drops)
{
	return READ_AND_PARSE("/proc/net/udp", false,
			      parse_net_udp_drops(proc_buf, port, drops));
}

int read_softnet_stat(struct softnet_stat *st)
{
	return READ_AND_PARSE("/proc/net/softnet_stat", false,
			      parse_softnet_stat(proc_buf, st));
}

int read_pid_stat(pid_t pid, struct task_stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return READ_AND_PARSE(path, false, parse_pid_stat(proc_buf, st));
}

int read_pid_schedstat(pid_t pid, uint64_t *run_ns)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	return READ_AND_PARSE(path, false,
			      parse_pid_schedstat(proc_buf, run_ns));
}

int find_tasks_by_comm(const char *name, bool prefix, pid_t *pids, int max)
{
	struct task_stat ts;
	struct dirent *de;
	int n = 0;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char *end;
		long pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		if (read_pid_stat(pid, &ts))
			continue;	/* exited meanwhile */
		if (!comm_matches(ts.comm, name, prefix))
			continue;
		if (n < max)
			pids[n] = pid;
		n++;
	}
	closedir(dir);
	return n;
}

int parse_pid_schedinfo(const char *buf, struct sched_info_stat *st)
{
	const char *p = buf;

	if (get_u64(&p, 10, &st->run_ns) || get_u64(&p, 10, &st->wait_ns) ||
	    get_u64(&p, 10, &st->pcount))
		return -1;
	return 0;
}

int parse_pid_status_ctxt(const char *buf, struct ctxt_stat *st)
{
	const char *vol = find_row(buf, "voluntary_ctxt_switches:");
	const char *nonvol = find_row(buf, "nonvoluntary_ctxt_switches:");

	if (!vol || !nonvol || get_u64(&vol, 10, &st->voluntary) ||
	    get_u64(&nonvol, 10, &st->nonvoluntary))
		return -1;
	return 0;
}

int read_pid_schedinfo(pid_t pid, struct sched_info_stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	return READ_AND_PARSE(path, false, parse_pid_schedinfo(proc_buf, st));
}

int read_pid_status_ctxt(pid_t pid, struct ctxt_stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	return READ_AND_PARSE(path, false, parse_pid_status_ctxt(proc_buf, st));
}

int read_process_run_ns(pid_t pid, uint64_t *run_ns, unsigned int *threads)
{
	char path[64];
	struct dirent *de;
	uint64_t ns;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	*run_ns = 0;
	*threads = 0;
	while ((de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat",
			 (int)pid, de->d_name);
		if (READ_AND_PARSE(path, false,
				   parse_pid_schedstat(proc_buf, &ns)))
			continue;	/* thread exited meanwhile */
		*run_ns += ns;
		(*threads)++;
	}
	closedir(dir);
	return 0;
}

int read_task_stat(pid_t pid, pid_t tid, struct task_stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid,
		 (int)tid);
	return READ_AND_PARSE(path, false, parse_pid_stat(proc_buf, st));
}

int read_task_schedinfo(pid_t pid, pid_t tid, struct sched_info_stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid,
		 (int)tid);
	return READ_AND_PARSE(path, false, parse_pid_schedinfo(proc_buf, st));
}

int read_task_status_ctxt(pid_t pid, pid_t tid, struct ctxt_stat *st)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid,
		 (int)tid);
	return READ_AND_PARSE(path, false, parse_pid_status_ctxt(proc_buf, st));
}

/* A /proc directory entry that is a pid: its value, else 0. */
static pid_t dirent_pid(const struct dirent *de)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)de->d_name[0]))
		return 0;
	v = strtol(de->d_name, &end, 10);
	return (*end || v <= 0 || v > INT32_MAX) ? 0 : (pid_t)v;
}

static int visit_threads(pid_t pid, task_fn fn, void *arg)
{
	struct dirent *de;
	char path[64];
	int ret = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return 0;	/* exited meanwhile */
	while (!ret && (de = readdir(dir))) {
		pid_t tid = dirent_pid(de);

		if (tid)
			ret = fn(pid, tid, arg);
	}
	closedir(dir);
	return ret;
}

int visit_tasks(pid_t pid, task_fn fn, void *arg)
{
	struct dirent *de;
	int ret = 0;
	DIR *dir;

	if (pid)
		return visit_threads(pid, fn, arg);
	dir = opendir("/proc");
	if (!dir)
		return -1;
	while (!ret && (de = readdir(dir))) {
		pid_t p = dirent_pid(de);

		if (p)
			ret = visit_threads(p, fn, arg);
	}
	closedir(dir);
	return ret;
}

int parse_clocksource(const char *buf, char *name, size_t size)
{
	size_t len = 0;

	while (buf[len] && (isalnum((unsigned char)buf[len]) ||
			    buf[len] == '-' || buf[len] == '_'))
		len++;
	if (!len || len >= size || (buf[len] && buf[len] != '\n') ||
	    (buf[len] == '\n' && buf[len + 1]))
		return -1;
	memcpy(name, buf, len);
	name[len] = '\0';
	return 0;
}

int read_clocksource(char *name, size_t size)
{
	return READ_AND_PARSE("/sys/devices/system/clocksource/clocksource0/"
			      "current_clocksource", false,
			      parse_clocksource(proc_buf, name, size));
}

int parse_pressure_total(const char *buf, const char *row, uint64_t *us)
{
	const char *p = find_row(buf, row);
	const char *t;

	if (!p)
		return -1;
	t = strstr(p, " total=");
	if (!t || (strchr(p, '\n') && t > strchr(p, '\n')))
		return -1;
	t += strlen(" total=");
	return get_u64(&t, 10, us);
}

int read_pressure_irq(uint64_t *us)
{
	return READ_AND_PARSE("/proc/pressure/irq", false,
			      parse_pressure_total(proc_buf, "full", us));
}

int parse_schedstat(const char *buf, struct schedstat_cpu *st)
{
	const char *p;
	uint64_t v[9];
	int i, n = 0;

	st->goidle = 0;
	st->cpu_time_ns = 0;
	for (p = buf; p && *p; p = next_line(p)) {
		if (strncmp(p, "cpu", 3) || !isdigit((unsigned char)p[3]))
			continue;
		p += 3;
		if (skip_token(&p))
			return -1;
		/*
		 * yld_count 0 sched_count sched_goidle ttwu_count ttwu_local
		 * rq_cpu_time run_delay pcount
		 */
		for (i = 0; i < 9; i++)
			if (get_u64(&p, 10, &v[i]))
				return -1;
		st->goidle += v[3];
		st->cpu_time_ns += v[6];
		n++;
	}
	return n ? 0 : -1;
}

int read_schedstat(struct schedstat_cpu *st)
{
	return READ_AND_PARSE("/proc/schedstat", false,
			      parse_schedstat(proc_buf, st));
}
