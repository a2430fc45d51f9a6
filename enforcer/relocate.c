// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Leaves: the v2 directories processes live in. The fold says where the
 * leaf of a tuple belongs; when the shape of a hierarchy changes (mkdir,
 * rmdir, rename), some leaves belong elsewhere and their processes follow.
 */
#include "relocate.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int dir_sync_controllers(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = {ctx, dir, -1};
	bool inner = !dir->parent || fold_dir_is_inner(dir);
	struct v2_dir *tasks;
	int r;

	if (!ctx->controllers[0])
		return 0;
	/*
	 * Controllers turned off end the csses of the tasks leaf below, and
	 * with them its counters (an OOM kill of the group's own task): they
	 * go to its groups first. The leaf moves up next (relocate_leaf()).
	 */
	if (!inner && (tasks = tree_child(&ctx->tree, dir, CGX_TASKS_LEAF)) && tasks->leaf_tuple)
		group_stats_carry(ctx, tasks, tasks->leaf_tuple, false);
	if ((ref.fd = cgx_dir_get(ctx, dir)) < 0)
		return ref.fd;
	r = v2_subtree_control(ref.fd, ctx->controllers, inner);
	/*
	 * EBUSY: the directory still holds processes (no internal processes
	 * with controllers on). Whoever drains it syncs it again afterwards.
	 */
	if (r < 0 && r != -EBUSY && inner)
		return cgx_log_errno(r, "cannot enable controllers in %s", dir->name);
	return 0;
}

/*
 * Removes @dir and frees it. An error means that @dir is still there, so
 * that a caller may name it and take back what it did for it: once it is
 * gone, what follows for the parent is the parent's failure, logged, never
 * the removal's (a caller reading @dir then would read freed memory).
 */
int dir_remove(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	struct v2_dir *parent = dir->parent;
	_cleanup_dir_ref_ struct cgx_dir_ref parent_ref = cgx_dir_ref(ctx, parent);
	int r;

	if (parent_ref.fd < 0)
		return parent_ref.fd;
	if (unlinkat(parent_ref.fd, dir->name, AT_REMOVEDIR) < 0)
		return -errno;
	tree_remove_dir(&ctx->tree, dir);
	/* The parent may have stopped being inner. */
	if ((r = dir_sync_controllers(ctx, parent)) < 0)
		cgx_log_errno(r, "controllers of %s not synced after a removal below it",
			      parent->name);
	return 0;
}

static bool leaf_in_place(const struct v2_dir *leaf, const struct fold_target *target)
{
	if (!target->leaf_name[0])
		return leaf == target->dir;
	if (leaf->parent != target->dir)
		return false;
	if (target->exact)
		return !strcmp(leaf->name, CGX_TASKS_LEAF);
	/* Any divergent leaf under the right parent: its name may carry a hash suffix. */
	return tree_is_cgx_leaf_name(leaf->name) && strcmp(leaf->name, CGX_TASKS_LEAF);
}

/* A new child under @parent: a parent that held processes itself must hand them down first. */
static int make_child_dir(struct cgx_ctx *ctx, struct v2_dir *parent, const char *name,
			  struct v2_dir **child)
{
	_cleanup_dir_ref_ struct cgx_dir_ref parent_ref = cgx_dir_ref(ctx, parent);
	bool made;
	int r;

	if (parent_ref.fd < 0)
		return parent_ref.fd;
	made = mkdirat(parent_ref.fd, name, 0755) == 0;
	if (!made && errno != EEXIST)
		return cgx_log_errno(-errno, "cannot create v2 directory %s under %s", name,
				     parent->name);
	if ((r = tree_add_dir(&ctx->tree, parent, name, child)) < 0) {
		unlinkat(parent_ref.fd, name, AT_REMOVEDIR);
		return r;
	}
	/* A cgroup just made is thawed, filters no device and classifies no packet. */
	if (made)
		(*child)->may_be_frozen = (*child)->may_filter_devices =
			(*child)->may_classify_packets = false;
	return 0;
}

/*
 * A new leaf takes the per-set settings of the groups its tuple names.
 * Under a directory that still holds processes itself, v2 keeps the
 * controllers off (no internal processes), so the leaf has no controller
 * files yet (ENOENT): its settings are applied again once the directory has
 * handed its processes down and passes the controllers on (relocate_leaf(),
 * leaf_get()). Until then its processes run with the parent's, which are
 * the ones they had.
 */
/* The settings of hierarchy @only's controllers, or of every hierarchy's when it is -1. */
static int leaf_settings(struct cgx_ctx *ctx, struct v2_dir *dir, bool reset, int only)
{
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		if (only >= 0 && h != (unsigned int)only)
			continue;
		v1_for_each_controller (controller, &ctx->hiers.hier[h]) {
			int (*fn)(struct cgx_ctx *, struct v2_dir *, unsigned int) =
				reset ? controller->reset_leaf : controller->apply_leaf;
			int r;

			if (fn && (r = fn(ctx, dir, h)) < 0 && r != -ENOENT)
				return cgx_log_errno(r, "cannot %s %s settings of leaf %s",
						     reset ? "reset" : "apply", controller->name,
						     dir->name);
		}
	}
	return 0;
}

static int leaf_apply_settings(struct cgx_ctx *ctx, struct v2_dir *leaf)
{
	return leaf_settings(ctx, leaf, false, -1);
}

/*
 * @dir, which stays, holds no process of its tuple any more: the settings
 * it had as a leaf go (a thawed group's directory that turned inner would
 * keep everything below it frozen). Before its tuple record goes, so that a
 * daemon killed in between finds it a leaf still and retires it again.
 */
static int leaf_forget(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	int r;

	if ((r = leaf_settings(ctx, dir, true, -1)) < 0)
		return r;
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, dir);

	if (ref.fd < 0)
		return ref.fd;
	if ((r = state_drop_tuple(ref.fd)) < 0)
		return cgx_log_errno(r, "cannot retire leaf %s", dir->name);
	return 0;
}

static int leaf_make(struct cgx_ctx *ctx, struct v2_dir *parent, const char *name,
		     const struct tuple *tuple, struct v2_dir **leaf)
{
	struct v2_dir *dir = name[0] ? tree_child(&ctx->tree, parent, name) : parent;
	int fd, r;

	/* A leaf a move emptied, not yet retired, goes now, as it would have then (tasks.c). */
	if (dir && dir->vacated && !tuple_equal(dir->leaf_tuple, tuple, ctx->tree.nr_hier)) {
		if ((r = leaf_prune(ctx, dir, true)) < 0)
			return r;
		if (r > 0)
			dir = name[0] ? tree_child(&ctx->tree, parent, name) : parent;
	}
	if (dir && dir->leaf_tuple) {
		if (!tuple_equal(dir->leaf_tuple, tuple, ctx->tree.nr_hier))
			return -EEXIST;
		*leaf = dir;
		return 0;
	}
	if (!dir && (r = make_child_dir(ctx, parent, name, &dir)) < 0)
		return r;
	if ((fd = cgx_dir_get(ctx, dir)) < 0)
		return fd;
	r = state_save_tuple(ctx, fd, tuple);
	cgx_dir_put(ctx, dir, fd);
	if (r < 0 || (r = tree_set_leaf(&ctx->tree, dir, tuple)) < 0) {
		_cleanup_close_ int parent_fd = cgx_dir_open(ctx, parent);

		if (dir != parent && !dir->first_child && parent_fd >= 0 &&
		    unlinkat(parent_fd, name, AT_REMOVEDIR) == 0)
			tree_remove_dir(&ctx->tree, dir);
		return cgx_log_errno(r, "cannot record leaf %s", name);
	}
	*leaf = dir;
	return leaf_apply_settings(ctx, dir);
}

static int relocate_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf);

/*
 * The leaf that holds @tuple already, where the fold wants it. Its name need
 * not be the one the fold would give it now: a divergent leaf keeps the
 * name it was made with when a group of its tuple is renamed.
 */
static struct v2_dir *leaf_of_tuple(struct cgx_ctx *ctx, const struct tuple *tuple,
				    const struct fold_target *target)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		if (tuple_equal(leaf->leaf_tuple, tuple, ctx->tree.nr_hier) &&
		    leaf_in_place(leaf, target))
			return leaf;
	return NULL;
}

int leaf_get(struct cgx_ctx *ctx, const struct tuple *tuple, struct v2_dir **leaf)
{
	struct fold_target target;
	bool parent_was_leaf;
	int r;

	if ((r = fold_tuple(&ctx->tree, &ctx->hiers, tuple, &target)) < 0)
		return r;
	if ((*leaf = leaf_of_tuple(ctx, tuple, &target)))
		return dir_sync_controllers(ctx, target.dir);
	parent_was_leaf = target.leaf_name[0] && target.dir->leaf_tuple &&
			  !tree_child(&ctx->tree, target.dir, target.leaf_name);
	r = leaf_make(ctx, target.dir, target.leaf_name, tuple, leaf);
	if (r == -EEXIST && !target.exact) {
		char hashed[64];

		r = fold_hashed_leaf_name(&ctx->tree, &ctx->hiers, tuple, hashed, sizeof(hashed));
		if (r == 0)
			r = leaf_make(ctx, target.dir, hashed, tuple, leaf);
	}
	if (r < 0)
		return r;
	/* The directory just became inner: its own processes move down to its tasks leaf. */
	if (parent_was_leaf && strcmp((*leaf)->name, CGX_TASKS_LEAF) &&
	    (r = relocate_leaf(ctx, target.dir)) < 0)
		return r;
	if ((r = dir_sync_controllers(ctx, target.dir)) < 0)
		return r;
	/* The controller files the new leaf lacked under a directory with processes. */
	return parent_was_leaf ? leaf_apply_settings(ctx, *leaf) : 0;
}

/*
 * Removes the emptied leaf @leaf of @tuple, one of the daemon's own
 * directories; what it counted for its groups is carried over first
 * (groupstat.c), and taken back if the rmdir fails.
 */
static int leaf_remove(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct tuple *tuple)
{
	/* A count that cannot be carried (logged) is lost, never a reason to keep the leaf. */
	bool carried = group_stats_carry(ctx, leaf, tuple, false) == 0;
	int r = dir_remove(ctx, leaf);

	if (r < 0 && carried)
		group_stats_carry(ctx, leaf, tuple, true);
	return r;
}

/* Forgets that @leaf is a leaf, and removes it when it is the daemon's own directory. */
static int leaf_retire(struct cgx_ctx *ctx, struct v2_dir *leaf)
{
	struct v2_dir *parent = leaf->parent;
	int r;

	if (tree_is_cgx_leaf_name(leaf->name) && !leaf->first_child && parent) {
		/* A process that raced in keeps it a leaf: its tuple still holds. */
		if ((r = leaf_remove(ctx, leaf, leaf->leaf_tuple)) < 0)
			return cgx_log_errno(r, "cannot remove leaf %s", leaf->name);
		return 0;
	}
	if ((r = leaf_forget(ctx, leaf)) < 0)
		return r;
	tree_clear_leaf(&ctx->tree, leaf);
	return 0;
}

int leaves_reset_hierarchy(struct cgx_ctx *ctx, unsigned int hier)
{
	int r;

	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		if ((r = leaf_settings(ctx, leaf, true, (int)hier)) < 0)
			return r;
	return 0;
}

int leaf_prune(struct cgx_ctx *ctx, struct v2_dir *leaf, bool keep_charged)
{
	int r = cgx_dir_is_empty(ctx, leaf);

	if (r <= 0)
		return r;
	/*
	 * v1 leaves an exited member's pages charged to its memory group; a
	 * leaf outside that group's directory that goes would hand them to its
	 * parent, outside the group. It stays, empty, its tuple's leaf still.
	 */
	if (keep_charged && group_stats_leaf_charged(ctx, leaf))
		return 0;
	if ((r = leaf_retire(ctx, leaf)) < 0)
		return r;
	return 1;
}

static int relocate_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf)
{
	struct tuple tuple = *leaf->leaf_tuple;
	_cleanup_close_ int from_fd = -1, to_fd = -1;
	struct v2_dir *target;
	int r;

	if ((r = cgx_dir_is_empty(ctx, leaf)) != 0)
		return r < 0 ? r : leaf_retire(ctx, leaf);
	if ((from_fd = cgx_dir_open(ctx, leaf)) < 0)
		return from_fd;
	/*
	 * Forgotten as a leaf first, so that leaf_get() does not take the
	 * directory for a parent that still holds processes (P -> P/@tasks).
	 * Its record on disk goes only once its processes are out: a daemon
	 * killed in between leaves them in a directory that still names their
	 * tuple, and the next one moves them on (two leaves of one tuple for a
	 * moment, which relocate_leaves() settles).
	 */
	tree_clear_leaf(&ctx->tree, leaf);
	if ((r = leaf_get(ctx, &tuple, &target)) < 0 || (to_fd = cgx_dir_open(ctx, target)) < 0 ||
	    /* Controllers go off in a directory that stopped being inner before processes enter. */
	    (r = dir_sync_controllers(ctx, target)) < 0 || (r = v2_drain(from_fd, to_fd)) < 0) {
		r = r < 0 ? r : to_fd;
		/* What stayed behind keeps its tuple: never counted as root for a failed move. */
		tree_set_leaf(&ctx->tree, leaf, &tuple);
		return cgx_log_errno(r, "cannot move the processes of %s", leaf->name);
	}
	if (tree_is_cgx_leaf_name(leaf->name) && !leaf->first_child) {
		if ((r = leaf_remove(ctx, leaf, &tuple)) == 0)
			return 0;
		cgx_log_errno(r, "emptied leaf %s stays", leaf->name);
	}
	if ((r = leaf_forget(ctx, leaf)) < 0)
		return r;
	/* A group directory that handed its processes down can now pass controllers on. */
	if ((r = dir_sync_controllers(ctx, leaf)) < 0)
		return r;
	/* ... and the leaf they went to gets the controller files it was made without. */
	return leaf_apply_settings(ctx, target);
}

int relocate_leaves(struct cgx_ctx *ctx)
{
	/*
	 * One misplaced leaf at a time: a move can make another leaf misplaced
	 * (a parent turning inner). Each round settles one leaf for good.
	 */
	for (unsigned int round = 0; round < 2 * ctx->tree.nr_dirs + 8; round++) {
		struct v2_dir *misplaced = NULL;
		int r;

		for (struct v2_dir *leaf = ctx->tree.leaves; leaf && !misplaced;
		     leaf = leaf->leaf_next) {
			struct fold_target target;

			if ((r = fold_tuple(&ctx->tree, &ctx->hiers, leaf->leaf_tuple, &target)) <
			    0)
				return r;
			if (!leaf_in_place(leaf, &target))
				misplaced = leaf;
		}
		/* Leaves in new places may now lie outside a limited group: split again. */
		if (!misplaced) {
			ctx->rebalance_wanted = true;
			return 0;
		}
		if ((r = relocate_leaf(ctx, misplaced)) < 0)
			return r;
	}
	return -ELOOP;
}

int tasks_count_below(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		      unsigned long long *count)
{
	*count = 0;
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		_cleanup_(pid_list_release) struct pid_list threads = {0};
		_cleanup_close_ int fd = -1;
		int r;

		if (!tree_is_ancestor(group, leaf->leaf_tuple->coord[hier]))
			continue;
		if ((fd = cgx_dir_open(ctx, leaf)) < 0)
			return fd;
		if ((r = v2_read_pids(fd, "cgroup.threads", &threads)) < 0)
			return r;
		*count += threads.nr;
	}
	return 0;
}
