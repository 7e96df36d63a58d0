// SPDX-License-Identifier: GPL-2.0
/*
 * The softirq experiment's shared files (sirqstat.h): recording a probe
 * sample, and the sampler's percentiles over a window.
 */

#include <stdlib.h>
#include <string.h>

#include "latstats.h"
#include "sirqstat.h"

const char *const sirq_names[SIRQ_KINDS] = { "timer", "poll", "rcu",
						    "block" };

void sirq_record(struct sirqstat *s, enum sirq_kind kind, uint64_t t_ns,
		 uint64_t val_ns)
{
	uint64_t i = __atomic_fetch_add(&s->head, 1, __ATOMIC_RELAXED);
	struct sirq_rec *r = &s->rec[i % SIRQ_RECS];

	__atomic_store_n(&r->seq, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	r->t_ns = t_ns;
	r->kind = kind;
	r->val_ns = val_ns;
	__atomic_store_n(&r->seq, i + 1, __ATOMIC_RELEASE);
}

/* A consistent copy of record @i, or false. */
static bool sirq_read(const struct sirqstat *s, uint64_t i,
		      struct sirq_rec *out)
{
	const struct sirq_rec *r = &s->rec[i % SIRQ_RECS];

	if (__atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) != i + 1)
		return false;
	out->t_ns = r->t_ns;
	out->kind = r->kind;
	out->val_ns = r->val_ns;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&r->seq, __ATOMIC_RELAXED) == i + 1;
}

int sirq_summary(const struct sirqstat *s, uint64_t from, uint64_t to,
		 struct strbuf *sb)
{
	uint64_t head, first, i, lost = 0;
	uint64_t *vals[SIRQ_KINDS];
	size_t n[SIRQ_KINDS] = { 0 };
	struct lat_summary sum;
	struct sirq_rec r;
	int k, p;

	if (!s)
		return -1;
	head = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
	first = head > SIRQ_RECS ? head - SIRQ_RECS : 0;
	for (k = 0; k < SIRQ_KINDS; k++) {
		vals[k] = malloc(SIRQ_RECS * sizeof(uint64_t));
		if (!vals[k])
			abort();
	}
	/* every record the ring holds; one being rewritten counts as lost */
	for (i = head; i-- > first;) {
		if (!sirq_read(s, i, &r)) {
			lost++;
			continue;
		}
		if (r.t_ns >= to)
			continue;
		if (r.t_ns < from)
			continue;
		if (r.kind < SIRQ_KINDS)
			vals[r.kind][n[r.kind]++] = r.val_ns;
	}
	/* the ring came round: the window's start may be gone */
	if (first > 0 && sirq_read(s, first, &r) && r.t_ns > from)
		lost++;
	for (k = 0; k < SIRQ_KINDS; k++) {
		sb_printf(sb, " %s_n=%zu", sirq_names[k], n[k]);
		if (lat_compute(vals[k], n[k], 0, 0, &sum) < 0) {
			for (p = 0; p < LAT_NR; p++)
				sb_printf(sb, " %s_%s_us=-", sirq_names[k],
					  lat_names[p]);
		} else {
			for (p = 0; p < LAT_NR; p++) {
				sb_printf(sb, " %s_%s_us=", sirq_names[k],
					  lat_names[p]);
				lat_format_us(sum.val[p], sb);
			}
		}
		free(vals[k]);
	}
	sb_printf(sb, " sirq_lost=%llu", (unsigned long long)lost);
	return 0;
}

uint64_t spin_total(const struct spinstat *s)
{
	uint64_t t = 0, n, i;

	if (!s)
		return 0;
	n = __atomic_load_n(&s->nloops, __ATOMIC_RELAXED);
	for (i = 0; i < n && i < SPIN_MAX; i++)
		t += __atomic_load_n(&s->iters[i], __ATOMIC_RELAXED);
	return t;
}
