/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which /proc files cgx-exec answers, and their content. */
#ifndef CGX_EXEC_PROC_FILES_H
#define CGX_EXEC_PROC_FILES_H

#include "decode.h"
#include "notif.h"
#include "util.h"

#include <sys/types.h>

/*
 * @file of process @subject as a v1 kernel prints it to a reader whose
 * cgroup namespace is rooted at @root_tuple (cgroupns_root(), "" for the
 * initial one): the kernel renders paths relative to the reader's, not the
 * subject's, namespace.
 */
int proc_file_content(struct supervisor *sup, enum proc_file file, int subject_dir,
		      const char *root_tuple, struct strbuf *out);
/*
 * The name of the memfd answering @file ("cgx-exec:mountinfo"): a poll of a
 * mount table finds by it that the real one is meant (handle_epoll.c).
 */
const char *proc_file_name(enum proc_file file);
#define PROC_FILE_MEMFD_PREFIX "cgx-exec:"

#endif
