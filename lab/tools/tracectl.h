/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's traced windows (lab/exp/softirq), served by the sampler:
 * "trace on" clears the ring buffer and enables the softirq, scheduler,
 * irq and NAPI events (event tracing only: no function tracer), "trace
 * off" stops it, "trace dump <tag>" copies the ring buffer's pages
 * (per_cpu/cpu<N>/trace_pipe_raw, binary: formatting ~70,000 events as
 * text took the fixed-speed guest ~10 s a window) and the tracefs files
 * that decode them to the trace port (a second virtio-serial port, a file
 * on the host), in frames:
 *
 *   # lab-trace begin tag=<tag> format=raw
 *   # lab-trace file tag=<tag> name=events/header_page bytes=N   + N bytes
 *   # lab-trace file tag=<tag> name=events/<sys>/<event>/format bytes=N ...
 *   # lab-trace raw tag=<tag> cpu<N> bytes=N      + N bytes of whole pages
 *   # lab-trace file tag=<tag> name=saved_cmdlines bytes=N ...
 *   # lab-trace end tag=<tag> bytes=N overrun=N dropped=N
 *
 * (end's bytes: the pages'), and clears the buffer.  Events are stamped with CLOCK_MONOTONIC
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
/*
 * A read of trace_pipe_raw returns one sub-buffer at most (4 KiB unless
 * buffer_subbuf_size_kb says more, 6.8+); frames of up to TRACE_CHUNK.
 */
#define TRACE_PAGE_MAX	65536
#define TRACE_CHUNK	(1 << 20)

/* Each appends its one-line reply ("trace ..." or "err trace ...") to @r. */
void trace_on(struct strbuf *r);
void trace_off(struct strbuf *r);
void trace_dump(const char *port, const char *tag, struct strbuf *r);

#endif
