// SPDX-License-Identifier: GPL-2.0-or-later
#include "ns.h"

#include "util.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* systemd's flags for the tmpfs of a v1 host (mount-setup.c): nosuid,nodev,noexec,mode=755. */
#define ROOT_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)
/* The kernel's cgroup mounts of a v1 host: rw,nosuid,nodev,noexec,relatime. */
#define HIER_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RELATIME)

static bool is_mount_point(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) < 0)
		return false;
	return stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT &&
	       stx.stx_attributes & STATX_ATTR_MOUNT_ROOT;
}

/*
 * What the host has at /sys/fs/cgroup (a hybrid host's v1 hierarchies and
 * its cgroup2 mount) goes from this namespace only: the namespace is
 * private, so nothing propagates to the host's mounts.
 */
static int clear_cgroup_root(void)
{
	for (int i = 0; i < 16 && is_mount_point(CGROUP_ROOT); i++)
		if (umount2(CGROUP_ROOT, MNT_DETACH) < 0)
			return cgx_log_errno(-errno, "cannot detach %s in the new namespace",
					     CGROUP_ROOT);
	return 0;
}

static int bind_hierarchy(const struct view *view, const struct view_hier *hier)
{
	char source[PATH_MAX + 128], target[PATH_MAX];

	snprintf(source, sizeof(source), "%s/%s", view->path, hier->dir);
	snprintf(target, sizeof(target), CGROUP_ROOT "/%s", hier->dir);
	if (mkdir(target, 0555) < 0 && errno != EEXIST)
		return cgx_log_errno(-errno, "cannot make %s", target);
	if (mount(source, target, NULL, MS_BIND, NULL) < 0)
		return cgx_log_errno(-errno, "cannot bind %s at %s", source, target);
	if (mount(NULL, target, NULL, MS_BIND | MS_REMOUNT | HIER_FLAGS, NULL) < 0)
		return cgx_log_errno(-errno, "cannot set the flags of %s", target);
	return 0;
}

int ns_setup(const struct view *view)
{
	int r;

	/* A view inside /sys/fs/cgroup would go with what is cleared there. */
	if (!strncmp(view->path, CGROUP_ROOT "/", strlen(CGROUP_ROOT) + 1) ||
	    !strcmp(view->path, CGROUP_ROOT))
		return cgx_log_errno(-EINVAL, "the view %s lies in %s", view->path, CGROUP_ROOT);
	if (unshare(CLONE_NEWNS) < 0)
		return cgx_log_errno(-errno, "cannot unshare the mount namespace");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return cgx_log_errno(-errno, "cannot make the mounts private");
	if ((r = clear_cgroup_root()) < 0)
		return r;
	if (mount("tmpfs", CGROUP_ROOT, "tmpfs", ROOT_FLAGS, "mode=755") < 0)
		return cgx_log_errno(-errno, "cannot mount a tmpfs at %s", CGROUP_ROOT);
	for (unsigned int i = 0; i < view->nr; i++)
		if ((r = bind_hierarchy(view, &view->hier[i])) < 0)
			return r;
	for (unsigned int i = 0; i < view->nr_alias; i++) {
		char link[PATH_MAX];

		snprintf(link, sizeof(link), CGROUP_ROOT "/%s", view->alias[i].name);
		if (symlink(view->alias[i].target, link) < 0)
			return cgx_log_errno(-errno, "cannot link %s", link);
	}
	/* Read-only as systemd leaves it: a new hierarchy needs its own mount point elsewhere. */
	if (mount(NULL, CGROUP_ROOT, NULL, MS_REMOUNT | MS_RDONLY | ROOT_FLAGS, "mode=755") < 0)
		return cgx_log_errno(-errno, "cannot make %s read-only", CGROUP_ROOT);
	return 0;
}
