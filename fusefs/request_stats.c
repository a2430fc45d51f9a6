// SPDX-License-Identifier: GPL-2.0-or-later
#include "request_stats.h"

#define REQUEST_OP_NAME(op, name) [REQUEST_##op] = name,
const char *const request_op_names[REQUEST_NR_OPS] = {REQUEST_OPS(REQUEST_OP_NAME)};
#undef REQUEST_OP_NAME

const long long request_bounds_ns[REQUEST_NR_BOUNDS] = REQUEST_BOUNDS_NS;

/* The daemon's: one FUSE session a process. */
static struct request_stats stats;

void request_stats_add(enum request_op op, long long ns)
{
	unsigned int b = 0;

	while (b < REQUEST_NR_BOUNDS && ns > request_bounds_ns[b])
		b++;
	__atomic_fetch_add(&stats.bucket[op][b], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&stats.sum_ns[op], (unsigned long long)ns, __ATOMIC_RELAXED);
}

void request_stats_read(struct request_stats *out)
{
	for (unsigned int op = 0; op < REQUEST_NR_OPS; op++) {
		for (unsigned int b = 0; b <= REQUEST_NR_BOUNDS; b++)
			out->bucket[op][b] =
				__atomic_load_n(&stats.bucket[op][b], __ATOMIC_RELAXED);
		out->sum_ns[op] = __atomic_load_n(&stats.sum_ns[op], __ATOMIC_RELAXED);
	}
}
