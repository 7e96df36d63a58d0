/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters that udp_sink publishes in a small shared file (mmap
 * MAP_SHARED) and that sampler reads.  The writer fills pid/version, then
 * stores magic with release order; counters are updated with relaxed
 * atomic stores and read with relaxed atomic loads (each value is a
 * naturally aligned u64, so it never tears).
 */
#ifndef LAB_SINKSTAT_H
#define LAB_SINKSTAT_H

#include <stdint.h>

#define SINKSTAT_MAGIC	0x4b4e49534b4c4c4cULL	/* "LLLKSINK" */
#define SINKSTAT_VERSION	1

struct sinkstat {
	uint64_t magic;
	uint64_t version;
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;
	uint64_t pid;
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

#endif
