/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What /proc says about a task: its process, credentials and cgroup2 path. */
#ifndef CGX_PROC_H
#define CGX_PROC_H

#include "util.h"

#include <stdbool.h>
#include <sys/types.h>

struct proc_creds {
	uid_t uid, euid, suid, fsuid;
};

/*
 * What inode_permission() and capable() look at besides the fsuid and fsgid
 * FUSE passes: taken at an open, as the kernel keeps the open's credentials.
 */
struct proc_fs_creds {
	bool dac_override; /* CAP_DAC_OVERRIDE, in the initial user namespace */
	bool sys_admin;	   /* CAP_SYS_ADMIN, in the initial user namespace */
	unsigned int nr_groups;
	gid_t groups[]; /* the supplementary groups; none read when dac_override */
};

#define CAP_DAC_OVERRIDE_BIT 1
#define CAP_NET_ADMIN_BIT    12
#define CAP_SYS_ADMIN_BIT    21

/* The thread group of thread @tid; -ESRCH when there is no such task. */
int proc_tgid(pid_t tid, pid_t *tgid);
int proc_creds(pid_t pid, struct proc_creds *creds);
/*
 * 0 when task @tid holds CAP_SYS_ADMIN in the daemon's (the initial) user
 * namespace, what capable() asks of writers of release_agent and devices.*;
 * -EPERM otherwise, -ESRCH when the task is gone.
 */
int proc_is_init_ns_admin(pid_t tid);
/* The same for capability @cap_bit (CAP_NET_ADMIN_BIT...). */
int proc_has_init_ns_cap(pid_t tid, unsigned int cap_bit);
/* The capabilities and supplementary groups of task @tid, malloc()ed: free() them. */
int proc_fs_creds(pid_t tid, struct proc_fs_creds **out);
/* The path after "0::" in /proc/PID/cgroup, e.g. "/cgx/a". */
int proc_cgroup2_path(pid_t pid, char *buf, size_t size);
/* Start time in clock ticks since boot (field 22 of /proc/PID/stat): a pid's identity over reuse.
 */
int proc_start_time(pid_t pid, unsigned long long *start);

/* A pidfd that pins @pid (a thread group leader) against reuse while a move runs. */
/*
 * Whether @pid is a kernel thread the kernel moves to no cgroup (EINVAL):
 * one bound to its CPUs (PF_NO_SETAFFINITY, per-CPU workers), or kthreadd.
 */
#define PF_KTHREAD_BIT	      0x00200000u
#define PF_NO_SETAFFINITY_BIT 0x04000000u
bool proc_is_unmovable(pid_t pid);
int proc_pidfd(pid_t pid);
/* What /proc/PID/fd shows for an eventfd. */
#define PROC_EVENTFD_LINK "anon_inode:[eventfd]"
/* The target of task @tid's descriptor @fd (PROC_EVENTFD_LINK), "" when it has none. */
void proc_fd_target(pid_t tid, unsigned long fd, char *target, size_t size);
/* Whether the daemon's own descriptor @fd is an eventfd. */
bool proc_own_fd_is_eventfd(int fd);
/* 0 while the process behind @pidfd lives, -ESRCH once it has exited. */
int proc_pidfd_alive(int pidfd);

/* A descriptor of our own for the file behind descriptor @fd of thread @tid's process
 * (close-on-exec). */
int proc_fd_take(pid_t tid, int fd);
/* The same, from the process @pidfd already pins. */
int proc_pidfd_take(int pidfd, int fd);

/*
 * The task that @writer's pid namespace calls @pid, in the daemon's numbers
 * (a tasks write from a container names its own pids); -ESRCH if none.
 */
int proc_pid_in_ns_of(pid_t writer, pid_t pid, pid_t *ours);

/*
 * @pids (the daemon's numbers) as the pid namespace of @reader numbers
 * them, sorted: a task that namespace cannot see is dropped, as v1's
 * pidlist_array_load() drops one whose task_tgid_vnr() is 0.
 */
int proc_pids_as_seen_by(pid_t reader, struct pid_list *pids);

/* Every process (or, with @threads, every thread) of the system, sorted. */
int proc_list_all(bool threads, struct pid_list *pids);

/*
 * Field @key ("flags", "eventfd-id") of descriptor @fd of task @pid in
 * /proc/PID/fdinfo, read in @base (flags are octal); -EBADF when the task has
 * no such descriptor, -ENOENT when the kernel shows no such field.
 */
int proc_fdinfo_field(pid_t pid, unsigned long fd, const char *key, int base,
		      unsigned long long *value);

/* A descriptor of a process holding an eventfd: {0, -1} for none. */
struct proc_fd_ref {
	pid_t pid;
	int fd;
};
/* Sorts @nr @ids ascending and drops repeats; how many are left. */
size_t proc_ids_sort_unique(unsigned long long *ids, size_t nr);
/* Where @id is in the sorted @ids, -1 if it is not. */
ssize_t proc_ids_find(const unsigned long long *ids, size_t nr, unsigned long long id);
/*
 * For each of the @nr eventfd-ids @ids (proc_ids_sort_unique()), a process
 * other than the daemon that holds that eventfd, in one pass over /proc.
 */
int proc_eventfd_holders(const unsigned long long *ids, size_t nr, struct proc_fd_ref *holders);

/* Whether descriptor @fd of process @pid is the very open file of our @own_fd (kcmp(2)). */
bool proc_same_file(int own_fd, pid_t pid, int fd);

/*
 * A process other than the daemon with a descriptor (@holder_fd) on the
 * open file behind the daemon's @fd (kcmp(2) KCMP_FILE), its descriptors
 * named @link in /proc; -ESRCH when no other process holds it.
 */
int proc_file_holder(int fd, const char *link, pid_t *holder, int *holder_fd);

#endif
