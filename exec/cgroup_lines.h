/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/PID/cgroup as a v1 kernel prints it, from the membership tuple cgxfs
 * keeps on the process's v2 leaf (trusted.cgx.tuple).
 */
#ifndef CGX_EXEC_CGROUP_LINES_H
#define CGX_EXEC_CGROUP_LINES_H

#include "util.h"
#include "view.h"

#include <sys/types.h>

/*
 * "N:cpu,cpuacct:/path" for every hierarchy of @view, newest root first as
 * the kernel walks its list of roots; "/" where the tuple names no group.
 * @cgroup2 is the cgroup2 mount the leaves live in. -ENOENT for no such pid.
 */
int cgroup_lines(struct view *view, const char *cgroup2, pid_t pid, struct strbuf *out);

/*
 * /proc/PID/cpuset: the group of the hierarchy holding cpuset ("/" for its
 * root or when no hierarchy holds it), as proc_cpuset_show() prints it.
 */
int cpuset_line(struct view *view, const char *cgroup2, pid_t pid, struct strbuf *out);

/* The tuple text of @pid ("cpu,cpuacct:/a\n..."), "" outside cgxfs's base. */
int cgroup_tuple_of(const char *cgroup2, pid_t pid, char *tuple, size_t size);

#endif
