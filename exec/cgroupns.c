// SPDX-License-Identifier: GPL-2.0-or-later
#include "cgroupns.h"

#include "caller.h"
#include "util.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#define TUPLE_XATTR "trusted.cgx.tuple"
/* enforcer/tree.h CGX_TASKS_LEAF: the leaf of an inner group's own tasks. */
#define TASKS_LEAF "@tasks"
/* PROC_CGROUP_INIT_INO (include/linux/proc_ns.h): init_cgroup_ns, the real initial namespace. */
#define INIT_CGROUP_NS_INO 0xEFFFFFFBu

/*
 * Keyed by the namespace's inode; the descriptor held pins the namespace,
 * so that its inode number is not handed to a new one while remembered.
 * Unprivileged callers can make namespaces (unshare -U -C): at most
 * CGROUPNS_MAX are kept, and the least recently used is closed first.
 */
struct cgroupns_entry {
	dev_t dev;
	ino_t ino;
	int fd;
	char *tuple;
	unsigned long long used;
};

static struct {
	pthread_mutex_t lock;
	struct cgroupns_entry entry[CGROUPNS_MAX];
	unsigned int nr;
	unsigned long long clock;
} table = {.lock = PTHREAD_MUTEX_INITIALIZER};

int cgroupns_open(pid_t tid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/cgroup", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Under table.lock. */
static struct cgroupns_entry *lookup(const struct stat *st)
{
	for (unsigned int i = 0; i < table.nr; i++)
		if (table.entry[i].dev == st->st_dev && table.entry[i].ino == st->st_ino)
			return &table.entry[i];
	return NULL;
}

static void remember(int ns, const struct stat *st, const char *tuple)
{
	struct cgroupns_entry *slot;
	char *copy = strdup(tuple);
	int fd;

	if (!copy)
		return;
	if ((fd = fcntl(ns, F_DUPFD_CLOEXEC, 3)) < 0) {
		free(copy);
		return;
	}
	pthread_mutex_lock(&table.lock);
	if (lookup(st)) { /* another worker was first */
		pthread_mutex_unlock(&table.lock);
		close(fd);
		free(copy);
		return;
	}
	if (table.nr < CGROUPNS_MAX) {
		slot = &table.entry[table.nr++];
	} else {
		slot = &table.entry[0];
		for (unsigned int i = 1; i < table.nr; i++)
			if (table.entry[i].used < slot->used)
				slot = &table.entry[i];
		close(slot->fd);
		free(slot->tuple);
	}
	*slot = (struct cgroupns_entry){st->st_dev, st->st_ino, fd, copy, ++table.clock};
	pthread_mutex_unlock(&table.lock);
}

/* The tuple on leaf @dir; "" for a directory cgxfs keeps no tuple on. */
static int leaf_tuple(int dir, char *tuple, size_t size)
{
	ssize_t len = fgetxattr(dir, TUPLE_XATTR, tuple, size - 1);

	if (len < 0) {
		if (errno != ENODATA)
			return -errno;
		len = 0;
	}
	tuple[len] = '\0';
	return 0;
}

/*
 * The namespace's real root, a v2 directory, opened: cgroup_do_get_tree()
 * roots a cgroup2 mount made in a non-initial namespace at the namespace's
 * root. The calling thread joins @ns (a cgroup namespace is per thread, with
 * no single-thread rule) for fsopen(), which takes the namespace, and for
 * the get_tree of FSCONFIG_CMD_CREATE: apply_cgroup_root_flags() would set
 * the real initial namespace's flags (nsdelegate...) from this mount's, so
 * it must never run there. The mount is detached, and goes with its fd.
 */
static int real_root_dir(int ns)
{
	_cleanup_close_ int fs = -1, mnt = -1, here = -1;
	struct stat st;
	int r = 0;

	if (setns(ns, CLONE_NEWCGROUP) < 0)
		return -errno;
	if ((here = open("/proc/thread-self/ns/cgroup", O_RDONLY | O_CLOEXEC)) < 0 ||
	    fstat(here, &st) < 0)
		r = -errno;
	else if (st.st_ino == INIT_CGROUP_NS_INO)
		r = -EINVAL;
	else if ((fs = fsopen("cgroup2", FSOPEN_CLOEXEC)) < 0 ||
		 fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0 ||
		 (mnt = fsmount(fs, FSMOUNT_CLOEXEC,
				MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
					MOUNT_ATTR_NOEXEC)) < 0)
		r = -errno;
	/* The worker cannot go on in another namespace than its own. */
	if (setns(caller_self_ns_cgroup(), CLONE_NEWCGROUP) < 0)
		abort();
	if (r < 0)
		return r;
	r = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return r < 0 ? -errno : r;
}

/*
 * The tuple of the leaf the namespace was made in. A leaf whose group got a
 * child group since is inner, and its processes (its tuple) moved to its
 * tasks leaf, with the same tuple while the groups stay.
 */
static int resolve(int ns, const struct stat *st, char *tuple, size_t size)
{
	_cleanup_close_ int root = -1, tasks = -1;
	int r;

	/* The real initial namespace (cgx-exec runs in another): rooted at every root. */
	if (st->st_ino == INIT_CGROUP_NS_INO) {
		tuple[0] = '\0';
		return 0;
	}
	if ((root = real_root_dir(ns)) < 0)
		return root;
	if ((r = leaf_tuple(root, tuple, size)) < 0 || tuple[0])
		return r;
	tasks = openat(root, TASKS_LEAF, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tasks >= 0)
		return leaf_tuple(tasks, tuple, size);
	return 0;
}

int cgroupns_root(int ns, char *tuple, size_t size)
{
	struct cgroupns_entry *entry;
	struct stat st;
	int r;

	if (fstat(ns, &st) < 0)
		return -errno;
	tuple[0] = '\0';
	if (ns_same(ns, caller_self_ns_cgroup()))
		return 0;
	pthread_mutex_lock(&table.lock);
	if ((entry = lookup(&st))) {
		entry->used = ++table.clock;
		snprintf(tuple, size, "%s", entry->tuple);
	}
	pthread_mutex_unlock(&table.lock);
	if (entry)
		return 0;
	/* Found without the lock: it mounts, and reads the cgroup2 tree. */
	if ((r = resolve(ns, &st, tuple, size)) < 0)
		return r;
	remember(ns, &st, tuple);
	return 0;
}
