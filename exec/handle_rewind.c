// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lseek(fd, 0, SEEK_SET) of a /proc file cgx-exec answered, the reader's
 * own. The kernel's seq_file shows what holds when it is read, so a
 * program that keeps such a file open and rewinds it reads the present:
 * systemd's bind_remount_recursive_with_mountinfo() rewinds
 * /proc/self/mountinfo until every mount under a service's root shows
 * read-only, and gave up with EBUSY on the memfd's snapshot (every service
 * with ProtectSystem= and a ReadWritePaths= failed to start). The caller's
 * descriptor is swapped for a fresh answer, and the seek goes on, to 0 of
 * the new one. Another process's file keeps what it showed at the open.
 */
#include "handle.h"
#include "notif.h"
#include "proc_files.h"
#include "target.h"

#include <fcntl.h>
#include <stdio.h>

int handle_rewind(struct call *call)
{
	_cleanup_close_ int subject_dir = -1, answer = -1;
	pid_t tid = call->req.pid, tgid;
	int fd = (int)call->req.data.args[0], cloexec;
	enum proc_file file;
	char dir[64];
	bool own;

	file = proc_file_of_fd(tid, fd, &own);
	if (file == PROC_OTHER || !own || (cloexec = target_fd_cloexec(tid, fd)) < 0 ||
	    (tgid = target_tgid(tid)) < 0)
		return notif_continue(call);
	snprintf(dir, sizeof(dir), "/proc/%d", (int)tgid);
	if (file != PROC_CGROUPS && (subject_dir = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return notif_continue(call);
	if ((answer = proc_file_answer(call, file, subject_dir, true)) == -ENOENT)
		return -ENOENT;
	if (answer < 0 || notif_set_fd(call, answer, fd, cloexec) == -ENOENT)
		return answer < 0 ? notif_continue(call) : -ENOENT;
	return notif_continue(call);
}
