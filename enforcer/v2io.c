// SPDX-License-Identifier: GPL-2.0-or-later
#include "v2io.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

#define CGX_XATTR_PREFIX "trusted.cgx."

int v2_open_dir(int base_fd, const char *relpath)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	long fd;

	if (!relpath[0])
		relpath = ".";
	fd = syscall(SYS_openat2, base_fd, relpath, &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

int v2_xattr_get(int fd, const char *name, struct strbuf *value)
{
	ssize_t n = fgetxattr(fd, name, NULL, 0);
	int r;

	if (n < 0)
		return -errno;
	value->len = 0;
	if ((r = strbuf_add(value, "", 0)) < 0)
		return r;
	if ((size_t)n + 1 > value->cap) {
		char *grown = realloc(value->buf, n + 1);

		if (!grown)
			return -ENOMEM;
		value->buf = grown;
		value->cap = n + 1;
	}
	n = fgetxattr(fd, name, value->buf, n);
	if (n < 0)
		return -errno;
	value->len = n;
	value->buf[n] = '\0';
	return 0;
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

int v2_xattr_list(int fd, struct strbuf *names)
{
	ssize_t n = flistxattr(fd, NULL, 0);
	_cleanup_free_ char *all = NULL;
	int r;

	names->len = 0;
	if ((r = strbuf_add(names, "", 0)) < 0)
		return r;
	if (n <= 0)
		return n < 0 ? -errno : 0;
	if (!(all = malloc(n)))
		return -ENOMEM;
	if ((n = flistxattr(fd, all, n)) < 0)
		return -errno;
	for (char *name = all; name < all + n; name += strlen(name) + 1)
		if (!strncmp(name, CGX_XATTR_PREFIX, strlen(CGX_XATTR_PREFIX)) &&
		    (r = strbuf_add(names, name, strlen(name) + 1)) < 0)
			return r;
	return 0;
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

int v2_attach(int dirfd, pid_t pid)
{
	char text[32];
	int len = snprintf(text, sizeof(text), "%d\n", (int)pid);

	return write_file_at(dirfd, "cgroup.procs", text, len);
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
