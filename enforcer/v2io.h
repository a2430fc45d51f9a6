/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The v2 writer: every access to the real cgroup2 tree goes through here,
 * relative to the base directory's fd, never following a symlink.
 */
#ifndef CGX_V2IO_H
#define CGX_V2IO_H

#include "util.h"

#include <sys/types.h>

/* Opens @relpath ("" for the base itself) beneath @base_fd, with open(2)'s @flags. */
int v2_open_beneath(int base_fd, const char *relpath, int flags);
/* The same, as a directory. */
int v2_open_dir(int base_fd, const char *relpath);

int v2_xattr_get(int fd, const char *name, struct strbuf *value);
int v2_xattr_set(int fd, const char *name, const char *value, size_t len);
int v2_xattr_remove(int fd, const char *name);
/* The names of every trusted.cgx.* xattr of @fd, NUL-separated, in @names. */
int v2_xattr_list(int fd, struct strbuf *names);
/*
 * The same of @fd's child directory @child ("" for @fd itself), read
 * without opening it where the kernel can (getxattrat, listxattrat).
 */
int v2_xattr_get_at(int fd, const char *child, const char *name, struct strbuf *value);
int v2_xattr_list_at(int fd, const char *child, struct strbuf *names);
/* False once the kernel said it has no getxattrat: a caller then opens the directory. */
bool v2_xattr_at_supported(void);

/* Sorted pids of "cgroup.procs" or "cgroup.threads" of @dirfd, appended to @pids. */
int v2_read_pids(int dirfd, const char *file, struct pid_list *pids);

/* Moves the process @pid into @dirfd's cgroup (cgroup.procs). */
int v2_attach(int dirfd, pid_t pid);
/* The same through @procs_fd, a cgroup.procs open for writing. */
int v2_attach_procs(int procs_fd, pid_t pid);
/*
 * Moves every process of @from_fd into @to_fd. New children forked while it
 * runs are caught by the next pass: the kernel's threadgroup lock puts a
 * fork either before a migration (listed next pass) or after it.
 */
int v2_drain(int from_fd, int to_fd);

/* Writes "+a +b" / "-a -b" of @controllers (space separated) to cgroup.subtree_control. */
int v2_subtree_control(int dirfd, const char *controllers, bool enable);

/* v2dir.c: the real v2 directories behind the mirror. */
struct cgx_ctx;
struct v2_dir;
/* Opens the real v2 directory of @dir. */
int cgx_dir_open(struct cgx_ctx *ctx, const struct v2_dir *dir);
/*
 * The same, from the fds this request opened before if it has one of @dir:
 * the fd is the caller's until it gives it back with cgx_dir_put(), which
 * keeps it for the next caller; cgx_unlock() closes what is kept.
 */
int cgx_dir_get(struct cgx_ctx *ctx, const struct v2_dir *dir);
void cgx_dir_put(struct cgx_ctx *ctx, const struct v2_dir *dir, int fd);
void cgx_dir_fds_close(struct cgx_ctx *ctx);
/*
 * Opens the file @name of @dir's real directory (open(2)'s @flags) in one
 * system call: through the fd of @dir this request holds, or by its path
 * from the base. For a request that touches one file of a directory (a
 * move's cgroup.procs, a statistic's read), which spares the directory's
 * own open and close.
 */
int cgx_dir_file_open(struct cgx_ctx *ctx, const struct v2_dir *dir, const char *name, int flags);
/*
 * Reads the file @name of @dir's real directory into @out, or takes what
 * the request read ahead of it without the lock (struct cgx_read_ahead).
 */
int cgx_dir_file_read(struct cgx_ctx *ctx, const struct v2_dir *dir, const char *name,
		      struct strbuf *out);

/*
 * Kernel work that may block for long (memory.reclaim: seconds for a large
 * group) runs without the model lock, so that other requests go on
 * meanwhile (docs/design.md §7). cgx_kernel_begin() gives the lock up, and
 * closes the directories kept for the request, when the handler may yield
 * (ctx->may_yield), and says whether it did; cgx_kernel_end() takes the
 * lock back. In between the model may change: the caller holds no
 * cgx_dir_ref and touches no v2_dir, only fds it opened itself, and then
 * finds its group again with cgx_group_refind().
 */
bool cgx_kernel_begin(struct cgx_ctx *ctx);
void cgx_kernel_end(struct cgx_ctx *ctx, bool yielded);
/* The directory of group @id of @hier now in @dir; -ENODEV once the group is gone (as kernfs). */
int cgx_group_refind(struct cgx_ctx *ctx, uint64_t id, unsigned int hier, struct v2_dir **dir);

/* A directory fd from cgx_dir_get(), given back at the end of its scope. */
struct cgx_dir_ref {
	struct cgx_ctx *ctx;
	const struct v2_dir *dir;
	int fd;
};

static inline struct cgx_dir_ref cgx_dir_ref(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	return (struct cgx_dir_ref){ctx, dir, cgx_dir_get(ctx, dir)};
}

static inline void cgx_dir_ref_put(struct cgx_dir_ref *ref)
{
	cgx_dir_put(ref->ctx, ref->dir, ref->fd);
}

#define _cleanup_dir_ref_ __attribute__((cleanup(cgx_dir_ref_put)))
bool cgx_has_controller(const struct cgx_ctx *ctx, const char *controller);
/* 1 when no process is in @dir itself (its cgroup.procs is empty), 0 when some is. */
int cgx_dir_is_empty(struct cgx_ctx *ctx, const struct v2_dir *dir);
/* 1 when no process is in @dir or below it (cgroup.events "populated 0"), 0 when some is. */
int cgx_subtree_is_empty(struct cgx_ctx *ctx, const struct v2_dir *dir);
/* Reads v2 file @v2_file of @dir; -EOPNOTSUPP when the base lacks @controller. */
int knob_read(struct cgx_ctx *ctx, struct v2_dir *dir, const char *controller, const char *v2_file,
	      struct strbuf *out);
/* The value of @key in a flat-keyed v2 file ("nr_periods 3"), 0 when absent. */
unsigned long long v2_stat_key(const char *text, const char *key);
/* The value of @key in a "key=value key=value" line (io.stat, io.max), 0 when absent. */
unsigned long long v2_stat_key_eq(const char *fields, const char *key);

/* knob_offline.c */
/*
 * css_offline(): the group of @hier leaves @dir (rmdir, renamed away, its
 * hierarchy removed) while the directory stays for other hierarchies or
 * leaves: every v2 knob its rows set there goes back to cgroup2's default,
 * so that no limit outlives its group. Best effort, logged.
 */
void knob_offline(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);

#endif
