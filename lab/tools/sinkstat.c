// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's history (sinkstat.h), read back as a series: how many
 * datagrams it had read by each step of a window in which nothing in the
 * guest could be asked.
 */

#include "sinkstat.h"

void sinkstat_series(const struct sinkstat *ss, uint64_t now_slot,
		     uint64_t from, uint64_t to, uint64_t step, uint64_t base,
		     struct strbuf *r)
{
	const struct sinkstat_slot *e;
	uint64_t slot, b, cur = base;
	uint64_t k;

	if (to <= from || step < SINKSTAT_SLOT_NS ||
	    (to - from) / step > SINKSTAT_SERIES_MAX) {
		sb_printf(r, "err sinkseries: needs to > from, step >= %llu ns, "
			  "at most %d steps", (unsigned long long)SINKSTAT_SLOT_NS,
			  SINKSTAT_SERIES_MAX);
		return;
	}
	if (!ss) {
		sb_printf(r, "err sinkseries: no receiver counters (sampler -s)");
		return;
	}
	slot = sinkstat_slot_of(from);
	if (slot >= now_slot || now_slot - slot >= SINKSTAT_SLOTS - 1) {
		sb_printf(r, "err sinkseries: from is %s", slot >= now_slot ?
			  "not in the past" : "older than the history");
		return;
	}
	sb_printf(r, "sinkseries from_ns=%llu step_ns=%llu c=%llu",
		  (unsigned long long)from, (unsigned long long)step,
		  (unsigned long long)cur);
	/* the slot holding @from may hold reads before it: start after it */
	slot++;
	for (k = 1; k <= (to - from) / step; k++) {
		b = from + k * step;
		if (b > now_slot * SINKSTAT_SLOT_NS)
			break;
		for (; (slot + 1) * SINKSTAT_SLOT_NS <= b; slot++) {
			e = &ss->hist[slot % SINKSTAT_SLOTS];
			if (sinkstat_load(&e->slot) == slot + 1 &&
			    sinkstat_load(&e->packets) > cur)
				cur = sinkstat_load(&e->packets);
		}
		sb_printf(r, ",%llu", (unsigned long long)cur);
	}
}
