// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A restart on state that a crash or another program corrupted: the view
 * opens or fails with an errno, and what it serves never trusts a stored
 * value beyond what the write that stores it would have taken. Each case is
 * one the fuzzers (tests/fuzz) found. Runs as root (trusted.* xattrs).
 */
#include "check.h"
#include "fake_view.h"

#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

/* Each case makes a stand-in mount of its own. */
static struct fake_view view;

static int put(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", view.mount, FAKE_BASE, dir);
	return setxattr(path, name, value, strlen(value), 0) < 0 ? -errno : 0;
}

static ssize_t write_named(struct v2_dir *dir, const char *hier_name, const char *file,
			   const char *text)
{
	struct cgx_ctx *ctx = view.ctx;
	int h = hier_set_find(&ctx->hiers, hier_name);
	int f = h < 0 ? -ENOENT : v1_file_find(&ctx->hiers.hier[h], file);

	if (f < 0)
		return f;
	return cgx_file_write(ctx, dir, h, f, &view.caller, text, strlen(text));
}

/*
 * A stored cpu.cfs_period_us of 0 below the group written: cfs_ratio()
 * divided by it (SIGFPE) on a host whose cgroup2 has no cpu controller, where
 * no cpu.max write refuses the state first. It now reads as the default.
 */
static void cfs_period_zero(void)
{
	struct v2_dir *a;

	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(fake_set_controllers(&view, "memory pids\n"), 0);
	CHECK_EQ_INT(fake_dir_populate(&view, FAKE_BASE "/a"), 0);
	CHECK_EQ_INT(fake_dir_populate(&view, FAKE_BASE "/a/b"), 0);
	CHECK_EQ_INT(put("a", "trusted.cgx.group/cpu,cpuacct", "0 0 755 0 0"), 0);
	CHECK_EQ_INT(put("a/b", "trusted.cgx.group/cpu,cpuacct", "0 0 755 0 0"), 0);
	CHECK_EQ_INT(put("a/b", "trusted.cgx.val/cpu,cpuacct/cpu.cfs_period_us", "0"), 0);
	CHECK_EQ_INT(put("a/b", "trusted.cgx.val/cpu,cpuacct/cpu.cfs_quota_us", "5"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	CHECK((a = tree_child(&view.ctx->tree, view.ctx->tree.base, "a")) != NULL);
	/* Checked against the subtree, then refused: cgroup2 has no cpu controller here. */
	CHECK_EQ_INT(write_named(a, "cpu,cpuacct", "cpu.cfs_burst_us", "0"), -EOPNOTSUPP);
	CHECK_EQ_INT(write_named(a, "cpu,cpuacct", "cpu.cfs_quota_us", "50000"), -EOPNOTSUPP);
	fake_view_close(&view);
}

/*
 * A file attribute record whose mode has more than permission bits: the
 * type bits went into st_mode next to S_IFREG, and the file showed as a
 * socket (S_IFREG | S_IFDIR). Only permission bits are kept, as chmod keeps them.
 */
static void attr_type_bits(void)
{
	struct cgx_attr attr = {0};
	struct v2_dir *a;
	int h, f;

	CHECK_EQ_INT(fake_mount_create(&view), 0);
	CHECK_EQ_INT(fake_dir_populate(&view, FAKE_BASE "/a"), 0);
	CHECK_EQ_INT(put("a", "trusted.cgx.group/cpu,cpuacct", "0 0 40755 0 0"), 0);
	CHECK_EQ_INT(put("a", "trusted.cgx.attr/cpu,cpuacct/cpu.shares", "7 8 140644"), 0);
	CHECK_EQ_INT(fake_view_open(&view), 0);
	if (!view.ctx)
		return;
	a = tree_child(&view.ctx->tree, view.ctx->tree.base, "a");
	h = hier_set_find(&view.ctx->hiers, "cpu,cpuacct");
	f = h < 0 ? -1 : v1_file_find(&view.ctx->hiers.hier[h], "cpu.shares");
	CHECK(a && h >= 0 && f >= 0);
	if (a && h >= 0 && f >= 0) {
		CHECK_EQ_INT(cgx_group_getattr(view.ctx, a, h, f, &attr), 0);
		CHECK_EQ_INT(attr.mode, 0644);
		CHECK_EQ_INT(attr.uid, 7);
		CHECK_EQ_INT(cgx_group_getattr(view.ctx, a, h, -1, &attr), 0);
		CHECK_EQ_INT(attr.mode, 0755);
	}
	fake_view_close(&view);
}

int main(void)
{
	/* A corrupt value may convert into one cgroup2 refuses: EINVAL then, as the kernel says. */
	view.lenient = true;
	cgx_log_set_level(CGX_LOG_ERR);
	cfs_period_zero();
	attr_type_bits();
	return check_summary("corrupt_state");
}
