/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The caller behind a notification as the kernel would judge it: its ids,
 * groups and capabilities, the namespaces they hold in, its root and cwd.
 * The supervisor runs as root: whatever it does for a caller it does with
 * these, never with its own (issue 14).
 */
#ifndef CGX_EXEC_CALLER_H
#define CGX_EXEC_CALLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define CALLER_MAX_GROUPS 1024

struct caller {
	pid_t tid, tgid;
	/* Ids as the initial user namespace numbers them (read from /proc by the supervisor). */
	uid_t uid, euid, suid, fsuid;
	gid_t gid, egid, sgid, fsgid;
	gid_t groups[CALLER_MAX_GROUPS];
	unsigned int nr_groups;
	/* Capability sets, meaningful in the caller's own user namespace. */
	uint64_t cap_inh, cap_prm, cap_eff;
	/* /proc/TID/ns/{user,mnt,cgroup,pid}, /proc/TID/root and cwd (O_PATH). */
	int ns_user, ns_mnt, ns_cgroup, ns_pid;
	int root, cwd;
};

/* The calling thread's permitted set; capset() of the calling thread only. */
int caps_get_permitted(uint64_t *permitted);
int caps_set(uint64_t effective, uint64_t permitted, uint64_t inheritable);

/* Called once at the supervisor's start: its own root, cwd, groups and namespaces. */
int caller_init_self(void);
/* The supervisor's own user and cgroup namespaces, which stand for the initial ones. */
int caller_self_ns_user(void);
int caller_self_ns_cgroup(void);

/* Reads thread @tid's credentials and opens its namespaces, root and cwd. */
int caller_open(pid_t tid, struct caller *caller);
void caller_close(struct caller *caller);

/* Whether two namespace descriptors name the same namespace. */
bool ns_same(int a, int b);
/* The user namespace owning namespace @ns (NS_GET_USERNS), a new descriptor or -errno. */
int ns_owner(int ns);

/*
 * ns_capable(@userns, CAP_SYS_ADMIN) for @caller, as cap_capable() walks it:
 * its effective set in its own user namespace, everything in a namespace it
 * (by euid) created from there, nothing in an ancestor or elsewhere.
 * 1 or 0; -errno when the namespaces cannot be read.
 */
int caller_ns_capable(const struct caller *caller, int userns);

/* Gives the calling thread its own root and cwd (unshare(CLONE_FS)), for caller_impersonate(). */
int caller_thread_init(void);
/*
 * The calling thread (after caller_thread_init(); -EPERM otherwise) walks paths as
 * @caller would: its root and cwd, fsuid, fsgid, groups, and its effective
 * capabilities when it lives in the supervisor's user namespace (none
 * otherwise: a capability held in a child namespace covers only what that
 * namespace owns). caller_revert() gives the thread back its own.
 */
int caller_impersonate(const struct caller *caller);
int caller_revert(void);

#endif
