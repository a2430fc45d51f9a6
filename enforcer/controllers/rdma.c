// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdma (kernel/cgroup/rdma.c): the same files in v1 and v2, per RDMA device
 * of /sys/class/infiniband. A machine without RDMA devices shows both files
 * empty, and every write names a device it does not have (ENODEV).
 */
#include "../knob.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#define RDMA_CLASS "/sys/class/infiniband"

static const char *const resource_names[] = {"hca_handle", "hca_object"};

/* The device's line in @lines ("dev hca_handle=1 hca_object=max"), or NULL. */
static const char *device_line(const char *lines, const char *device, size_t *len)
{
	size_t dev_len = strlen(device);

	for (const char *line = lines; line && *line;) {
		size_t line_len = strcspn(line, "\n");

		if (!strncmp(line, device, dev_len) && line[dev_len] == ' ') {
			*len = line_len;
			return line;
		}
		line += line_len + (line[line_len] == '\n');
	}
	return NULL;
}

/* rdmacg_resource_read() for the limits: "max" for S32_MAX. */
static int max_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const char *stored = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	_cleanup_closedir_ DIR *dir = opendir(RDMA_CLASS);
	struct dirent *entry;
	int r;

	while (dir && (entry = readdir(dir))) {
		const char *line;
		size_t len;

		if (entry->d_name[0] == '.')
			continue;
		if ((line = device_line(stored, entry->d_name, &len)))
			r = strbuf_addf(out, "%.*s\n", (int)len, line);
		else
			r = strbuf_addf(out, "%s hca_handle=max hca_object=max\n", entry->d_name);
		if (r < 0)
			return r;
	}
	return 0;
}

static int current_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf v2 = STRBUF_INIT;
	_cleanup_closedir_ DIR *dir = opendir(RDMA_CLASS);
	struct dirent *entry;
	int r;

	knob_read(fc->ctx, fc->dir, "rdma", "rdma.current", &v2);
	while (dir && (entry = readdir(dir))) {
		const char *line;
		size_t len;

		if (entry->d_name[0] == '.')
			continue;
		if ((line = device_line(v2.buf, entry->d_name, &len)))
			r = strbuf_addf(out, "%.*s\n", (int)len, line);
		else
			r = strbuf_addf(out, "%s hca_handle=0 hca_object=0\n", entry->d_name);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * parse_resource(): "name=value", the name one of the resources, the value
 * what match_int() takes (a leading number) and not negative, or any prefix
 * of "max" (the empty one included, as strncmp with the value's length).
 */
static int parse_resource(char *token, int *value)
{
	char *eq = strchr(token, '='), *end;
	long number;

	if (!eq)
		return -EINVAL;
	*eq = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(resource_names); i++) {
		if (strcmp(token, resource_names[i]))
			continue;
		number = strtol(eq + 1, &end, 0);
		if (end != eq + 1 && number >= INT_MIN && number <= INT_MAX) {
			if (number < 0)
				return -EINVAL;
			*value = (int)number;
			return (int)i;
		}
		if (!strncmp(eq + 1, "max", strlen(eq + 1))) {
			*value = INT_MAX;
			return (int)i;
		}
		return -EINVAL;
	}
	return -EINVAL;
}

static int format_limit(struct strbuf *out, const char *name, int value)
{
	if (value == INT_MAX)
		return strbuf_addf(out, " %s=max", name);
	return strbuf_addf(out, " %s=%d", name, value);
}

/* rdmacg_resource_set_max(): strstrip, the device, then the resources; ENODEV last. */
static int max_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	const char *stored = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	_cleanup_strbuf_ struct strbuf line = STRBUF_INIT, lines = STRBUF_INIT;
	int limits[ARRAY_SIZE(resource_names)] = {INT_MAX, INT_MAX};
	char *options = strstrip(buf), *device, *token, path[PATH_MAX];
	const char *old;
	size_t old_len;
	int r;

	(void)len;
	device = strsep(&options, " ");
	if ((old = device_line(stored, device, &old_len))) {
		char copy[256];

		snprintf(copy, sizeof(copy), "%.*s", (int)old_len, old);
		for (char *rest = copy, *t; (t = strsep(&rest, " "));) {
			int value, index = parse_resource(t, &value);

			if (index >= 0)
				limits[index] = value;
		}
	}
	while ((token = strsep(&options, " "))) {
		int value, index = parse_resource(token, &value);

		if (index < 0)
			return index;
		limits[index] = value;
	}
	snprintf(path, sizeof(path), RDMA_CLASS "/%s", device);
	if (!*device || strchr(device, '/') || access(path, F_OK) < 0)
		return -ENODEV;
	if ((r = strbuf_addf(&line, "%s", device)) < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(resource_names); i++)
		if ((r = format_limit(&line, resource_names[i], limits[i])) < 0)
			return r;
	/* The stored lines, with this device's replaced. */
	for (const char *l = stored ? stored : ""; *l;) {
		size_t l_len = strcspn(l, "\n");

		if (l != old && (r = strbuf_addf(&lines, "%.*s\n", (int)l_len, l)) < 0)
			return r;
		l += l_len + (l[l_len] == '\n');
	}
	if ((r = strbuf_addf(&lines, "%s\n", line.buf)) < 0)
		return r;
	return knob_set(fc, "rdma", "rdma.max", line.buf, lines.buf);
}

static const struct v1_file rdma_files[] = {
	{.name = "rdma.current",
	 .mode = 0444,
	 .flags = V1F_NOT_ROOT,
	 .read = current_read,
	 .v2 = V2_STATISTIC("rdma.current")},
	{.name = "rdma.max",
	 .mode = 0644,
	 .flags = V1F_NOT_ROOT,
	 .default_value = "",
	 .read = max_read,
	 .write = max_write,
	 .v2 = V2_SAME("rdma.max")},
};

const struct v1_controller v1_rdma = {
	.name = "rdma",
	.files = rdma_files,
	.nr_files = ARRAY_SIZE(rdma_files),
};
