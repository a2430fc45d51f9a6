// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * freezer (kernel/cgroup/legacy_freezer.c) on cgroup2's cgroup.freeze.
 *
 * v1 freezes a group and all its descendants; a group reads FROZEN once
 * every task below it is frozen, FREEZING until then. In v2 each leaf whose
 * freezer group lies in a frozen subtree gets cgroup.freeze 1, and the
 * kernel's cgroup.events says when it is frozen. The v1 state a group was
 * set to is kept as its stored value, so a restart knows it.
 */
#include "../knob.h"

#include <string.h>

#define FROZEN_TEXT "FROZEN\n"

static bool self_freezing(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	const char *state = cgx_value_named(ctx, group, hier, "freezer.state");

	return state && !strcmp(state, FROZEN_TEXT);
}

/* Whether @group or one of its ancestors was set FROZEN; @skip_self for parent_freezing. */
static bool subtree_frozen(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
			   bool skip_self)
{
	for (struct v2_dir *g = skip_self ? group->parent : group; g && g->parent; g = g->parent)
		if (self_freezing(ctx, g, hier))
			return true;
	return false;
}

static int leaf_set_frozen(struct cgx_ctx *ctx, struct v2_dir *leaf, bool frozen)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = {ctx, leaf, -1};
	int r;

	/* Never frozen since the daemon made it or thawed it: nothing to write. */
	if (!frozen && !leaf->may_be_frozen)
		return 0;
	if ((ref.fd = cgx_dir_get(ctx, leaf)) < 0)
		return ref.fd;
	leaf->may_be_frozen = true;
	if ((r = write_file_at(ref.fd, "cgroup.freeze", frozen ? "1" : "0", 1)) < 0)
		return r;
	leaf->may_be_frozen = frozen;
	return 0;
}

static int freezer_apply_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier)
{
	bool frozen = subtree_frozen(ctx, leaf->leaf_tuple->coord[hier], hier, false);

	/* A new leaf starts thawed: only a frozen one needs a write. */
	return frozen ? leaf_set_frozen(ctx, leaf, true) : 0;
}

/* A directory that is no leaf holds nothing to freeze of its own: v2 freezes its subtree. */
static int freezer_reset_leaf(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	(void)hier;
	return leaf_set_frozen(ctx, dir, false);
}

/* Brings every leaf below @group in line with the v1 states on its path. */
static int sync_leaves(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		struct v2_dir *coord = leaf->leaf_tuple->coord[hier];
		int r;

		if (!tree_is_ancestor(group, coord))
			continue;
		if ((r = leaf_set_frozen(ctx, leaf, subtree_frozen(ctx, coord, hier, false))) < 0)
			return cgx_log_errno(r, "cannot set cgroup.freeze of %s", leaf->name);
	}
	return 0;
}

/* FROZEN when every leaf below says frozen in cgroup.events (an empty group at once). */
static bool leaves_frozen(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		_cleanup_strbuf_ struct strbuf events = STRBUF_INIT;
		_cleanup_close_ int fd = -1;

		if (!tree_is_ancestor(group, leaf->leaf_tuple->coord[hier]))
			continue;
		if ((fd = cgx_dir_open(ctx, leaf)) < 0 ||
		    read_file_at(fd, "cgroup.events", &events) < 0 ||
		    !strstr(events.buf, "frozen 1"))
			return false;
	}
	return true;
}

static int state_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const char *text = "THAWED\n";

	if (subtree_frozen(fc->ctx, fc->dir, fc->hier, false))
		text = leaves_frozen(fc->ctx, fc->dir, fc->hier) ? "FROZEN\n" : "FREEZING\n";
	return strbuf_add(out, text, strlen(text));
}

/* freezer_write(): strstrip, then exactly THAWED or FROZEN; FREEZING is not a request. */
static int state_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	_cleanup_free_ char *before = NULL;
	const char *old = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	char *state = strstrip(buf);
	int r;

	(void)len;
	if (strcmp(state, "THAWED") && strcmp(state, "FROZEN"))
		return -EINVAL;
	if (old && !(before = strdup(old)))
		return -ENOMEM;
	if ((r = cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file,
			       strcmp(state, "FROZEN") ? "THAWED\n" : FROZEN_TEXT)) < 0)
		return r;
	if ((r = sync_leaves(fc->ctx, fc->dir, fc->hier)) < 0) {
		/* Nothing half-applied: the old state goes back, on disk and on the leaves. */
		cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, before ? before : "THAWED\n");
		sync_leaves(fc->ctx, fc->dir, fc->hier);
		return r;
	}
	return 0;
}

static int self_freezing_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	bool self = self_freezing(fc->ctx, fc->dir, fc->hier);

	return strbuf_add(out, self ? "1\n" : "0\n", 2);
}

static int parent_freezing_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	bool parent = subtree_frozen(fc->ctx, fc->dir, fc->hier, true);

	return strbuf_add(out, parent ? "1\n" : "0\n", 2);
}

static int state_convert(const struct v1_values *values, const char *value, struct strbuf *out)
{
	(void)values;
	return strbuf_add(out, strncmp(value, "FROZEN", 6) ? "0" : "1", 1);
}

static const struct v1_file freezer_files[] = {
	{.name = "freezer.parent_freezing",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = parent_freezing_read,
	 .v2 = V2_STATISTIC("cgroup.events")},
	{.name = "freezer.self_freezing",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = self_freezing_read,
	 .v2 = V2_STATISTIC("cgroup.freeze")},
	{.name = "freezer.state",
	 .mode = 0644,
	 .flags = V1F_NOT_ROOT,
	 .default_value = "THAWED\n",
	 .read = state_read,
	 .write = state_write,
	 .v2 = V2_CONVERTED(
		 "cgroup.freeze", state_convert,
		 "FROZEN -> 1, THAWED -> 0; cgroup.events \"frozen\" tells FREEZING from FROZEN")},
};

const struct v1_controller v1_freezer = {
	.name = "freezer",
	.files = freezer_files,
	.nr_files = ARRAY_SIZE(freezer_files),
	.apply_leaf = freezer_apply_leaf,
	.reset_leaf = freezer_reset_leaf,
};
