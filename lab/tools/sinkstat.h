/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters that a guest receiver (udp_sink, responder) publishes in a
 * small shared file (mmap MAP_SHARED) and that sampler reads.  The writer
 * fills pid/version, then
 * stores magic with release order; counters are updated with relaxed
 * atomic stores and read with relaxed atomic loads (each value is a
 * naturally aligned u64, so it never tears).
 *
 * The history: a receiver that calls sinkstat_stamp() after each read
 * leaves, per 10 ms slot of CLOCK_MONOTONIC_COARSE in which it read, the
 * packet count at its last read in that slot, in a ring of 131072 slots
 * (21 min, 2 MiB: a soak's window and the guest's recovery after it).  It
 * answers "how many packets had the receiver read by guest time t" after
 * the fact, for a window in which nothing in the guest could be asked (a
 * starved point, lab/exp/rx/hooks.sh).  The writer only ever
 * writes the current slot, so slots in the past are stable until the
 * ring comes round again.
 */
#ifndef LAB_SINKSTAT_H
#define LAB_SINKSTAT_H

#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "shmfile.h"
#include "util.h"

#define SINKSTAT_MAGIC	0x4b4e49534b4c4c4cULL	/* "LLLKSINK" */
#define SINKSTAT_VERSION	2
#define SINKSTAT_SLOT_NS	10000000ULL
#define SINKSTAT_SLOTS		131072

struct sinkstat_slot {
	uint64_t slot;		/* slot number + 1; 0: never written */
	uint64_t packets;	/* the count at the last read in that slot */
};

struct sinkstat {
	uint64_t magic;
	uint64_t version;
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;
	uint64_t pid;
	struct sinkstat_slot hist[SINKSTAT_SLOTS];
};

static inline void sinkstat_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline uint64_t sinkstat_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* The header is valid (magic and version). */
static inline int sinkstat_ok(const struct sinkstat *s)
{
	return __atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) ==
	       SINKSTAT_MAGIC && s->version == SINKSTAT_VERSION;
}

/*
 * Publish a receiver's counters at @path for the sampler: a fresh file,
 * valid header, this process's pid.  Exits via error() on failure.
 */
static inline struct sinkstat *sinkstat_create(const char *path)
{
	struct sinkstat *p = shm_create(path, sizeof(*p));

	p->version = SINKSTAT_VERSION;
	p->pid = getpid();
	__atomic_store_n(&p->magic, SINKSTAT_MAGIC, __ATOMIC_RELEASE);
	return p;
}

/* One datagram of @len bytes received. */
static inline void sinkstat_count(struct sinkstat *s, uint64_t len)
{
	sinkstat_store(&s->packets, s->packets + 1);
	sinkstat_store(&s->bytes, s->bytes + len);
}

/* The slot number of a CLOCK_MONOTONIC(_COARSE) time. */
static inline uint64_t sinkstat_slot_of(uint64_t t_ns)
{
	return t_ns / SINKSTAT_SLOT_NS;
}

/*
 * After a read: the count so far, filed under the current slot.  The
 * coarse clock is a vDSO read without a TSC access: cheap enough for a
 * receiver that reads one datagram per call.
 */
static inline void sinkstat_stamp(struct sinkstat *s)
{
	struct sinkstat_slot *e;
	struct timespec ts;
	uint64_t slot;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts))
		return;
	slot = sinkstat_slot_of((uint64_t)ts.tv_sec * 1000000000ULL +
				(uint64_t)ts.tv_nsec);
	e = &s->hist[slot % SINKSTAT_SLOTS];
	sinkstat_store(&e->packets, sinkstat_load(&s->packets));
	sinkstat_store(&e->slot, slot + 1);
}

#define SINKSTAT_SERIES_MAX	600	/* values in one series */

/*
 * What the receiver of @ss had read by each of from + k * step (k = 0..,
 * up to @to and to the end of the last whole slot before @now_slot),
 * given that it had read @base by @from (the count in a snapshot taken
 * then): "sinkseries from_ns=F step_ns=S c=base,c1,..." into @r, each
 * value the count at the receiver's last read in a slot that ended by
 * then; or "err ..." when the arguments or the history cannot answer.
 * Times are the guest's CLOCK_MONOTONIC.
 */
void sinkstat_series(const struct sinkstat *ss, uint64_t now_slot,
		     uint64_t from, uint64_t to, uint64_t step, uint64_t base,
		     struct strbuf *r);

#endif
