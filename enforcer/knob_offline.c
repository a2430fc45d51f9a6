// SPDX-License-Identifier: GPL-2.0-or-later
/* css_offline(): the v2 knobs a group's rows set go back to cgroup2's defaults. */
#include "cgx.h"
#include "v2io.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/*
 * The knobs v1 rows set on a group's directory, as cgroup2 makes a new
 * directory: the whole file, or for a keyed file (one line per device or
 * resource) each line's key followed by @value.
 */
static const struct {
	const char *file; /* an fnmatch(3) pattern */
	const char *value;
	bool keyed;
} knob_defaults[] = {
	{"memory.max", "max", false},
	{"memory.swap.max", "max", false},
	{"memory.low", "0", false},
	{"pids.max", "max", false},
	{"cpu.max", "max 100000", false},
	{"cpu.max.burst", "0", false},
	{"cpu.weight", "100", false},
	{"cpu.idle", "0", false},
	{"hugetlb.*.max", "max", false},
	{"io.max", "rbps=max wbps=max riops=max wiops=max", true},
	{"rdma.max", "hca_handle=max hca_object=max", true},
	{"misc.max", "max", true},
};

static int knob_default(const char *v2_file)
{
	for (size_t i = 0; i < ARRAY_SIZE(knob_defaults); i++)
		if (!fnmatch(knob_defaults[i].file, v2_file, 0))
			return (int)i;
	return -ENOENT;
}

/* Whether the first @len bytes of @text are the line @line. */
static bool line_is(const char *text, size_t len, const char *line)
{
	return strlen(line) == len && !strncmp(text, line, len);
}

static int knob_reset(int fd, const char *v2_file, int which)
{
	_cleanup_strbuf_ struct strbuf current = STRBUF_INIT;
	const char *value = knob_defaults[which].value;
	int r;

	if ((r = read_file_at(fd, v2_file, &current)) < 0)
		return r;
	if (!knob_defaults[which].keyed)
		return line_is(current.buf, strcspn(current.buf, "\n"), value)
			       ? 0
			       : write_file_at(fd, v2_file, value, strlen(value));
	for (const char *line = current.buf; *line;) {
		size_t key_len = strcspn(line, " \n"), len = strcspn(line, "\n");
		char reset[512];
		int w = snprintf(reset, sizeof(reset), "%.*s %s", (int)key_len, line, value);

		/* Lines already at the default are left alone (rdma.max lists every device). */
		if (key_len && w > 0 && (size_t)w < sizeof(reset) && !line_is(line, len, reset) &&
		    (r = write_file_at(fd, v2_file, reset, w)) < 0)
			return r;
		line += len + (line[len] == '\n');
	}
	return 0;
}

void knob_offline(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	bool root = dir == ctx->tree.base;
	_cleanup_close_ int fd = -1;

	v1_for_each_controller (controller, h) {
		for (unsigned int i = 0; i < controller->nr_files; i++) {
			const struct v1_file *row = &controller->files[i];
			int which, r;

			if (!row->write || !row->v2.file || row->v2.kind == V1M_STATISTIC ||
			    row->v2.kind == V1M_RESET || !v1_file_present(row, root) ||
			    (root && !(row->flags & V1F_ROOT_KNOB)) ||
			    (which = knob_default(row->v2.file)) < 0)
				continue;
			if (fd < 0 && (fd = cgx_dir_open(ctx, dir)) < 0)
				return;
			/* ENOENT: the controller is off there; a css made later starts afresh. */
			if ((r = knob_reset(fd, row->v2.file, which)) < 0 && r != -ENOENT)
				cgx_log_errno(r, "%s of %s not reset after its %s group went",
					      row->v2.file, dir->name, h->dir_name);
		}
	}
}
