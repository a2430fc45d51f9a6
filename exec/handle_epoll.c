// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * epoll_ctl(EPOLL_CTL_ADD) of a mount table cgx-exec answered. The kernel's
 * /proc/PID/mountinfo and mounts signal EPOLLPRI at each change of their
 * mount namespace (mounts_poll()), and libmount's monitor, so systemd's
 * mount units, wait on them that way. The memfd handle_open() gave cannot
 * be polled: epoll refuses a regular file with EPERM, and systemd as PID 1
 * then left every mount job waiting. Here the caller's descriptor is
 * swapped for its real mount table, which polls as the kernel's does, and
 * the call goes on. A monitor only waits on it; what it reads it opens
 * again (systemd, libmount) and gets the v1 table.
 */
#include "handle.h"
#include "notif.h"
#include "proc_files.h"
#include "target.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/epoll.h>

int handle_epoll_ctl(struct call *call)
{
	pid_t tid = call->req.pid;
	int fd = (int)call->req.data.args[2];
	_cleanup_close_ int table = -1;
	enum proc_file file;
	char path[64];
	int cloexec;
	bool own;

	if (call->req.data.args[1] != EPOLL_CTL_ADD)
		return notif_continue(call);
	file = proc_file_of_fd(tid, fd, &own);
	if ((file != PROC_MOUNTINFO && file != PROC_MOUNTS) ||
	    (cloexec = target_fd_cloexec(tid, fd)) < 0)
		return notif_continue(call);
	/* The caller's own namespace: the table it opened was most likely its own. */
	snprintf(path, sizeof(path), "/proc/%d/%s", tid,
		 file == PROC_MOUNTS ? "mounts" : "mountinfo");
	if ((table = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return notif_continue(call);
	/* The descriptor was looked at in a process that may be gone and its pid reused. */
	if (!notif_valid(call))
		return -ENOENT;
	if (notif_set_fd(call, table, fd, cloexec) == -ENOENT)
		return -ENOENT;
	return notif_continue(call);
}
