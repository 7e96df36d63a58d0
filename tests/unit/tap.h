/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the C unit tests: check() prints "ok N <what>" or
 * "not ok N <what>"; tap_done() prints the plan and the lab's closing
 * line and gives main()'s exit status (1 when anything failed).
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
	printf("%sok %d ", cond ? "" : "not ", test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	printf("1..%d\n", test_nr);
	printf("%d passed, %d failed\n", test_nr - test_failed, test_failed);
	return test_failed ? 1 : 0;
}

#endif
