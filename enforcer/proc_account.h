/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user a process's requests are charged to by the daemon's per-user
 * bounds (the deprecation log's byte budget, cgroup.event_control's
 * listeners). Counting raw uids would let one user with a subordinate range
 * (/etc/subuid and newuidmap, the usual rootless container) act as 65536
 * users through a user namespace. So:
 *   - a process in the daemon's own user namespace (the initial one) is
 *     charged to its real uid;
 *   - one in another namespace is charged to the owner, as the kernel keeps
 *     it (NS_GET_OWNER_UID), of the outermost namespace below the initial
 *     one: whichever uids that namespace maps, it maps them from its
 *     creator's, and newuidmap let that user have them.
 * Only uid 0 of the initial namespace is root and exempt from the bounds;
 * uid 0 inside a namespace, even one that root made, is its owner's user.
 */
#ifndef CGX_PROC_ACCOUNT_H
#define CGX_PROC_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a process gone before its namespace was read is charged to: one shared bucket. */
#define PROC_ACCOUNT_GONE ((uid_t)-1)

struct proc_account {
	uid_t uid;
	bool root; /* uid 0 in the initial user namespace */
};

/* A user namespace as fstat(2) of its /proc/PID/ns/user names it, and its owner. */
struct userns_link {
	uint64_t dev, ino;
	uid_t owner; /* in the daemon's namespace */
};

/*
 * The namespaces a process is nested in, its own first, then each parent
 * (NS_GET_PARENT), at most the kernel's 32 levels and the initial one.
 */
#define USERNS_CHAIN_MAX 34

/*
 * The account of a process of real uid @uid whose namespaces are @chain
 * (@nr of them, its own first), @init the initial one: -EINVAL when
 * @chain does not reach @init (a namespace outside the daemon's).
 */
int proc_account_of_chain(uid_t uid, const struct userns_link *chain, size_t nr,
			  const struct userns_link *init, struct proc_account *account);

/*
 * The account of process @pid (a thread-group leader), read from /proc
 * while a pidfd pins it against reuse. When it cannot be read (the process
 * is gone, or in a namespace outside the daemon's), a negative errno and
 * the account PROC_ACCOUNT_GONE, which the callers charge as any other.
 */
int proc_account_read(pid_t pid, struct proc_account *account);

/* Whether @a and @b are the same account. */
static inline bool proc_account_same(const struct proc_account *a, const struct proc_account *b)
{
	return a->uid == b->uid && a->root == b->root;
}

#endif
