// SPDX-License-Identifier: GPL-2.0-or-later
#include "caller.h"

#include "util.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What a worker thread goes back to after acting as a caller. */
static struct {
	int root, cwd, ns_user, ns_cgroup;
	gid_t groups[CALLER_MAX_GROUPS];
	int nr_groups;
	uid_t fsuid;
	gid_t fsgid;
	uint64_t cap_prm;
} self = {.root = -1, .cwd = -1, .ns_user = -1, .ns_cgroup = -1};

int caps_get_permitted(uint64_t *prm)
{
	struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &header, data) < 0)
		return -errno;
	*prm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	return 0;
}

int caps_set(uint64_t eff, uint64_t prm, uint64_t inh)
{
	struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {
		{(uint32_t)eff, (uint32_t)prm, (uint32_t)inh},
		{(uint32_t)(eff >> 32), (uint32_t)(prm >> 32), (uint32_t)(inh >> 32)},
	};

	return syscall(SYS_capset, &header, data) < 0 ? -errno : 0;
}

int caller_init_self(void)
{
	int r;

	if ((self.root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (self.cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    (self.ns_user = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC)) < 0 ||
	    (self.ns_cgroup = open("/proc/self/ns/cgroup", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if ((self.nr_groups = getgroups(CALLER_MAX_GROUPS, self.groups)) < 0)
		return -errno;
	if ((r = caps_get_permitted(&self.cap_prm)) < 0)
		return r;
	self.fsuid = geteuid();
	self.fsgid = getegid();
	return 0;
}

int caller_self_ns_user(void)
{
	return self.ns_user;
}

int caller_self_ns_cgroup(void)
{
	return self.ns_cgroup;
}

static int parse_ids(const char *field, unsigned int ids[4])
{
	return sscanf(field, "%u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) == 4 ? 0 : -EIO;
}

static int parse_groups(const char *field, struct caller *caller)
{
	const char *cursor = field;

	caller->nr_groups = 0;
	for (;;) {
		char *end;
		unsigned long gid;

		cursor += strspn(cursor, " \t");
		if (*cursor < '0' || *cursor > '9')
			return 0;
		if (caller->nr_groups == CALLER_MAX_GROUPS)
			return -E2BIG;
		gid = strtoul(cursor, &end, 10);
		caller->groups[caller->nr_groups++] = (gid_t)gid;
		cursor = end;
	}
}

/* /proc/TID/status, all the fields at once: they must be of one moment. */
static int parse_status(const char *status, struct caller *caller)
{
	unsigned int ids[4];
	int found = 0, r;

	for (const char *line = status; line && *line; line = strchr(line, '\n')) {
		const char *value;

		if (*line == '\n')
			line++;
		if (!(value = strchr(line, ':')))
			break;
		value++;
		if (!strncmp(line, "Tgid:", 5)) {
			caller->tgid = (pid_t)strtol(value, NULL, 10);
			found |= 1;
		} else if (!strncmp(line, "Uid:", 4)) {
			if ((r = parse_ids(value, ids)) < 0)
				return r;
			caller->uid = ids[0], caller->euid = ids[1];
			caller->suid = ids[2], caller->fsuid = ids[3];
			found |= 2;
		} else if (!strncmp(line, "Gid:", 4)) {
			if ((r = parse_ids(value, ids)) < 0)
				return r;
			caller->gid = ids[0], caller->egid = ids[1];
			caller->sgid = ids[2], caller->fsgid = ids[3];
			found |= 4;
		} else if (!strncmp(line, "Groups:", 7)) {
			if ((r = parse_groups(value, caller)) < 0)
				return r;
			found |= 8;
		} else if (!strncmp(line, "CapInh:", 7)) {
			caller->cap_inh = strtoull(value, NULL, 16);
			found |= 16;
		} else if (!strncmp(line, "CapPrm:", 7)) {
			caller->cap_prm = strtoull(value, NULL, 16);
			found |= 32;
		} else if (!strncmp(line, "CapEff:", 7)) {
			caller->cap_eff = strtoull(value, NULL, 16);
			found |= 64;
		}
	}
	return found == 127 ? 0 : -EIO;
}

static int open_at_proc(int dir, const char *what, int flags)
{
	int fd = openat(dir, what, flags | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int caller_open(pid_t tid, struct caller *caller)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	_cleanup_close_ int dir = -1;
	char path[64];
	int r;

	memset(caller, 0, sizeof(*caller));
	caller->ns_user = caller->ns_mnt = caller->ns_cgroup = caller->ns_pid = -1;
	caller->root = caller->cwd = -1;
	caller->tid = tid;
	snprintf(path, sizeof(path), "/proc/%d", tid);
	if ((dir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	if ((r = read_file_at(dir, "status", &status)) < 0 ||
	    (r = parse_status(status.buf, caller)) < 0)
		return r == -ENOENT ? -ESRCH : r;
	if ((r = caller->ns_user = open_at_proc(dir, "ns/user", O_RDONLY)) < 0 ||
	    (r = caller->ns_mnt = open_at_proc(dir, "ns/mnt", O_RDONLY)) < 0 ||
	    (r = caller->ns_cgroup = open_at_proc(dir, "ns/cgroup", O_RDONLY)) < 0 ||
	    (r = caller->ns_pid = open_at_proc(dir, "ns/pid", O_RDONLY)) < 0 ||
	    (r = caller->root = open_at_proc(dir, "root", O_PATH | O_DIRECTORY)) < 0 ||
	    (r = caller->cwd = open_at_proc(dir, "cwd", O_PATH | O_DIRECTORY)) < 0) {
		caller_close(caller);
		return r == -ENOENT ? -ESRCH : r;
	}
	return 0;
}

void caller_close(struct caller *caller)
{
	int *fds[] = {&caller->ns_user, &caller->ns_mnt, &caller->ns_cgroup,
		      &caller->ns_pid,	&caller->root,	 &caller->cwd};

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

bool ns_same(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int ns_owner(int ns)
{
	int fd = ioctl(ns, NS_GET_USERNS);

	return fd < 0 ? -errno : fd;
}

int caller_ns_capable(const struct caller *caller, int userns)
{
	_cleanup_close_ int ns = fcntl(userns, F_DUPFD_CLOEXEC, 3);

	if (ns < 0)
		return -errno;
	/* User namespaces nest 32 deep at most. */
	for (int depth = 0; depth <= 33; depth++) {
		_cleanup_close_ int parent = -1;
		uid_t owner;

		if (ns_same(ns, caller->ns_user))
			return (caller->cap_eff >> CAP_SYS_ADMIN) & 1;
		/* EPERM at the top: the walk left the caller's namespaces without meeting it. */
		if ((parent = ioctl(ns, NS_GET_PARENT)) < 0)
			return errno == EPERM ? 0 : -errno;
		/* The owner of a namespace made from the caller's holds every capability in it. */
		if (ns_same(parent, caller->ns_user)) {
			if (ioctl(ns, NS_GET_OWNER_UID, &owner) < 0)
				return -errno;
			return owner == caller->euid;
		}
		close(ns);
		ns = steal_fd(parent);
	}
	return 0;
}

/* Whether this thread has a root and cwd of its own, which it may then change. */
static _Thread_local bool fs_unshared;

int caller_thread_init(void)
{
	if (unshare(CLONE_FS) < 0)
		return -errno;
	fs_unshared = true;
	return 0;
}

int caller_impersonate(const struct caller *caller)
{
	bool own_userns = ns_same(caller->ns_user, self.ns_user);

	/* A chroot() on a shared root would move every thread of the supervisor. */
	if (!fs_unshared)
		return -EPERM;

	/* The root first: chroot() needs the supervisor's CAP_SYS_CHROOT. */
	if (fchdir(caller->root) < 0 || chroot(".") < 0 || fchdir(caller->cwd) < 0)
		return -errno;
	/* Raw calls: glibc's setgroups() would change every thread of the supervisor. */
	if (syscall(SYS_setgroups, caller->nr_groups, caller->groups) < 0)
		return -errno;
	syscall(SYS_setfsgid, caller->fsgid);
	syscall(SYS_setfsuid, caller->fsuid);
	/* The permitted set stays the supervisor's, so that caller_revert() can raise it again. */
	return caps_set(own_userns ? caller->cap_eff & self.cap_prm : 0, self.cap_prm, 0);
}

int caller_revert(void)
{
	int r;

	if (!fs_unshared)
		return 0;

	if ((r = caps_set(self.cap_prm, self.cap_prm, 0)) < 0)
		return r;
	syscall(SYS_setfsuid, self.fsuid);
	syscall(SYS_setfsgid, self.fsgid);
	if (syscall(SYS_setgroups, self.nr_groups, self.groups) < 0)
		return -errno;
	if (fchdir(self.root) < 0 || chroot(".") < 0 || fchdir(self.cwd) < 0)
		return -errno;
	return 0;
}
