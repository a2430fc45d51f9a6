/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the split of aggregate limits keeps between rebalances (aggregate.c). */
#ifndef CGX_AGGREGATE_STATE_H
#define CGX_AGGREGATE_STATE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest a split may lag behind usage: the watcher rebalances this often. */
#define CGX_REBALANCE_INTERVAL_MS 1000

struct v2_dir;

/* What a directory's cpu.stat said at the last rebalance: a rate needs two readings. */
struct usage_sample {
	const struct v2_dir *dir; /* compared, never dereferenced: it may be gone */
	unsigned long long usage;
	unsigned long long rate;  /* growth of usage over the last interval */
	unsigned long long round; /* of the last reading; 0: none yet */
};

struct aggregate_state {
	struct usage_sample *samples;
	size_t nr_samples, cap_samples;
	unsigned long long round;
	/* Some limit was split at the last rebalance, and must be restored once exact. */
	bool enforcing;
	/* Every limit was looked at once since start-up (a split may predate the daemon). */
	bool checked;
};

void aggregate_state_release(struct aggregate_state *state);

#endif
