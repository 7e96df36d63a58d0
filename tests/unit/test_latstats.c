// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lab/tools: the latency percentiles (latstats.c),
 * cyclictest's sample log and sampler's tlat answer from it (cyclic.c),
 * and the strbuf and pacing helpers (util.c).  Inputs with answers known
 * by hand.  TAP output, exit status 1 on failure.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "latstats.h"
#include "cyclic.h"
#include "util.h"
#include "tap.h"

#define US	1000ULL

static uint64_t lat[2000];

/* lat[i] = (i + 1) us for i < n, in the order given by @step (coprime). */
static void fill_us(size_t n, size_t step)
{
	size_t i;

	for (i = 0; i < n; i++)
		lat[i] = ((i * step) % n + 1) * US;
}

static bool vals_us(const struct lat_summary *s, uint64_t p50, uint64_t p90,
		    uint64_t p99, uint64_t p999, uint64_t max)
{
	return s->val[LAT_P50] == p50 * US && s->val[LAT_P90] == p90 * US &&
	       s->val[LAT_P99] == p99 * US && s->val[LAT_P999] == p999 * US &&
	       s->val[LAT_MAX] == max * US;
}

#define BOUND(x)	(1U << LAT_##x)

static void test_percentiles(void)
{
	struct lat_summary s;
	size_t i;
	bool sorted = true;

	fill_us(1000, 1);
	check(!lat_compute(lat, 1000, 0, 5000 * US, &s) &&
	      vals_us(&s, 500, 900, 990, 999, 1000) && !s.lost_bounded &&
	      s.n == 1000 && s.lost == 0,
	      "pct: 1..1000 us -> 500 900 990 999 1000, none lost-bounded");

	fill_us(1000, 7919);
	check(lat[0] == 1 * US && lat[1] == 7920 % 1000 * US,
	      "pct: shuffled input is not sorted");
	check(!lat_compute(lat, 1000, 0, 5000 * US, &s) &&
	      vals_us(&s, 500, 900, 990, 999, 1000) && !s.lost_bounded,
	      "pct: unsorted input gives the same answer");
	for (i = 1; i < 1000; i++)
		sorted &= lat[i - 1] <= lat[i];
	check(sorted, "pct: input sorted in place");

	fill_us(980, 1);
	check(!lat_compute(lat, 980, 20, 5000 * US, &s) &&
	      vals_us(&s, 500, 900, 5000, 5000, 5000) &&
	      s.lost_bounded == (BOUND(P99) | BOUND(P999) | BOUND(MAX)) &&
	      s.n == 980 && s.lost == 20,
	      "pct: 980 received + 20 lost: p99, p999, max lost-bounded");

	fill_us(1000, 1);
	check(!lat_compute(lat, 1000, 20, 5000 * US, &s) &&
	      vals_us(&s, 510, 918, 5000, 5000, 5000) &&
	      s.lost_bounded == (BOUND(P99) | BOUND(P999) | BOUND(MAX)),
	      "pct: 1000 received + 20 lost: ranks over 1020, p99 bounded");

	fill_us(990, 1);
	check(!lat_compute(lat, 990, 10, 5000 * US, &s) &&
	      vals_us(&s, 500, 900, 990, 5000, 5000) &&
	      s.lost_bounded == (BOUND(P999) | BOUND(MAX)),
	      "pct: 990 + 10 lost: p99 is the last received, p999 bounded");

	lat[0] = 100 * US;
	check(!lat_compute(lat, 1, 1, 1000 * US, &s) &&
	      vals_us(&s, 100, 1000, 1000, 1000, 1000) &&
	      s.lost_bounded == (BOUND(P90) | BOUND(P99) | BOUND(P999) |
				 BOUND(MAX)),
	      "pct: 1 received + 1 lost: lost ranks above, not as fast");

	check(!lat_compute(lat, 0, 5, 1000 * US, &s) &&
	      vals_us(&s, 1000, 1000, 1000, 1000, 1000) &&
	      s.lost_bounded == 0x1f && s.n == 0,
	      "pct: all lost -> timeout everywhere, all bounded");

	check(lat_compute(lat, 0, 0, 1000 * US, &s) == -1 &&
	      vals_us(&s, 1000, 1000, 1000, 1000, 1000) &&
	      s.lost_bounded == 0x1f,
	      "pct: empty -> -1, timeout, all bounded");

	lat[0] = 42 * US;
	check(!lat_compute(lat, 1, 0, 1000 * US, &s) &&
	      vals_us(&s, 42, 42, 42, 42, 42) && !s.lost_bounded,
	      "pct: a single sample is every percentile");

	lat[0] = 20 * US;
	lat[1] = 10 * US;
	check(!lat_compute(lat, 2, 0, 1000 * US, &s) &&
	      vals_us(&s, 10, 20, 20, 20, 20),
	      "pct: two samples: p50 is the lower (nearest rank)");

	lat[0] = UINT64_MAX;
	lat[1] = 0;
	check(!lat_compute(lat, 2, 0, 0, &s) && s.val[LAT_P50] == 0 &&
	      s.val[LAT_MAX] == UINT64_MAX, "pct: 0 and UINT64_MAX sort");
}

static void test_format(void)
{
	struct lat_summary s = {
		.val = { 500000, 1249, 1250, 49, 50 },
	};
	char buf[256], small[16];
	struct strbuf sb = STRBUF_INIT(buf);
	struct strbuf ssb = STRBUF_INIT(small);

	lat_format(&s, &sb);
	check(!strcmp(buf, "p50_us=500.0 p90_us=1.2 p99_us=1.3 p999_us=0.0 "
		      "max_us=0.1"), "format: one decimal, half up: %s", buf);
	/* where printf's "%.1f" of ns / 1000.0 gives 100.0 (binary doubles) */
	sb.len = 0;
	lat_format_us(100050, &sb);
	check(!strcmp(buf, "100.1"), "format_us: 100050 ns is 100.1, as lat_format: %s",
	      buf);
	sb.len = 0;
	lat_format_bounded(&s, &sb);
	check(!strcmp(buf, "none"), "format: no bound -> none");
	sb.len = 0;
	s.lost_bounded = BOUND(P99) | BOUND(P999) | BOUND(MAX);
	lat_format_bounded(&s, &sb);
	check(!strcmp(buf, "p99,p999,max"), "format: bounded list: %s", buf);
	sb.len = 0;
	s.lost_bounded = 0x1f;
	lat_format_bounded(&s, &sb);
	check(!strcmp(buf, "p50,p90,p99,p999,max") && !sb.overflow,
	      "format: all bounded: %s", buf);

	sb_printf(&ssb, "0123456789");
	sb_printf(&ssb, "abcdef");
	check(ssb.overflow && !strcmp(small, "0123456789") && ssb.len == 10,
	      "strbuf: an append that does not fit is dropped whole");
	sb_printf(&ssb, "x");
	check(ssb.overflow && !strcmp(small, "0123456789"),
	      "strbuf: nothing appended after an overflow");
}

/* a cyclictest -v -N log: header, samples k = 0..n-1 of (k % 1000 + 1) us */
static size_t write_log(char *text, size_t size, uint64_t n, bool summary)
{
	size_t len;
	uint64_t k;

	len = snprintf(text, size, "Max CPUs = 1\nOnline CPUs = 1\n"
		       "Thread 0 Interval: 1500\n");
	for (k = 0; k < n && len < size; k++)
		len += snprintf(text + len, size - len, "%8d:%8llu:%8llu\n", 0,
				(unsigned long long)k,
				(unsigned long long)(k % 1000 + 1) * US);
	if (summary && len < size)
		len += snprintf(text + len, size - len, "T: 0 (  74) P: 0 "
				"I:1000 C:   %llu Min: 1000 Act: 5 Avg: 500 "
				"Max: 1000000\n", (unsigned long long)n);
	return len;
}

static void reply(const char *text, const char *args, char *buf, size_t sz)
{
	struct strbuf sb = { .buf = buf, .size = sz };
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	buf[0] = '\0';
	cyclic_reply(f, 1000, args, &sb);
	if (f)
		fclose(f);
}

static void test_cyclic(void)
{
	static char text[1 << 16];
	char buf[512], path[] = "/tmp/test_latstats.XXXXXX";
	uint64_t k, ns;
	size_t len;
	FILE *f;
	int fd;

	check(!cyclic_parse_line("       0:     291:   91813\n", &k, &ns) &&
	      k == 291 && ns == 91813, "cyclic: a sample line");
	check(cyclic_parse_line("       1:     291:   91813\n", &k, &ns),
	      "cyclic: another thread's line refused");
	check(cyclic_parse_line("Thread 0 Interval: 1500\n", &k, &ns) &&
	      cyclic_parse_line("T: 0 (  74) P: 0 I:1000 C: 5\n", &k, &ns) &&
	      cyclic_parse_line("       0:     29", &k, &ns) &&
	      cyclic_parse_line("       0:     291:   918x\n", &k, &ns),
	      "cyclic: header, summary and junk are not samples");

	len = write_log(text, sizeof(text), 1000, true);
	reply(text, "0 1000", buf, sizeof(buf));
	check(!strcmp(buf, "tlat 0 1000 n=1000 p50_us=500.0 p90_us=900.0 "
		      "p99_us=990.0 p999_us=999.0 max_us=1000.0 overruns=1 "
		      "head_overruns=0 tail_overruns=-"),
	      "cyclic: tlat over the log, as latstats ranks: %s", buf);
	reply(text, "  998\t1000 ", buf, sizeof(buf));
	check(!strcmp(buf, "tlat 998 1000 n=2 p50_us=999.0 p90_us=1000.0 "
		      "p99_us=1000.0 p999_us=1000.0 max_us=1000.0 overruns=1 "
		      "head_overruns=0 tail_overruns=-"),
	      "cyclic: tlat on two samples: %s", buf);
	/* sample 999 is 1 ms late (one overrun), sample 1000 1 us */
	write_log(text, sizeof(text), 1001, false);
	reply(text, "0 999", buf, sizeof(buf));
	check(strstr(buf, " overruns=0 head_overruns=0 tail_overruns=1"),
	      "cyclic: the stall after the range is its tail: %s", buf);
	reply(text, "999 1001", buf, sizeof(buf));
	check(strstr(buf, " n=2 ") &&
	      strstr(buf, " overruns=1 head_overruns=1 tail_overruns=-"),
	      "cyclic: the stall at its start is its head: %s", buf);
	reply(text, "999 1000", buf, sizeof(buf));
	check(strstr(buf, " overruns=1 head_overruns=1 tail_overruns=0"),
	      "cyclic: head and tail of one sample: %s", buf);
	write_log(text, sizeof(text), 1000, true);
	reply(text, "5", buf, sizeof(buf));
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "cyclic: tlat with one number -> err");
	reply(text, "1 x", buf, sizeof(buf));
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "cyclic: tlat with a non-number -> err");
	reply(text, "-1 5", buf, sizeof(buf));
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "cyclic: tlat with a negative number -> err");
	reply(text, "7 7", buf, sizeof(buf));
	check(!strcmp(buf, "err tlat range 7 7 empty"),
	      "cyclic: tlat empty range: %s", buf);
	reply(text, "9 3", buf, sizeof(buf));
	check(!strcmp(buf, "err tlat range 9 3 invalid"),
	      "cyclic: tlat from > to: %s", buf);
	reply(text, "900 1001", buf, sizeof(buf));
	check(!strcmp(buf, "err tlat range 900 1001 beyond count 1000"),
	      "cyclic: tlat past the count: %s", buf);
	reply(text, "0 2000000", buf, sizeof(buf));
	check(!strcmp(buf, "err tlat range 0 2000000 too long"),
	      "cyclic: tlat over more than 2^20 samples: %s", buf);
	{
		struct strbuf sb = STRBUF_INIT(buf);

		cyclic_reply(NULL, 1000, "0 10", &sb);
		check(!strncmp(buf, "err tlat no probe", 17),
		      "cyclic: tlat without the probe: %s", buf);
	}

	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	check(f != NULL, "cyclic: a temporary log");
	if (!f)
		return;
	fwrite(text, 1, len, f);
	fflush(f);
	check(cyclic_count(path) == 1000,
	      "cyclic: count = last sample + 1, past the summary line");
	fputs("       0:    1000:   1", f);	/* half written */
	fflush(f);
	check(cyclic_count(path) == 1000,
	      "cyclic: a half-written last line is not counted");
	fputs("234\n", f);
	fflush(f);
	check(cyclic_count(path) == 1001, "cyclic: ... once complete it is");
	fclose(f);
	unlink(path);
	check(cyclic_count(path) == 0, "cyclic: no log: count 0");
}

static void test_pacing(void)
{
	check(paced_due_ns(100, 3, 200) == 100 + 15000000,
	      "pacing: probe 3 at 200/s is due 15 ms after start");
	check(paced_due_ns(0, 10000000000ULL, 3) ==
	      3333333333ULL * NSEC_PER_SEC + 333333333,
	      "pacing: no overflow at 1e10 events");
}

int main(void)
{
	printf("TAP version 13\n");
	test_percentiles();
	test_format();
	test_cyclic();
	test_pacing();
	return tap_done();
}
