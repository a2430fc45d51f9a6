// SPDX-License-Identifier: GPL-2.0-or-later
#include "target.h"

#include "decode.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

int target_read_string(pid_t tid, uint64_t addr, char *buf, size_t size)
{
	const size_t page = 4096;
	size_t got = 0;

	if (!addr)
		return -EFAULT;
	/* Page by page: a string may end just before an unmapped page. */
	while (got < size) {
		size_t chunk = page - ((addr + got) % page);
		struct iovec local, remote;
		ssize_t n;

		if (chunk > size - got)
			chunk = size - got;
		local = (struct iovec){.iov_base = buf + got, .iov_len = chunk};
		remote = (struct iovec){.iov_base = (void *)(uintptr_t)(addr + got),
					.iov_len = chunk};
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return n < 0 ? -errno : -EFAULT;
		if (memchr(buf + got, '\0', n))
			return 0;
		got += n;
	}
	return -ENAMETOOLONG;
}

int target_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = {.iov_base = buf, .iov_len = len};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
	ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EFAULT;
}

int target_write(pid_t tid, uint64_t addr, const void *data, size_t len)
{
	struct iovec local = {.iov_base = (void *)data, .iov_len = len};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
	ssize_t n = process_vm_writev(tid, &local, 1, &remote, 1, 0);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EFAULT;
}

/* The value of "@key:" in /proc/TID/status, as text. */
static int status_field(pid_t tid, const char *key, char *value, size_t size)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	char path[64];
	size_t key_len = strlen(key);
	int r;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if ((r = read_file_at(AT_FDCWD, path, &status)) < 0)
		return r;
	for (const char *line = status.buf; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, key_len) && line[key_len] == ':') {
			const char *start = line + key_len + 1;
			size_t len;

			start += strspn(start, " \t");
			len = strcspn(start, "\n");
			if (len >= size)
				return -ERANGE;
			memcpy(value, start, len);
			value[len] = '\0';
			return 0;
		}
	}
	return -ENOENT;
}

pid_t target_tgid(pid_t tid)
{
	char value[32];
	int r = status_field(tid, "Tgid", value, sizeof(value));

	return r < 0 ? r : (pid_t)strtol(value, NULL, 10);
}

int target_fd_cloexec(pid_t tid, int fd)
{
	char path[64], text[256];
	_cleanup_close_ int info = -1;
	unsigned int flags;
	const char *line;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", tid, fd);
	if ((info = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if ((len = read(info, text, sizeof(text) - 1)) < 0)
		return -errno;
	text[len] = '\0';
	if (!(line = strstr(text, "flags:")) || sscanf(line, "flags: %o", &flags) != 1)
		return -EIO;
	return flags & O_CLOEXEC;
}

int target_absolute_path(pid_t tid, int dirfd, const char *path, char *out, size_t size)
{
	char link[64];
	ssize_t len;

	if (path[0] == '/') {
		if (strlen(path) >= size)
			return -ENAMETOOLONG;
		snprintf(out, size, "%s", path);
		path_fold(out);
		return 0;
	}
	if (dirfd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", tid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", tid, dirfd);
	len = readlink(link, out, size - 1);
	if (len < 0)
		return -errno;
	out[len] = '\0';
	if (out[0] != '/')
		return -ENOTDIR; /* a pipe, a socket, an anonymous inode */
	if ((size_t)len + 1 + strlen(path) >= size)
		return -ENAMETOOLONG;
	snprintf(out + len, size - len, "/%s", path);
	path_fold(out);
	return 0;
}
