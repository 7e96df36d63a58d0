/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's traced windows (lab/exp/softirq), served by the sampler:
 * "trace on" clears the ring buffer and enables the softirq, scheduler,
 * irq and NAPI events (event tracing only: no function tracer), "trace
 * off" stops it, "trace dump <tag>" copies tracefs's text to the trace
 * port (a second virtio-serial port, a file on the host) between
 *
 *   # lab-trace begin tag=<tag>
 *   # lab-trace end tag=<tag> bytes=N overrun=N dropped=N
 *
 * and clears the buffer.  Events are stamped with CLOCK_MONOTONIC
 * (trace_clock mono), the clock of the sampler's snapshots, so that a
 * window C..D selects them.  The ring buffer does not overwrite (options/
 * overwrite 0): a window too long for it loses its newest events, counted
 * as dropped, never its oldest silently.
 */
#ifndef LAB_TRACECTL_H
#define LAB_TRACECTL_H

#include "util.h"

/* per CPU; 2 possible CPUs in the guests of the softirq experiment */
#define TRACE_BUF_KB	8192

/* Each appends its one-line reply ("trace ..." or "err trace ...") to @r. */
void trace_on(struct strbuf *r);
void trace_off(struct strbuf *r);
void trace_dump(const char *port, const char *tag, struct strbuf *r);

#endif
