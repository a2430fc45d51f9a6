/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /sys/fs is sysfs and refuses mkdir, so /sys/fs/cgroup-compat cannot simply
 * be made. The overlay is a tmpfs laid over /sys/fs that carries a bind of
 * every existing entry (cgroup, bpf, fuse...) plus the new directory.
 */
#ifndef CGXFS_SYSFS_OVERLAY_H
#define CGXFS_SYSFS_OVERLAY_H

#include <stdbool.h>

/* True when @mountpoint is a missing directory under /sys/fs. */
bool sysfs_overlay_needed(const char *mountpoint);
/* Lays the overlay and makes @mountpoint; 0 or -errno, nothing left on failure. */
int sysfs_overlay_setup(const char *mountpoint);
/* Takes the overlay away again, when /sys/fs is still the tmpfs laid. */
int sysfs_overlay_teardown(void);

#endif
