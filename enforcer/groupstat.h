/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The groupstat layer: a v1 group's statistics over every leaf of its members (groupstat.c). */
#ifndef CGX_GROUPSTAT_H
#define CGX_GROUPSTAT_H

#include "aggregate.h"

enum stat_scope {
	/* The group and its descendants (usage, cpuacct, io): its directory, the leaves outside. */
	STAT_HIERARCHICAL = 'h',
	/* v1's count of the group's own tasks (oom_kill, pids.events): the leaves naming it. */
	STAT_OWN_TASKS = 't',
	/* The failures of the group's own limit (failcnt): where the limit is set or split. */
	STAT_OWN_LIMIT = 'l',
};
/*
 * v2 file @file (of v2 controller @controller, NULL for a core file) summed
 * over what counts for group @group of @hier in @scope, with what removed
 * leaves carried: "FILE KEY" entries in @sum (stat_sum.h); what cannot be
 * read counts nothing.
 */
int group_stat_read(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		    const char *controller, const char *file, enum stat_scope scope,
		    struct stat_sum *sum);
/* One number of it: @key of a keyed file, the file itself when @key is NULL. */
unsigned long long group_stat(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
			      const char *controller, const char *file, const char *key,
			      enum stat_scope scope);
/*
 * The directories a STAT_HIERARCHICAL statistic of @group sums (its own and
 * its members' leaves outside it), opened under the model lock so that
 * they are read, or written, without it (cgx_kernel_begin()).
 */
struct group_dirs {
	int *fd;
	size_t nr;
};
int group_dirs_open(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		    struct group_dirs *dirs);
/* The number in @file summed over @dirs, with no lock held; what cannot be read counts 0. */
unsigned long long group_dirs_number(const struct group_dirs *dirs, const char *file);
void group_dirs_close(struct group_dirs *dirs);
#define _cleanup_group_dirs_ __attribute__((cleanup(group_dirs_close)))

/*
 * @leaf, a leaf of @tuple, is about to be removed: what it counted for its
 * groups is folded into their records first. @undo: the removal failed, and
 * the fold is taken back.
 */
int group_stats_carry(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct tuple *tuple,
		      bool undo);
/*
 * A rename moved the group of @hier at @from to @to (cgx_group_rename()):
 * what it counted in @from goes into @to's record for good, where v1 keeps
 * counting on, and what @to had counted before it (another hierarchy's
 * group used it) is its past. Called with the group still at @from, after
 * its records were copied to @to; its leaves are left to fold themselves.
 */
int group_stats_move(struct cgx_ctx *ctx, struct v2_dir *from, struct v2_dir *to,
		     unsigned int hier);
/*
 * A group of @hier that starts at @group, a directory with a past (a new
 * one, or a renamed one whose counts could not come along): what the
 * directory counted so far becomes its whole record, as its past, so that
 * the group starts at 0 (css_alloc).
 */
int group_stats_start(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier);
/*
 * Whether @leaf lies outside its memory group's directory and still has
 * pages charged: removed, they would count for another directory than the
 * group's (v1 keeps them charged to the group).
 */
bool group_stats_leaf_charged(struct cgx_ctx *ctx, const struct v2_dir *leaf);

#endif
