// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open, openat and openat2 of a /proc file that shows cgroups: answered with
 * a read-only memfd holding what a v1 host would print, put in the caller's
 * fd table with SECCOMP_IOCTL_NOTIF_ADDFD.
 */
#include "caller.h"
#include "cgroupns.h"
#include "handle.h"
#include "notif.h"
#include "proc_files.h"
#include "target.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

struct open_call {
	int dirfd;
	uint64_t path;
	uint64_t flags;
};

static int decode(struct call *call, struct open_call *open_call)
{
	const struct seccomp_notif *req = &call->req;

	switch (req->data.nr) {
#ifdef __NR_open
	case __NR_open:
		*open_call = (struct open_call){AT_FDCWD, req->data.args[0], req->data.args[1]};
		return 0;
#endif
	case __NR_openat:
		*open_call = (struct open_call){(int)req->data.args[0], req->data.args[1],
						req->data.args[2]};
		return 0;
	case __NR_openat2: {
		struct open_how how;
		int r;

		if (req->data.args[3] < sizeof(how))
			return -EFAULT;
		if ((r = call_read(call, req->data.args[2], &how, sizeof(how))) < 0)
			return r;
		*open_call =
			(struct open_call){(int)req->data.args[0], req->data.args[1], how.flags};
		return 0;
	}
	default:
		return -ENOSYS;
	}
}

/* The directory @path names its file in ("/proc/1" of "/proc/1/cgroup", "." of "cgroup"). */
static void parent_of(const char *path, char *parent, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(parent, size, ".");
	else
		snprintf(parent, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/*
 * Another process's file is answered only if the caller may open it: the
 * kernel's own open, as the caller (its root, cwd, dirfd, ids), decides,
 * so that hidepid=, a pid its namespace lacks and the permissions of the
 * path are the kernel's. 0 when it may, with @subject_dir the process's
 * directory in the caller's /proc: PID is a number of the caller's pid
 * namespace (a container's 1 is its init), not of the supervisor's.
 */
static int caller_may_open(struct call *call, const struct open_call *open_call, const char *path,
			   int *subject_dir)
{
	_cleanup_(caller_close) struct caller caller;
	_cleanup_close_ int dirfd = -1, pidfd = -1, fd = -1;
	char parent[PATH_MAX];
	int r, unblocked;

	if ((r = caller_open(call->req.pid, &caller)) < 0)
		return r;
	if (path[0] != '/' && open_call->dirfd != AT_FDCWD) {
		if ((pidfd = syscall(SYS_pidfd_open, caller.tgid, 0)) < 0 ||
		    (dirfd = syscall(SYS_pidfd_getfd, pidfd, open_call->dirfd, 0)) < 0)
			return -errno;
	}
	if ((r = caller_impersonate(&caller)) == 0) {
		call_block(call);
		fd = openat(dirfd >= 0 ? dirfd : AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		r = fd < 0 ? -errno : 0;
		if (r == 0) {
			parent_of(path, parent, sizeof(parent));
			*subject_dir = openat(dirfd >= 0 ? dirfd : AT_FDCWD, parent,
					      O_PATH | O_DIRECTORY | O_CLOEXEC);
			r = *subject_dir < 0 ? -errno : 0;
		}
		if ((unblocked = call_unblock(call)) < 0)
			r = unblocked;
	}
	/* The worker cannot go on as anyone but itself. */
	if (caller_revert() < 0)
		abort();
	return r;
}

int handle_open(struct call *call)
{
	_cleanup_close_ int fd = -1, subject_dir = -1;
	struct seccomp_notif_addfd addfd;
	struct open_call open_call;
	char path[PATH_MAX], absolute[PATH_MAX];
	enum proc_file file;
	pid_t tgid, subject = 0;
	int r;

	if ((r = decode(call, &open_call)) == -ECANCELED)
		return r;
	if (r < 0 || open_call.flags & (O_ACCMODE | O_PATH | O_DIRECTORY | O_CREAT | O_TRUNC))
		return notif_continue(call);
	if ((r = call_read_string(call, open_call.path, path, sizeof(path))) == -ECANCELED)
		return r;
	if (r < 0 ||
	    target_absolute_path(call->req.pid, open_call.dirfd, path, absolute, sizeof(absolute)) <
		    0 ||
	    strncmp(absolute, "/proc/", 6) || (tgid = target_tgid(call->req.pid)) < 0)
		return notif_continue(call);
	file = proc_file_classify(absolute, &subject);
	if (file == PROC_OTHER)
		return notif_continue(call);
	if (file == PROC_CGROUPS) {
		/* Not a process's file. */
	} else if (subject) {
		/* Even its own pid: the number is the caller's pid namespace's. */
		if ((r = caller_may_open(call, &open_call, path, &subject_dir)) < 0)
			return r == -ECANCELED ? r : notif_continue(call);
	} else {
		char dir[64];

		/* The caller's own: its pid as the listener's namespace numbers it. */
		snprintf(dir, sizeof(dir), "/proc/%d", tgid);
		if ((subject_dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
			return notif_continue(call);
	}
	if ((fd = proc_file_answer(call, file, subject_dir, subject == 0)) == -ENOENT)
		return fd;
	if (fd == -ESRCH)
		return notif_continue(call); /* no such pid: the kernel's own error */
	if (fd < 0)
		return notif_return(call, -1, fd);

	addfd = (struct seccomp_notif_addfd){
		.id = call->req.id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = fd,
		.newfd_flags = open_call.flags & O_CLOEXEC,
	};
	if (ioctl(call->sup->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0) {
		r = -errno;
		if (r == -ENOENT)
			return r;
		/* EMFILE and the like: the caller's open fails as it would have. */
		return notif_return(call, -1, r);
	}
	return 0;
}
