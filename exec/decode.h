/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What cgx-exec reads from a caller, decoded without a system call: the
 * options of mount -t cgroup, paths and the /proc files they name. Every
 * byte here comes from the caller's memory (tests/fuzz/fuzz_exec_decode.c).
 */
#ifndef CGX_EXEC_DECODE_H
#define CGX_EXEC_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cgroup_request {
	unsigned int controllers;
	char name[64];
	bool none, all, noprefix;
	bool release_agent; /* release_agent= was given */
};

/*
 * cgroup1_parse_param(), one option at a time: controllers, none, all,
 * name=, the flags and the superblock flags the VFS takes itself (ro, rw...).
 * -EINVAL for an option the kernel refuses while parsing.
 */
int cgroup_options_parse(const char *data, struct cgroup_request *want);
/*
 * check_cgroupfs_options(): the combinations, which the kernel checks only
 * after the caller's right to mount (an unprivileged "-o none" is EPERM).
 * Fills in the controllers of "all" or of no option at all.
 */
int cgroup_options_validate(struct cgroup_request *want);

/* Folds ".", ".." and repeated slashes of the absolute @path in place, by name. */
void path_fold(char *path);

#define PATH_MAX_FD_REFS 8
/*
 * The descriptor numbers @path names as "fd/N" after a /proc/self,
 * /proc/thread-self or /proc/PID/task/TID, as runc's /proc/self/fd/N mount
 * targets do, up to @max distinct ones. Returns how many.
 */
unsigned int path_fd_refs(const char *path, int *fds, unsigned int max);

enum proc_file { PROC_OTHER, PROC_MOUNTS, PROC_MOUNTINFO, PROC_CGROUP, PROC_CGROUPS, PROC_CPUSET };

/*
 * What the absolute, folded @path names when a thread opens it; *@subject is
 * the pid the path names the process by, in the opener's pid namespace, or
 * 0 for the opener itself (self, thread-self, /proc/mounts).
 */
enum proc_file proc_file_classify(const char *path, pid_t *subject);

#endif
