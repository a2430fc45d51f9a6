// SPDX-License-Identifier: GPL-2.0-or-later
#include "proc_files.h"

#include "cgroup_lines.h"
#include "synth.h"

#include <stdlib.h>
#include <string.h>

static enum proc_file per_process_file(const char *name)
{
	if (!strcmp(name, "mounts"))
		return PROC_MOUNTS;
	if (!strcmp(name, "mountinfo"))
		return PROC_MOUNTINFO;
	if (!strcmp(name, "cgroup"))
		return PROC_CGROUP;
	if (!strcmp(name, "cpuset"))
		return PROC_CPUSET;
	return PROC_OTHER;
}

/* A pid as a /proc entry spells it: digits only, no sign, no leading zero. */
static bool parse_pid(const char **cursor, pid_t *pid)
{
	const char *s = *cursor;
	char *end;
	long value;

	if (*s < '1' || *s > '9')
		return false;
	value = strtol(s, &end, 10);
	if (*end != '/' || value <= 0 || value > (1L << 22))
		return false;
	*pid = value;
	*cursor = end + 1;
	return true;
}

enum proc_file proc_file_classify(const char *path, pid_t tgid, pid_t tid, pid_t *subject)
{
	const char *rest;
	pid_t task;

	(void)tid;
	if (strncmp(path, "/proc/", 6))
		return PROC_OTHER;
	rest = path + 6;
	if (!strcmp(rest, "cgroups"))
		return PROC_CGROUPS;
	/* /proc/mounts is a symlink to self/mounts. */
	if (!strcmp(rest, "mounts")) {
		*subject = tgid;
		return PROC_MOUNTS;
	}
	if (!strncmp(rest, "self/", 5)) {
		*subject = tgid;
		rest += 5;
	} else if (!strncmp(rest, "thread-self/", 12)) {
		/* Mounts and cgroups are per process: the thread's are its process's. */
		*subject = tgid;
		return per_process_file(rest + 12);
	} else if (!parse_pid(&rest, subject)) {
		return PROC_OTHER;
	}
	if (!strncmp(rest, "task/", 5)) {
		rest += 5;
		if (!parse_pid(&rest, &task))
			return PROC_OTHER;
	}
	return per_process_file(rest);
}

int proc_file_content(struct supervisor *sup, enum proc_file file, pid_t subject,
		      struct strbuf *out)
{
	int r;

	/* A hierarchy made or removed in the view since shows at once, as a new root would. */
	if ((r = view_reload(&sup->view)) < 0)
		return r;
	switch (file) {
	case PROC_MOUNTS:
		return synth_mount_table(&sup->view, subject, SYNTH_MOUNTS, out);
	case PROC_MOUNTINFO:
		return synth_mount_table(&sup->view, subject, SYNTH_MOUNTINFO, out);
	case PROC_CGROUP:
		return cgroup_lines(&sup->view, sup->cgroup2, subject, out);
	case PROC_CGROUPS:
		return synth_proc_cgroups(&sup->view, out);
	case PROC_CPUSET:
		return cpuset_line(&sup->view, sup->cgroup2, subject, out);
	default:
		return -EINVAL;
	}
}

const char *proc_file_name(enum proc_file file)
{
	static const char *const names[] = {
		[PROC_OTHER] = "other",		[PROC_MOUNTS] = "mounts",
		[PROC_MOUNTINFO] = "mountinfo", [PROC_CGROUP] = "cgroup",
		[PROC_CGROUPS] = "cgroups",	[PROC_CPUSET] = "cpuset",
	};

	return names[file];
}
