// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lab/tools: the latency percentiles and histogram
 * (latstats.c), timerlat's ring reader and sampler's tlat answer
 * (tlatring.c), and the strbuf and pacing helpers (util.c).  Inputs with
 * answers known by hand.  TAP output, exit status 1 on failure.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latstats.h"
#include "tlatring.h"
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

static void test_hist(void)
{
	uint64_t hist[LAT_HIST_BUCKETS], sum = 0;
	char buf[512];
	struct strbuf sb = STRBUF_INIT(buf);
	int i;

	check(lat_hist_bucket(0) == 0 && lat_hist_bucket(1999) == 0,
	      "hist: below 2 us -> bucket 0");
	check(lat_hist_bucket(2000) == 1 && lat_hist_bucket(3999) == 1 &&
	      lat_hist_bucket(4000) == 2, "hist: [2, 4) us -> 1, 4 us -> 2");
	check(lat_hist_bucket(1023999) == 9 && lat_hist_bucket(1024000) == 10,
	      "hist: 1023.999 us -> 9, 1024 us -> 10");
	check(lat_hist_bucket(UINT64_MAX) == 54 &&
	      lat_hist_bucket(UINT64_MAX) < LAT_HIST_BUCKETS,
	      "hist: UINT64_MAX ns (2^54.03 us) -> bucket 54");

	fill_us(1000, 7919);
	lat_hist(lat, 1000, hist);
	for (i = 0; i < LAT_HIST_BUCKETS; i++)
		sum += hist[i];
	check(sum == 1000 && hist[0] == 1 && hist[1] == 2 && hist[8] == 256 &&
	      hist[9] == 489 && hist[10] == 0, "hist: 1..1000 us counts");
	lat_hist_format(hist, &sb);
	check(!strcmp(buf, "0:1,1:2,2:4,3:8,4:16,5:32,6:64,7:128,8:256,9:489"),
	      "hist: format nonzero buckets: %s", buf);
	memset(hist, 0, sizeof(hist));
	hist[3] = 7;
	hist[63] = 1;
	sb.len = 0;
	lat_hist_format(hist, &sb);
	check(!strcmp(buf, "3:7,63:1"), "hist: sparse format: %s", buf);
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

static void push_us(struct tlat_ring *r, uint64_t from, uint64_t to)
{
	uint64_t k;

	for (k = from; k < to; k++)
		tlat_ring_push(r, (k % 1000 + 1) * US);
}

static void test_ring(void)
{
	static struct tlat_ring r;
	static uint64_t out[TLAT_RING];
	char why[128], buf[2048];
	struct strbuf sb = STRBUF_INIT(buf);

	r.magic = TLAT_MAGIC;
	r.version = TLAT_VERSION;
	check(tlat_ring_ok(&r), "ring: header ok");
	push_us(&r, 0, 1000);
	check(r.count == 1000, "ring: count after 1000 pushes");
	check(!tlat_ring_read(&r, 10, 13, out, why, sizeof(why)) &&
	      out[0] == 11 * US && out[1] == 12 * US && out[2] == 13 * US,
	      "ring: read [10, 13)");
	check(tlat_ring_read(&r, 5, 5, out, why, sizeof(why)) &&
	      !strcmp(why, "empty"), "ring: from == to -> empty");
	check(tlat_ring_read(&r, 6, 5, out, why, sizeof(why)) &&
	      !strncmp(why, "invalid", 7), "ring: from > to -> invalid");
	check(tlat_ring_read(&r, 0, 1001, out, why, sizeof(why)) &&
	      !strcmp(why, "beyond count 1000"), "ring: to > count: %s", why);

	tlat_reply(&r, "0 1000", &sb);
	check(!strcmp(buf, "tlat 0 1000 n=1000 p50_us=500.0 p90_us=900.0 "
		      "p99_us=990.0 p999_us=999.0 max_us=1000.0 "
		      "hist=0:1,1:2,2:4,3:8,4:16,5:32,6:64,7:128,8:256,9:489"),
	      "ring: tlat reply line: %s", buf);
	sb.len = 0;
	tlat_reply(&r, "  998\t1000 ", &sb);
	check(!strcmp(buf, "tlat 998 1000 n=2 p50_us=999.0 p90_us=1000.0 "
		      "p99_us=1000.0 p999_us=1000.0 max_us=1000.0 "
		      "hist=9:2"), "ring: tlat on two samples: %s", buf);

	sb.len = 0;
	tlat_reply(&r, "5", &sb);
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "ring: tlat with one number -> err");
	sb.len = 0;
	tlat_reply(&r, "1 2 3", &sb);
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "ring: tlat with three numbers -> err");
	sb.len = 0;
	tlat_reply(&r, "1 x", &sb);
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "ring: tlat with a non-number -> err");
	sb.len = 0;
	tlat_reply(&r, "-1 5", &sb);
	check(!strncmp(buf, "err tlat range invalid", 22),
	      "ring: tlat with a negative number -> err");
	sb.len = 0;
	tlat_reply(&r, "7 7", &sb);
	check(!strcmp(buf, "err tlat range 7 7 empty"),
	      "ring: tlat empty range: %s", buf);
	sb.len = 0;
	tlat_reply(&r, "900 1001", &sb);
	check(!strcmp(buf, "err tlat range 900 1001 beyond count 1000"),
	      "ring: tlat past the count: %s", buf);
	sb.len = 0;
	tlat_reply(NULL, "0 10", &sb);
	check(!strncmp(buf, "err tlat no ring", 16), "ring: tlat without ring");

	/* wrap: the oldest held sample is count - TLAT_RING + 1 */
	push_us(&r, 1000, TLAT_RING + 500);
	check(tlat_ring_read(&r, 500, 600, out, why, sizeof(why)) &&
	      !strcmp(why, "older than the ring holds (oldest 501)"),
	      "ring: overwritten samples refused: %s", why);
	check(!tlat_ring_read(&r, 501, TLAT_RING + 500, out, why,
			      sizeof(why)) &&
	      out[0] == 502 * US && out[TLAT_RING - 2] == (TLAT_RING + 499) %
	      1000 * US + US, "ring: after a wrap, the newest RING-1 read");
	sb.len = 0;
	tlat_reply(&r, "0 10", &sb);
	check(!strcmp(buf, "err tlat range 0 10 older than the ring holds "
		      "(oldest 501)"), "ring: tlat too old: %s", buf);

	tlat_ring_push(&r, 5000000000ULL);
	check(r.ring[(r.count - 1) % TLAT_RING] == UINT32_MAX,
	      "ring: lateness saturates at u32");
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
	test_hist();
	test_format();
	test_ring();
	test_pacing();
	return tap_done();
}
