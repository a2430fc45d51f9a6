// SPDX-License-Identifier: GPL-2.0-or-later
#include "ns.h"

#include "util.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

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

/* A mount point as mountinfo escapes it (show_mountinfo(): space, tab, newline, backslash). */
static void unescape_octal(char *text)
{
	char *out = text;

	for (char *in = text; *in; in++) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
		    in[3] >= '0' && in[3] <= '7') {
			*out++ = (char)((in[1] - '0') << 6 | (in[2] - '0') << 3 | (in[3] - '0'));
			in += 3;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
}

/*
 * A v1 host has no cgroup2 mount: every one of this namespace goes, wherever
 * it is (/run/cg2 on some hosts, a container manager's own), or libcgroup
 * takes the host for a unified one and makes groups outside the view. The
 * supervisor and cgxfs keep theirs, in the namespace cgx-exec left.
 * Detached from the last line up: a mount listed later may sit on one
 * listed before, and goes along with it.
 */
static int detach_cgroup2_mounts(void)
{
	_cleanup_strbuf_ struct strbuf table = STRBUF_INIT;
	char *line, *end;
	int r;

	if ((r = read_file_at(AT_FDCWD, "/proc/self/mountinfo", &table)) < 0)
		return cgx_log_errno(r, "cannot read the mount table");
	for (end = table.buf + table.len; end > table.buf; end = line) {
		char *separator, mount_point[PATH_MAX];
		struct statfs sfs;

		if (end[-1] == '\n')
			end[-1] = '\0';
		for (line = end - 1; line > table.buf && line[-1] != '\n'; line--)
			;
		/* "ID PARENT MAJ:MIN ROOT MOUNT_POINT ... - FSTYPE SOURCE OPTIONS" */
		if (!(separator = strstr(line, " - ")) || strncmp(separator + 3, "cgroup2 ", 8) ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mount_point) != 1)
			continue;
		unescape_octal(mount_point);
		/*
		 * Only what the path reaches: a cgroup2 mount covered by another
		 * is out of reach already, and the cover may be the view itself.
		 */
		if (statfs(mount_point, &sfs) < 0 || sfs.f_type != CGROUP2_SUPER_MAGIC)
			continue;
		/* EINVAL: gone already with the mount it sat on. */
		if (umount2(mount_point, MNT_DETACH) < 0 && errno != EINVAL && errno != ENOENT)
			return cgx_log_errno(-errno, "cannot detach the cgroup2 mount %s",
					     mount_point);
	}
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
	if ((r = clear_cgroup_root()) < 0 || (r = detach_cgroup2_mounts()) < 0)
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
