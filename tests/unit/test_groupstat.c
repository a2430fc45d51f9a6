// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics of a split group (issue 15, item 3) on a stand-in mount
 * (fake_view.h): memory:/sng shares its directory with pids:/sng, and a
 * member in memory:/sng alone sits in the leaf BASE/@memory=sng outside it.
 * What that leaf counts is the group's, while it lives and once it is gone.
 * Runs as root (trusted.* xattrs).
 */
#include "check.h"
#include "fake_view.h"
#include "group.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#define LEAF "@memory=sng"

static struct fake_view view;

/* What the v1 file @file of memory:/sng reads, up to its first newline. */
static const char *v1(const char *file)
{
	static char line[256];
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	struct cgx_ctx *ctx = view.ctx;
	int h = hier_set_find(&ctx->hiers, "memory");
	struct v2_dir *sng = tree_child(&ctx->tree, ctx->tree.base, "sng");
	int f = v1_file_find(&ctx->hiers.hier[h], file);

	line[0] = '\0';
	if (sng && f >= 0 && cgx_file_read(ctx, sng, h, f, &view.caller, &out) == 0)
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(out.buf, "\n"), out.buf);
	return line;
}

/* oom_kill's line of memory.oom_control. */
static const char *oom_kills(void)
{
	static char line[64];
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	struct cgx_ctx *ctx = view.ctx;
	int h = hier_set_find(&ctx->hiers, "memory");
	int f = v1_file_find(&ctx->hiers.hier[h], "memory.oom_control");
	const char *kill;

	line[0] = '\0';
	if (cgx_file_read(ctx, tree_child(&ctx->tree, ctx->tree.base, "sng"), h, f, &view.caller,
			  &out) == 0 &&
	    (kill = strstr(out.buf, "oom_kill ")))
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(kill, "\n"), kill);
	return line;
}

static int setup(void)
{
	int r;

	if ((r = fake_mount_create(&view)) < 0 ||
	    (r = fake_dir_populate(&view, FAKE_BASE "/sng")) < 0 ||
	    (r = fake_dir_populate(&view, FAKE_BASE "/" LEAF)) < 0 ||
	    (r = fake_xattr_set(&view, "sng", "trusted.cgx.group/memory", "0 0 755 0 0")) < 0 ||
	    (r = fake_xattr_set(&view, "sng", "trusted.cgx.group/pids", "0 0 755 0 0")) < 0 ||
	    (r = fake_xattr_set(&view, "sng", "trusted.cgx.val/memory/memory.limit_in_bytes",
				"16777216\n")) < 0 ||
	    (r = fake_xattr_set(&view, LEAF, "trusted.cgx.tuple", "memory:/sng\n")) < 0)
		return r;
	if ((r = fake_file_set(&view, "sng", "memory.events.local", "max 0\noom 0\noom_kill 0\n")) <
		    0 ||
	    (r = fake_file_set(&view, LEAF, "memory.events.local", "max 2\noom 1\noom_kill 1\n")) <
		    0 ||
	    (r = fake_file_set(&view, LEAF, "memory.peak", "12288\n")) < 0 ||
	    (r = fake_file_set(&view, LEAF, "memory.stat", "anon 4096\nfile 0\npgfault 30\n")) < 0)
		return r;
	return fake_view_open(&view);
}

/* rmdir of the leaf, which the stand-in's plain files would refuse: they go first. */
static int remove_leaf(struct v2_dir *leaf)
{
	char path[PATH_MAX];
	struct dirent *entry;
	DIR *listing;

	snprintf(path, sizeof(path), "%s/%s/%s", view.mount, FAKE_BASE, LEAF);
	if (!(listing = opendir(path)))
		return -errno;
	while ((entry = readdir(listing)))
		if (entry->d_type == DT_REG)
			unlinkat(dirfd(listing), entry->d_name, 0);
	closedir(listing);
	return dir_remove(view.ctx, leaf);
}

static void test_the_outside_leaf_counts_while_it_lives(void)
{
	CHECK(!strcmp(v1("memory.usage_in_bytes"), "8192")); /* 4096 in each directory */
	CHECK(!strcmp(v1("memory.max_usage_in_bytes"), "20480"));
	CHECK(!strcmp(v1("memory.failcnt"), "2")); /* the part of the limit on the leaf */
	CHECK(!strcmp(oom_kills(), "oom_kill 1"));
}

static void test_a_charged_outside_leaf_is_kept(struct v2_dir *leaf)
{
	CHECK_EQ_INT(leaf_prune(view.ctx, leaf, true), 0);
	CHECK(tree_child(&view.ctx->tree, view.ctx->tree.base, LEAF) == leaf && leaf->leaf_tuple);
}

static void test_what_a_removed_leaf_counted_stays(struct v2_dir *leaf)
{
	struct tuple tuple = *leaf->leaf_tuple;

	CHECK_EQ_INT(fake_file_set(&view, LEAF, "memory.current", "0\n"), 0);
	CHECK_EQ_INT(group_stats_carry(view.ctx, leaf, &tuple, false), 0);
	/* Killed before the rmdir: the leaf still counts once, for itself. */
	CHECK(!strcmp(oom_kills(), "oom_kill 1"));
	CHECK(!strcmp(v1("memory.failcnt"), "2"));
	CHECK_EQ_INT(remove_leaf(leaf), 0);
	CHECK(!tree_child(&view.ctx->tree, view.ctx->tree.base, LEAF));
	CHECK(!strcmp(oom_kills(), "oom_kill 1"));
	CHECK(!strcmp(v1("memory.failcnt"), "2"));
	CHECK(!strcmp(v1("memory.max_usage_in_bytes"), "20480"));
	CHECK(!strcmp(v1("memory.usage_in_bytes"), "4096")); /* a gauge is never carried */
	/* A restarted daemon reads the same. */
	fake_view_close(&view);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	CHECK(!strcmp(oom_kills(), "oom_kill 1"));
	CHECK(!strcmp(v1("memory.failcnt"), "2"));
}

int main(void)
{
	struct v2_dir *leaf;

	CHECK_EQ_INT(setup(), 0);
	if (!view.ctx)
		return check_summary("groupstat");
	leaf = tree_child(&view.ctx->tree, view.ctx->tree.base, LEAF);
	CHECK(leaf && leaf->leaf_tuple);
	if (leaf) {
		test_the_outside_leaf_counts_while_it_lives();
		test_a_charged_outside_leaf_is_kept(leaf);
		test_what_a_removed_leaf_counted_stays(leaf);
	}
	fake_view_close(&view);
	return check_summary("groupstat");
}
