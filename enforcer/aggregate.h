/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The aggregate layer: limits split over divergent leaves (aggregate.c). */
#ifndef CGX_AGGREGATE_H
#define CGX_AGGREGATE_H

#include "state.h"

/* aggregate.c: true for memory.max, pids.max, cpu.max, the limits a split may carry. */
bool aggregate_is_limit_file(const char *v2_file);
/*
 * The deepest group of @hier on @tuple's path whose @controller limit is
 * split over @leaf (a leaf outside its directory), NULL when none: the one
 * whose limit the leaf's part stands for.
 */
struct v2_dir *aggregate_limit_owner(const struct v2_dir *leaf, const struct tuple *tuple,
				     unsigned int hier, const char *controller);
/*
 * cgx_aggregate_rebalance() before a process enters @arriving: a leaf kept
 * empty for its charged pages gets a part for the process, not its idle
 * one (what it holds), so the process does not meet a limit of a page.
 */
int aggregate_rebalance_for(struct cgx_ctx *ctx, const struct v2_dir *arriving);
/* A leaf that some group of its tuple is not an ancestor of: limits may need splitting there. */
bool aggregate_leaf_divergent(const struct cgx_ctx *ctx, const struct v2_dir *leaf);
/* How one kind of limit is split. */
struct split_rule {
	/* Parts follow the recent usage rate (cpu), not the usage with headroom. */
	bool by_rate;
	unsigned long long unit; /* parts are multiples of this */
	/* The reserve each live part wants, while the limit has room for all of them. */
	unsigned long long floor;
	/*
	 * The least the kernel takes for a part (cpu.max's 1 ms): when the
	 * floors do not fit, the reserve drops to this, and only floors of
	 * this size can make the parts add up to more than the limit.
	 */
	unsigned long long least;
	/* The least an idle part holds: what an empty cgroup keeps of it. */
	unsigned long long idle_floor;
};

/*
 * Splits @limit into @nr @parts from each one's @demand by @rule: half of
 * it evenly (a reserve of at least the floor each, when those fit), the
 * other half by headroom on usage above the reserve (when it all fits; in
 * proportion when not) or by rate, in proportion to demand. Parts add up
 * to at most @limit unless parts of the kernel's least value alone pass
 * it. A part @idle (NULL: none) cannot grow: it gets what it holds (its
 * demand in whole units, for a rate nothing), at least the idle floor, and
 * the others share the rest of @limit.
 */
void aggregate_split(const struct split_rule *rule, const unsigned long long *demand,
		     const bool *idle, size_t nr, unsigned long long limit,
		     unsigned long long *parts);

#endif
