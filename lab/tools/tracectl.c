// SPDX-License-Identifier: GPL-2.0
/*
 * Traced windows (tracectl.h): tracefs files written and read by the
 * sampler.
 */

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tracectl.h"

#define TRACEFS "/sys/kernel/tracing"

/* lab/guest/init's trace_events: the e2e boot trace checks the same */
static const char *const trace_events[] = {
	"irq/softirq_raise", "irq/softirq_entry", "irq/softirq_exit",
	"sched/sched_wakeup", "sched/sched_switch",
	"irq/irq_handler_entry", "irq/irq_handler_exit",
	"irq_vectors/local_timer_entry", "irq_vectors/local_timer_exit",
	"napi/napi_poll",
};

/* Write @val to tracefs file @rel; 0, or -1 with errno set. */
static int tfs_write(const char *rel, const char *val, int flags)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", rel);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -1;
	if (write_all(fd, val, strlen(val)))
		ret = -1;
	close(fd);
	return ret;
}

static void set_events(const char *val, struct strbuf *r, bool *ok)
{
	char rel[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(trace_events); i++) {
		snprintf(rel, sizeof(rel), "events/%s/enable", trace_events[i]);
		if (tfs_write(rel, val, 0) && *ok) {
			sb_printf(r, "err trace: %s: %s", rel, strerror(errno));
			*ok = false;
		}
	}
}

void trace_on(struct strbuf *r)
{
	char kb[32];
	bool ok = true;

	snprintf(kb, sizeof(kb), "%d", TRACE_BUF_KB);
	if (tfs_write("tracing_on", "0", 0) || tfs_write("trace", "", O_TRUNC) ||
	    tfs_write("buffer_size_kb", kb, 0) ||
	    tfs_write("trace_clock", "mono", 0) ||
	    tfs_write("options/overwrite", "0", 0)) {
		sb_printf(r, "err trace on: %s", strerror(errno));
		return;
	}
	set_events("1", r, &ok);
	if (ok && tfs_write("tracing_on", "1", 0)) {
		sb_printf(r, "err trace on: tracing_on: %s", strerror(errno));
		ok = false;
	}
	if (ok)
		sb_printf(r, "trace on buffer_kb=%d", TRACE_BUF_KB);
}

void trace_off(struct strbuf *r)
{
	bool ok = true;

	if (tfs_write("tracing_on", "0", 0)) {
		sb_printf(r, "err trace off: %s", strerror(errno));
		return;
	}
	set_events("0", r, &ok);
	if (ok)
		sb_printf(r, "trace off");
}

/* "overrun: N" and "dropped events: N" summed over the CPUs */
static void trace_losses(unsigned long long *overrun,
			 unsigned long long *dropped)
{
	unsigned long long v;
	char line[128];
	glob_t g;
	size_t i;
	FILE *f;

	*overrun = *dropped = 0;
	if (glob(TRACEFS "/per_cpu/cpu*/stats", 0, NULL, &g))
		return;
	for (i = 0; i < g.gl_pathc; i++) {
		f = fopen(g.gl_pathv[i], "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "overrun: %llu", &v) == 1)
				*overrun += v;
			else if (sscanf(line, "dropped events: %llu", &v) == 1)
				*dropped += v;
		}
		fclose(f);
	}
	globfree(&g);
}

void trace_dump(const char *port, const char *tag, struct strbuf *r)
{
	unsigned long long overrun, dropped, bytes = 0;
	char buf[65536], mark[256];
	int in, out;
	ssize_t n;

	if (!port) {
		sb_printf(r, "err trace dump: no trace port (sampler -T)");
		return;
	}
	in = open(TRACEFS "/trace", O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		sb_printf(r, "err trace dump: %s", strerror(errno));
		return;
	}
	out = open(port, O_WRONLY | O_CLOEXEC);
	if (out < 0) {
		sb_printf(r, "err trace dump: %s: %s", port, strerror(errno));
		close(in);
		return;
	}
	trace_losses(&overrun, &dropped);
	snprintf(mark, sizeof(mark), "# lab-trace begin tag=%s\n", tag);
	if (write_all(out, mark, strlen(mark)))
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write_all(out, buf, n))
			goto fail;
		bytes += n;
	}
	if (n < 0)
		goto fail;
	snprintf(mark, sizeof(mark),
		 "# lab-trace end tag=%s bytes=%llu overrun=%llu dropped=%llu\n",
		 tag, bytes, overrun, dropped);
	if (write_all(out, mark, strlen(mark)))
		goto fail;
	close(in);
	close(out);
	tfs_write("trace", "", O_TRUNC);
	sb_printf(r, "trace dump tag=%s bytes=%llu overrun=%llu dropped=%llu",
		  tag, bytes, overrun, dropped);
	return;
fail:
	sb_printf(r, "err trace dump: %s", strerror(errno));
	close(in);
	close(out);
}
