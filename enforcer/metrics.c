// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's numbers cgxfs --metrics exports: a copy taken under the
 * lock, so that formatting and writing the file happen after it.
 */
#include "cgx.h"

#include <string.h>

static unsigned long long count_groups(struct v2_dir *dir, unsigned int h)
{
	struct v2_dir *child = NULL;
	unsigned long long nr = 0;

	while ((child = cgx_group_next_child(dir, h, child)))
		nr += 1 + count_groups(child, h);
	return nr;
}

void cgx_metrics_snapshot(struct cgx_ctx *ctx, struct cgx_metrics *out)
{
	const struct deprecation_log *log = &ctx->deprecations;

	memset(out, 0, sizeof(*out));
	out->nr_hiers = ctx->hiers.nr;
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		memcpy(out->hier_name[h], ctx->hiers.hier[h].proc_name, sizeof(out->hier_name[h]));
		out->groups[h] = count_groups(ctx->tree.base, h);
	}
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		out->leaves++;
	cgx_limits_count(ctx, &out->limits_exact, &out->limits_enforced);
	memcpy(out->deprecations, log->count, sizeof(out->deprecations));
	out->programs = log->programs;
	out->log_lost = log->lost;
	out->log_dropped = log->dropped;
	out->log_folded = log->folded;
	out->journal_lost = journal_queue_lost(&log->journal_queue);
}
