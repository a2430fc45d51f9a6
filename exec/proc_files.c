// SPDX-License-Identifier: GPL-2.0-or-later
#include "proc_files.h"

#include "cgroup_lines.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

int proc_file_content(struct supervisor *sup, enum proc_file file, int subject_dir,
		      const char *root_tuple, struct strbuf *out)
{
	_cleanup_free_ struct view *view = malloc(sizeof(*view));
	int r;

	if (!view)
		return -ENOMEM;
	/*
	 * A hierarchy made or removed in the view since shows at once, as a new
	 * root would. The content is made from a copy: the lock is held to
	 * read the view, not while /proc and the cgroup2 tree are read.
	 */
	pthread_mutex_lock(&sup->view_lock);
	r = view_reload(&sup->view);
	memcpy(view, &sup->view, sizeof(*view));
	pthread_mutex_unlock(&sup->view_lock);
	if (r < 0)
		return r;
	switch (file) {
	case PROC_MOUNTS:
		return synth_mount_table(view, subject_dir, SYNTH_MOUNTS, root_tuple, out);
	case PROC_MOUNTINFO:
		return synth_mount_table(view, subject_dir, SYNTH_MOUNTINFO, root_tuple, out);
	case PROC_CGROUP:
		return cgroup_lines(view, sup->cgroup2, subject_dir, root_tuple, out);
	case PROC_CGROUPS:
		return synth_proc_cgroups(view, out);
	case PROC_CPUSET:
		return cpuset_line(view, sup->cgroup2, subject_dir, root_tuple, out);
	default:
		return -EINVAL;
	}
}

const char *proc_file_name(enum proc_file file)
{
	static const char *const names[] = {
		[PROC_OTHER] = PROC_FILE_MEMFD_PREFIX "other",
		[PROC_MOUNTS] = PROC_FILE_MEMFD_PREFIX "mounts",
		[PROC_MOUNTINFO] = PROC_FILE_MEMFD_PREFIX "mountinfo",
		[PROC_CGROUP] = PROC_FILE_MEMFD_PREFIX "cgroup",
		[PROC_CGROUPS] = PROC_FILE_MEMFD_PREFIX "cgroups",
		[PROC_CPUSET] = PROC_FILE_MEMFD_PREFIX "cpuset",
	};

	return names[file];
}
