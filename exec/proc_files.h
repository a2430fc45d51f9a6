/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which /proc files cgx-exec answers, and their content. */
#ifndef CGX_EXEC_PROC_FILES_H
#define CGX_EXEC_PROC_FILES_H

#include "supervisor.h"
#include "util.h"

#include <sys/types.h>

enum proc_file { PROC_OTHER, PROC_MOUNTS, PROC_MOUNTINFO, PROC_CGROUP, PROC_CGROUPS, PROC_CPUSET };

/*
 * What the absolute, folded @path names when thread @tid of process @tgid
 * opens it; *@subject is the process whose file it is.
 */
enum proc_file proc_file_classify(const char *path, pid_t tgid, pid_t tid, pid_t *subject);
int proc_file_content(struct supervisor *sup, enum proc_file file, pid_t subject,
		      struct strbuf *out);
const char *proc_file_name(enum proc_file file);

#endif
