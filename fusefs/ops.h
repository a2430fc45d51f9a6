/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGXFS_OPS_H
#define CGXFS_OPS_H

#include "open_files.h"

#include <fuse_lowlevel.h>

/* What the operations share: the session's userdata. */
struct cgxfs {
	struct cgx_ctx *ctx;
	struct open_files files; /* under the model lock */
};

/* The low-level operations of the view; userdata is a struct cgxfs. */
extern const struct fuse_lowlevel_ops cgxfs_ops;

#endif
