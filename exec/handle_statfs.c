// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * statfs and fstatfs of anything on the view answer CGROUP_SUPER_MAGIC, as a
 * v1 hierarchy's superblock does; the rest (the tmpfs at /sys/fs/cgroup
 * among them) is the kernel's own answer.
 */
#include "supervisor.h"
#include "target.h"
#include "util.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

/* What the call names, opened with O_PATH as the target would reach it. */
static int open_subject(const struct seccomp_notif *req)
{
	char path[PATH_MAX], absolute[PATH_MAX];
	int r;

	if (req->data.nr == __NR_fstatfs) {
		char fd_link[64];
		int fd;

		snprintf(fd_link, sizeof(fd_link), "/proc/%d/fd/%d", req->pid,
			 (int)req->data.args[0]);
		fd = open(fd_link, O_PATH | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if ((r = target_read_string(req->pid, req->data.args[0], path, sizeof(path))) < 0 ||
	    (r = target_absolute_path(req->pid, AT_FDCWD, path, absolute, sizeof(absolute))) < 0)
		return r;
	return target_open_path(req->pid, absolute);
}

int handle_statfs(struct supervisor *sup, const struct seccomp_notif *req)
{
	_cleanup_close_ int fd = -1;
	struct statfs answer;
	struct stat st;
	int r;

	fd = open_subject(req);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != sup->view.dev)
		return notif_continue(sup, req->id);
	if (!notif_valid(sup, req->id))
		return -ENOENT;
	if (fstatfs(fd, &answer) < 0)
		return notif_continue(sup, req->id);
	/* cgxfs answers simple_statfs()'s numbers; only the magic is FUSE's. */
	answer.f_type = CGROUP_SUPER_MAGIC;
	if ((r = target_write(req->pid, req->data.args[1], &answer, sizeof(answer))) < 0)
		return notif_return(sup, req->id, -1, -EFAULT);
	return notif_return(sup, req->id, 0, 0);
}
