// SPDX-License-Identifier: GPL-2.0-or-later
/* pids (kernel/cgroup/pids.c): the same files in v1 and v2. */
#include "../internal.h"

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

/* The kernel's own counters when it has them; the defaults when the controller is bound elsewhere.
 */
static int v2_or_default(const struct v1_file_ctx *fc, const char *v2_file, const char *fallback,
			 struct strbuf *out)
{
	int r = knob_read(fc->ctx, fc->dir, "pids", v2_file, out);

	if (r == -EOPNOTSUPP || r == -ENOENT)
		return strbuf_add(out, fallback, strlen(fallback));
	return r;
}

static int events_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return v2_or_default(fc, "pids.events", "max 0\n", out);
}

static int peak_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return v2_or_default(fc, "pids.peak", "0\n", out);
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
