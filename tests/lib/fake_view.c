// SPDX-License-Identifier: GPL-2.0-or-later
#include "fake_view.h"

#include "v2_syntax.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

/* The view being fuzzed: the write_file_at wrapper has no other way to reach it. */
static const struct fake_view *current;

#define ALL_CONTROLLERS "cpuset cpu io memory hugetlb pids rdma misc\n"

struct file_value {
	const char *name, *value;
};

/* The files of a v2 group with the values a fresh cgroup2 directory shows. */
static const struct file_value group_files[] = {
	{"cgroup.procs", ""},
	{"cgroup.threads", ""},
	{"cgroup.events", "populated 0\nfrozen 0\n"},
	{"cgroup.freeze", "0\n"},
	{"cgroup.subtree_control", ""},
	{"cgroup.controllers", ALL_CONTROLLERS},
	{"cpu.max", "max 100000\n"},
	{"cpu.max.burst", "0\n"},
	{"cpu.weight", "100\n"},
	{"cpu.idle", "0\n"},
	{"cpu.stat", "usage_usec 0\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n"},
	{"cpuset.cpus", "\n"},
	{"cpuset.mems", "\n"},
	{"cpuset.cpus.effective", "0-1\n"},
	{"cpuset.mems.effective", "0\n"},
	{"io.max", ""},
	{"io.stat", "8:0 rbytes=4096 wbytes=0 rios=1 wios=0 dbytes=0 dios=0\n"},
	{"memory.max", "max\n"},
	{"memory.high", "max\n"},
	{"memory.low", "0\n"},
	{"memory.min", "0\n"},
	{"memory.swap.max", "max\n"},
	{"memory.reclaim", ""},
	{"memory.current", "4096\n"},
	{"memory.peak", "8192\n"},
	{"memory.swap.current", "0\n"},
	{"memory.events", "low 0\nhigh 0\nmax 2\noom 0\noom_kill 1\n"},
	{"memory.swap.events", "high 0\nmax 0\nfail 0\n"},
	{"memory.stat", "anon 0\nfile 4096\nkernel 0\nshmem 0\npgfault 3\n"},
	{"pids.max", "max\n"},
	{"pids.current", "0\n"},
	{"pids.events", "max 0\n"},
	{"pids.peak", "0\n"},
	{"rdma.max", ""},
	{"rdma.current", ""},
	{"misc.max", "sev max\nsev_es max\n"},
	{"misc.current", "sev 0\nsev_es 0\n"},
	{"misc.events", "sev.max 0\nsev_es.max 0\n"},
	{"hugetlb.2MB.max", "max\n"},
	{"hugetlb.2MB.current", "0\n"},
	{"hugetlb.2MB.events", "max 0\n"},
	{"hugetlb.2MB.rsvd.max", "max\n"},
	{"hugetlb.2MB.rsvd.current", "0\n"},
	{"hugetlb.1GB.max", "max\n"},
	{"hugetlb.1GB.current", "0\n"},
	{"hugetlb.1GB.events", "max 0\n"},
	{"hugetlb.1GB.rsvd.max", "max\n"},
	{"hugetlb.1GB.rsvd.current", "0\n"},
};

/* Only the mount's root has these. */
static const struct file_value root_files[] = {
	{"misc.capacity", "sev 509\nsev_es 0\n"},
	{"memory.stat", "anon 0\nfile 4096\n"},
	{"cpu.stat", "usage_usec 5000\nuser_usec 3000\nsystem_usec 2000\n"},
	{"cgroup.controllers", ALL_CONTROLLERS},
	{"cgroup.subtree_control", ALL_CONTROLLERS},
};

static int write_new(int dirfd, const char *name, const char *value)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -EIO;
}

int fake_dir_populate(struct fake_view *view, const char *relpath)
{
	char path[PATH_MAX];
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/%s", view->mount, relpath);
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(group_files); i++)
		r = write_new(fd, group_files[i].name, group_files[i].value);
	close(fd);
	return r;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}

/*
 * libFuzzer leaves with _Exit, on a crash too: no atexit handler runs. A
 * child waits for the end of the fuzzer (its pipe closes) and removes the
 * stand-in mount then.
 */
static int start_reaper(const char *mount)
{
	int fds[2], null;
	pid_t pid;
	char byte;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if ((pid = fork()) < 0)
		return -errno;
	if (pid == 0) {
		close(fds[1]);
		if ((null = open("/dev/null", O_RDWR)) >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		while (read(fds[0], &byte, 1) < 0 && errno == EINTR)
			;
		nftw(mount, remove_one, 16, FTW_DEPTH | FTW_PHYS);
		_exit(0);
	}
	close(fds[0]);
	return 0;
}

int fake_mount_create(struct fake_view *view)
{
	int fd, r = 0;

	/* The daemon's state is in trusted.* xattrs: root only. ctest counts 77 as skipped. */
	if (geteuid() != 0) {
		fprintf(stderr, "the view fuzzers need root (trusted.* xattrs): skipped\n");
		exit(77);
	}
	snprintf(view->mount, sizeof(view->mount), "/dev/shm/cgx-fuzz-XXXXXX");
	if (!mkdtemp(view->mount))
		return -errno;
	if ((r = start_reaper(view->mount)) < 0)
		return r;
	if ((fd = open(view->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(root_files); i++)
		r = write_new(fd, root_files[i].name, root_files[i].value);
	close(fd);
	view->caller = (struct cgx_caller){getpid(), 0, 0, true, NULL};
	current = view;
	return r < 0 ? r : fake_dir_populate(view, FAKE_BASE);
}

int fake_set_controllers(struct fake_view *view, const char *controllers)
{
	char path[PATH_MAX];
	int fd, r;

	snprintf(path, sizeof(path), "%s/" FAKE_BASE, view->mount);
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	r = write_new(fd, "cgroup.controllers", controllers ? controllers : ALL_CONTROLLERS);
	close(fd);
	return r;
}

int fake_view_open(struct fake_view *view)
{
	struct cgx_options options = {
		.cgroup2 = view->mount,
		.base = FAKE_BASE,
		.deprecation_log = "",
	};

	return cgx_ctx_open(&view->ctx, &options);
}

void fake_view_close(struct fake_view *view)
{
	cgx_ctx_free(view->ctx);
	view->ctx = NULL;
}

int fake_xattr_set(struct fake_view *view, const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", view->mount, FAKE_BASE, dir);
	return setxattr(path, name, value, strlen(value), 0) < 0 ? -errno : 0;
}

int fake_file_set(struct fake_view *view, const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX];
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s", FAKE_BASE, dir);
	if ((fd = open(view->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	r = openat(fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(fd);
	if ((fd = r) < 0)
		return -errno;
	r = write_new(fd, file, value);
	close(fd);
	return r;
}

int fake_dir_relpath(const struct v2_dir *dir, char *buf, size_t size)
{
	char path[PATH_MAX];
	int r = tree_path(dir, false, path, sizeof(path));

	if (r < 0)
		return r;
	return snprintf(buf, size, "%s%s%s", FAKE_BASE, *path ? "/" : "", path) < (int)size
		       ? 0
		       : -ENAMETOOLONG;
}

int __wrap_write_file_at(int dirfd, const char *name, const char *data, size_t len);

/*
 * Every write libcgx makes to a v2 file: the value must be one cgroup2
 * takes there. A plain file keeps what was written last, as a kernel file
 * reads back the value, so each write replaces the whole content.
 */
int __wrap_write_file_at(int dirfd, const char *name, const char *data, size_t len)
{
	const char *why = v2_syntax_check(name, data, len);
	int fd;
	ssize_t n;

	if (why && current && current->lenient)
		return -EINVAL;
	if (why) {
		fprintf(stderr, "cgx wrote '%.*s' to %s, which cgroup2 refuses: %s\n", (int)len,
			data, name, why);
		abort();
	}
	if ((fd = openat(dirfd, name, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return -errno;
	n = write(fd, data, len);
	close(fd);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

size_t fuzz_record_len(const uint8_t *data, const uint8_t *end, size_t header)
{
	const uint8_t *nul;

	if ((size_t)(end - data) <= header)
		return end - data;
	nul = memchr(data + header, '\0', end - data - header);
	return (nul ? nul : end) - data;
}
