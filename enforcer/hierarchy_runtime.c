// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hierarchies made and removed while mounted: `mkdir VIEW/none,name=jobs`
 * does what `mount -t cgroup -o none,name=jobs` did, `rmdir` what its last
 * umount did. A controller is bound to one hierarchy at a time.
 */
#include "group.h"

#include <stdio.h>
#include <string.h>

static void record(struct cgx_ctx *ctx, const struct cgx_caller *caller, unsigned int h,
		   const char *what)
{
	const char *name = ctx->hiers.hier[h].dir_name;
	char detail[512];

	snprintf(detail, sizeof(detail),
		 "hierarchy %s %s while mounted: cgroup2 has one hierarchy whose controllers "
		 "are enabled per subtree (cgroup.subtree_control)",
		 name, what);
	deprecation_record(ctx, &(struct deprecation_event){
					.kind = DEPRECATION_RUNTIME_HIERARCHY,
					.caller = caller,
					.hier = (int)h,
					.detail = detail,
				});
}

int cgx_hierarchy_add(struct cgx_ctx *ctx, const char *name, const struct cgx_caller *caller,
		      unsigned int *index)
{
	struct v1_group *root;
	unsigned int h = ctx->hiers.nr;
	int r;

	/* Mounting a cgroup hierarchy takes CAP_SYS_ADMIN. */
	if ((r = proc_is_init_ns_admin(caller->tid)) < 0)
		return r == -ESRCH ? -EPERM : r;
	if ((r = hier_set_add(&ctx->hiers, name)) < 0)
		return r;
	/* kernfs_create_root(): a hierarchy's root directory is 0555. */
	if (!(root = state_new_group(&ctx->hiers.hier[h], 0, 0, 0555))) {
		r = -ENOMEM;
		goto undo;
	}
	/* Its root's record keeps its inode number for a restarted daemon. */
	if ((r = state_new_id(ctx, &root->id)) < 0 ||
	    (r = state_save_group(ctx, ctx->base_fd, h, root)) < 0 ||
	    (r = tree_attach_group(&ctx->tree, ctx->tree.base, h, root)) < 0) {
		v1_group_free(root);
		state_drop_group(ctx, ctx->base_fd, h);
		goto undo;
	}
	ctx->tree.nr_hier = ctx->hiers.nr;
	/* Every process starts in the new hierarchy's root. */
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		leaf->leaf_tuple->coord[h] = ctx->tree.base;
	if ((r = state_save_hierarchies(ctx)) < 0) {
		tree_drop_group(&ctx->tree, ctx->tree.base, h);
		ctx->tree.nr_hier = h;
		goto undo;
	}
	record(ctx, caller, h, "made");
	*index = h;
	return 0;
undo:
	hier_set_remove(&ctx->hiers, h);
	return r;
}

/* Closes the gap hierarchy @h leaves in every directory's groups. */
static void shift_groups(struct v2_dir *dir, unsigned int h, unsigned int nr)
{
	for (unsigned int k = h; k + 1 < nr; k++) {
		dir->group[k] = dir->group[k + 1];
		dir->nr_group_children[k] = dir->nr_group_children[k + 1];
		if (dir->group[k])
			dir->group[k]->hier = k;
	}
	dir->group[nr - 1] = NULL;
	dir->nr_group_children[nr - 1] = 0;
	v2_dir_for_each_child (child, dir)
		shift_groups(child, h, nr);
}

int cgx_hierarchy_remove(struct cgx_ctx *ctx, const char *name, const struct cgx_caller *caller)
{
	unsigned int nr = ctx->hiers.nr, h;
	int r;

	if ((r = proc_is_init_ns_admin(caller->tid)) < 0)
		return r == -ESRCH ? -EPERM : r;
	for (h = 0; h < nr && strcmp(ctx->hiers.hier[h].dir_name, name); h++)
		;
	if (h == nr)
		return -ENOENT;
	/* Its groups would have nowhere to go: as rmdir of a group with children. */
	if (cgx_group_nr_children(ctx->tree.base, h))
		return -EBUSY;
	if (nr == 1)
		return -EBUSY;
	/* Said before it goes: the record names the hierarchy by its index. */
	record(ctx, caller, h, "removed");
	/* What its root group set on the base (blkio throttling) and on the leaves goes with it. */
	if ((r = leaves_reset_hierarchy(ctx, h)) < 0 ||
	    (r = group_forget(ctx, ctx->tree.base, h)) < 0)
		return r;
	tree_drop_group(&ctx->tree, ctx->tree.base, h);
	shift_groups(ctx->tree.base, h, nr);
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		struct tuple *tuple = leaf->leaf_tuple;

		memmove(&tuple->coord[h], &tuple->coord[h + 1],
			(nr - h - 1) * sizeof(tuple->coord[0]));
		tuple->coord[nr - 1] = NULL;
	}
	hier_set_remove(&ctx->hiers, h);
	ctx->tree.nr_hier = ctx->hiers.nr;
	if ((r = state_save_hierarchies(ctx)) < 0)
		cgx_log_errno(r, "hierarchy %s removed, but a restart would bring it back", name);
	return 0;
}
