/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal test harness: each CHECK names the behaviour it asserts. */
#ifndef CGX_CHECK_H
#define CGX_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		check_count++;                                                                     \
		if (!(cond)) {                                                                     \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);         \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_INT(actual, expected)                                                             \
	do {                                                                                       \
		long long a__ = (actual), e__ = (expected);                                        \
		check_count++;                                                                     \
		if (a__ != e__) {                                                                  \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: FAILED: %s == %lld, expected %lld\n", __FILE__,    \
				__LINE__, #actual, a__, e__);                                      \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_STR(actual, expected)                                                             \
	do {                                                                                       \
		const char *a__ = (actual), *e__ = (expected);                                     \
		check_count++;                                                                     \
		if (!a__ || strcmp(a__, e__)) {                                                    \
			check_failures++;                                                          \
			fprintf(stderr, "%s:%d: FAILED: %s is \"%s\", expected \"%s\"\n",          \
				__FILE__, __LINE__, #actual, a__ ? a__ : "(null)", e__);           \
		}                                                                                  \
	} while (0)

static inline int check_summary(const char *suite)
{
	printf("%s: %d checks, %d failed\n", suite, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
