/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgxfs's FUSE operations, each timed into request_stats.h: the table a
 * daemon with --metrics serves with. Without it, cgxfs_ops serves, and a
 * request pays nothing for the metrics nobody reads.
 */
#ifndef CGXFS_TIMED_OPS_H
#define CGXFS_TIMED_OPS_H

#include <fuse_lowlevel.h>

extern const struct fuse_lowlevel_ops cgxfs_timed_ops;

#endif
