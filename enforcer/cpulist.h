/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU and node lists ("0-3,8,10-15:2/4") as the kernel's bitmap_parselist()
 * takes them and "%*pbl" prints them, for cpuset.cpus and cpuset.mems.
 */
#ifndef CGX_CPULIST_H
#define CGX_CPULIST_H

#include "util.h"

#include <stdbool.h>
#include <stdint.h>

/* NR_CPUS of Debian's kernels (MAXSMP), which also bounds MAX_NUMNODES (1024). */
#define CPULIST_MAX_BITS 8192

struct cpulist {
	uint64_t bits[CPULIST_MAX_BITS / 64];
};

/*
 * bitmap_parselist(@text, @nbits): regions separated by ',' or white space,
 * "N" for the last bit; -EINVAL for bad syntax, -EOVERFLOW for a number past
 * u32, -ERANGE for a bit at or past @nbits. An empty text is the empty list.
 */
int cpulist_parse(const char *text, unsigned int nbits, struct cpulist *list);
/* "0-3,8" and a newline; an empty list prints just the newline. */
int cpulist_format(const struct cpulist *list, struct strbuf *out);

bool cpulist_empty(const struct cpulist *list);
bool cpulist_subset(const struct cpulist *sub, const struct cpulist *of);
bool cpulist_intersects(const struct cpulist *a, const struct cpulist *b);
bool cpulist_equal(const struct cpulist *a, const struct cpulist *b);

#endif
