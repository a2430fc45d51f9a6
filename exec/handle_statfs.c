// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * statfs and fstatfs of anything on the view answer CGROUP_SUPER_MAGIC, as a
 * v1 hierarchy's superblock does; the rest (the tmpfs at /sys/fs/cgroup
 * among them) is the kernel's own answer.
 */
#include "caller.h"
#include "handle.h"
#include "notif.h"
#include "util.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

/*
 * The path of statfs() walked as the caller walks it: from its root and
 * cwd, with its ids and groups, so that a directory it may not search
 * stays closed (the kernel then gives it EACCES itself).
 */
static int open_path_as_caller(struct call *call, const char *path)
{
	_cleanup_(caller_close) struct caller caller;
	int fd = -1, r;

	if ((r = caller_open(call->req.pid, &caller)) < 0)
		return r;
	if ((r = caller_impersonate(&caller)) == 0) {
		fd = open(path, O_PATH | O_CLOEXEC);
		r = fd < 0 ? -errno : 0;
	}
	if (caller_revert() < 0)
		abort();
	return r < 0 ? r : fd;
}

/* What the call names, opened with O_PATH as the caller would reach it. */
static int open_subject(struct call *call)
{
	char path[PATH_MAX];
	int fd, r;

	if (call->req.data.nr == __NR_fstatfs) {
		char fd_link[64];

		/* The caller's own descriptor: no permission is asked of it. */
		snprintf(fd_link, sizeof(fd_link), "/proc/%d/fd/%d", call->req.pid,
			 (int)call->req.data.args[0]);
		call_block(call);
		fd = open(fd_link, O_PATH | O_CLOEXEC);
		r = fd < 0 ? -errno : fd;
	} else {
		if ((r = call_read_string(call, call->req.data.args[0], path, sizeof(path))) < 0)
			return r;
		call_block(call);
		r = open_path_as_caller(call, path);
	}
	if (call_unblock(call) < 0) {
		if (r >= 0)
			close(r);
		return -ECANCELED;
	}
	return r;
}

int handle_statfs(struct call *call)
{
	_cleanup_close_ int fd = -1;
	struct statfs answer;
	struct stat st;
	int r;

	if ((fd = open_subject(call)) == -ECANCELED)
		return fd;
	if (fd < 0)
		return notif_continue(call);
	/* A stat of a file on another FUSE file system may wait on its daemon. */
	call_block(call);
	r = fstat(fd, &st) < 0 ? -errno : 0;
	if (call_unblock(call) < 0)
		return -ECANCELED;
	if (r < 0 || st.st_dev != call->sup->view.dev)
		return notif_continue(call);
	if (!notif_valid(call))
		return -ENOENT;
	if (fstatfs(fd, &answer) < 0)
		return notif_continue(call);
	/* cgxfs answers simple_statfs()'s numbers; only the magic is FUSE's. */
	answer.f_type = CGROUP_SUPER_MAGIC;
	if ((r = call_write(call, call->req.data.args[1], &answer, sizeof(answer))) < 0)
		return r == -ECANCELED ? r : notif_return(call, -1, -EFAULT);
	return notif_return(call, 0, 0);
}
