// SPDX-License-Identifier: GPL-2.0-or-later
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <syslog.h>

/* The only process-wide settings: where log lines go. Set once at start-up. */
static bool log_syslog;
static enum cgx_log_level log_max_level = CGX_LOG_INFO;

int strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	if (sb->len + len + 1 > sb->cap) {
		size_t cap = sb->cap ? sb->cap : 256;
		char *grown;

		while (cap < sb->len + len + 1)
			cap *= 2;
		grown = realloc(sb->buf, cap);
		if (!grown)
			return -ENOMEM;
		sb->buf = grown;
		sb->cap = cap;
	}
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n < sizeof(small))
		return strbuf_add(sb, small, n);

	_cleanup_free_ char *big = malloc(n + 1);
	if (!big)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(big, n + 1, fmt, ap);
	va_end(ap);
	return strbuf_add(sb, big, n);
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void cgx_log_to_syslog(bool on)
{
	if (on && !log_syslog)
		openlog(program_invocation_short_name, LOG_PID, LOG_DAEMON);
	log_syslog = on;
}

void cgx_log_set_level(enum cgx_log_level max_level)
{
	log_max_level = max_level;
}

static void log_line(enum cgx_log_level level, int err, const char *fmt, va_list ap)
{
	char msg[1024];
	int n;

	if (level > log_max_level)
		return;
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (err < 0 && n >= 0 && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(-err));
	if (log_syslog)
		syslog((int)level, "%s", msg);
	else
		/* The library serves cgxfs and cgx-migrate: each line names its program. */
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, msg);
}

void cgx_log_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(CGX_LOG_ERR, err, fmt, ap);
	va_end(ap);
}

void cgx_log(enum cgx_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(level, 0, fmt, ap);
	va_end(ap);
}

static int read_whole_fd(int fd, bool one_record, struct strbuf *out)
{
	char chunk[4096];
	ssize_t n;
	int r;

	out->len = 0;
	if ((r = strbuf_add(out, "", 0)) < 0)
		return r;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		if ((r = strbuf_add(out, chunk, n)) < 0)
			return r;
		if (one_record && (size_t)n < sizeof(chunk))
			return 0;
	}
	return n < 0 ? -errno : 0;
}

static int read_whole_file_at(int dirfd, const char *name, bool one_record, struct strbuf *out)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -errno;
	return read_whole_fd(fd, one_record, out);
}

int read_fd(int fd, struct strbuf *out)
{
	return read_whole_fd(fd, false, out);
}

int read_file_at(int dirfd, const char *name, struct strbuf *out)
{
	return read_whole_file_at(dirfd, name, false, out);
}

/*
 * seq_read_iter() puts a whole record in the buffer, growing it if it must:
 * a file made by one show() (single_open, a kernfs file of one value) ends
 * where a read comes back short, and the read that returns 0 is spared. Not
 * so one of many records (cgroup.procs, mountinfo): a record that would not
 * fit the seq buffer's page ends a read short, with more to come.
 */
int read_record_file_at(int dirfd, const char *name, struct strbuf *out)
{
	return read_whole_file_at(dirfd, name, true, out);
}

int write_file_at(int dirfd, const char *name, const char *data, size_t len)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

long long monotonic_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static pid_t own_pid_seen;

/* A child of fork() is another process: it asks again (fuse_daemonize() forks after the load). */
static void own_pid_forget(void)
{
	__atomic_store_n(&own_pid_seen, 0, __ATOMIC_RELAXED);
}

static void own_pid_watch_forks(void)
{
	pthread_atfork(NULL, NULL, own_pid_forget);
}

pid_t own_pid(void)
{
	static pthread_once_t watching = PTHREAD_ONCE_INIT;
	pid_t pid = __atomic_load_n(&own_pid_seen, __ATOMIC_RELAXED);

	if (!pid) {
		pthread_once(&watching, own_pid_watch_forks);
		pid = getpid();
		__atomic_store_n(&own_pid_seen, pid, __ATOMIC_RELAXED);
	}
	return pid;
}

uint64_t fnv1a(const char *s)
{
	uint64_t hash = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		hash = (hash ^ (unsigned char)*s) * 0x100000001b3ULL;
	return hash;
}

int pid_list_add(struct pid_list *list, pid_t pid)
{
	if (list->nr == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 64;
		pid_t *grown = realloc(list->pids, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		list->pids = grown;
		list->cap = cap;
	}
	list->pids[list->nr++] = pid;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

void pid_list_sort_unique(struct pid_list *list)
{
	size_t out = 0;

	if (!list->nr)
		return; /* qsort wants an array, even for nothing */
	qsort(list->pids, list->nr, sizeof(*list->pids), cmp_pid);
	for (size_t i = 0; i < list->nr; i++)
		if (!out || list->pids[out - 1] != list->pids[i])
			list->pids[out++] = list->pids[i];
	list->nr = out;
}

bool pid_list_contains(const struct pid_list *list, pid_t pid)
{
	return list->nr && bsearch(&pid, list->pids, list->nr, sizeof(pid), cmp_pid) != NULL;
}

void pid_list_release(struct pid_list *list)
{
	free(list->pids);
	memset(list, 0, sizeof(*list));
}
