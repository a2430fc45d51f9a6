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

/* Moves a recursive clone of /sys/fs/@name into the detached tmpfs @tmpfs_fd. */
static int carry_entry(int tmpfs_fd, const char *name)
{
	char path[PATH_MAX];
	_cleanup_close_ int tree_fd = -1;
	struct stat st;

	snprintf(path, sizeof(path), SYSFS_DIR "%s", name);
	if (lstat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		if (mkdirat(tmpfs_fd, name, st.st_mode & 07777) < 0)
			return -errno;
	} else {
		_cleanup_close_ int file_fd =
			openat(tmpfs_fd, name, O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
		if (file_fd < 0)
			return -errno;
	}
	tree_fd = open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (tree_fd < 0)
		return -errno;
	if (move_mount(tree_fd, "", tmpfs_fd, name, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return -errno;
	return 0;
}

int sysfs_overlay_setup(const char *mountpoint)
{
	_cleanup_close_ int fs_fd = -1, tmpfs_fd = -1;
	DIR *listing;
	struct dirent *entry;
	int r = 0;

	/* Built detached, then moved over /sys/fs in one step: nobody sees half of it. */
	if ((fs_fd = fsopen("tmpfs", FSOPEN_CLOEXEC)) < 0)
		return cgx_log_errno(-errno, "fsopen tmpfs");
	if (fsconfig(fs_fd, FSCONFIG_SET_STRING, "mode", "0755", 0) < 0 ||
	    fsconfig(fs_fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return cgx_log_errno(-errno, "configure tmpfs for /sys/fs");
	if ((tmpfs_fd = fsmount(fs_fd, FSMOUNT_CLOEXEC, 0)) < 0)
		return cgx_log_errno(-errno, "fsmount tmpfs");
	if (!(listing = opendir(SYSFS_DIR)))
		return cgx_log_errno(-errno, "cannot list " SYSFS_DIR);
	while (r == 0 && (entry = readdir(listing))) {
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if ((r = carry_entry(tmpfs_fd, entry->d_name)) < 0)
			cgx_log_errno(r, "cannot carry " SYSFS_DIR "%s over", entry->d_name);
	}
	closedir(listing);
	if (r < 0)
		return r; /* the detached tmpfs and its binds vanish with tmpfs_fd */
	if (mkdirat(tmpfs_fd, mountpoint + strlen(SYSFS_DIR), 0755) < 0)
		return cgx_log_errno(-errno, "cannot make %s", mountpoint);
	if (move_mount(tmpfs_fd, "", AT_FDCWD, SYSFS_DIR, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return cgx_log_errno(-errno, "cannot lay a tmpfs over " SYSFS_DIR);
	/* A mount fd takes no xattr: the mark goes on once the tmpfs is in place. */
	if (setxattr(SYSFS_DIR, OVERLAY_MARK, "1", 1, 0) < 0) {
		int r = cgx_log_errno(-errno, "cannot mark the tmpfs over " SYSFS_DIR);

		umount2(SYSFS_DIR, MNT_DETACH);
		return r;
	}
	return 0;
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
