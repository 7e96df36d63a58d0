// SPDX-License-Identifier: GPL-2.0
/* Latency percentiles; see latstats.h. */

#include <stdio.h>
#include <stdlib.h>

#include "latstats.h"

const char *const lat_names[LAT_NR] = { "p50", "p90", "p99", "p999", "max" };

/* Each percentile as a fraction of 1000. */
static const unsigned int lat_permille[LAT_NR] = { 500, 900, 990, 999, 1000 };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int lat_compute(uint64_t *lat, size_t n, uint64_t lost, uint64_t timeout_ns,
		struct lat_summary *s)
{
	uint64_t total = n + lost;
	int i;

	s->n = n;
	s->lost = lost;
	s->lost_bounded = 0;
	if (!total) {
		for (i = 0; i < LAT_NR; i++) {
			s->val[i] = timeout_ns;
			s->lost_bounded |= 1U << i;
		}
		return -1;
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	for (i = 0; i < LAT_NR; i++) {
		/* ceil(total * permille / 1000), at least 1 */
		uint64_t rank = ((__uint128_t)total * lat_permille[i] +
				 999) / 1000;

		if (rank > n) {
			s->val[i] = timeout_ns;
			s->lost_bounded |= 1U << i;
		} else {
			s->val[i] = lat[rank - 1];
		}
	}
	return 0;
}

void lat_format_us(uint64_t ns, struct strbuf *sb)
{
	/* tenths of a microsecond, rounded half up, in integers */
	uint64_t t = ns / 100 + (ns % 100 >= 50);

	sb_printf(sb, "%llu.%u", (unsigned long long)(t / 10),
		  (unsigned int)(t % 10));
}

void lat_format(const struct lat_summary *s, struct strbuf *sb)
{
	int i;

	for (i = 0; i < LAT_NR; i++) {
		sb_printf(sb, "%s%s_us=", i ? " " : "", lat_names[i]);
		lat_format_us(s->val[i], sb);
	}
}

void lat_format_bounded(const struct lat_summary *s, struct strbuf *sb)
{
	const char *sep = "";
	int i;

	for (i = 0; i < LAT_NR; i++) {
		if (s->lost_bounded & (1U << i)) {
			sb_printf(sb, "%s%s", sep, lat_names[i]);
			sep = ",";
		}
	}
	if (!*sep)
		sb_printf(sb, "none");
}
