/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency pass's timer probe: cyclictest (Debian's rt-tests), started
 * by sampler at the opening of the latency pass ("cyclic start") and left
 * running.  One SCHED_OTHER thread (--policy=other) wakes on absolute
 * CLOCK_MONOTONIC boundaries every interval; with -v -N -u cyclictest's
 * main thread writes every sample, within 10 ms of it, as a line
 *
 *   "       0:     291:   91813"    thread, sample number, lateness (ns)
 *
 * to a log file.  A snapshot reports how many samples the log holds
 * (tlat_count), and "tlat <from> <to>" the percentiles of samples
 * [from, to), so that a window C..D is selected by its snapshots' counts.
 * Why not a fresh cyclictest per window: started at C in a livelocked
 * guest (vanilla at 300 kpps) its first sample came ~1.4 s late, 634
 * samples and 1,231 skipped periods of a 3.25 s window.
 *
 * A wake-up more than an interval late goes on to the next boundary still
 * ahead: a sample L late skipped floor(L / interval) of them (overruns).
 * So the samples [from, to) with their overruns span exactly the periods
 * from sample from's boundary to sample to's, and a window C..D of P
 * periods accounts for P - tail - lag - 2 < n + overruns < P + head +
 * lag + 2, where head is sample from's overruns (a stall begun before C),
 * tail sample to's (a stall running at D) and lag the periods the log
 * trails the probe by.  The main thread (the printer) runs SCHED_FIFO
 * above the sampler (CYCLIC_MAIN_PRIO) when the sampler is SCHED_FIFO:
 * as a normal task, in a livelocked guest (vanilla at 16 kpps, fixed
 * speed) it fell so far behind that a 3.5 s window held 2,042 periods.
 * Even so the lag is not always small: once, in such a guest, the log
 * trailed by ~420 ms at C (tests/e2e/20-lab.t bounds it by the warm-up).
 */
#ifndef LAB_CYCLIC_H
#define LAB_CYCLIC_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "util.h"

/* the intervals sampler -C accepts */
#define CYCLIC_MIN_US	10
#define CYCLIC_MAX_US	1000000
/* the probe's main thread, above a SCHED_FIFO sampler (50) */
#define CYCLIC_MAIN_PRIO	51
/* the most samples one tlat request ranks */
#define CYCLIC_MAX_SAMPLES	(1U << 20)

/*
 * Parse one log line: 0 and the sample's number and lateness, or -1 if it
 * is not a sample line of thread 0 (cyclictest's header and summary lines
 * are not).
 */
int cyclic_parse_line(const char *line, uint64_t *k, uint64_t *ns);

/* Samples the log at @path holds (the last sample line's number + 1). */
uint64_t cyclic_count(const char *path);

/*
 * Append sampler's answer to "tlat <from> <to>" (@args) over the log @f
 * (NULL: no probe) to @sb, one line without newline:
 *   tlat <from> <to> n=N p50_us=X p90_us=X p99_us=X p999_us=X max_us=X
 *        overruns=N head_overruns=N tail_overruns=N|-
 *                                              (latstats.h rules, formats;
 *                                               - while sample to is not
 *                                               in the log)
 * or
 *   err tlat range invalid: ...                (not two sample numbers)
 *   err tlat range <from> <to> empty|invalid|too long|beyond count N
 *   err tlat no probe (sampler -C, cyclic start)
 */
void cyclic_reply(FILE *f, unsigned int interval_us, const char *args,
		  struct strbuf *sb);

/*
 * Start @bin (searched in PATH) as the probe writing @log: its timer
 * thread SCHED_OTHER, its main thread SCHED_FIFO @main_prio (0: also
 * SCHED_OTHER), stderr inherited.  Returns the pid, or -1.
 */
pid_t cyclic_spawn(const char *bin, unsigned int interval_us,
		   const char *log, int main_prio);

/*
 * SIGINT @pid and reap it, waiting at most @timeout_ms (then SIGKILL).
 * Returns 0 if it exited with status 0, else -1 with @why set.
 */
int cyclic_stop(pid_t pid, unsigned int timeout_ms, char *why, size_t len);

#endif
