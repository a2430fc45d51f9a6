// SPDX-License-Identifier: GPL-2.0-or-later
#include "proc_files.h"

#include "cgroup_lines.h"
#include "cgroupns.h"
#include "synth.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static const char *const names[] = {
	[PROC_OTHER] = "other",	  [PROC_MOUNTS] = "mounts",   [PROC_MOUNTINFO] = "mountinfo",
	[PROC_CGROUP] = "cgroup", [PROC_CGROUPS] = "cgroups", [PROC_CPUSET] = "cpuset",
};

enum proc_file proc_file_of_fd(pid_t tid, int fd, bool *own)
{
	static const char prefix[] = "/memfd:" PROC_FILE_MEMFD_PREFIX, suffix[] = " (deleted)";
	char path[64], link[PATH_MAX];
	const char *name = link + strlen(prefix);
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)tid, fd);
	if ((len = readlink(path, link, sizeof(link) - 1)) < 0)
		return PROC_OTHER;
	link[len] = '\0';
	if (strncmp(link, prefix, strlen(prefix)) ||
	    len < (ssize_t)(strlen(prefix) + strlen(suffix)) ||
	    strcmp(link + len - strlen(suffix), suffix))
		return PROC_OTHER;
	link[len - strlen(suffix)] = '\0';
	for (size_t i = PROC_MOUNTS; i < ARRAY_SIZE(names); i++) {
		size_t n = strlen(names[i]);

		if (strncmp(name, names[i], n))
			continue;
		if (!name[n] || !strcmp(name + n, PROC_FILE_OTHER)) {
			*own = !name[n];
			return (enum proc_file)i;
		}
	}
	return PROC_OTHER;
}

/* The content as a file open read-only, at offset 0, as a fresh open of /proc would be. */
static int content_fd(const char *name, const struct strbuf *content)
{
	_cleanup_close_ int memfd = -1;
	char self[64];
	size_t done = 0;
	int fd;

	if ((memfd = memfd_create(name, MFD_CLOEXEC)) < 0)
		return -errno;
	while (done < content->len) {
		ssize_t n = write(memfd, content->buf + done, content->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += n;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", memfd);
	fd = open(self, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int proc_file_answer(struct call *call, enum proc_file file, int subject_dir, bool own)
{
	_cleanup_strbuf_ struct strbuf content = STRBUF_INIT;
	_cleanup_free_ char *root_tuple = NULL;
	_cleanup_close_ int reader_ns = -1;
	char name[64];
	int r;

	/* The notifying thread reads: its cgroup namespace roots the paths (current->nsproxy). */
	if ((reader_ns = cgroupns_open(call->req.pid)) < 0)
		return -ESRCH;
	/* The pid and the path were read from a process that may be gone and its pid reused. */
	if (!notif_valid(call))
		return -ENOENT;
	if (!(root_tuple = malloc(CGROUPNS_TUPLE_MAX)))
		return -ENOMEM;
	/* A namespace whose root was gone before it was seen: paths from the hierarchy's root. */
	if (cgroupns_root(reader_ns, root_tuple, CGROUPNS_TUPLE_MAX) < 0)
		root_tuple[0] = '\0';
	if ((r = proc_file_content(call->sup, file, subject_dir, root_tuple, &content)) < 0)
		return -ESRCH;
	snprintf(name, sizeof(name), PROC_FILE_MEMFD_PREFIX "%s%s", names[file],
		 own ? "" : PROC_FILE_OTHER);
	return content_fd(name, &content);
}
