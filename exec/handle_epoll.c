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

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The real mount table a memfd of handle_open() stands for, NULL when @fd is none. */
static const char *answered_table(pid_t tid, int fd)
{
	char path[64], link[PATH_MAX];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", tid, fd);
	if ((len = readlink(path, link, sizeof(link) - 1)) < 0)
		return NULL;
	link[len] = '\0';
	if (!strcmp(link, "/memfd:" PROC_FILE_MEMFD_PREFIX "mountinfo (deleted)"))
		return "mountinfo";
	if (!strcmp(link, "/memfd:" PROC_FILE_MEMFD_PREFIX "mounts (deleted)"))
		return "mounts";
	return NULL;
}

/* Whether descriptor @fd of @tid is close-on-exec (the "flags:" of its fdinfo, in octal). */
static int fd_cloexec(pid_t tid, int fd)
{
	char path[64], text[256];
	_cleanup_close_ int info = -1;
	unsigned int flags;
	const char *line;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", tid, fd);
	if ((info = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if ((len = read(info, text, sizeof(text) - 1)) < 0)
		return -errno;
	text[len] = '\0';
	if (!(line = strstr(text, "flags:")) || sscanf(line, "flags: %o", &flags) != 1)
		return -EIO;
	return flags & O_CLOEXEC;
}

int handle_epoll_ctl(struct call *call)
{
	pid_t tid = call->req.pid;
	int fd = (int)call->req.data.args[2];
	_cleanup_close_ int table = -1;
	struct seccomp_notif_addfd addfd;
	const char *name;
	char path[64];
	int cloexec;

	if (call->req.data.args[1] != EPOLL_CTL_ADD || !(name = answered_table(tid, fd)) ||
	    (cloexec = fd_cloexec(tid, fd)) < 0)
		return notif_continue(call);
	/* The caller's own namespace: the table it opened was most likely its own. */
	snprintf(path, sizeof(path), "/proc/%d/%s", tid, name);
	if ((table = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return notif_continue(call);
	/* The descriptor was looked at in a process that may be gone and its pid reused. */
	if (!notif_valid(call))
		return -ENOENT;
	addfd = (struct seccomp_notif_addfd){
		.id = call->req.id,
		.flags = SECCOMP_ADDFD_FLAG_SETFD,
		.srcfd = table,
		.newfd = fd,
		.newfd_flags = cloexec ? O_CLOEXEC : 0,
	};
	if (ioctl(call->sup->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0)
		return errno == ENOENT ? -ENOENT : notif_continue(call);
	return notif_continue(call);
}
