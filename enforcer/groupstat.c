// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics of a v1 group from cgroup2: every leaf that holds its
 * members counts, wherever the fold put it, also once that leaf is gone.
 *
 * A group's directory counts the leaves below it, and v2 keeps what a
 * removed child counted in its parent's totals. Members whose other groups
 * keep them out of the directory sit in leaves outside it
 * (tree_for_each_outside_leaf()): their readings are added, and before such
 * a leaf is removed, what it counted is folded into a record on each group
 * it counted for (stat_sum.h, written before the rmdir and void while the
 * leaf still exists, so that a daemon killed in between counts it once).
 *
 * What v1 counts on a group's own tasks only (oom_kill, pids.events) sums
 * the local counters of the directories holding them; the failures of a
 * limit, those of the directories the limit is set or split on.
 */
#include "groupstat.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

/* The counters a removed leaf leaves to its groups. */
struct carried_source {
	const char *v1_controller; /* the hierarchy whose groups count it */
	const char *v2_controller; /* NULL: a file every v2 directory has */
	const char *file;
	enum stat_scope scope;
	const char *const *keys; /* NULL: every key (gauges never are carried) */
};

static const char *const cpu_keys[] = {"usage_usec", "user_usec", "system_usec", NULL};
static const char *const memory_counters[] = {"pgfault", "pgmajfault", "workingset_refault_anon",
					      "workingset_refault_file", NULL};
static const char *const oom_keys[] = {"oom", "oom_kill", NULL};
static const char *const max_key[] = {"max", NULL};
static const char *const fail_key[] = {"fail", NULL};

static const struct carried_source sources[] = {
	{"cpuacct", NULL, "cpu.stat", STAT_HIERARCHICAL, cpu_keys},
	{"memory", "memory", "memory.stat", STAT_HIERARCHICAL, memory_counters},
	{"memory", "memory", "memory.peak", STAT_HIERARCHICAL, NULL},
	{"memory", "memory", "memory.events.local", STAT_OWN_TASKS, oom_keys},
	{"memory", "memory", "memory.events.local", STAT_OWN_LIMIT, max_key},
	{"memory", "memory", "memory.swap.events", STAT_HIERARCHICAL, fail_key},
	{"pids", "pids", "pids.events", STAT_OWN_TASKS, max_key},
	{"pids", "pids", "pids.peak", STAT_HIERARCHICAL, NULL},
	{"blkio", "io", "io.stat", STAT_HIERARCHICAL, NULL},
};

static int dir_read(struct cgx_ctx *ctx, struct v2_dir *dir, const char *controller,
		    const char *file, struct strbuf *text)
{
	if (controller)
		return knob_read(ctx, dir, controller, file, text);
	return cgx_dir_file_read(ctx, dir, file, text);
}

/* @file of @dir added to @sum; what cannot be read counts nothing. */
static int add_dir(struct cgx_ctx *ctx, struct v2_dir *dir, const char *controller,
		   const char *file, struct stat_sum *sum)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	if (dir_read(ctx, dir, controller, file, &text) < 0)
		return 0;
	return stat_sum_add_text(sum, 0, file, text.buf, NULL);
}

/*
 * The directories below @dir holding @group's own tasks, or that held them
 * as leaves: not below a child group of @hier, and, for a leaf, one whose
 * tuple names @group itself.
 */
static int add_own_region(struct cgx_ctx *ctx, struct v2_dir *group, struct v2_dir *dir,
			  unsigned int hier, const char *controller, const char *file,
			  struct stat_sum *sum)
{
	int r;

	v2_dir_for_each_child (child, dir) {
		if (child->group[hier])
			continue;
		if ((!child->leaf_tuple || child->leaf_tuple->coord[hier] == group) &&
		    (r = add_dir(ctx, child, controller, file, sum)) < 0)
			return r;
		if ((r = add_own_region(ctx, group, child, hier, controller, file, sum)) < 0)
			return r;
	}
	return 0;
}

/* @file of @dir added to @sum under a record's keys ("SCOPE FILE KEY"), only @source's keys. */
static int add_dir_scoped(struct cgx_ctx *ctx, struct v2_dir *dir,
			  const struct carried_source *source, struct stat_sum *sum)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	if (dir_read(ctx, dir, source->v2_controller, source->file, &text) < 0)
		return 0;
	return stat_sum_add_text(sum, (char)source->scope, source->file, text.buf, source->keys);
}

/*
 * add_own_region() for a record, the daemon's own leaves left out: they stay
 * where they are and fold themselves when retired (a directory of another
 * hierarchy's group is only forgotten as a leaf, and counts here).
 */
static int add_own_dirs(struct cgx_ctx *ctx, struct v2_dir *group, struct v2_dir *dir,
			unsigned int hier, const struct carried_source *source,
			struct stat_sum *sum)
{
	int r;

	v2_dir_for_each_child (child, dir) {
		if (child->group[hier])
			continue;
		if ((!child->leaf_tuple || (child->leaf_tuple->coord[hier] == group &&
					    !tree_is_cgx_leaf_name(child->name))) &&
		    (r = add_dir_scoped(ctx, child, source, sum)) < 0)
			return r;
		if ((r = add_own_dirs(ctx, group, child, hier, source, sum)) < 0)
			return r;
	}
	return 0;
}

/* The daemon's own leaves below @dir, added to @sum under a record's keys. */
static int add_cgx_leaves(struct cgx_ctx *ctx, struct v2_dir *dir,
			  const struct carried_source *source, struct stat_sum *sum)
{
	int r;

	v2_dir_for_each_child (child, dir) {
		if (child->leaf_tuple && tree_is_cgx_leaf_name(child->name) &&
		    (r = add_dir_scoped(ctx, child, source, sum)) < 0)
			return r;
		if ((r = add_cgx_leaves(ctx, child, source, sum)) < 0)
			return r;
	}
	return 0;
}

static int dir_ino(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned long long *ino)
{
	_cleanup_close_ int fd = cgx_dir_open(ctx, dir);
	struct stat st;

	/* Set on every path: an optimiser cannot know that -errno is never 0. */
	*ino = 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	*ino = st.st_ino;
	return 0;
}

/* The record of @group's in @hier, its last fold settled against the tree as it is. */
static int carried_load(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier, int fd,
			struct carry_record *rec)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	struct v2_dir *leaf;
	unsigned long long ino;
	int r;

	if ((r = state_carried_get(ctx, fd, hier, &text)) == -ENODATA)
		return 0;
	if (r < 0)
		return r;
	if ((r = carry_parse(text.buf, rec)) < 0)
		return cgx_log_errno(r, "the carried counters of %s are damaged",
				     group->parent ? group->name : "the root");
	/* A daemon killed between the fold and the rmdir: the leaf still counts for itself. */
	if (rec->last_path) {
		if ((leaf = tree_dir_at(&ctx->tree, rec->last_path)) &&
		    dir_ino(ctx, leaf, &ino) == 0 && ino == rec->last_ino)
			carry_undo_last(rec);
		else
			carry_keep_last(rec);
	}
	return 0;
}

static int add_carried(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		       const char *file, enum stat_scope scope, struct stat_sum *sum)
{
	_cleanup_carry_ struct carry_record rec = {0};
	_cleanup_close_ int fd = -1;
	int r;

	/* A record, not a statistic: read once, by the run that makes the content. */
	if (ctx->read_ahead && ctx->read_ahead->listing)
		return 0;
	if ((fd = cgx_dir_open(ctx, group)) < 0)
		return 0;
	if ((r = carried_load(ctx, group, hier, fd, &rec)) < 0)
		return 0; /* logged: what the leaves alive count still holds */
	if ((r = stat_sum_add_scope(sum, &rec.carried, (char)scope, file)) < 0)
		return r;
	stat_sum_sub_scope(sum, &rec.carried, (char)toupper(scope), file);
	return 0;
}

int group_stat_read(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		    const char *controller, const char *file, enum stat_scope scope,
		    struct stat_sum *sum)
{
	int r;

	if ((r = add_dir(ctx, group, controller, file, sum)) < 0)
		return r;
	if (scope == STAT_OWN_TASKS &&
	    (r = add_own_region(ctx, group, group, hier, controller, file, sum)) < 0)
		return r;
	tree_for_each_outside_leaf (leaf, &ctx->tree, group, hier) {
		if (scope == STAT_OWN_TASKS && leaf->leaf_tuple->coord[hier] != group)
			continue;
		if (scope == STAT_OWN_LIMIT &&
		    aggregate_limit_owner(leaf, leaf->leaf_tuple, hier, controller) != group)
			continue;
		if ((r = add_dir(ctx, leaf, controller, file, sum)) < 0)
			return r;
	}
	return add_carried(ctx, group, hier, file, scope, sum);
}

unsigned long long group_stat(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
			      const char *controller, const char *file, const char *key,
			      enum stat_scope scope)
{
	_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;

	if (group_stat_read(ctx, group, hier, controller, file, scope, &sum) < 0)
		return 0;
	return stat_sum_get(&sum, file, key);
}

static int group_dirs_add(struct cgx_ctx *ctx, struct v2_dir *dir, struct group_dirs *dirs)
{
	int *grown, fd;

	if ((fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	if (!(grown = realloc(dirs->fd, (dirs->nr + 1) * sizeof(*grown)))) {
		close(fd);
		return -ENOMEM;
	}
	dirs->fd = grown;
	dirs->fd[dirs->nr++] = fd;
	return 0;
}

int group_dirs_open(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		    struct group_dirs *dirs)
{
	int r;

	*dirs = (struct group_dirs){0};
	if ((r = group_dirs_add(ctx, group, dirs)) < 0)
		goto fail;
	tree_for_each_outside_leaf (leaf, &ctx->tree, group, hier)
		/* A leaf gone behind the daemon's back counts nothing, as in group_stat_read(). */
		if ((r = group_dirs_add(ctx, leaf, dirs)) < 0 && r != -ENOENT)
			goto fail;
	return 0;
fail:
	group_dirs_close(dirs);
	return r;
}

unsigned long long group_dirs_number(const struct group_dirs *dirs, const char *file)
{
	unsigned long long sum = 0;

	for (size_t i = 0; i < dirs->nr; i++) {
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

		if (read_file_at(dirs->fd[i], file, &text) == 0)
			sum += strtoull(text.buf, NULL, 10);
	}
	return sum;
}

void group_dirs_close(struct group_dirs *dirs)
{
	for (size_t i = 0; i < dirs->nr; i++)
		close(dirs->fd[i]);
	free(dirs->fd);
	*dirs = (struct group_dirs){0};
}

/* One group a removed leaf counted for, and what it hands over. */
struct carry_target {
	struct v2_dir *group;
	unsigned int hier;
	struct stat_sum add;
};

struct carry_targets {
	struct carry_target *t;
	size_t nr, cap;
};

static void carry_targets_release(struct carry_targets *targets)
{
	for (size_t i = 0; i < targets->nr; i++)
		stat_sum_release(&targets->t[i].add);
	free(targets->t);
}

static int target_of(struct carry_targets *targets, struct v2_dir *group, unsigned int hier,
		     struct carry_target **out)
{
	struct carry_target *grown;

	for (size_t i = 0; i < targets->nr; i++) {
		if (targets->t[i].group == group && targets->t[i].hier == hier) {
			*out = &targets->t[i];
			return 0;
		}
	}
	if (targets->nr == targets->cap) {
		size_t cap = targets->cap ? targets->cap * 2 : 8;

		if (!(grown = realloc(targets->t, cap * sizeof(*grown))))
			return -ENOMEM;
		targets->t = grown;
		targets->cap = cap;
	}
	*out = &targets->t[targets->nr++];
	**out = (struct carry_target){group, hier, STAT_SUM_INIT};
	return 0;
}

/* @leaf's reading @text of @source, handed to @group; NULL: only @group is noted. */
static int hand_over(struct cgx_ctx *ctx, struct carry_targets *targets,
		     const struct carried_source *source, struct v2_dir *group, unsigned int hier,
		     const char *text)
{
	_cleanup_stat_sum_ struct stat_sum peak = STAT_SUM_INIT;
	struct carry_target *target;
	char line[64];
	int r;

	if ((r = target_of(targets, group, hier, &target)) < 0 || !text)
		return r;
	if (!stat_file_is_peak(source->file))
		return stat_sum_add_text(&target->add, (char)source->scope, source->file, text,
					 source->keys);
	/* The group's mark as it stands, the leaf still counted: what it reached stays. */
	if ((r = group_stat_read(ctx, group, hier, source->v2_controller, source->file,
				 source->scope, &peak)) < 0)
		return r;
	snprintf(line, sizeof(line), "%llu\n", stat_sum_get(&peak, source->file, NULL));
	return stat_sum_add_text(&target->add, (char)source->scope, source->file, line, NULL);
}

/* The groups of @hier that @leaf (a leaf of @tuple) counts for in @source's scope. */
static int collect_source(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct tuple *tuple,
			  unsigned int hier, const struct carried_source *source,
			  struct carry_targets *targets, bool read)
{
	_cleanup_strbuf_ struct strbuf reading = STRBUF_INIT;
	struct v2_dir *coord = tuple->coord[hier], *owner;
	const char *text = NULL;
	int r;

	if (read) {
		if (dir_read(ctx, leaf, source->v2_controller, source->file, &reading) < 0)
			return 0;
		text = reading.buf;
	}
	switch (source->scope) {
	case STAT_HIERARCHICAL:
		/* Every group whose subtree it is in and whose directory it is not in. */
		for (struct v2_dir *g = coord; g->parent; g = fold_group_of(g->parent, hier))
			if (!tree_is_ancestor(g, leaf) &&
			    (r = hand_over(ctx, targets, source, g, hier, text)) < 0)
				return r;
		return 0;
	case STAT_OWN_TASKS:
		return coord->parent ? hand_over(ctx, targets, source, coord, hier, text) : 0;
	case STAT_OWN_LIMIT:
		owner = aggregate_limit_owner(leaf, tuple, hier, source->v2_controller);
		return owner ? hand_over(ctx, targets, source, owner, hier, text) : 0;
	}
	return 0;
}

static bool all_zero(const struct stat_sum *sum)
{
	for (size_t i = 0; i < sum->nr; i++)
		if (sum->v[i].value)
			return false;
	return true;
}

static int record_update(struct cgx_ctx *ctx, const struct carry_target *target,
			 unsigned long long ino, const char *path, bool undo)
{
	_cleanup_carry_ struct carry_record rec = {0};
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	_cleanup_close_ int fd = cgx_dir_open(ctx, target->group);
	int r;

	if (fd < 0)
		return fd;
	/* A damaged record is left as it is (logged): rewritten, it would lose what it still says.
	 */
	if ((r = carried_load(ctx, target->group, target->hier, fd, &rec)) < 0)
		return r;
	if (undo) {
		/* Settled above: the leaf is still there, so its fold is void already. */
		carry_keep_last(&rec);
	} else if ((r = carry_fold(&rec, &target->add, ino, path)) < 0) {
		return r;
	}
	if ((r = carry_format(&rec, &text)) < 0)
		return r;
	return state_carried_set(ctx, fd, target->hier, text.buf);
}

int group_stats_carry(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct tuple *tuple,
		      bool undo)
{
	struct carry_targets targets = {0};
	unsigned long long ino;
	char path[PATH_MAX];
	int r;

	if ((r = dir_ino(ctx, leaf, &ino)) < 0 ||
	    (r = tree_path(leaf, false, path, sizeof(path))) < 0)
		return r;
	for (size_t s = 0; s < ARRAY_SIZE(sources) && r == 0; s++) {
		if (sources[s].v2_controller && !cgx_has_controller(ctx, sources[s].v2_controller))
			continue;
		for (unsigned int h = 0; h < ctx->hiers.nr && r == 0; h++)
			if (hier_has_controller(&ctx->hiers.hier[h], sources[s].v1_controller))
				r = collect_source(ctx, leaf, tuple, h, &sources[s], &targets,
						   !undo);
	}
	for (size_t i = 0; i < targets.nr && r == 0; i++) {
		/* Nothing to hand over, nothing to write: most leaves count for none outside. */
		if (!undo && all_zero(&targets.t[i].add))
			continue;
		if ((r = record_update(ctx, &targets.t[i], ino, path, undo)) < 0)
			cgx_log_errno(r, "counters of leaf %s not carried to %s", leaf->name,
				      targets.t[i].group->name);
	}
	carry_targets_release(&targets);
	return r;
}

/*
 * What @dir counts in @source's scope for a group there (into @add), its
 * own region as group_stat_read() reads it: a group's directory below, of
 * this hierarchy or another, stays behind with its count (or is removed
 * without a fold), and counts here. Without @past, a rename's fold: the
 * daemon's own leaves below are left out, as they stay where they are,
 * count for the group from outside its new directory, and fold themselves
 * when retired. With @past, what the directory counted before the group
 * came, under the upper-case letter: a local count of the directory alone,
 * since the directories below it may yet become groups or go, and a
 * number only when it is one.
 */
static int dir_reading(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		       const struct carried_source *source, bool past, struct stat_sum *add)
{
	_cleanup_stat_sum_ struct stat_sum whole = STAT_SUM_INIT, leaves = STAT_SUM_INIT;
	int r;

	if ((r = add_dir_scoped(ctx, dir, source, &whole)) < 0)
		return r;
	switch (source->scope) {
	case STAT_HIERARCHICAL:
		/* cgroup2 counts a directory's subdirectories in it. */
		if (!past && (r = add_cgx_leaves(ctx, dir, source, &leaves)) < 0)
			return r;
		stat_sum_sub(&whole, &leaves);
		break;
	case STAT_OWN_TASKS:
		if (!past && (r = add_own_dirs(ctx, dir, dir, hier, source, &whole)) < 0)
			return r;
		break;
	case STAT_OWN_LIMIT:
		break;
	}
	for (size_t i = 0; i < whole.nr; i++) {
		if (past && !whole.v[i].value)
			continue;
		/* add_dir_scoped() wrote the scope's own letter; a past has the upper-case one. */
		if (past)
			whole.v[i].key[0] = (char)toupper(source->scope);
		if ((r = stat_sum_add(add, whole.v[i].key, whole.v[i].value, false)) < 0)
			return r;
	}
	return 0;
}

/* What the group at @from counted there, for a rename's fold (into @add). */
static int moving_reading(struct cgx_ctx *ctx, struct v2_dir *from, unsigned int hier,
			  const struct carried_source *source, struct stat_sum *add)
{
	_cleanup_stat_sum_ struct stat_sum peak = STAT_SUM_INIT;
	char line[64];
	int r;

	if (!stat_file_is_peak(source->file))
		return dir_reading(ctx, from, hier, source, false, add);
	/* A high-water mark: the group's own, leaves and all, for the larger one wins. */
	if ((r = group_stat_read(ctx, from, hier, source->v2_controller, source->file,
				 source->scope, &peak)) < 0)
		return r;
	snprintf(line, sizeof(line), "%llu\n", stat_sum_get(&peak, source->file, NULL));
	return stat_sum_add_text(add, (char)source->scope, source->file, line, NULL);
}

/*
 * What @dir counted before a group of @hier came to it, in every scope
 * (into @add, as a past): a high-water mark has none, it cannot be taken
 * away (max_usage_in_bytes has a reset point instead).
 */
static int past_reading(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			const struct carried_source *source, struct stat_sum *add)
{
	if (stat_file_is_peak(source->file))
		return 0;
	return dir_reading(ctx, dir, hier, source, true, add);
}

static bool source_counts(struct cgx_ctx *ctx, unsigned int hier,
			  const struct carried_source *source)
{
	return hier_has_controller(&ctx->hiers.hier[hier], source->v1_controller) &&
	       (!source->v2_controller || cgx_has_controller(ctx, source->v2_controller));
}

/* @add folded into the carried record of @group of @hier for good: it names no leaf. */
static int record_fold_final(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
			     const struct stat_sum *add)
{
	_cleanup_carry_ struct carry_record rec = {0};
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	_cleanup_close_ int fd = -1;
	int r;

	if (all_zero(add))
		return 0;
	if ((fd = cgx_dir_open(ctx, group)) < 0)
		return fd;
	if ((r = carried_load(ctx, group, hier, fd, &rec)) < 0 ||
	    (r = carry_fold(&rec, add, 0, "")) < 0)
		return r;
	carry_keep_last(&rec);
	if ((r = carry_format(&rec, &text)) < 0)
		return r;
	return state_carried_set(ctx, fd, hier, text.buf);
}

int group_stats_move(struct cgx_ctx *ctx, struct v2_dir *from, struct v2_dir *to, unsigned int hier)
{
	_cleanup_stat_sum_ struct stat_sum add = STAT_SUM_INIT;
	int r;

	for (size_t s = 0; s < ARRAY_SIZE(sources); s++)
		if (source_counts(ctx, hier, &sources[s]) &&
		    ((r = moving_reading(ctx, from, hier, &sources[s], &add)) < 0 ||
		     (r = past_reading(ctx, to, hier, &sources[s], &add)) < 0))
			return r;
	return record_fold_final(ctx, to, hier, &add);
}

int group_stats_start(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	_cleanup_stat_sum_ struct stat_sum add = STAT_SUM_INIT;
	_cleanup_close_ int fd = -1;
	int r;

	for (size_t s = 0; s < ARRAY_SIZE(sources); s++)
		if (source_counts(ctx, hier, &sources[s]) &&
		    (r = past_reading(ctx, group, hier, &sources[s], &add)) < 0)
			return r;
	/* A record some failed step left here is no count of this group's. */
	if ((fd = cgx_dir_open(ctx, group)) < 0)
		return fd;
	if ((r = state_carried_set(ctx, fd, hier, "")) < 0)
		return r;
	return record_fold_final(ctx, group, hier, &add);
}

bool group_stats_leaf_charged(struct cgx_ctx *ctx, const struct v2_dir *leaf)
{
	if (!cgx_has_controller(ctx, "memory"))
		return false;
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		struct v2_dir *coord = leaf->leaf_tuple->coord[h];
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

		if (!hier_has_controller(&ctx->hiers.hier[h], "memory") || !coord->parent ||
		    tree_is_ancestor(coord, leaf))
			continue;
		return knob_read(ctx, (struct v2_dir *)leaf, "memory", "memory.current", &text) ==
			       0 &&
		       strtoull(text.buf, NULL, 10) > 0;
	}
	return false;
}
