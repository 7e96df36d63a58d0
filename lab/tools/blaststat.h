/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counters that udp_blast publishes in a small shared file (shmfile.h)
 * and that sampler reads, like sinkstat.h: the writer fills the header,
 * then stores magic with release order; every counter is a naturally
 * aligned u64 written with relaxed atomic stores by one thread only.
 * Each sender thread has its own cache line, so the counters do not
 * bounce between CPUs.
 */
#ifndef LAB_BLASTSTAT_H
#define LAB_BLASTSTAT_H

#include <stdint.h>

#define BLASTSTAT_MAGIC		0x54534c424b4c4c4cULL	/* "LLLKBLST" */
#define BLASTSTAT_VERSION	1
#define BLAST_THREADS_MAX	16

struct blast_thread_stat {
	uint64_t sent;		/* datagrams the kernel accepted */
	uint64_t errors;	/* failed send calls (ENOBUFS, ...) */
	uint64_t pad[6];
} __attribute__((aligned(64)));

struct blaststat {
	uint64_t magic;
	uint64_t version;
	uint64_t pid;
	uint64_t threads;
	uint64_t running;	/* 1 while the senders send, then 0 */
	uint64_t start_ns;	/* CLOCK_MONOTONIC, when sending began */
	uint64_t end_ns;	/* when the last sender stopped, or 0 */
	uint64_t pad;
	struct blast_thread_stat t[BLAST_THREADS_MAX];
};

static inline void blaststat_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline uint64_t blaststat_load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* The header is valid (magic and version). */
static inline int blaststat_ok(const struct blaststat *s)
{
	return __atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) ==
	       BLASTSTAT_MAGIC && s->version == BLASTSTAT_VERSION;
}

#endif
