/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The softirq experiment's user-visible probes of other softirq users
 * (lab/exp/softirq): sirqprobe's samples and spin's progress, published
 * in small shared files (shmfile.h) that the sampler reads.
 *
 * Samples: a ring of SIRQ_RECS records, one per probe call, stamped with
 * CLOCK_MONOTONIC at the call's end.  The probe threads reserve a slot
 * with an atomic increment of @head and publish it by storing @seq (its
 * index + 1) last, with release order; a reader takes a record only when
 * @seq, loaded with acquire order before and after the copy, is the index
 * it expects, so a record being overwritten is skipped, never torn.
 *
 *   timer  a blocking recv() on a socket nothing sends to, SO_RCVTIMEO
 *          = the timeout: schedule_timeout(), a timer-wheel timer,
 *          expired by TIMER_SOFTIRQ (kernel/time/timer.c)
 *   poll   poll() of the same socket with the same timeout: an hrtimer,
 *          expired in hardirq context (the pair's control)
 *   rcu    close() of an AF_PACKET socket: packet_release() waits in
 *          synchronize_net() for an RCU grace period, whose quiescent
 *          states are reported from RCU_SOFTIRQ
 *   block  a 4 KiB O_DIRECT read of a virtio-blk disk, one per timeout
 *          period (an absolute hrtimer sleep between reads): blk-mq
 *          completes it in BLOCK_SOFTIRQ when its hardware queue maps
 *          more than one CPU's software queue (block/blk-mq.c)
 * The value is the call's duration (ns).
 *
 * Progress: spin's busy loops count their iterations, one counter each
 * (relaxed stores of a naturally aligned u64: never torn).
 */
#ifndef LAB_SIRQSTAT_H
#define LAB_SIRQSTAT_H

#include <stdint.h>

#include "util.h"

#define SIRQSTAT_MAGIC		0x5152495342414c4cULL	/* "LLABSIRQ" */
#define SIRQSTAT_VERSION	2
#define SIRQ_RECS		(1U << 18)

enum sirq_kind { SIRQ_TIMER, SIRQ_POLL, SIRQ_RCU, SIRQ_BLOCK, SIRQ_KINDS };

/* "timer", "poll", "rcu", "block" */
extern const char *const sirq_names[SIRQ_KINDS];

struct sirq_rec {
	uint64_t seq;		/* index + 1 once written; 0: never */
	uint64_t t_ns;
	uint64_t kind;
	uint64_t val_ns;
};

struct sirqstat {
	uint64_t magic;
	uint64_t version;
	uint64_t pid;
	uint64_t timeout_ns;	/* of timer and poll */
	uint64_t head;		/* records reserved */
	struct sirq_rec rec[SIRQ_RECS];
};

#define SPINSTAT_MAGIC		0x4e495053424c4c4cULL	/* "LLLBSPIN" */
#define SPIN_MAX		16

struct spinstat {
	uint64_t magic;
	uint64_t nloops;
	uint64_t iters[SPIN_MAX];
};

/* Record one sample (any thread). */
void sirq_record(struct sirqstat *s, enum sirq_kind kind, uint64_t t_ns,
		 uint64_t val_ns);

/*
 * Append the percentiles of every kind's samples stamped in [@from, @to)
 * to @sb: " <kind>_n=N <kind>_p50_us=X ... <kind>_max_us=X" (latstats.h's
 * percentiles, "-" where a kind has none), then " sirq_lost=N": records
 * of the window already overwritten (the ring came round) or unreadable.
 * Returns -1 (and appends nothing) if @s is NULL.
 */
int sirq_summary(const struct sirqstat *s, uint64_t from, uint64_t to,
		 struct strbuf *sb);

/* The sum of the busy loops' iterations, 0 without a file. */
uint64_t spin_total(const struct spinstat *s);

#endif
