// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open, openat and openat2 of a /proc file that shows cgroups: answered with
 * a read-only memfd holding what a v1 host would print, put in the caller's
 * fd table with SECCOMP_IOCTL_NOTIF_ADDFD.
 */
#include "proc_files.h"
#include "supervisor.h"
#include "target.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

struct open_call {
	int dirfd;
	uint64_t path;
	uint64_t flags;
};

static int decode(pid_t tid, const struct seccomp_notif *req, struct open_call *call)
{
	switch (req->data.nr) {
#ifdef __NR_open
	case __NR_open:
		*call = (struct open_call){AT_FDCWD, req->data.args[0], req->data.args[1]};
		return 0;
#endif
	case __NR_openat:
		*call = (struct open_call){(int)req->data.args[0], req->data.args[1],
					   req->data.args[2]};
		return 0;
	case __NR_openat2: {
		struct open_how how;
		struct iovec local = {.iov_base = &how, .iov_len = sizeof(how)};
		struct iovec remote = {.iov_base = (void *)(uintptr_t)req->data.args[2],
				       .iov_len = sizeof(how)};

		if (req->data.args[3] < sizeof(how) ||
		    process_vm_readv(tid, &local, 1, &remote, 1, 0) != sizeof(how))
			return -EFAULT;
		*call = (struct open_call){(int)req->data.args[0], req->data.args[1], how.flags};
		return 0;
	}
	default:
		return -ENOSYS;
	}
}

/* The content as a file open read-only, at offset 0, as a fresh open of /proc would be. */
static int content_fd(const char *name, const struct strbuf *content)
{
	_cleanup_close_ int memfd = -1;
	char self[64];
	size_t done = 0;
	int fd;

	if ((memfd = memfd_create(name, MFD_CLOEXEC)) < 0)
		return -errno;
	while (done < content->len) {
		ssize_t n = write(memfd, content->buf + done, content->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += n;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", memfd);
	fd = open(self, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int handle_open(struct supervisor *sup, const struct seccomp_notif *req)
{
	_cleanup_strbuf_ struct strbuf content = STRBUF_INIT;
	_cleanup_close_ int fd = -1;
	struct seccomp_notif_addfd addfd;
	struct open_call call;
	char path[PATH_MAX], absolute[PATH_MAX];
	enum proc_file file;
	pid_t tgid, subject = 0;
	int r;

	if (decode(req->pid, req, &call) < 0 ||
	    call.flags & (O_ACCMODE | O_PATH | O_DIRECTORY | O_CREAT | O_TRUNC))
		return notif_continue(sup, req->id);
	if (target_read_string(req->pid, call.path, path, sizeof(path)) < 0 ||
	    target_absolute_path(req->pid, call.dirfd, path, absolute, sizeof(absolute)) < 0 ||
	    strncmp(absolute, "/proc/", 6) || (tgid = target_tgid(req->pid)) < 0)
		return notif_continue(sup, req->id);
	file = proc_file_classify(absolute, tgid, req->pid, &subject);
	if (file == PROC_OTHER)
		return notif_continue(sup, req->id);
	/* The pid and the path were read from a process that may be gone and its pid reused. */
	if (!notif_valid(sup, req->id))
		return -ENOENT;
	if ((r = proc_file_content(sup, file, subject, &content)) < 0)
		return notif_continue(sup, req->id); /* no such pid: the kernel's own error */
	if ((fd = content_fd(proc_file_name(file), &content)) < 0)
		return notif_return(sup, req->id, -1, fd);

	addfd = (struct seccomp_notif_addfd){
		.id = req->id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = fd,
		.newfd_flags = call.flags & O_CLOEXEC,
	};
	if (ioctl(sup->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0) {
		r = -errno;
		if (r == -ENOENT)
			return r;
		/* EMFILE and the like: the caller's open fails as it would have. */
		return notif_return(sup, req->id, -1, r);
	}
	return 0;
}
