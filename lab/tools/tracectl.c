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

/* one frame on the trace port: "# lab-trace <what> bytes=N\n", N bytes */
static int put_frame(int out, const char *what, const char *data, size_t len)
{
	char head[256];

	snprintf(head, sizeof(head), "# lab-trace %s bytes=%zu\n", what, len);
	if (write_all(out, head, strlen(head)))
		return -1;
	return len ? write_all(out, data, len) : 0;
}

/* tracefs file @rel (text: formats, saved_cmdlines) as one frame */
static int put_file(int out, const char *tag, const char *rel, char *buf,
		    size_t size)
{
	char path[256], what[256];
	size_t len = 0;
	ssize_t n;
	int in;

	snprintf(path, sizeof(path), TRACEFS "/%s", rel);
	in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	while (len < size && (n = read(in, buf + len, size - len)) > 0)
		len += n;
	close(in);
	snprintf(what, sizeof(what), "file tag=%s name=%s", tag, rel);
	return put_frame(out, what, buf, len);
}

/*
 * One CPU's ring buffer, consumed page by page from trace_pipe_raw (tracing
 * is off: a partly filled page comes too), in frames of whole pages; adds
 * the bytes to *@bytes.  The kernel formats nothing: the host decodes the
 * pages (lab/lib/py/ftraceraw.py) with the event formats sent beside them.
 */
static int put_cpu(int out, const char *tag, const char *cpu_dir, char *buf,
		   size_t size, unsigned long long *bytes)
{
	char path[256], what[256];
	const char *cpu = strrchr(cpu_dir, '/') + 1;
	ssize_t n = 0;
	size_t len;
	int in, ret = 0;

	snprintf(path, sizeof(path), "%s/trace_pipe_raw", cpu_dir);
	in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	/* a possible CPU never online has no buffer (the softirq guests') */
	if (in < 0)
		return errno == ENODEV ? 0 : -1;
	snprintf(what, sizeof(what), "raw tag=%s %s", tag, cpu);
	do {
		len = 0;
		while (len + TRACE_PAGE_MAX <= size &&
		       (n = read(in, buf + len, TRACE_PAGE_MAX)) > 0)
			len += n;
		if (n < 0 && errno != EAGAIN && errno != ENODEV) {
			ret = -1;
			break;
		}
		if (len && put_frame(out, what, buf, len)) {
			ret = -1;
			break;
		}
		*bytes += len;
	} while (len + TRACE_PAGE_MAX > size);
	close(in);
	return ret;
}

void trace_dump(const char *port, const char *tag, struct strbuf *r)
{
	unsigned long long overrun, dropped, bytes = 0;
	static char buf[TRACE_CHUNK];
	char mark[256], rel[128];
	glob_t g = { 0 };
	size_t i;
	int out;

	if (!port) {
		sb_printf(r, "err trace dump: no trace port (sampler -T)");
		return;
	}
	out = open(port, O_WRONLY | O_CLOEXEC);
	if (out < 0) {
		sb_printf(r, "err trace dump: %s: %s", port, strerror(errno));
		return;
	}
	trace_losses(&overrun, &dropped);
	snprintf(mark, sizeof(mark), "# lab-trace begin tag=%s format=raw\n",
		 tag);
	if (write_all(out, mark, strlen(mark)) ||
	    put_file(out, tag, "events/header_page", buf, sizeof(buf)))
		goto fail;
	for (i = 0; i < ARRAY_SIZE(trace_events); i++) {
		snprintf(rel, sizeof(rel), "events/%s/format", trace_events[i]);
		if (put_file(out, tag, rel, buf, sizeof(buf)))
			goto fail;
	}
	if (glob(TRACEFS "/per_cpu/cpu*", 0, NULL, &g))
		goto fail;
	for (i = 0; i < g.gl_pathc; i++)
		if (put_cpu(out, tag, g.gl_pathv[i], buf, sizeof(buf), &bytes))
			goto fail;
	/* the tasks' names, as the text's comm column takes them */
	if (put_file(out, tag, "saved_cmdlines", buf, sizeof(buf)))
		goto fail;
	snprintf(mark, sizeof(mark),
		 "# lab-trace end tag=%s bytes=%llu overrun=%llu dropped=%llu\n",
		 tag, bytes, overrun, dropped);
	if (write_all(out, mark, strlen(mark)))
		goto fail;
	globfree(&g);
	close(out);
	tfs_write("trace", "", O_TRUNC);
	sb_printf(r, "trace dump tag=%s bytes=%llu overrun=%llu dropped=%llu",
		  tag, bytes, overrun, dropped);
	return;
fail:
	sb_printf(r, "err trace dump: %s", strerror(errno));
	globfree(&g);
	close(out);
}
