// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Setting a v2 knob on behalf of a v1 file: the v2 write first, then the
 * v1 value it stands for; if the value cannot be stored, the v2 knob gets
 * its old value back. Nothing is half-applied.
 */
#include "internal.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

bool cgx_has_controller(const struct cgx_ctx *ctx, const char *controller)
{
	size_t len = strlen(controller);

	for (const char *c = ctx->controllers; *c;) {
		size_t word = strcspn(c, " ");

		if (word == len && !strncmp(c, controller, len))
			return true;
		c += word;
		c += strspn(c, " ");
	}
	return false;
}

/*
 * A hybrid host binds the controller to v1, or the base's parent does not
 * delegate it: the v1 write is refused with EOPNOTSUPP and a line that says why.
 */
int knob_require(const struct v1_file_ctx *fc, const char *controller)
{
	const struct cgx_ctx *ctx = fc->ctx;
	const char *v1_file = ctx->hiers.hier[fc->hier].files[fc->file]->name;

	if (cgx_has_controller(ctx, controller))
		return 0;
	cgx_log(CGX_LOG_WARNING,
		"%s not applied: the %s controller is not available in cgroup2 at %s/%s "
		"(bound to v1 on this host, or not delegated to the base)",
		v1_file, controller, ctx->cgroup2_path, ctx->base_relpath);
	return -EOPNOTSUPP;
}

int knob_read(struct cgx_ctx *ctx, struct v2_dir *dir, const char *controller, const char *v2_file,
	      struct strbuf *out)
{
	_cleanup_close_ int fd = -1;

	if (!cgx_has_controller(ctx, controller))
		return -EOPNOTSUPP;
	if ((fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	return read_file_at(fd, v2_file, out);
}

int knob_set(const struct v1_file_ctx *fc, const char *controller, const char *v2_file,
	     const char *v2_value, const char *v1_text)
{
	_cleanup_strbuf_ struct strbuf old = STRBUF_INIT;
	_cleanup_close_ int fd = -1;
	int r;

	if ((r = knob_require(fc, controller)) < 0)
		return r;
	if ((fd = cgx_dir_open(fc->ctx, fc->dir)) < 0)
		return fd;
	if ((r = read_file_at(fd, v2_file, &old)) < 0)
		return cgx_log_errno(r, "cannot read %s of %s", v2_file, fc->dir->name);
	if ((r = write_file_at(fd, v2_file, v2_value, strlen(v2_value))) < 0)
		return r; /* the kernel's own answer, e.g. EBUSY or EINVAL */
	if ((r = cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, v1_text)) < 0) {
		write_file_at(fd, v2_file, old.buf, old.len);
		return r;
	}
	/* A limit split over other leaves is split again at once, never left whole on one. */
	if (aggregate_is_limit_file(v2_file) && (r = cgx_aggregate_rebalance(fc->ctx)) < 0)
		cgx_log_errno(r, "%s written, its split follows at the next rebalance", v2_file);
	return 0;
}

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

unsigned long long v2_stat_key(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, len) && line[len] == ' ')
			return strtoull(line + len + 1, NULL, 10);
	}
	return 0;
}

unsigned long long v2_stat_key_eq(const char *fields, const char *key)
{
	size_t len = strlen(key);

	for (const char *f = fields; f && *f; f = strchr(f, ' ')) {
		while (*f == ' ')
			f++;
		if (!strncmp(f, key, len) && f[len] == '=')
			return strtoull(f + len + 1, NULL, 10);
	}
	return 0;
}
