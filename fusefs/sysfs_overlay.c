// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysfs_overlay.h"

#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>

#define SYSFS_DIR "/sys/fs/"
/* Marks the tmpfs as ours, so that a restart after a crash may take it away. */
#define OVERLAY_MARK "trusted.cgxfs.overlay"

bool sysfs_overlay_needed(const char *mountpoint)
{
	struct stat st;

	return !strncmp(mountpoint, SYSFS_DIR, strlen(SYSFS_DIR)) &&
	       !strchr(mountpoint + strlen(SYSFS_DIR), '/') && stat(mountpoint, &st) < 0 &&
	       errno == ENOENT;
}

/* Puts a recursive clone of /sys/fs/@name at @dir/@name, a directory or file made for it. */
static int carry_entry(const char *dir, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];
	_cleanup_close_ int tree_fd = -1;
	struct stat st;

	snprintf(from, sizeof(from), SYSFS_DIR "%s", name);
	if (snprintf(to, sizeof(to), "%s/%s", dir, name) >= (int)sizeof(to))
		return -ENAMETOOLONG;
	if (lstat(from, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		if (mkdir(to, st.st_mode & 07777) < 0)
			return -errno;
	} else {
		_cleanup_close_ int file_fd =
			open(to, O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
		if (file_fd < 0)
			return -errno;
	}
	tree_fd = open_tree(AT_FDCWD, from, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (tree_fd < 0)
		return -errno;
	if (move_mount(tree_fd, "", AT_FDCWD, to, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return -errno;
	return 0;
}

/* The tmpfs at @dir with every entry of /sys/fs carried over and @mountpoint's directory. */
static int overlay_fill(const char *dir, const char *mountpoint)
{
	char compat[PATH_MAX];
	struct dirent *entry;
	DIR *listing;
	int r = 0;

	if (!(listing = opendir(SYSFS_DIR)))
		return cgx_log_errno(-errno, "cannot list " SYSFS_DIR);
	while (r == 0 && (entry = readdir(listing))) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if ((r = carry_entry(dir, entry->d_name)) < 0)
			cgx_log_errno(r, "cannot carry " SYSFS_DIR "%s over", entry->d_name);
	}
	closedir(listing);
	if (r < 0)
		return r;
	snprintf(compat, sizeof(compat), "%s/%s", dir, mountpoint + strlen(SYSFS_DIR));
	if (mkdir(compat, 0755) < 0)
		return cgx_log_errno(-errno, "cannot make %s", mountpoint);
	return 0;
}

/*
 * The tmpfs is built aside, then moved over /sys/fs in one step: nobody
 * sees half of it. Aside is a private tmpfs of our own under /run, not a
 * detached mount (fsmount()): the kernels of today's distributions (6.1
 * among them) refuse to move a mount into a tree outside the caller's
 * mount namespace, which a detached tree is. Private, so that the
 * overlay may be moved away from it (MS_MOVE refuses a mount whose parent
 * is shared), and the staging mount goes on every path.
 */
int sysfs_overlay_setup(const char *mountpoint)
{
	char staging[] = "/run/cgxfs-overlay.XXXXXX", overlay[sizeof(staging) + 3];
	int r;

	if (!mkdtemp(staging))
		return cgx_log_errno(-errno, "cannot make a directory under /run");
	snprintf(overlay, sizeof(overlay), "%s/fs", staging);
	if (mount("cgxfs-staging", staging, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0700") < 0) {
		r = cgx_log_errno(-errno, "cannot mount a tmpfs on %s", staging);
		goto out_rmdir;
	}
	if (mount(NULL, staging, NULL, MS_PRIVATE, NULL) < 0 || mkdir(overlay, 0755) < 0 ||
	    mount("tmpfs", overlay, "tmpfs", 0, "mode=0755") < 0) {
		r = cgx_log_errno(-errno, "cannot make the tmpfs for " SYSFS_DIR);
		goto out_umount;
	}
	if ((r = overlay_fill(overlay, mountpoint)) < 0)
		goto out_umount;
	if (mount(overlay, SYSFS_DIR, NULL, MS_MOVE, NULL) < 0) {
		r = cgx_log_errno(-errno, "cannot lay a tmpfs over " SYSFS_DIR);
		goto out_umount;
	}
	/* Marked once in place, where sysfs_overlay_teardown() looks. */
	if (setxattr(SYSFS_DIR, OVERLAY_MARK, "1", 1, 0) < 0) {
		r = cgx_log_errno(-errno, "cannot mark the tmpfs over " SYSFS_DIR);
		umount2(SYSFS_DIR, MNT_DETACH);
	}
out_umount:
	/* Empty once the overlay moved; else takes the half-built one and its clones along. */
	umount2(staging, MNT_DETACH);
out_rmdir:
	rmdir(staging);
	return r;
}

int sysfs_overlay_teardown(void)
{
	struct statfs st;

	if (statfs(SYSFS_DIR, &st) < 0)
		return -errno;
	/* Only our tmpfs is taken away: never the real sysfs below it. */
	if (st.f_type != TMPFS_MAGIC || getxattr(SYSFS_DIR, OVERLAY_MARK, NULL, 0) < 0)
		return 0;
	if (umount2(SYSFS_DIR, MNT_DETACH) < 0)
		return cgx_log_errno(-errno, "cannot take the tmpfs off " SYSFS_DIR);
	return 0;
}
