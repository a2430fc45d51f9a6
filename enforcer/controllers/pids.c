// SPDX-License-Identifier: GPL-2.0-or-later
/* pids (kernel/cgroup/pids.c): the same files in v1 and v2. */
#include "../knob.h"

#include <stdio.h>
#include <string.h>

/* PID_MAX_LIMIT + 1: pids_max_write() takes 0 <= limit < this, or "max". */
#define PIDS_MAX (4 * 1024 * 1024 + 1)

static int max_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	char *text = strstrip(buf);
	char v2[32], v1[32];
	long long limit;
	int r;

	(void)len;
	if (!strcmp(text, "max"))
		return knob_set(fc, "pids", "pids.max", "max", "max\n");
	if ((r = kstrtoll(text, 0, &limit)) < 0)
		return r;
	if (limit < 0 || limit >= PIDS_MAX)
		return -EINVAL;
	snprintf(v2, sizeof(v2), "%lld", limit);
	snprintf(v1, sizeof(v1), "%lld\n", limit);
	return knob_set(fc, "pids", "pids.max", v2, v1);
}

/*
 * v1 counts the tasks of the group and its descendants: counted from the
 * leaves, it holds wherever they were folded, and without the v2 controller.
 */
static int current_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	unsigned long long count;
	int r = tasks_count_below(fc->ctx, fc->dir, fc->hier, &count);

	return r < 0 ? r : strbuf_addf(out, "%llu\n", count);
}

/*
 * A counter of the group's in v2, "@prefix%llu\n"; 0 when the pids
 * controller is bound elsewhere (or the kernel has no such file).
 */
static int counter_read(const struct v1_file_ctx *fc, struct strbuf *out, const char *prefix,
			const char *v2_file, const char *key, enum stat_scope scope)
{
	unsigned long long count = 0;

	if (cgx_has_controller(fc->ctx, "pids"))
		count = group_stat(fc->ctx, fc->dir, fc->hier, "pids", v2_file, key, scope);
	return strbuf_addf(out, "%s%llu\n", prefix, count);
}

/*
 * pids_can_fork() counts a refused fork on the forking task's own group
 * (before 6.12), whichever ancestor's limit refused it: the leaves that
 * hold the group's own tasks, inside its directory or not.
 */
static int events_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return counter_read(fc, out, "max ", "pids.events", "max", STAT_OWN_TASKS);
}

/* The high-water marks of the group's directory and of its leaves outside it, added. */
static int peak_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return counter_read(fc, out, "", "pids.peak", NULL, STAT_HIERARCHICAL);
}

static const struct v1_file pids_files[] = {
	{.name = "pids.current",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = current_read,
	 .v2 = V2_SAME("pids.current")},
	{.name = "pids.events",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = events_read,
	 .v2 = V2_SAME("pids.events")},
	{.name = "pids.max",
	 .mode = 0644,
	 .flags = V1F_NOT_ROOT,
	 .default_value = "max\n",
	 .write = max_write,
	 .v2 = V2_SAME("pids.max")},
	{.name = "pids.peak",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = peak_read,
	 .v2 = V2_SAME("pids.peak")},
};

const struct v1_controller v1_pids = {
	.name = "pids",
	.files = pids_files,
	.nr_files = ARRAY_SIZE(pids_files),
};
