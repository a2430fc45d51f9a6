// SPDX-License-Identifier: GPL-2.0-or-later
/* The files every v1 group has, whatever its controllers (kernel/cgroup/cgroup-v1.c). */
#include "group.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int tasks_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return cgx_tasks_list(fc->ctx, fc->dir, fc->hier, true, fc->caller, out);
}

static int procs_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return cgx_tasks_list(fc->ctx, fc->dir, fc->hier, false, fc->caller, out);
}

static int tasks_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)len;
	return cgx_tasks_attach(fc->ctx, fc->dir, fc->hier, false, fc->caller, buf);
}

static int procs_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)len;
	return cgx_tasks_attach(fc->ctx, fc->dir, fc->hier, true, fc->caller, buf);
}

/* cftype .write_u64 of a flag: kstrtoull, and any non-zero value sets it. */
static int flag_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	int r = kstrtoull(buf, 0, &value);

	(void)len;
	if (r < 0)
		return r;
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, value ? "1\n" : "0\n");
}

/*
 * Since the fix of CVE-2022-0492 the kernel takes a release agent only from
 * CAP_SYS_ADMIN in the initial user namespace: it runs as root on the host.
 * file_ns_capable() asks it of the file's opener, so a descriptor opened by
 * such a process may be written by one without the capability, and never
 * the other way round.
 */
static int release_agent_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	char value[PATH_MAX + 1];

	(void)len;
	if (!fc->caller->admin_at_open)
		return -EPERM;
	/* strscpy into a PATH_MAX buffer: longer paths are cut, as the kernel does. */
	snprintf(value, PATH_MAX, "%s", strstrip(buf));
	strcat(value, "\n");
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, value);
}

const struct v1_file v1_core_files[] = {
	{.name = "cgroup.clone_children",
	 .mode = 0644,
	 .flags = V1F_INHERIT,
	 .default_value = "0\n",
	 .write = flag_write,
	 .v2 = V2_EMULATED("cgx copies the parent's cpuset.cpus and cpuset.mems at mkdir; in "
			   "cgroup2 an empty cpuset.cpus means the parent's")},
	{.name = "cgroup.procs",
	 .mode = 0644,
	 .flags = V1F_OPENER_CREDS,
	 .read = procs_read,
	 .write = procs_write,
	 .v2 = V2_CORE("cgroup.procs")},
	{.name = "cgroup.sane_behavior",
	 .mode = 0444,
	 .flags = V1F_ROOT_ONLY,
	 .default_value = "0\n",
	 .v2 = V2_NONE("cgroup2 is the sane behaviour")},
	{.name = "notify_on_release",
	 .mode = 0644,
	 .flags = V1F_INHERIT,
	 .default_value = "0\n",
	 .write = flag_write,
	 .v2 = V2_EMULATED("watch cgroup.events for \"populated 0\" (inotify), as systemd does")},
	{.name = "release_agent",
	 .mode = 0644,
	 .flags = V1F_ROOT_ONLY | V1F_OPENER_ADMIN,
	 .default_value = "\n",
	 .write = release_agent_write,
	 /* cgroup1_base_files: PATH_MAX - 1, so a page-long path is already E2BIG. */
	 .max_write_len = PATH_MAX - 1,
	 .v2 = V2_EMULATED("cgx runs the agent on cgroup.events \"populated 0\"; in cgroup2, "
			   "watch cgroup.events yourself")},
	{.name = "tasks",
	 .mode = 0644,
	 .flags = V1F_OPENER_CREDS,
	 .read = tasks_read,
	 .write = tasks_write,
	 .v2 = V2_CORE("cgroup.threads")},
};

const unsigned int v1_nr_core_files = ARRAY_SIZE(v1_core_files);
