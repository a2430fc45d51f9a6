/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGXFS_OPS_H
#define CGXFS_OPS_H

#include <fuse_lowlevel.h>

/* The low-level operations of the view; userdata is the struct cgx_ctx. */
extern const struct fuse_lowlevel_ops cgxfs_ops;

#endif
