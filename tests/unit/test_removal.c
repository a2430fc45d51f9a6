// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a v1 group leaves behind in cgroup2 when it goes while its directory
 * stays (issue 15, items 1 and 2): on a stand-in mount whose v2 files are
 * plain files (fake_view.h), so every knob written can be read back. Runs as
 * root (trusted.* xattrs).
 */
#include "check.h"
#include "fake_view.h"
#include "group.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

static struct fake_view view;

static int drop(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", view.mount, FAKE_BASE, dir);
	return removexattr(path, name) < 0 ? -errno : 0;
}

static bool has_xattr(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", view.mount, FAKE_BASE, dir);
	return getxattr(path, name, NULL, 0) >= 0;
}

/* The first line of v2 file @file of @dir, "" when unreadable. */
static const char *v2(const char *dir, const char *file)
{
	static char line[256];
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s/%s", view.mount, FAKE_BASE, dir, file);
	line[0] = '\0';
	if ((f = fopen(path, "r"))) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	return line;
}

static int hier(const char *name)
{
	return hier_set_find(&view.ctx->hiers, name);
}

/* x carries memory, pids and cpu groups, each with a limit set as v1 wrote it. */
static int make_shared_dir(const char *dir)
{
	int r;

	if ((r = fake_dir_populate(&view, dir)) < 0)
		return r;
	dir += strlen(FAKE_BASE) + 1;
	if ((r = fake_xattr_set(&view, dir, "trusted.cgx.group/memory", "0 0 755 0 0")) < 0 ||
	    (r = fake_xattr_set(&view, dir, "trusted.cgx.val/memory/memory.limit_in_bytes",
				"16777216\n")) < 0 ||
	    (r = fake_xattr_set(&view, dir, "trusted.cgx.group/pids", "0 0 755 0 0")) < 0 ||
	    (r = fake_xattr_set(&view, dir, "trusted.cgx.val/pids/pids.max", "5\n")) < 0 ||
	    (r = fake_xattr_set(&view, dir, "trusted.cgx.group/cpu,cpuacct", "0 0 755 0 0")) < 0 ||
	    (r = fake_xattr_set(&view, dir, "trusted.cgx.val/cpu,cpuacct/cpu.shares", "512\n")) <
		    0 ||
	    (r = fake_file_set(&view, dir, "memory.max", "16777216\n")) < 0 ||
	    (r = fake_file_set(&view, dir, "pids.max", "5\n")) < 0)
		return r;
	return fake_file_set(&view, dir, "cpu.weight", "59\n");
}

static void rmdir_resets_what_the_group_set(void)
{
	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(make_shared_dir(FAKE_BASE "/x"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	CHECK_EQ_INT(cgx_group_rmdir(view.ctx, view.ctx->tree.base, hier("memory"), "x"), 0);
	CHECK_EQ_INT(cgx_group_rmdir(view.ctx, view.ctx->tree.base, hier("pids"), "x"), 0);
	CHECK(!strcmp(v2("x", "memory.max"), "max"));
	CHECK(!strcmp(v2("x", "pids.max"), "max"));
	CHECK(!strcmp(v2("x", "cpu.weight"), "59")); /* cpu's group stays */
	CHECK(!has_xattr("x", "trusted.cgx.val/memory/memory.limit_in_bytes"));
	fake_view_close(&view);
}

/* A daemon killed after the marker went finishes the removal at its start. */
static void cut_short_removal_is_finished(void)
{
	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(make_shared_dir(FAKE_BASE "/x"), 0);
	CHECK_EQ_INT(drop("x", "trusted.cgx.group/memory"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	CHECK(!strcmp(v2("x", "memory.max"), "max"));
	CHECK(!strcmp(v2("x", "pids.max"), "5"));
	CHECK(!has_xattr("x", "trusted.cgx.val/memory/memory.limit_in_bytes"));
	CHECK(has_xattr("x", "trusted.cgx.val/pids/pids.max"));
	fake_view_close(&view);
}

static void rename_away_resets_the_old_directory(void)
{
	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(make_shared_dir(FAKE_BASE "/x"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	CHECK_EQ_INT(cgx_group_rename(view.ctx, view.ctx->tree.base, hier("memory"), "x",
				      view.ctx->tree.base, "y"),
		     0);
	CHECK(!strcmp(v2("x", "memory.max"), "max"));
	CHECK(!strcmp(v2("x", "pids.max"), "5"));
	CHECK(!has_xattr("x", "trusted.cgx.val/memory/memory.limit_in_bytes"));
	CHECK(has_xattr("y", "trusted.cgx.val/memory/memory.limit_in_bytes"));
	fake_view_close(&view);
}

/* The base's throttling, set by the blkio root, goes with the hierarchy. */
static void hierarchy_removal_resets_the_base(void)
{
	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(fake_xattr_set(&view, "",
				    "trusted.cgx.val/blkio/blkio.throttle.read_bps_device",
				    "8:0 1000\n"),
		     0);
	CHECK_EQ_INT(
		fake_file_set(&view, "", "io.max", "8:0 rbps=1000 wbps=max riops=max wiops=max\n"),
		0);
	CHECK_EQ_INT(fake_file_set(&view, "", "memory.low", "123\n"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	CHECK_EQ_INT(cgx_hierarchy_remove(view.ctx, "blkio", &view.caller), 0);
	CHECK(!strcmp(v2("", "io.max"), "8:0 rbps=max wbps=max riops=max wiops=max"));
	CHECK_EQ_INT(cgx_hierarchy_remove(view.ctx, "memory", &view.caller), 0);
	CHECK(!strcmp(v2("", "memory.low"), "123")); /* the base's own, never cgx's */
	fake_view_close(&view);
}

/*
 * freezer/batch frozen with its tasks in its own directory, then a child
 * made: the directory turns inner and hands cgroup.freeze to batch/@tasks.
 */
static void inner_directory_is_thawed(void)
{
	struct v2_dir *batch, *sub;

	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(fake_dir_populate(&view, FAKE_BASE "/batch"), 0);
	CHECK_EQ_INT(fake_xattr_set(&view, "batch", "trusted.cgx.group/freezer", "0 0 755 0 0"), 0);
	CHECK_EQ_INT(
		fake_xattr_set(&view, "batch", "trusted.cgx.val/freezer/freezer.state", "FROZEN\n"),
		0);
	CHECK_EQ_INT(fake_xattr_set(&view, "batch", "trusted.cgx.tuple", "freezer:/batch\n"), 0);
	CHECK_EQ_INT(fake_file_set(&view, "batch", "cgroup.freeze", "1\n"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	batch = tree_child(&view.ctx->tree, view.ctx->tree.base, "batch");
	CHECK(batch && batch->leaf_tuple);
	CHECK_EQ_INT(
		cgx_group_mkdir(view.ctx, batch, hier("freezer"), "sub", &view.caller, 0755, &sub),
		0);
	CHECK(!strcmp(v2("batch", "cgroup.freeze"), "0"));
	CHECK(!has_xattr("batch", "trusted.cgx.tuple"));
	fake_view_close(&view);
}

int main(void)
{
	rmdir_resets_what_the_group_set();
	cut_short_removal_is_finished();
	rename_away_resets_the_old_directory();
	hierarchy_removal_resets_the_base();
	inner_directory_is_thawed();
	return check_summary("removal");
}
