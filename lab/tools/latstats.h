/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency percentiles, shared by latprobe (round trips) and sampler
 * (cyclictest's wake-ups).
 *
 * Percentiles are nearest-rank: the N = n + lost samples are ranked in
 * ascending order, the lost ones last, as +infinity (a probe that never
 * came back was slower than every one that did).  Percentile q is the
 * sample of rank ceil(q * N), 1-based: for N = 1000 p50 is rank 500, p90
 * 900, p99 990, p99.9 999, max 1000.  No interpolation: every value
 * reported is one that was measured.  When the rank falls among the lost
 * samples the value is unknown; it is reported as the timeout (a lower
 * bound) and its bit is set in lost_bounded.
 */
#ifndef LAB_LATSTATS_H
#define LAB_LATSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum lat_pct { LAT_P50, LAT_P90, LAT_P99, LAT_P999, LAT_MAX, LAT_NR };

/* "p50", "p90", "p99", "p999", "max" */
extern const char *const lat_names[LAT_NR];

struct lat_summary {
	uint64_t n;			/* samples received */
	uint64_t lost;
	uint64_t val[LAT_NR];		/* ns, indexed by enum lat_pct */
	unsigned int lost_bounded;	/* 1 << LAT_*: val[] is the timeout */
};

/*
 * Summarise @n latencies (ns) in @lat, which is sorted in place, plus
 * @lost samples that never arrived (reported as @timeout_ns).  Returns 0,
 * or -1 if there is nothing to rank (n + lost == 0): then every value is
 * @timeout_ns and every percentile is marked lost-bounded.
 */
int lat_compute(uint64_t *lat, size_t n, uint64_t lost, uint64_t timeout_ns,
		struct lat_summary *s);

/*
 * Formatters, appending to @sb (util.h):
 * lat_format:         "p50_us=X p90_us=X p99_us=X p999_us=X max_us=X",
 *                     X in microseconds with one decimal (rounded)
 * lat_format_bounded: the lost-bounded names joined by ',' ("p99,p999,max"),
 *                     or "none"
 * lat_format_us:      @ns as microseconds with one decimal, rounded half up
 *                     (every figure a tool prints is rounded this one way:
 *                     printf's "%.1f" of ns / 1000.0 rounds 100050 ns to
 *                     100.0, a binary double's nearest, lat_format to 100.1)
 */
void lat_format_us(uint64_t ns, struct strbuf *sb);
void lat_format(const struct lat_summary *s, struct strbuf *sb);
void lat_format_bounded(const struct lat_summary *s, struct strbuf *sb);

#endif
