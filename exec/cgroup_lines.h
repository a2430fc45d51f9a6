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
 * Each path is seen from the reader's cgroup namespace, rooted at the groups
 * of @root_tuple ("" for the initial namespace), as cgroup_path_ns_locked()
 * prints it. @cgroup2 is the cgroup2 mount the leaves live in; @proc_dir
 * the process's directory in a /proc (as its reader found it, in whatever
 * pid namespace). -ENOENT for a process gone.
 */
int cgroup_lines(struct view *view, const char *cgroup2, int proc_dir, const char *root_tuple,
		 struct strbuf *out);

/*
 * /proc/PID/cpuset: the group of the hierarchy holding cpuset ("/" for its
 * root or when no hierarchy holds it), seen from @root_tuple as
 * proc_cpuset_show() prints it.
 */
int cpuset_line(struct view *view, const char *cgroup2, int proc_dir, const char *root_tuple,
		struct strbuf *out);

/* The group of @hier in @tuple ("/" when it names none), in @path or a constant. */
const char *cgroup_group_of(const struct view_hier *hier, const char *tuple, char *path,
			    size_t size);

/*
 * kernfs_path_from_node(): v1 path @group seen from namespace root @root,
 * both absolute: "/" when equal, else "/.." for each level from their
 * common ancestor down to @root, then the names from there down to @group.
 * -ENAMETOOLONG past @size.
 */
int cgroup_path_from(const char *group, const char *root, char *out, size_t size);

/* The tuple text of the process of @proc_dir ("cpu,cpuacct:/a\n..."), "" outside cgxfs's base. */
int cgroup_tuple_of(const char *cgroup2, int proc_dir, char *tuple, size_t size);

#endif
