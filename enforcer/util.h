/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by every module: scope-bound cleanup, a growable
 * string buffer and logging that returns the error it logs.
 */
#ifndef CGX_UTIL_H
#define CGX_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline void cleanup_freep(void *p)
{
	free(*(void **)p);
}

static inline void cleanup_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

static inline void cleanup_closedirp(DIR **dir)
{
	if (*dir)
		closedir(*dir);
}

#define _cleanup_free_	   __attribute__((cleanup(cleanup_freep)))
#define _cleanup_closedir_ __attribute__((cleanup(cleanup_closedirp)))
#define _cleanup_close_	   __attribute__((cleanup(cleanup_closep)))
#define _cleanup_(f)	   __attribute__((cleanup(f)))

/* Hand ownership of a cleanup-managed pointer or fd to the caller. */
#define steal_ptr(p)                                                                               \
	({                                                                                         \
		__typeof__(p) stolen__ = (p);                                                      \
		(p) = NULL;                                                                        \
		stolen__;                                                                          \
	})
#define steal_fd(fd)                                                                               \
	({                                                                                         \
		int stolen__ = (fd);                                                               \
		(fd) = -1;                                                                         \
		stolen__;                                                                          \
	})

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

int strbuf_add(struct strbuf *sb, const char *data, size_t len);
int strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_release(struct strbuf *sb);

static inline void cleanup_strbufp(struct strbuf *sb)
{
	strbuf_release(sb);
}
#define _cleanup_strbuf_ __attribute__((cleanup(cleanup_strbufp)))

/*
 * The names of a list as listxattr(2) gives them, each ending in '\0'. An
 * empty list may have no buffer at all, and C has no arithmetic on a null
 * pointer, so the walk never makes one: NULL is both the start and the end.
 */
static inline const char *name_list_next(const struct strbuf *list, const char *name)
{
	size_t next = name ? (size_t)(name - list->buf) + strlen(name) + 1 : 0;

	return next < list->len ? list->buf + next : NULL;
}
#define for_each_name(name, list)                                                                  \
	for (const char *name = name_list_next(list, NULL); name; name = name_list_next(list, name))

enum cgx_log_level { CGX_LOG_ERR = 3, CGX_LOG_WARNING = 4, CGX_LOG_INFO = 6, CGX_LOG_DEBUG = 7 };

/*
 * Log a message (to stderr, and to syslog once the daemon has detached) and
 * return @err, so that a failure is logged and propagated in one line:
 *	return cgx_log_errno(-errno, "cannot open %s", path);
 * The text of @err is appended to the message when it is negative.
 * A macro, as systemd's log_*_errno(): the compiler sees that the value is
 * @err itself, so an error path leaves no output "maybe uninitialized".
 */
void cgx_log_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define cgx_log_errno(err, ...)                                                                    \
	({                                                                                         \
		int cgx_log_errno_value = (err);                                                   \
		cgx_log_err(cgx_log_errno_value, __VA_ARGS__);                                     \
		cgx_log_errno_value;                                                               \
	})
void cgx_log(enum cgx_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cgx_log_to_syslog(bool on);
void cgx_log_set_level(enum cgx_log_level max_level);

/* CLOCK_MONOTONIC in milliseconds: for intervals, never for dates. */
long long monotonic_ms(void);

/*
 * The daemon's pid, asked of the kernel once: glibc no longer caches
 * getpid(), and every write of the view compares its caller with it.
 * Never called in a child between fork and exec.
 */
pid_t own_pid(void);

/* Read a whole (small, kernel-generated) file at @dirfd/@name, NUL-terminated. */
int read_file_at(int dirfd, const char *name, struct strbuf *out);
/* The same from @fd, open for reading. */
int read_fd(int fd, struct strbuf *out);
/* The same for a file the kernel makes in one show() (/proc/PID/status): one read less. */
int read_record_file_at(int dirfd, const char *name, struct strbuf *out);
/* One write(2) of @len bytes, as a shell's `echo >` does; -errno on failure. */
int write_file_at(int dirfd, const char *name, const char *data, size_t len);

/*
 * FNV-1a, 64 bits, of @s: the hash of hashed v2 names (which a restarted
 * daemon and cgx-migrate must compute alike) and of the deprecation log's
 * keys; names for reading or to try, never a key trusted not to collide.
 */
uint64_t fnv1a(const char *s);

/* A growing list of pids; sorted and without repeats once pid_list_sort_unique() ran. */
struct pid_list {
	pid_t *pids;
	size_t nr;
	size_t cap;
};
int pid_list_add(struct pid_list *list, pid_t pid);
void pid_list_sort_unique(struct pid_list *list);
void pid_list_release(struct pid_list *list);
bool pid_list_contains(const struct pid_list *list, pid_t pid);

#endif
