/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which /proc files cgx-exec answers, and their content. */
#ifndef CGX_EXEC_PROC_FILES_H
#define CGX_EXEC_PROC_FILES_H

#include "decode.h"
#include "notif.h"
#include "util.h"

#include <sys/types.h>

/* The answers' memfds are named "cgx-exec:FILE", with ":other" for another process's. */
#define PROC_FILE_MEMFD_PREFIX "cgx-exec:"
#define PROC_FILE_OTHER	       ":other"

/*
 * @file of process @subject as a v1 kernel prints it to a reader whose
 * cgroup namespace is rooted at @root_tuple (cgroupns_root(), "" for the
 * initial one): the kernel renders paths relative to the reader's, not the
 * subject's, namespace.
 */
int proc_file_content(struct supervisor *sup, enum proc_file file, int subject_dir,
		      const char *root_tuple, struct strbuf *out);
/*
 * Which file cgx-exec answered is behind descriptor @fd of thread @tid (its
 * memfd is named "cgx-exec:mountinfo"), PROC_OTHER for none: a poll of a
 * mount table finds by it that the real one is meant (handle_epoll.c), a
 * rewind that the file is to be made again (handle_rewind.c). *@own: it
 * is the reader's own file, not another process's (":other" at the end).
 */
enum proc_file proc_file_of_fd(pid_t tid, int fd, bool *own);
/*
 * @file of the process whose /proc directory is @subject_dir, as the thread
 * of @call reads it (its cgroup namespace), in a new read-only memfd at
 * offset 0 (close-on-exec): the descriptor, or -errno (-ENOENT: the call is
 * gone; -ESRCH: no such process, the kernel's own error stands).
 */
int proc_file_answer(struct call *call, enum proc_file file, int subject_dir, bool own);

#endif
