// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the receiver's history (lab/tools/sinkstat.c): the
 * series a starved point is measured from, on histories written by hand
 * through sinkstat_stamp()'s layout.  TAP output, exit status 1 on
 * failure.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sinkstat.h"
#include "util.h"
#include "tap.h"

#define MS	1000000ULL

static struct sinkstat ss;

/* The receiver had read @packets by the end of slot @slot. */
static void read_in(uint64_t slot, uint64_t packets)
{
	ss.hist[slot % SINKSTAT_SLOTS].slot = slot + 1;
	ss.hist[slot % SINKSTAT_SLOTS].packets = packets;
}

static const char *series(const struct sinkstat *s, uint64_t now_slot,
			  uint64_t from, uint64_t to, uint64_t step,
			  uint64_t base)
{
	static char buf[8192];
	struct strbuf r = STRBUF_INIT(buf);

	buf[0] = '\0';
	sinkstat_series(s, now_slot, from, to, step, base, &r);
	return buf;
}

int main(void)
{
	const uint64_t t0 = 1000000 * MS;	/* slot 100000 */
	const uint64_t s0 = t0 / SINKSTAT_SLOT_NS;

	printf("TAP version 13\n");
	memset(&ss, 0, sizeof(ss));
	/* a burst at the start, nothing for 8 s, the drain after */
	read_in(s0 + 1, 2000);
	read_in(s0 + 30, 2390);
	read_in(s0 + 850, 2393);
	check(!strcmp(series(&ss, s0 + 1000, t0, t0 + 9000 * MS, 1000 * MS, 1500),
		      "sinkseries from_ns=1000000000000 step_ns=1000000000 "
		      "c=1500,2390,2390,2390,2390,2390,2390,2390,2390,2393"),
	      "sinkstat: a burst, a stall and a drain, step by step");
	check(!strcmp(series(&ss, s0 + 500, t0, t0 + 9000 * MS, 1000 * MS, 1500),
		      "sinkseries from_ns=1000000000000 step_ns=1000000000 "
		      "c=1500,2390,2390,2390,2390,2390"),
	      "sinkstat: the series stops at the last whole slot");
	check(!strcmp(series(&ss, s0 + 1000, t0 + 5 * MS, t0 + 25 * MS, 10 * MS, 7),
		      "sinkseries from_ns=1000005000000 step_ns=10000000 c=7,7,2000"),
	      "sinkstat: a slot counts once it has ended");
	/* a slot left from the ring's last round is not this round's */
	read_in(s0 + 2 - SINKSTAT_SLOTS, 99999);
	ss.hist[(s0 + 2) % SINKSTAT_SLOTS].slot = s0 + 3 - SINKSTAT_SLOTS;
	check(!strcmp(series(&ss, s0 + 1000, t0, t0 + 30 * MS, 10 * MS, 1500),
		      "sinkseries from_ns=1000000000000 step_ns=10000000 "
		      "c=1500,1500,2000,2000"),
	      "sinkstat: stale slots of the ring are skipped");
	check(!strncmp(series(&ss, s0 + SINKSTAT_SLOTS, t0, t0 + MS * 1000, 1000 * MS, 0),
		       "err sinkseries: from is older", 29),
	      "sinkstat: a window older than the history is refused");
	check(!strncmp(series(&ss, s0, t0, t0 + MS * 1000, 1000 * MS, 0),
		       "err sinkseries: from is not in the past", 39),
	      "sinkstat: a window not yet past is refused");
	check(!strncmp(series(&ss, s0 + 1000, t0, t0 + 1000 * MS, MS, 0),
		       "err sinkseries: needs", 21),
	      "sinkstat: a step below the slot is refused");
	check(!strncmp(series(&ss, s0 + 1000, t0, t0 + 10000 * MS, 10 * MS, 0),
		       "err sinkseries: needs", 21),
	      "sinkstat: more than SINKSTAT_SERIES_MAX steps are refused");
	check(!strncmp(series(NULL, s0 + 1000, t0, t0 + 1000 * MS, 1000 * MS, 0),
		       "err sinkseries: no receiver", 27),
	      "sinkstat: no receiver, no series");
	return tap_done();
}
