// SPDX-License-Identifier: GPL-2.0
/* Reading timerlat's ring, and sampler's tlat request; see tlatring.h. */

#include <stdio.h>
#include <string.h>

#include "latstats.h"
#include "tlatring.h"
#include "util.h"

/*
 * Oldest sample reliably held when @count samples have been written: the
 * writer's next store (sample count) goes to the slot of count - TLAT_RING.
 */
static uint64_t first_held(uint64_t count)
{
	return count >= TLAT_RING ? count - TLAT_RING + 1 : 0;
}

int tlat_ring_read(const struct tlat_ring *r, uint64_t from, uint64_t to,
		   uint64_t *out, char *why, size_t whylen)
{
	uint64_t count = tlat_load(&r->count), k;

	if (from > to) {
		snprintf(why, whylen, "invalid: from %llu > to %llu",
			 (unsigned long long)from, (unsigned long long)to);
		return -1;
	}
	if (from == to) {
		snprintf(why, whylen, "empty");
		return -1;
	}
	if (to > count) {
		snprintf(why, whylen, "beyond count %llu",
			 (unsigned long long)count);
		return -1;
	}
	if (from < first_held(count))
		goto old;
	for (k = from; k < to; k++)
		out[k - from] = __atomic_load_n(&r->ring[k % TLAT_RING],
						__ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	count = tlat_load(&r->count);
	if (from < first_held(count))
		goto old;
	return 0;
old:
	snprintf(why, whylen, "older than the ring holds (oldest %llu)",
		 (unsigned long long)first_held(count));
	return -1;
}

void tlat_reply(const struct tlat_ring *r, const char *args,
		struct strbuf *sb)
{
	static uint64_t lat[TLAT_RING];
	uint64_t from, to, hist[LAT_HIST_BUCKETS];
	char words[256], *a, *b, *save, why[128];
	struct lat_summary s;

	if ((size_t)snprintf(words, sizeof(words), "%s", args) >= sizeof(words))
		words[0] = '\0';
	a = strtok_r(words, " \t", &save);
	b = strtok_r(NULL, " \t", &save);
	if (!b || strtok_r(NULL, " \t", &save) ||
	    parse_u64(a, 0, UINT64_MAX, &from) ||
	    parse_u64(b, 0, UINT64_MAX, &to)) {
		sb_printf(sb, "err tlat range invalid: want 'tlat <from> <to>',"
			  " two sample numbers");
		return;
	}
	if (!r) {
		sb_printf(sb, "err tlat no ring (sampler -l, timerlat -c)");
		return;
	}
	if (tlat_ring_read(r, from, to, lat, why, sizeof(why))) {
		sb_printf(sb, "err tlat range %s %s %s", a, b, why);
		return;
	}
	lat_compute(lat, to - from, 0, 0, &s);
	lat_hist(lat, to - from, hist);
	sb_printf(sb, "tlat %s %s n=%llu ", a, b,
		  (unsigned long long)(to - from));
	lat_format(&s, sb);
	sb_printf(sb, " hist=");
	lat_hist_format(hist, sb);
}
