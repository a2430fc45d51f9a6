// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * misc (kernel/cgroup/misc.c): the same files in v1 and v2, one line per
 * resource the machine has a capacity for (AMD SEV ASIDs: "sev", "sev_es").
 * The capacities come from the cgroup2 root's misc.capacity; without the
 * controller there (or without such hardware) every file is empty and a
 * limit names a resource the machine lacks (EINVAL, as the kernel).
 */
#include "../knob.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

/* The machine's capacities ("sev 509\n"); none without the controller in cgroup2. */
static void capacity_text(struct cgx_ctx *ctx, struct strbuf *out)
{
	if (cgx_has_controller(ctx, "misc") &&
	    read_file_at(ctx->cgroup2_fd, "misc.capacity", out) < 0)
		cgx_log(CGX_LOG_WARNING, "cannot read misc.capacity of %s", ctx->cgroup2_path);
}

static int capacity_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	capacity_text(fc->ctx, out);
	return 0;
}

/* One "name VALUE" line per resource with a capacity, VALUE from @v2_file or @fallback. */
static int per_resource(const struct v1_file_ctx *fc, const char *v2_file, const char *suffix,
			const char *fallback, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf capacity = STRBUF_INIT, v2 = STRBUF_INIT;
	int r;

	capacity_text(fc->ctx, &capacity);
	if (!capacity.len)
		return 0;
	knob_read(fc->ctx, fc->dir, "misc", v2_file, &v2);
	for (const char *line = capacity.buf; *line;) {
		size_t len = strcspn(line, " \n");
		char key[64];
		const char *value;
		size_t value_len;

		snprintf(key, sizeof(key), "%.*s%s ", (int)len, line, suffix);
		/* The v2 file's line for the resource, else the default. */
		if (v2.len && (value = strstr(v2.buf, key)) &&
		    (value == v2.buf || value[-1] == '\n')) {
			value += strlen(key);
			value_len = strcspn(value, "\n");
			r = strbuf_addf(out, "%s%.*s\n", key, (int)value_len, value);
		} else {
			r = strbuf_addf(out, "%s%s\n", key, fallback);
		}
		if (r < 0)
			return r;
		line += strcspn(line, "\n");
		line += *line == '\n';
	}
	return 0;
}

static int current_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return per_resource(fc, "misc.current", "", "0", out);
}

static int max_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return per_resource(fc, "misc.max", "", "max", out);
}

static int events_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return per_resource(fc, "misc.events", ".max", "0", out);
}

/*
 * misc_cg_max_write(): strstrip, "NAME VALUE", NAME a resource with a
 * capacity (EINVAL otherwise), VALUE "max" or what kstrtoul takes.
 */
static int max_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	_cleanup_strbuf_ struct strbuf capacity = STRBUF_INIT;
	char *value = strstrip(buf), *name = strsep(&value, " "), line[128];
	unsigned long long limit;
	const char *found;
	int r;

	(void)len;
	if (!name || !value)
		return -EINVAL;
	if (strcmp(value, "max") && (r = kstrtoull(value, 0, &limit)) < 0)
		return r;
	capacity_text(fc->ctx, &capacity);
	snprintf(line, sizeof(line), "%s ", name);
	if (!capacity.len || !(found = strstr(capacity.buf, line)) ||
	    (found != capacity.buf && found[-1] != '\n'))
		return -EINVAL;
	snprintf(line, sizeof(line), "%s %s", name, value);
	return knob_set(fc, "misc", "misc.max", line, "");
}

static const struct v1_file misc_files[] = {
	{.name = "misc.capacity",
	 .mode = 0444,
	 .flags = V1F_ROOT_ONLY,
	 .read = capacity_read,
	 .v2 = V2_SAME("misc.capacity")},
	{.name = "misc.current",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = current_read,
	 .v2 = V2_SAME("misc.current")},
	{.name = "misc.events",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = events_read,
	 .v2 = V2_SAME("misc.events")},
	{.name = "misc.max",
	 .mode = 0644,
	 .flags = V1F_NOT_ROOT,
	 .read = max_read,
	 .write = max_write,
	 .v2 = V2_SAME("misc.max")},
};

const struct v1_controller v1_misc = {
	.name = "misc",
	.files = misc_files,
	.nr_files = ARRAY_SIZE(misc_files),
};
