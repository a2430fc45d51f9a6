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
#include <stdlib.h>
#include <string.h>
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
	dir_learn_ino(dir, fd);
	if ((r = state_save_dir_name(fd, dir)) < 0)
		return cgx_log_errno(r, "cannot record the name of %s again", path);
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		if (!dir->group[h])
			continue;
		if ((r = state_save_group_all(ctx, fd, h, dir->group[h])) < 0)
			return cgx_log_errno(r, "cannot record group %s again", path);
		group_replay_values(ctx, dir, h);
		/* What the removed directory counted went with it: counts start again here. */
		group_reset_counts(ctx, dir, h);
		nr_groups++;
	}
	cgx_log(CGX_LOG_WARNING,
		"v2 directory of %s was removed behind cgxfs's back: made again for its %u "
		"group(s)",
		path, nr_groups);
	return 0;
}

static int reconcile_children(struct cgx_ctx *ctx, struct v2_dir *dir, int fd);

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
	if ((r = reconcile_children(ctx, dir, fd)) < 0)
		return r;
	return dir_sync_controllers(ctx, dir);
}

/* Every directory below @dir that v2 no longer has is made again (or forgotten). */
static int reconcile_children(struct cgx_ctx *ctx, struct v2_dir *dir, int fd)
{
	struct v2_dir *child = dir->first_child;

	while (child) {
		/* repair() may free @child. */
		struct v2_dir *next = child->next_sibling;
		_cleanup_close_ int child_fd = -1;
		struct stat st;
		int r = 0;

		if (fstatat(fd, child->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			r = errno == ENOENT ? repair(ctx, fd, child) : -errno;
		else if (!child->first_child)
			r = 0;
		else if ((child_fd = cgx_dir_open(ctx, child)) == -ENOENT)
			r = repair(ctx, fd, child);
		else if (child_fd < 0)
			r = child_fd;
		else
			r = reconcile_children(ctx, child, child_fd);
		if (r < 0)
			return r;
		child = next;
	}
	return 0;
}

/*
 * The highest directory on the way from the base to @dir that v2 no longer
 * has is repaired, and its subtree with it: > 0 if one was, 0 if @dir and
 * its ancestors are all there.
 */
static int repair_highest_gone(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	_cleanup_close_ int parent_fd = -1;
	char path[PATH_MAX];
	struct stat st;
	int r;

	if (!dir->parent)
		return 0; /* the base: the daemon holds it open, and nobody removes it */
	if ((r = repair_highest_gone(ctx, dir->parent)) != 0)
		return r;
	if ((r = tree_path(dir, false, path, sizeof(path))) < 0)
		return r;
	if (fstatat(ctx->base_fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	if (errno != ENOENT)
		return -errno;
	if ((parent_fd = cgx_dir_open(ctx, dir->parent)) < 0)
		return parent_fd;
	r = repair(ctx, parent_fd, dir);
	return r < 0 ? r : 1;
}

/*
 * @dir's name holds another directory than the one the pass saw before:
 * another tool removed it and made one of the same name, with none of its
 * records. Repaired as a removal, once the lock confirms it.
 */
static int repair_replaced(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	_cleanup_close_ int parent_fd = cgx_dir_open(ctx, dir->parent);
	struct stat st;

	if (parent_fd < 0)
		return parent_fd == -ENOENT ? repair_highest_gone(ctx, dir) : parent_fd;
	if (fstatat(parent_fd, dir->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? repair(ctx, parent_fd, dir) : -errno;
	if (st.st_ino == dir->ino)
		return 0;
	return repair(ctx, parent_fd, dir);
}

/*
 * The pass runs in slices. Under the lock a slice takes the paths of the
 * next directories from the tree's cursor; without it, it asks v2 about
 * them (fstatat); with the lock taken again it repairs what went. A pass
 * over 100,000 directories is a third of a second of system calls, and no
 * request waits for it (issue 18).
 *
 * A quick pass looks at the directories that have children, and at the
 * children of one only when its count says one went: one fstatat per
 * inner directory. A thorough one looks at every directory, and finds a
 * removal that another tool's mkdir beside it hid from the count.
 */
#define SLICE_DIRS  128
#define SLICE_STEPS 8192 /* directories walked past in the mirror, per hold of the lock */

struct slice_dir {
	size_t path; /* offset in the pass's paths */
	/*
	 * 2 + the subdirectories the mirror had, for an inner directory of a
	 * quick pass (kernfs counts them in its st_nlink); else 0.
	 */
	nlink_t nlink;
	uint64_t serial, ino; /* the mirror's, when the slice was taken */
	uint64_t seen_ino;
	bool gone, count_differs, replaced;
};

struct pass {
	bool thorough;
	/* The serial of the directory whose children a quick pass checks each. */
	uint64_t counted_wrong;
	struct slice_dir dir[SLICE_DIRS];
	unsigned int nr;
	struct strbuf paths;
};

static int slice_fill(struct cgx_ctx *ctx, struct pass *pass)
{
	struct v2_tree *tree = &ctx->tree;
	char path[PATH_MAX];
	int r;

	pass->nr = 0;
	pass->paths.len = 0;
	for (unsigned int steps = 0; tree->cursor && pass->nr < SLICE_DIRS && steps < SLICE_STEPS;
	     steps++) {
		struct v2_dir *dir = tree->cursor;
		struct slice_dir *entry = &pass->dir[pass->nr];

		tree->cursor = tree_preorder_next(dir, true);
		if (!pass->thorough && !dir->first_child && dir->parent &&
		    dir->parent->serial != pass->counted_wrong)
			continue;
		if ((r = tree_path(dir, false, path, sizeof(path))) < 0)
			return r;
		*entry = (struct slice_dir){
			.path = pass->paths.len,
			.serial = dir->serial,
			.ino = dir->ino,
			.nlink = !pass->thorough && dir->first_child ? 2 + (nlink_t)dir->nr_children
								     : 0,
		};
		if ((r = strbuf_add(&pass->paths, path, strlen(path) + 1)) < 0)
			return r;
		pass->nr++;
	}
	return 0;
}

/* Without the lock: the model may change meanwhile, the paths are the pass's own. */
static bool slice_check(struct cgx_ctx *ctx, struct pass *pass)
{
	bool found = false;

	for (unsigned int i = 0; i < pass->nr; i++) {
		struct slice_dir *entry = &pass->dir[i];
		const char *path = pass->paths.buf + entry->path;
		struct stat st;

		if (fstatat(ctx->base_fd, *path ? path : ".", &st, AT_SYMLINK_NOFOLLOW) < 0)
			entry->gone = errno == ENOENT;
		else {
			entry->seen_ino = st.st_ino;
			entry->replaced = entry->ino && entry->ino != entry->seen_ino;
			entry->count_differs = entry->nlink && st.st_nlink != entry->nlink;
		}
		/* An inode not known yet is learnt with the lock taken back. */
		found |= entry->gone || entry->count_differs || entry->replaced || !entry->ino;
	}
	return found;
}

/* Does @dir's st_nlink still differ from the mirror's count, with the lock held? */
static bool count_still_differs(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	_cleanup_close_ int fd = cgx_dir_open(ctx, dir);
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && st.st_nlink != 2 + (nlink_t)dir->nr_children;
}

/*
 * With the lock again. What the check saw may be the daemon's own work in
 * between (a group made or removed through the view), so each finding is
 * checked again against the mirror as it is now.
 */
static void slice_apply(struct cgx_ctx *ctx, struct pass *pass)
{
	for (unsigned int i = 0; i < pass->nr; i++) {
		struct slice_dir *entry = &pass->dir[i];
		bool replaced;
		struct v2_dir *dir;
		int r;

		if (!(dir = tree_dir_at(&ctx->tree, pass->paths.buf + entry->path)))
			continue; /* removed through the view meanwhile */
		if (!entry->gone && !dir->ino && dir->serial == entry->serial)
			dir->ino = entry->seen_ino;
		replaced = entry->replaced && dir->parent && dir->serial == entry->serial;
		/*
		 * A repair may free @dir. What it cannot do is logged, and the
		 * pass goes on: one directory must not keep the others unchecked.
		 */
		if (replaced || entry->gone) {
			r = entry->gone ? repair_highest_gone(ctx, dir) : repair_replaced(ctx, dir);
			if (r < 0)
				cgx_log_errno(r, "cannot repair v2 directory %s",
					      pass->paths.buf + entry->path);
		} else if (entry->count_differs && dir->first_child &&
			   count_still_differs(ctx, dir)) {
			/*
			 * Back to its first child, each child now checked: what
			 * came after it in this slice is walked again.
			 */
			pass->counted_wrong = dir->serial;
			ctx->tree.cursor = dir->first_child;
			break;
		}
	}
}

int cgx_reconcile(struct cgx_ctx *ctx, bool due, bool thorough)
{
	_cleanup_free_ struct pass *pass = NULL;
	int r = 0;

	cgx_lock(ctx);
	if (!due && !ctx->reconcile_wanted)
		goto out;
	if (!(pass = calloc(1, sizeof(*pass)))) {
		r = -ENOMEM;
		goto out;
	}
	pass->thorough = thorough || ctx->reconcile_wanted;
	ctx->reconcile_wanted = false;
	ctx->tree.cursor = ctx->tree.base; /* its own count says whether a child of it went */
	while (ctx->tree.cursor) {
		bool found;

		if ((r = slice_fill(ctx, pass)) < 0)
			break;
		cgx_unlock(ctx);
		found = slice_check(ctx, pass);
		cgx_lock(ctx);
		if (found)
			slice_apply(ctx, pass);
	}
	ctx->tree.cursor = NULL;
out:
	if (pass)
		strbuf_release(&pass->paths);
	cgx_unlock(ctx);
	return r;
}
