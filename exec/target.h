/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The process behind a notification: its memory, its ids, its paths. Every
 * answer drawn from here is trusted only once the notification id is found
 * still valid (seccomp_unotify(2): the pid may have been reused).
 */
#ifndef CGX_EXEC_TARGET_H
#define CGX_EXEC_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A NUL-terminated string at @addr of thread @tid; -ENAMETOOLONG past @size. */
int target_read_string(pid_t tid, uint64_t addr, char *buf, size_t size);
int target_read(pid_t tid, uint64_t addr, void *buf, size_t len);
int target_write(pid_t tid, uint64_t addr, const void *data, size_t len);
/* The thread group of thread @tid, from /proc/TID/status. */
pid_t target_tgid(pid_t tid);
/* Whether descriptor @fd of thread @tid is close-on-exec (1, 0), from its fdinfo; -errno. */
int target_fd_cloexec(pid_t tid, int fd);
/*
 * @path as @tid would reach it, made absolute from its cwd or from the
 * directory open as @dirfd (AT_FDCWD for the cwd). Not resolved: ".." and
 * "." are folded by name.
 */
int target_absolute_path(pid_t tid, int dirfd, const char *path, char *out, size_t size);
#endif
