/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters that a guest receiver (udp_sink, responder) publishes in a
 * small shared file (mmap MAP_SHARED) and that sampler reads.  The writer
 * fills pid/version, then
 * stores magic with release order; counters are updated with relaxed
 * atomic stores and read with relaxed atomic loads (each value is a
 * naturally aligned u64, so it never tears).
 */
#ifndef LAB_SINKSTAT_H
#define LAB_SINKSTAT_H

#include <stdint.h>
#include <unistd.h>

#include "shmfile.h"

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

#endif
