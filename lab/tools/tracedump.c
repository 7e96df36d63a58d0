// SPDX-License-Identifier: GPL-2.0
/*
 * tracedump: the guest's ring buffer, as the sampler's "trace dump" sends
 * it to the trace port (tracectl.h: frames of raw pages and the tracefs
 * files that decode them), written to standard output instead.  For the
 * boot's traced window (lab/guest/init, lab_trace_boot), whose text and
 * raw pages the e2e test decodes both ways and compares.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracectl.h"
#include "util.h"

static void usage(void)
{
	printf("Usage: tracedump TAG\n"
	       "Writes the ring buffer's pages (consumed) and their formats to\n"
	       "standard output in the trace port's frames (tracectl.h); tracing\n"
	       "must be off.  Exit status: 0 written, 1 failure, 2 bad usage.\n");
	exit(0);
}

int main(int argc, char **argv)
{
	char buf[512];
	struct strbuf r = STRBUF_INIT(buf);

	tool_init();
	if (wants_help(argc, argv))
		usage();
	if (argc != 2 || !argv[1][0]) {
		fprintf(stderr, "tracedump: one tag (see --help)\n");
		return 2;
	}
	/* /dev/stdout: no such link in the initramfs's /dev */
	trace_dump("/proc/self/fd/1", argv[1], &r);
	fprintf(stderr, "tracedump: %s\n", buf);
	return strncmp(buf, "err ", 4) ? 0 : 1;
}
