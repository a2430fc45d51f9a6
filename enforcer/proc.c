// SPDX-License-Identifier: GPL-2.0-or-later
#include "proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/kcmp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/nsfs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int proc_read(pid_t pid, const char *file, struct strbuf *text)
{
	char path[64];
	int r;

	/* One open: the pidfd a caller holds, not a directory fd, says it is still the same task.
	 */
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	r = read_record_file_at(AT_FDCWD, path, text);
	return r == -ENOENT ? -ESRCH : r;
}

/*
 * The daemon's own namespace links, read once: it never joins another user
 * or pid namespace (cgx-exec's supervisor joins cgroup namespaces only),
 * and every request that names a pid compared against them.
 */
struct self_ns {
	char user[64], pid[64];
	int error;
};

static struct self_ns self_ns;
static pthread_once_t self_ns_once = PTHREAD_ONCE_INIT;

static int read_link(const char *path, char *link, size_t size)
{
	ssize_t n = readlink(path, link, size - 1);

	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	link[n] = '\0';
	return 0;
}

static void self_ns_read(void)
{
	if ((self_ns.error = read_link("/proc/self/ns/user", self_ns.user, sizeof(self_ns.user))) ==
	    0)
		self_ns.error = read_link("/proc/self/ns/pid", self_ns.pid, sizeof(self_ns.pid));
}

/* "user" or "pid": the daemon's link, or NULL when it could not be read (ENOENT, no /proc). */
static const char *self_ns_link(const char *ns)
{
	pthread_once(&self_ns_once, self_ns_read);
	if (self_ns.error)
		return NULL;
	return strcmp(ns, "pid") ? self_ns.user : self_ns.pid;
}

static const char *status_field(const char *status, const char *key)
{
	size_t len = strlen(key);

	for (const char *line = status; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, len))
			return line + len;
	}
	return NULL;
}

int proc_tgid(pid_t tid, pid_t *tgid)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	const char *field;
	int r = proc_read(tid, "status", &status);

	if (r < 0)
		return r;
	if (!(field = status_field(status.buf, "Tgid:")))
		return -EIO;
	*tgid = (pid_t)strtol(field, NULL, 10);
	return 0;
}

int proc_creds(pid_t pid, struct proc_creds *creds)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	const char *field;
	unsigned int ids[4];
	int r = proc_read(pid, "status", &status);

	if (r < 0)
		return r;
	if (!(field = status_field(status.buf, "Uid:")) ||
	    sscanf(field, "%u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) != 4)
		return -EIO;
	*creds = (struct proc_creds){ids[0], ids[1], ids[2], ids[3]};
	return 0;
}

/* Whether task @tid is in the daemon's user namespace, the initial one. */
static bool in_init_userns(pid_t tid)
{
	/* The daemon's own: it runs in the initial namespace (pid 1's may not be readable). */
	const char *self = self_ns_link("user");
	char task_ns[64], path[64];

	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)tid);
	return self && read_link(path, task_ns, sizeof(task_ns)) == 0 && !strcmp(self, task_ns);
}

/*
 * The effective capabilities of task @tid (its status's CapEff), by one
 * capget(2): a read of /proc/TID/status costs three system calls and the
 * kernel's printing of some fifty fields.
 */
static int task_cap_eff(pid_t tid, unsigned long long *cap_eff)
{
	struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, tid};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {0};

	if (syscall(SYS_capget, &header, data) < 0)
		return -errno;
	*cap_eff = (unsigned long long)data[1].effective << 32 | data[0].effective;
	return 0;
}

int proc_has_init_ns_cap(pid_t tid, unsigned int cap_bit)
{
	unsigned long long cap_eff = 0;
	int r;

	if ((r = task_cap_eff(tid, &cap_eff)) < 0)
		return r;
	if (!(cap_eff & (1ULL << cap_bit)))
		return -EPERM;
	return in_init_userns(tid) ? 0 : -EPERM;
}

int proc_is_init_ns_admin(pid_t tid)
{
	return proc_has_init_ns_cap(tid, CAP_SYS_ADMIN_BIT);
}

int proc_fs_creds(pid_t tid, struct proc_fs_creds **out)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	_cleanup_free_ struct proc_fs_creds *creds = NULL;
	const char *field = NULL;
	unsigned long long cap_eff = 0;
	unsigned int nr = 0;
	bool init_ns;
	int r;

	if ((r = task_cap_eff(tid, &cap_eff)) < 0)
		return r;
	/*
	 * The cgroup2 tree belongs to the initial user namespace: a capability
	 * held in another one counts for no inode of it (capable_wrt_inode_uidgid
	 * wants the owner mapped there, which the global root is not). Asked only
	 * of an opener that holds one of the two: a user's open spares it.
	 */
	init_ns = (cap_eff & (1ULL << CAP_DAC_OVERRIDE_BIT | 1ULL << CAP_SYS_ADMIN_BIT)) &&
		  in_init_userns(tid);
	/*
	 * Groups decide only what CAP_DAC_OVERRIDE does not override (the
	 * cgroup.procs a move crosses to, tasks.c): an opener that holds it, as
	 * root mostly does, is not asked for them.
	 */
	if (!init_ns || !(cap_eff & (1ULL << CAP_DAC_OVERRIDE_BIT))) {
		if ((r = proc_read(tid, "status", &status)) < 0)
			return r;
		if (!(field = status_field(status.buf, "Groups:")))
			return -EIO;
		/* As many as the line has words: root sets them, up to NGROUPS_MAX. */
		for (const char *c = field; *c && *c != '\n'; c++)
			nr += (*c >= '0' && *c <= '9') &&
			      (c == field || c[-1] == ' ' || c[-1] == '\t');
	}
	if (!(creds = calloc(1, sizeof(*creds) + nr * sizeof(creds->groups[0]))))
		return -ENOMEM;
	for (const char *c = field; creds->nr_groups < nr;) {
		char *end;
		unsigned long gid = strtoul(c, &end, 10);

		if (end == c)
			return -EIO;
		creds->groups[creds->nr_groups++] = (gid_t)gid;
		c = end;
	}
	creds->dac_override = init_ns && (cap_eff & (1ULL << CAP_DAC_OVERRIDE_BIT));
	creds->sys_admin = init_ns && (cap_eff & (1ULL << CAP_SYS_ADMIN_BIT));
	*out = steal_ptr(creds);
	return 0;
}

int proc_cgroup2_path(pid_t pid, char *buf, size_t size)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	const char *path;
	size_t len;
	int r = proc_read(pid, "cgroup", &text);

	if (r < 0)
		return r;
	if (!strncmp(text.buf, "0::", 3))
		path = text.buf + 3;
	else if ((path = strstr(text.buf, "\n0::")))
		path += 4;
	else
		return -ENOENT;
	len = strcspn(path, "\n");
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, path, len);
	buf[len] = '\0';
	return 0;
}

int proc_start_time(pid_t pid, unsigned long long *start)
{
	_cleanup_strbuf_ struct strbuf stat = STRBUF_INIT;
	const char *after_comm;
	int r = proc_read(pid, "stat", &stat);

	if (r < 0)
		return r;
	/* comm may hold spaces and parentheses: fields start after the last ')'. */
	if (!(after_comm = strrchr(stat.buf, ')')))
		return -EIO;
	/* Field 22 is the 20th after comm. */
	if (sscanf(after_comm + 1,
		   " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
		   "%*d %*d %*d %*d %llu",
		   start) != 1)
		return -EIO;
	return 0;
}

bool proc_is_unmovable(pid_t pid)
{
	_cleanup_strbuf_ struct strbuf stat = STRBUF_INIT;
	const char *after_comm;
	unsigned int flags;
	int ppid;

	if (proc_read(pid, "stat", &stat) < 0 || !(after_comm = strrchr(stat.buf, ')')))
		return false;
	/* Field 4 is the parent, field 9 the flags: the 2nd and the 7th after comm. */
	if (sscanf(after_comm + 1, " %*c %d %*d %*d %*d %*d %u", &ppid, &flags) != 2)
		return false;
	/* kthreadd, the kernel threads' parent, is kept in the root (cgroup_init_kthreadd()). */
	return (flags & PF_NO_SETAFFINITY_BIT) || ((flags & PF_KTHREAD_BIT) && ppid == 0);
}

int proc_pidfd(pid_t pid)
{
	long fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : (int)fd;
}

/*
 * pidfd_getfd(2) wants the thread group leader; FUSE names the writing
 * thread. Its process's table is the one the descriptor numbers refer to.
 */
int proc_fd_take(pid_t tid, int fd)
{
	_cleanup_close_ int pidfd = -1;
	pid_t tgid;
	int r;

	if ((r = proc_tgid(tid, &tgid)) < 0)
		return r;
	if ((pidfd = proc_pidfd(tgid)) < 0)
		return pidfd;
	return proc_pidfd_take(pidfd, fd);
}

int proc_pidfd_take(int pidfd, int fd)
{
	long copy = syscall(SYS_pidfd_getfd, pidfd, fd, 0);

	return copy < 0 ? -errno : (int)copy;
}

void proc_fd_target(pid_t tid, unsigned long fd, char *target, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%lu", (int)tid, fd);
	n = readlink(path, target, size - 1);
	target[n < 0 ? 0 : n] = '\0';
}

bool proc_own_fd_is_eventfd(int fd)
{
	char target[64];

	proc_fd_target(getpid(), (unsigned long)fd, target, sizeof(target));
	return !strcmp(target, PROC_EVENTFD_LINK);
}

int proc_pidfd_alive(int pidfd)
{
	return syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) < 0 ? -errno : 0;
}

static int list_numeric(const char *path, struct pid_list *pids)
{
	DIR *dir = opendir(path);
	struct dirent *entry;
	int r = 0;

	if (!dir)
		return -errno;
	while ((entry = readdir(dir)) && r == 0) {
		char *end;
		long pid = strtol(entry->d_name, &end, 10);

		if (*end || end == entry->d_name || pid <= 0)
			continue;
		r = pid_list_add(pids, (pid_t)pid);
	}
	closedir(dir);
	return r;
}

int proc_list_all(bool threads, struct pid_list *pids)
{
	_cleanup_(pid_list_release) struct pid_list procs = {0};
	int r = list_numeric("/proc", &procs);

	if (r < 0)
		return r;
	for (size_t i = 0; i < procs.nr; i++) {
		char path[64];

		if (!threads) {
			if ((r = pid_list_add(pids, procs.pids[i])) < 0)
				return r;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/task", (int)procs.pids[i]);
		r = list_numeric(path, pids);
		/*
		 * A process gone meanwhile: its task directory answers ENOENT,
		 * or ESRCH while /proc's cached entry for it outlives it.
		 */
		if (r < 0 && r != -ENOENT && r != -ESRCH)
			return r;
	}
	pid_list_sort_unique(pids);
	return 0;
}

/* The pid namespace of task @pid, or of the daemon for 0. */
static int pid_ns_of(pid_t pid, char *link, size_t size)
{
	char path[64];

	if (!pid) {
		const char *self = self_ns_link("pid");

		if (!self)
			return -EIO;
		snprintf(link, size, "%s", self);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	return read_link(path, link, size);
}

/* MAX_PID_NS_LEVEL: pid namespaces nest 32 deep, so NSpid has at most 33 numbers. */
#define NS_LEVELS_MAX 33

/* /proc/@tid's NSpid line: its pid in each namespace from ours down to its own. */
static int ns_pids(pid_t tid, pid_t *levels, size_t room, size_t *nr)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	const char *field;
	int r;

	if ((r = proc_read(tid, "status", &status)) < 0)
		return r;
	if (!(field = status_field(status.buf, "NSpid:")))
		return -EIO;
	*nr = 0;
	for (const char *c = field; *c && *c != '\n' && *nr < room;) {
		char *end;
		long value = strtol(c, &end, 10);

		if (end == c)
			break;
		levels[(*nr)++] = (pid_t)value;
		c = end;
	}
	return *nr ? 0 : -EIO;
}

int proc_pid_in_ns_of(pid_t writer, pid_t pid, pid_t *ours)
{
	_cleanup_(pid_list_release) struct pid_list tasks = {0};
	char writer_ns[64], self_ns[64], task_ns[64];
	int r;

	if ((r = pid_ns_of(writer, writer_ns, sizeof(writer_ns))) < 0 ||
	    (r = pid_ns_of(0, self_ns, sizeof(self_ns))) < 0)
		return r;
	if (!strcmp(writer_ns, self_ns)) {
		*ours = pid;
		return 0;
	}
	if ((r = proc_list_all(true, &tasks)) < 0)
		return r;
	for (size_t i = 0; i < tasks.nr; i++) {
		pid_t levels[NS_LEVELS_MAX];
		size_t nr;

		if (ns_pids(tasks.pids[i], levels, ARRAY_SIZE(levels), &nr) < 0 ||
		    levels[nr - 1] != pid ||
		    pid_ns_of(tasks.pids[i], task_ns, sizeof(task_ns)) < 0 ||
		    strcmp(task_ns, writer_ns))
			continue;
		*ours = tasks.pids[i];
		return 0;
	}
	return -ESRCH;
}

/* The inode of the pid namespace @up levels above task @tid's own. */
static int pid_ns_ino_above(pid_t tid, size_t up, ino_t *ino)
{
	_cleanup_close_ int ns = -1;
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)tid);
	if ((ns = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	while (up--) {
		int parent = ioctl(ns, NS_GET_PARENT);

		if (parent < 0)
			return -errno;
		close(ns);
		ns = parent;
	}
	if (fstat(ns, &st) < 0)
		return -errno;
	*ino = st.st_ino;
	return 0;
}

int proc_pids_as_seen_by(pid_t reader, struct pid_list *pids)
{
	pid_t levels[NS_LEVELS_MAX];
	size_t reader_level, nr, kept = 0;
	char reader_ns[64], self_ns[64];
	ino_t reader_ino = 0, ino = 0;
	int r;

	if ((r = pid_ns_of(reader, reader_ns, sizeof(reader_ns))) < 0 ||
	    (r = pid_ns_of(0, self_ns, sizeof(self_ns))) < 0)
		return r;
	/* The common case: the reader numbers tasks as the daemon does. */
	if (!strcmp(reader_ns, self_ns))
		return 0;
	if ((r = ns_pids(reader, levels, ARRAY_SIZE(levels), &nr)) < 0 ||
	    (r = pid_ns_ino_above(reader, 0, &reader_ino)) < 0)
		return r;
	reader_level = nr - 1;
	for (size_t i = 0; i < pids->nr; i++) {
		/* In the reader's namespace or one below it: the number it has at that level. */
		if (ns_pids(pids->pids[i], levels, ARRAY_SIZE(levels), &nr) < 0 ||
		    nr <= reader_level ||
		    pid_ns_ino_above(pids->pids[i], nr - 1 - reader_level, &ino) < 0 ||
		    ino != reader_ino)
			continue;
		pids->pids[kept++] = levels[reader_level];
	}
	pids->nr = kept;
	pid_list_sort_unique(pids);
	return 0;
}

bool proc_same_file(int own_fd, pid_t pid, int fd)
{
	return syscall(SYS_kcmp, getpid(), pid, KCMP_FILE, own_fd, fd) == 0;
}

/* The next descriptor in the /proc/PID/fd listing @fds whose link is @link; -1 at the end. */
static int next_fd_named(DIR *fds, const char *link)
{
	struct dirent *entry;

	while ((entry = readdir(fds))) {
		char target[64];
		ssize_t n;

		if (entry->d_name[0] == '.')
			continue;
		if ((n = readlinkat(dirfd(fds), entry->d_name, target, sizeof(target) - 1)) < 0)
			continue;
		target[n] = '\0';
		if (!strcmp(target, link))
			return (int)strtol(entry->d_name, NULL, 10);
	}
	return -1;
}

static DIR *open_fd_dir(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	return opendir(path);
}

/* The descriptor of process @pid on the same open file as our @fd, -1 if none. */
static int holding_fd(pid_t pid, int fd, const char *link)
{
	_cleanup_closedir_ DIR *fds = open_fd_dir(pid);
	int theirs;

	if (!fds)
		return -1;
	while ((theirs = next_fd_named(fds, link)) >= 0) {
		if (proc_same_file(fd, pid, theirs))
			return theirs;
	}
	return -1;
}

int proc_file_holder(int fd, const char *link, pid_t *holder, int *holder_fd)
{
	_cleanup_(pid_list_release) struct pid_list procs = {0};
	pid_t self = getpid();
	int r;

	if ((r = proc_list_all(false, &procs)) < 0)
		return r;
	for (size_t i = 0; i < procs.nr; i++) {
		if (procs.pids[i] != self &&
		    (*holder_fd = holding_fd(procs.pids[i], fd, link)) >= 0) {
			*holder = procs.pids[i];
			return 0;
		}
	}
	return -ESRCH;
}

/* The value of "@key:" in the fdinfo text @info. */
static int fdinfo_value(const char *info, const char *key, int base, unsigned long long *value)
{
	size_t len = strlen(key);

	for (const char *line = info; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, len) && line[len] == ':') {
			*value = strtoull(line + len + 1, NULL, base);
			return 0;
		}
	}
	return -ENOENT;
}

int proc_fdinfo_field(pid_t pid, unsigned long fd, const char *key, int base,
		      unsigned long long *value)
{
	_cleanup_strbuf_ struct strbuf info = STRBUF_INIT;
	char path[64];
	int r;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%lu", (int)pid, fd);
	if ((r = read_file_at(AT_FDCWD, path, &info)) < 0)
		return r == -ENOENT ? -EBADF : r;
	return fdinfo_value(info.buf, key, base, value);
}

static int compare_ids(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

size_t proc_ids_sort_unique(unsigned long long *ids, size_t nr)
{
	size_t kept = 0;

	qsort(ids, nr, sizeof(*ids), compare_ids);
	for (size_t i = 0; i < nr; i++)
		if (!kept || ids[kept - 1] != ids[i])
			ids[kept++] = ids[i];
	return kept;
}

ssize_t proc_ids_find(const unsigned long long *ids, size_t nr, unsigned long long id)
{
	const unsigned long long *found = bsearch(&id, ids, nr, sizeof(*ids), compare_ids);

	return found ? found - ids : -1;
}

/* The eventfds of process @pid whose ids are wanted, into @holders; how many were new. */
static size_t eventfds_of(pid_t pid, const unsigned long long *ids, size_t nr,
			  struct proc_fd_ref *holders)
{
	_cleanup_closedir_ DIR *fds = open_fd_dir(pid);
	size_t found = 0;
	int fd;

	if (!fds)
		return 0;
	while ((fd = next_fd_named(fds, PROC_EVENTFD_LINK)) >= 0) {
		unsigned long long id;
		ssize_t wanted;

		if (proc_fdinfo_field(pid, (unsigned long)fd, "eventfd-id", 10, &id) < 0 ||
		    (wanted = proc_ids_find(ids, nr, id)) < 0 || holders[wanted].fd >= 0)
			continue;
		holders[wanted] = (struct proc_fd_ref){pid, fd};
		found++;
	}
	return found;
}

int proc_eventfd_holders(const unsigned long long *ids, size_t nr, struct proc_fd_ref *holders)
{
	_cleanup_(pid_list_release) struct pid_list procs = {0};
	pid_t self = getpid();
	size_t found = 0;
	int r;

	for (size_t i = 0; i < nr; i++)
		holders[i] = (struct proc_fd_ref){0, -1};
	if ((r = proc_list_all(false, &procs)) < 0)
		return r;
	for (size_t i = 0; i < procs.nr && found < nr; i++)
		if (procs.pids[i] != self)
			found += eventfds_of(procs.pids[i], ids, nr, holders);
	return 0;
}
