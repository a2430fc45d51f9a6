/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process that stands where a caller of mount(2) stands: in its pid, mount
 * and user namespaces, with its ids, groups and capabilities, its root and
 * cwd, and the descriptors its target names (/proc/self/fd/N). The target is
 * looked up there, and the view's hierarchy attached there, so that the
 * kernel's own path walk and may_mount() judge them as the caller's.
 */
#ifndef CGX_EXEC_MOUNT_HELPER_H
#define CGX_EXEC_MOUNT_HELPER_H

#include "caller.h"

struct mount_helper {
	pid_t pid;
	int pidfd; /* to kill it if its call is given up: a stopped helper must not hold a worker */
	int sock;
};

/* Starts the helper, which looks @target up as mount(2) would (following symlinks). */
int mount_helper_start(const struct caller *caller, const char *target,
		       struct mount_helper *helper);
/* 0 once the target was found, or the errno of the caller's lookup (ENOENT, EACCES...). */
int mount_helper_resolved(struct mount_helper *helper);
/* Attaches the detached mount @tree at the target: 0 or move_mount()'s -errno. */
int mount_helper_attach(struct mount_helper *helper, int tree);
/* Lets the helper go (it leaves on its own once its socket is closed, or dies with its parent). */
void mount_helper_release(struct mount_helper *helper);

#endif
