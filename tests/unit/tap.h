/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the C unit tests, in the dialect of every lab test
 * (tests/lib.sh): check() prints "ok - <what>" or "not ok - <what>",
 * tests/run numbers them; tap_done() prints the count as a comment and
 * gives main()'s exit status (1 when anything failed).
 */
#ifndef LAB_TAP_H
#define LAB_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int test_nr, test_failed;

static inline __attribute__((format(printf, 2, 3)))
void check(bool cond, const char *fmt, ...)
{
	va_list ap;

	test_nr++;
	if (!cond)
		test_failed++;
	printf("%sok - ", cond ? "" : "not ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	printf("# %d passed, %d failed\n", test_nr - test_failed, test_failed);
	return test_failed ? 1 : 0;
}

#endif
