/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The /proc files of a v1 host, synthesized: the mount table with the view's
 * binds shown as cgroup mounts, and /proc/cgroups.
 */
#ifndef CGX_EXEC_SYNTH_H
#define CGX_EXEC_SYNTH_H

#include "util.h"
#include "view.h"

#include <stdbool.h>
#include <sys/types.h>

enum synth_table { SYNTH_MOUNTS, SYNTH_MOUNTINFO };

/*
 * The mount table of the process of @proc_dir (its mountinfo) in the
 * format of /proc/PID/mounts or mountinfo, where every bind of a hierarchy
 * directory of @view reads as the kernel's cgroup mount of that hierarchy,
 * its root seen from the reader's cgroup namespace (rooted at @root_tuple).
 */
int synth_mount_table(struct view *view, int proc_dir, enum synth_table format,
		      const char *root_tuple, struct strbuf *out);

/* /proc/cgroups: each controller's hierarchy id in @view (0 if none) and its groups. */
int synth_proc_cgroups(struct view *view, struct strbuf *out);

#endif
