// SPDX-License-Identifier: GPL-2.0-or-later
#include "v2io.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#define CGX_XATTR_PREFIX "trusted.cgx."

int v2_open_beneath(int base_fd, const char *relpath, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	long fd;

	if (!relpath[0])
		relpath = ".";
	fd = syscall(SYS_openat2, base_fd, relpath, &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

int v2_open_dir(int base_fd, const char *relpath)
{
	return v2_open_beneath(base_fd, relpath, O_RDONLY | O_DIRECTORY);
}

/*
 * getxattrat(2) and listxattrat(2) (Linux 6.13) read a directory's records
 * by name from its parent's fd: a start that loads every directory spares
 * the open and close of each one (docs/design.md §7, what a request costs).
 * Older kernels say ENOSYS once; the f*xattr calls on an opened fd follow.
 */
#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef SYS_listxattrat
#define SYS_listxattrat 465
#endif

struct xattr_args_at {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

static int at_calls_missing;

bool v2_xattr_at_supported(void)
{
	return !__atomic_load_n(&at_calls_missing, __ATOMIC_RELAXED);
}

/*
 * getxattr(2) of @name or, @name NULL, listxattr(2), of @fd or, with a
 * @child name, of @fd's child directory.
 */
static ssize_t xattr_raw(int fd, const char *child, const char *name, void *buf, size_t size)
{
	struct xattr_args_at args = {.value = (uintptr_t)buf, .size = size};
	_cleanup_close_ int child_fd = -1;
	long n;

	if (*child && v2_xattr_at_supported()) {
		n = name ? syscall(SYS_getxattrat, fd, child, AT_SYMLINK_NOFOLLOW, name, &args,
				   sizeof(args))
			 : syscall(SYS_listxattrat, fd, child, AT_SYMLINK_NOFOLLOW, buf, size);
		if (n >= 0 || errno != ENOSYS)
			return n;
		__atomic_store_n(&at_calls_missing, 1, __ATOMIC_RELAXED);
	}
	if (*child) {
		if ((child_fd = v2_open_dir(fd, child)) < 0) {
			errno = -child_fd;
			return -1;
		}
		fd = child_fd;
	}
	return name ? fgetxattr(fd, name, buf, size) : flistxattr(fd, buf, size);
}

/* Records are short: one call into a buffer of this size, and a second only for a longer one. */
#define XATTR_FIRST_TRY 256

int v2_xattr_get_at(int fd, const char *child, const char *name, struct strbuf *value)
{
	ssize_t n;
	int r;

	value->len = 0;
	if ((r = strbuf_add(value, "", 0)) < 0)
		return r;
	for (;;) {
		if (value->cap < XATTR_FIRST_TRY) {
			char *grown = realloc(value->buf, XATTR_FIRST_TRY);

			if (!grown)
				return -ENOMEM;
			value->buf = grown;
			value->cap = XATTR_FIRST_TRY;
		}
		/* One byte kept for the NUL: a value that fills the buffer may be cut. */
		n = xattr_raw(fd, child, name, value->buf, value->cap - 1);
		if (n >= 0)
			break;
		if (errno != ERANGE)
			return -errno;
		if ((n = xattr_raw(fd, child, name, NULL, 0)) < 0)
			return -errno;
		/* Grown between the two calls: asked again at the new size. */
		char *grown = realloc(value->buf, n + 1 + XATTR_FIRST_TRY);

		if (!grown)
			return -ENOMEM;
		value->buf = grown;
		value->cap = n + 1 + XATTR_FIRST_TRY;
	}
	value->len = n;
	value->buf[n] = '\0';
	return 0;
}

int v2_xattr_get(int fd, const char *name, struct strbuf *value)
{
	return v2_xattr_get_at(fd, "", name, value);
}

int v2_xattr_set(int fd, const char *name, const char *value, size_t len)
{
	return fsetxattr(fd, name, value, len, 0) < 0 ? -errno : 0;
}

int v2_xattr_remove(int fd, const char *name)
{
	if (fremovexattr(fd, name) < 0 && errno != ENODATA)
		return -errno;
	return 0;
}

int v2_xattr_list_at(int fd, const char *child, struct strbuf *names)
{
	char first[1024];
	_cleanup_free_ char *all = NULL;
	char *list = first;
	ssize_t n;
	int r;

	names->len = 0;
	if ((r = strbuf_add(names, "", 0)) < 0)
		return r;
	n = xattr_raw(fd, child, NULL, first, sizeof(first));
	while (n < 0) {
		if (errno != ERANGE)
			return -errno;
		if ((n = xattr_raw(fd, child, NULL, NULL, 0)) < 0)
			return -errno;
		free(all);
		/* Room for records added between the two calls. */
		if (!(list = all = malloc(n + sizeof(first))))
			return -ENOMEM;
		n = xattr_raw(fd, child, NULL, all, n + sizeof(first));
	}
	for (char *name = list; name < list + n; name += strlen(name) + 1)
		if (!strncmp(name, CGX_XATTR_PREFIX, strlen(CGX_XATTR_PREFIX)) &&
		    (r = strbuf_add(names, name, strlen(name) + 1)) < 0)
			return r;
	return 0;
}

int v2_xattr_list(int fd, struct strbuf *names)
{
	return v2_xattr_list_at(fd, "", names);
}

int v2_read_pids(int dirfd, const char *file, struct pid_list *pids)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	int r = read_file_at(dirfd, file, &text);

	if (r < 0)
		return r;
	for (char *line = text.buf, *end; *line; line = end) {
		long pid = strtol(line, &end, 10);

		if (end == line)
			break;
		if ((r = pid_list_add(pids, (pid_t)pid)) < 0)
			return r;
		while (*end == '\n')
			end++;
	}
	return 0;
}

int v2_attach_procs(int procs_fd, pid_t pid)
{
	char text[32];
	int len = snprintf(text, sizeof(text), "%d\n", (int)pid);
	ssize_t n = write(procs_fd, text, len);

	if (n < 0)
		return -errno;
	return n == len ? 0 : -EIO;
}

int v2_attach(int dirfd, pid_t pid)
{
	_cleanup_close_ int fd = openat(dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC | O_NOFOLLOW);

	return fd < 0 ? -errno : v2_attach_procs(fd, pid);
}

int v2_drain(int from_fd, int to_fd)
{
	/* Each pass empties what it saw; forks only ever add a bounded few. */
	for (int pass = 0; pass < 64; pass++) {
		_cleanup_(pid_list_release) struct pid_list pids = {0};
		int r = v2_read_pids(from_fd, "cgroup.procs", &pids);

		if (r < 0)
			return r;
		if (pids.nr == 0)
			return 0;
		for (size_t i = 0; i < pids.nr; i++) {
			r = v2_attach(to_fd, pids.pids[i]);
			if (r < 0 && r != -ESRCH)
				return r;
		}
	}
	return -EBUSY;
}

int v2_subtree_control(int dirfd, const char *controllers, bool enable)
{
	char text[512];
	size_t used = 0;

	for (const char *c = controllers; *c;) {
		size_t len = strcspn(c, " ");
		int w;

		if (len) {
			w = snprintf(text + used, sizeof(text) - used, "%s%c%.*s", used ? " " : "",
				     enable ? '+' : '-', (int)len, c);
			if (w < 0 || (size_t)w >= sizeof(text) - used)
				return -E2BIG;
			used += w;
		}
		c += len;
		c += strspn(c, " ");
	}
	if (!used)
		return 0;
	return write_file_at(dirfd, "cgroup.subtree_control", text, used);
}
