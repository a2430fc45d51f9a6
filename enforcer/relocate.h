/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The leaves layer: leaves and the processes in them (relocate.c). */
#ifndef CGX_RELOCATE_H
#define CGX_RELOCATE_H

#include "groupstat.h"

/* The leaf of @tuple as the fold places it now, made when missing. */
int leaf_get(struct cgx_ctx *ctx, const struct tuple *tuple, struct v2_dir **leaf);
/*
 * Retires @leaf when it holds no process (and removes it unless it is also a
 * group directory): 1 when retired, 0 when it still holds processes or,
 * with @keep_charged, pages charged to a memory group it lies outside of
 * (group_stats_leaf_charged()).
 */
int leaf_prune(struct cgx_ctx *ctx, struct v2_dir *leaf, bool keep_charged);
/*
 * What hierarchy @hier's controllers set on every leaf (a root's device
 * rules) goes back to cgroup2's defaults: the hierarchy is going away.
 */
int leaves_reset_hierarchy(struct cgx_ctx *ctx, unsigned int hier);
/* Moves every leaf whose place the fold now puts elsewhere (after mkdir, rmdir, rename). */
int relocate_leaves(struct cgx_ctx *ctx);
/* Removes the (empty) v2 directory @dir from the kernel and the mirror; on error it stays. */
int dir_remove(struct cgx_ctx *ctx, struct v2_dir *dir);
/* Enables the base's controllers in @dir when it is inner, disables them when not. */
/* The threads of every leaf whose group in @hier is @group or below it. */
int tasks_count_below(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		      unsigned long long *count);

#endif
