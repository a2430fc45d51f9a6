// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The v2 tree changed behind the daemon's back: another tool removed a
 * directory of the base (the kernel lets it once the directory holds no
 * process and no child). The mirror must not go on pointing at it.
 *
 * A directory that carries v1 groups is made again from what the daemon
 * keeps of them (their records, their values): a v1 group lives until it is
 * removed through the view, and a restart must find it. It comes back empty,
 * as it went, so it is no leaf any more; the next process written to it makes
 * it one again with the leaf's settings. A directory of the daemon's own
 * ("@tasks", a divergent leaf) that only held processes is forgotten. Each
 * repair is logged.
 */
#include "group.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

static int dir_remake(struct cgx_ctx *ctx, int parent_fd, struct v2_dir *dir)
{
	_cleanup_close_ int fd = -1;
	unsigned int nr_groups = 0;
	char path[PATH_MAX];
	int r;

	if (tree_path(dir, true, path, sizeof(path)) < 0)
		snprintf(path, sizeof(path), "%s", dir->name);
	if (mkdirat(parent_fd, dir->name, 0755) < 0 && errno != EEXIST)
		return cgx_log_errno(-errno,
				     "v2 directory of %s removed behind cgxfs's back and "
				     "cannot be made again",
				     path);
	tree_dir_renew(&ctx->tree, dir); /* a new inode: the old watch went with the old one */
	if ((fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	if ((r = state_save_dir_name(fd, dir)) < 0)
		return cgx_log_errno(r, "cannot record the name of %s again", path);
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		if (!dir->group[h])
			continue;
		if ((r = state_save_group_all(ctx, fd, h, dir->group[h])) < 0)
			return cgx_log_errno(r, "cannot record group %s again", path);
		group_replay_values(ctx, dir, h);
		nr_groups++;
	}
	cgx_log(CGX_LOG_WARNING,
		"v2 directory of %s was removed behind cgxfs's back: made again for its %u "
		"group(s)",
		path, nr_groups);
	return 0;
}

static int reconcile_children(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, bool thorough);

/* @dir is gone from v2, and with it everything below it. */
static int repair(struct cgx_ctx *ctx, int parent_fd, struct v2_dir *dir)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (dir->leaf_tuple)
		tree_clear_leaf(&ctx->tree, dir);
	if (!dir_is_any_group(dir) && !dir->first_child) {
		cgx_log(CGX_LOG_WARNING, "leaf %s was removed behind cgxfs's back: forgotten",
			dir->name);
		tree_remove_dir(&ctx->tree, dir);
		return 0;
	}
	if ((r = dir_remake(ctx, parent_fd, dir)) < 0)
		return r;
	if ((fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	if ((r = reconcile_children(ctx, dir, fd, true)) < 0)
		return r;
	return dir_sync_controllers(ctx, dir);
}

/*
 * kernfs counts a directory's subdirectories in its st_nlink (2 + subdirs):
 * when that matches the mirror, no child is gone and only the children
 * that have children of their own need a look. A removal hidden by another
 * tool's mkdir beside it is left to a thorough pass.
 */
static bool children_all_there(struct v2_dir *dir, int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_nlink == 2 + (nlink_t)dir->nr_children;
}

static int reconcile_children(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, bool thorough)
{
	struct v2_dir *child = dir->first_child;
	bool check_each = thorough || !children_all_there(dir, fd);

	while (child) {
		/* repair() may free @child. */
		struct v2_dir *next = child->next_sibling;
		struct stat st;
		int r;

		if (!check_each || fstatat(fd, child->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			_cleanup_close_ int child_fd = -1;

			/* Unchecked by the count, a child may turn out gone only here. */
			if (!child->first_child)
				r = 0;
			else if ((child_fd = cgx_dir_open(ctx, child)) == -ENOENT)
				r = repair(ctx, fd, child);
			else if (child_fd < 0)
				r = child_fd;
			else
				r = reconcile_children(ctx, child, child_fd, thorough);
			if (r < 0)
				return r;
		} else if (errno != ENOENT) {
			return -errno;
		} else if ((r = repair(ctx, fd, child)) < 0) {
			return r;
		}
		child = next;
	}
	return 0;
}

int cgx_reconcile(struct cgx_ctx *ctx, bool thorough)
{
	thorough |= ctx->reconcile_wanted;
	ctx->reconcile_wanted = false;
	return reconcile_children(ctx, ctx->tree.base, ctx->base_fd, thorough);
}
