/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring that timerlat publishes in a shared file (shmfile.h) and that
 * sampler reads: every timer wake-up's lateness in ns (u32, saturating).
 *
 * Sample k (0-based, counted since timerlat started) lives in
 * ring[k % TLAT_RING] until sample k + TLAT_RING overwrites it.  The
 * writer fills the header, stores magic with release order, then for each
 * sample stores the slot and then count = k + 1 with release order.  A
 * reader loads count with acquire order, copies the slots, and then checks
 * (tlat_ring_read) that the writer has not come round to them meanwhile.
 */
#ifndef LAB_TLATRING_H
#define LAB_TLATRING_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define TLAT_MAGIC	0x54414c544b4c4c4cULL	/* "LLLKTLAT" */
#define TLAT_VERSION	1
#define TLAT_RING	65536

struct tlat_ring {
	uint64_t magic;
	uint64_t version;
	uint64_t period_ns;
	uint64_t count;		/* samples ever written */
	uint64_t overruns;	/* period boundaries skipped (woke > 1 late) */
	uint64_t pid;
	uint32_t ring[TLAT_RING];
};

static inline uint64_t tlat_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Writer side: append one lateness (ns). */
static inline void tlat_ring_push(struct tlat_ring *r, uint64_t late_ns)
{
	uint64_t k = r->count;

	__atomic_store_n(&r->ring[k % TLAT_RING],
			 late_ns > UINT32_MAX ? UINT32_MAX : late_ns,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&r->count, k + 1, __ATOMIC_RELEASE);
}

/* The header is valid (magic and version). */
static inline int tlat_ring_ok(const struct tlat_ring *r)
{
	return tlat_load(&r->magic) == TLAT_MAGIC &&
	       r->version == TLAT_VERSION;
}

/*
 * Copy samples [@from, @to) into @out (as ns, to - from of them).
 * Returns 0, or -1 with the reason in @why ("invalid: ...", "empty",
 * "beyond count N", "older than the ring holds (oldest N)") if from > to,
 * from == to, samples are not written yet, or no longer all in the ring.
 */
int tlat_ring_read(const struct tlat_ring *r, uint64_t from, uint64_t to,
		   uint64_t *out, char *why, size_t whylen);

/*
 * Append sampler's answer to "tlat <from> <to>" (@args: "<from> <to>") on
 * ring @r (NULL: none mapped) to @sb, one line without newline:
 *   tlat <from> <to> n=N p50_us=X p90_us=X p99_us=X p999_us=X max_us=X
 *        hist=i:count,...
 * (latstats.h formats; hist lists the nonzero log2 buckets), or
 *   err tlat range invalid: ...                  (not two sample numbers)
 *   err tlat range <from> <to> <why>             (see tlat_ring_read)
 *   err tlat no ring ...
 */
void tlat_reply(const struct tlat_ring *r, const char *args,
		struct strbuf *sb);

#endif
