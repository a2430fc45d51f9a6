// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Setting a v2 knob on behalf of a v1 file: the v2 write first, then the
 * v1 value it stands for; if the value cannot be stored, the v2 knob gets
 * its old value back. Nothing is half-applied.
 */
#include "knob.h"

#include <stdio.h>
#include <string.h>

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
	/* A limit split over other leaves is split again before the request ends. */
	if (aggregate_is_limit_file(v2_file))
		fc->ctx->rebalance_wanted = true;
	return 0;
}
