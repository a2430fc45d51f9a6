// SPDX-License-Identifier: GPL-2.0-or-later
#include "proc_account.h"

#include "proc.h"
#include "util.h"

#include <fcntl.h>
#include <linux/nsfs.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static bool same_ns(const struct userns_link *a, const struct userns_link *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

int proc_account_of_chain(uid_t uid, const struct userns_link *chain, size_t nr,
			  const struct userns_link *init, struct proc_account *account)
{
	for (size_t i = 0; i < nr; i++) {
		if (!same_ns(&chain[i], init))
			continue;
		/* Below the initial namespace, the one just under it says whose uids they are. */
		*account = i ? (struct proc_account){chain[i - 1].owner, false}
			     : (struct proc_account){uid, uid == 0};
		return 0;
	}
	return -EINVAL;
}

static int link_of(int ns_fd, struct userns_link *link)
{
	struct stat st;
	uid_t owner;

	if (fstat(ns_fd, &st) < 0 || ioctl(ns_fd, NS_GET_OWNER_UID, &owner) < 0)
		return -errno;
	*link = (struct userns_link){(uint64_t)st.st_dev, (uint64_t)st.st_ino, owner};
	return 0;
}

/* The daemon's own namespace: it never leaves it, so it is read once. */
static struct userns_link init_ns;
static int init_ns_error;
static pthread_once_t init_ns_once = PTHREAD_ONCE_INIT;

static void init_ns_read(void)
{
	_cleanup_close_ int fd = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);

	init_ns_error = fd < 0 ? -errno : link_of(fd, &init_ns);
}

/* @pid's namespace and its parents up to the initial one (or the most there may be). */
static int read_chain(pid_t pid, struct userns_link *chain, size_t *nr)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	for (*nr = 0;;) {
		_cleanup_close_ int ns_fd = fd;
		int r;

		if ((r = link_of(ns_fd, &chain[*nr])) < 0)
			return r;
		if (same_ns(&chain[(*nr)++], &init_ns) || *nr == USERNS_CHAIN_MAX)
			return 0;
		/* EPERM above the daemon's namespace: the chain does not reach it. */
		if ((fd = ioctl(ns_fd, NS_GET_PARENT)) < 0)
			return -errno;
	}
}

int proc_account_read(pid_t pid, struct proc_account *account)
{
	struct userns_link chain[USERNS_CHAIN_MAX];
	_cleanup_close_ int pidfd = proc_pidfd(pid);
	struct proc_creds creds;
	size_t nr = 0;
	int r;

	*account = (struct proc_account){PROC_ACCOUNT_GONE, false};
	pthread_once(&init_ns_once, init_ns_read);
	if (init_ns_error < 0)
		return init_ns_error;
	if (pidfd < 0)
		return pidfd;
	if ((r = proc_creds(pid, &creds)) < 0 || (r = read_chain(pid, chain, &nr)) < 0 ||
	    (r = proc_account_of_chain(creds.uid, chain, nr, &init_ns, account)) < 0)
		goto gone;
	/* Still alive once read: the pid was not another process's meanwhile. */
	if ((r = proc_pidfd_alive(pidfd)) < 0)
		goto gone;
	return 0;
gone:
	*account = (struct proc_account){PROC_ACCOUNT_GONE, false};
	return r;
}
