/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libcgx: the v1 model both front ends use. A caller holds the context lock
 * (cgx_lock) around every call; the functions below assume it is held.
 *
 * A v1 group is named by (v2 directory, hierarchy index): the directory is
 * the one v2 directory that carries the group (see tree.h).
 */
#ifndef CGX_H
#define CGX_H

#include "aggregate_state.h"
#include "deprecation_log.h"
#include "event.h"
#include "hierarchy.h"
#include "memevent_state.h"
#include "tree.h"
#include "v1_files.h"

#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>

#define CGX_VERSION "0.1.0"

struct cgx_options {
	const char *cgroup2; /* NULL: the cgroup2 mount found with libmount */
	const char *base;    /* the one v2 directory managed, relative to the mount */
	const char *hierarchies;
	/* Controllers whose groups hold divergent leaves first ("cpu,memory"); NULL: the default.
	 */
	const char *primary_order;
	/* The deprecation log file; NULL: CGX_DEFAULT_DEPRECATION_LOG, "": none. */
	const char *deprecation_log;
	/* Bytes it may reach; 0: CGX_DEFAULT_DEPRECATION_LOG_MAX; CGX_DEPRECATION_LOG_NO_MAX. */
	unsigned long long deprecation_log_max;
	/* The records go to journald as well (deprecation_journal.h). */
	bool journal;
	/* cgroup.event_control registrations a uid other than root may hold; 0: the default. */
	unsigned int listeners_per_uid;
};

/*
 * Directory fds a request opened, kept until it releases the lock
 * (cgx_dir_get(), v2dir.c): a move opens the leaf it fills three times and
 * the one it empties four, and each open walks a path.
 */
#define CGX_DIR_FDS 8
struct cgx_dir_fds {
	struct {
		const struct v2_dir *dir;
		uint64_t serial;
		int fd;
	} slot[CGX_DIR_FDS];
	unsigned int nr;
};

/*
 * The v2 files a read of a statistics file needs, read without the lock
 * (docs/design.md §7): listed under it by running the file's handler with
 * every v2 read answered empty, read after it is released, and handed to
 * the handler's second run under the lock again, which reads anew only a
 * file the list lacks (the model changed in between).
 */
#define CGX_READ_AHEAD_FILES 1024
struct cgx_read_ahead {
	bool listing; /* the first run: v2 reads are listed, and answered empty */
	bool fetched; /* cgx_read_ahead_fetch() read them */
	unsigned int nr, alloc, next;
	struct cgx_read_ahead_file {
		size_t path;	  /* in paths: from the base, "dir/file" */
		size_t text, len; /* in texts */
		int error;	  /* of the read without the lock, or 0 */
	} * file;
	struct strbuf paths, texts;
};

/* All mutable state of a daemon: one per mounted view. */
struct cgx_ctx {
	pthread_mutex_t lock;
	struct cgx_hier_set hiers;
	struct v2_tree tree;
	char cgroup2_path[PATH_MAX];
	char base_relpath[PATH_MAX]; /* the base, relative to the cgroup2 mount */
	int cgroup2_fd;
	int base_fd;
	/* The directories above the base, each holding a shared lock (claim_base()). */
	int *above_fds;
	unsigned int nr_above;
	/* Controllers the base may hand down ("cpu memory ..."), enabled in inner directories. */
	char controllers[256];
	struct deprecation_log deprecations;
	struct aggregate_state aggregates;
	/* A directory of the mirror was found gone from v2: cgx_reconcile() is due. */
	bool reconcile_wanted;
	/*
	 * Leaves moved or a limit changed: the split is settled once, as the
	 * lock is released (cgx_unlock()), not after each step of a request.
	 */
	bool rebalance_wanted;
	/* Some leaf is vacated (tree.h): cgx_retire_vacated_leaves() is due. */
	bool leaves_vacated;
	struct memevent_state memevents;
	struct cgx_dir_fds dir_fds;
	/*
	 * The handler running may give the lock up for kernel work that blocks
	 * (cgx_kernel_begin()): set for a write from the view, never for the
	 * daemon's own steps, which must not be seen half done.
	 */
	bool may_yield;
	/* Set while a read's handler runs with files read ahead (struct cgx_read_ahead). */
	struct cgx_read_ahead *read_ahead;
	/* How often a handler gave the lock up: its caller then finds its group again by id. */
	uint64_t yields;
	/* Who hears the events of the group layer (event.h), NULL-terminated; set at open. */
	cgx_event_fn *const *subscribers;
};

int cgx_ctx_open(struct cgx_ctx **ctx, const struct cgx_options *options);
void cgx_ctx_free(struct cgx_ctx *ctx);

void cgx_lock(struct cgx_ctx *ctx);
void cgx_unlock(struct cgx_ctx *ctx);

/* The cgroup2 mount point, found in the mount table with libmount; -ENOENT if none. */
int cgx_find_cgroup2(char *path, size_t size);

/* Hierarchies made and removed while mounted (hierarchy_runtime.c). */
/* mkdir at the mount root: -EPERM, -EINVAL, -EBUSY, -EEXIST as mount(2) and mkdir would. */
int cgx_hierarchy_add(struct cgx_ctx *ctx, const char *name, const struct cgx_caller *caller,
		      unsigned int *index);
/* rmdir at the mount root: -EBUSY while the hierarchy has groups. */
int cgx_hierarchy_remove(struct cgx_ctx *ctx, const char *name, const struct cgx_caller *caller);

/* Groups. */
/* The v1 name of a group (NULL for the base). */
const char *cgx_group_name(const struct v2_dir *dir);
int cgx_group_lookup(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier,
		     const char *name, struct v2_dir **child);
int cgx_group_mkdir(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier, const char *name,
		    const struct cgx_caller *caller, mode_t mode, struct v2_dir **child);
int cgx_group_rmdir(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier,
		    const char *name);
int cgx_group_rename(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier,
		     const char *name, struct v2_dir *new_parent, const char *new_name);

/* Attributes of the group directory (@file < 0) or of one of its files. */
struct cgx_attr {
	uid_t uid;
	gid_t gid;
	mode_t mode; /* permission bits only */
};
int cgx_group_getattr(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		      struct cgx_attr *attr);
enum { CGX_SET_UID = 1, CGX_SET_GID = 2, CGX_SET_MODE = 4 };
int cgx_group_setattr(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		      const struct cgx_attr *attr, unsigned int which);

/* Files: index in ctx->hiers.hier[hier].files, checked against root-only / not-on-root. */
int cgx_file_lookup(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, const char *name);
int cgx_file_read(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, unsigned int file,
		  const struct cgx_caller *caller, struct strbuf *out);
/*
 * A read of @file read ahead (struct cgx_read_ahead): true for a read-only
 * file whose content a handler makes, which may read v2 statistics.
 */
bool cgx_file_reads_ahead(const struct cgx_ctx *ctx, unsigned int hier, unsigned int file);
/* Lists, in @ahead, the v2 files a read of @file reads: @ahead->nr of them. */
int cgx_file_read_list(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		       unsigned int file, const struct cgx_caller *caller,
		       struct cgx_read_ahead *ahead);
/* Without the lock: reads the files listed (by their paths from the base: no model). */
void cgx_read_ahead_fetch(const struct cgx_ctx *ctx, struct cgx_read_ahead *ahead);
/* cgx_file_read(), each v2 file listed in @ahead taken from it. */
int cgx_file_read_ahead(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			unsigned int file, const struct cgx_caller *caller,
			struct cgx_read_ahead *ahead, struct strbuf *out);
void cgx_read_ahead_release(struct cgx_read_ahead *ahead);

/*
 * At an open for writing: what the file's writes will check of @opener,
 * taken now as the kernel keeps the open's credentials (admin_at_open).
 */
void cgx_file_note_opener(struct cgx_ctx *ctx, unsigned int hier, unsigned int file,
			  struct cgx_caller *opener);
/*
 * Returns the bytes consumed (at most a page, as kernfs) or -errno. The
 * lock may be given up and taken back meanwhile (cgx_kernel_begin()): the
 * caller holds no pointer into the model across it but @dir, unused after.
 */
ssize_t cgx_file_write(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		       unsigned int file, const struct cgx_caller *caller, const char *buf,
		       size_t len);

/* Stored values (state.c): what a v1 read returns, kept in xattrs. */
const char *cgx_value_get(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			  unsigned int file);
/* The stored value of the file called @name, NULL where @dir is no group of @hier or has no such
 * file. */
const char *cgx_value_named(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			    const char *name);
int cgx_value_set(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, unsigned int file,
		  const char *text);
int cgx_value_set_named(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			const char *name, const char *text);

/* The deprecation log (deprecation.c). */
/*
 * "kind count" lines, then log_lost, syslog_suppressed, log_folded,
 * log_pending and log_dropped: the cgx.deprecations file.
 */
int cgx_deprecation_counters(struct cgx_ctx *ctx, struct strbuf *out);
/* Opens the log file again (SIGHUP, after logrotate moved it). */
int cgx_deprecation_reopen(struct cgx_ctx *ctx);
/* Writes the counts of rate windows that have closed; about once a second. */
void cgx_deprecation_tick(struct cgx_ctx *ctx);

/*
 * Directories of the base removed behind the daemon's back by another tool:
 * those carrying v1 groups are made again, leaves forgotten (reconcile.c).
 * Without @thorough (and no removal seen by an operation since the last
 * pass), a directory whose subdirectory count matches the mirror is taken
 * as whole: one fstatat per inner directory instead of one per directory.
 * Called without the lock, which it takes and gives up in slices, so that
 * requests are served during a pass. Without @due, only a removal an
 * operation saw makes a pass.
 */
int cgx_reconcile(struct cgx_ctx *ctx, bool due, bool thorough);

/*
 * Retires the leaves moves emptied since the last call (tasks.c): the
 * watcher's pass does it, not the move.
 */
void cgx_retire_vacated_leaves(struct cgx_ctx *ctx);

/* Aggregate limits over divergent folds (aggregate.c). */
/* Splits each limit whose group's processes lie outside its directory; restores exact ones. */
int cgx_aggregate_rebalance(struct cgx_ctx *ctx);
/*
 * True while some limit is split: a leaf that empties then gives its part
 * back at once, so the watcher watches the leaves' cgroup.events.
 */
bool cgx_aggregate_enforcing(const struct cgx_ctx *ctx);
/* The rebalance a request asked for (ctx->rebalance_wanted), if it did. */
int cgx_aggregate_settle(struct cgx_ctx *ctx);
/*
 * The cgx.limits file: one line per limit set, "HIERARCHY GROUP V2FILE exact"
 * or "... enforced" when it is split over leaves outside the group.
 */
int cgx_limits_report(struct cgx_ctx *ctx, struct strbuf *out);
/* How many limits cgx.limits lists as exact, and as enforced. */
void cgx_limits_count(struct cgx_ctx *ctx, unsigned long long *exact, unsigned long long *enforced);

/* What cgxfs --metrics exports of the model (metrics.c): copied under the lock, written after. */
struct cgx_metrics {
	unsigned int nr_hiers;
	char hier_name[CGX_MAX_HIER][256]; /* as mounted and logged: "cpu,cpuacct", "name=jobs" */
	unsigned long long groups[CGX_MAX_HIER]; /* the root not counted */
	unsigned long long leaves;		 /* directories made for divergent tuples */
	unsigned long long limits_exact, limits_enforced;
	unsigned long long deprecations[DEPRECATION_NR_KINDS];
	struct deprecation_programs programs;
	unsigned long long log_lost, log_dropped, log_folded, journal_lost;
};
void cgx_metrics_snapshot(struct cgx_ctx *ctx, struct cgx_metrics *out);

/* notify_on_release (release.c). */
/* True when some hierarchy has a release agent: cgroup.events is watched then too. */
bool cgx_release_wanted(struct cgx_ctx *ctx);
/* An agent a check found due: run once the model's lock is released. */
struct cgx_release_run {
	char *agent;	 /* the release_agent value, as read */
	char *path;	 /* the group's path in its hierarchy, the agent's argument */
	char *hier_name; /* as logged: "cpu,cpuacct", "name=jobs" */
};
struct cgx_release_runs {
	struct cgx_release_run *run;
	unsigned int nr, room;
};
/*
 * Finds every notify_on_release group that emptied since the last check and
 * adds its agent to @due. A fork of the daemon copies its page tables (88
 * MB of heap at 100,000 groups), so the agents are started outside the
 * lock, by cgx_release_run().
 */
void cgx_release_check(struct cgx_ctx *ctx, struct cgx_release_runs *due);
/* Starts the agents of @due, logs each, and empties it. Without the model's lock. */
void cgx_release_run(struct cgx_release_runs *due);
/* Watches (IN_MODIFY) the cgroup.events of every leaf with @inotify_fd: it empties or fills. */
int cgx_release_watch(struct cgx_ctx *ctx, int inotify_fd);

/* cgroup.event_control listeners (memevent.c). */
struct pollfd;
/* True while a threshold or OOM listener wants reading every CGX_MEMEVENT_TICK_MS. */
bool cgx_memevent_ticking(struct cgx_ctx *ctx);
/*
 * The files to poll for POLLPRI (memory.events, PSI triggers) and the pidfds
 * of the eventfds' holders for POLLIN: fills up to @room, returns all.
 */
size_t cgx_memevent_pollfds(struct cgx_ctx *ctx, struct pollfd *fds, size_t room);
/*
 * Signals every listener whose event happened and drops those whose eventfd
 * no process holds any more; @fds: those polled, with their revents.
 */
void cgx_memevent_check(struct cgx_ctx *ctx, const struct pollfd *fds, size_t nr);

/*
 * Extended attributes of a group's directory (@file < 0) or of one of its
 * files, as kernfs keeps them: user.* (at most 128 and 128 KiB of values per
 * inode, ENOSPC past either), trusted.* and security.*; -EOPNOTSUPP for other
 * namespaces, -EINVAL for a bare prefix, -ENODATA for none (xattr.c). The
 * kernel has checked the caller's rights before the request came.
 */
int cgx_xattr_get(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		  const char *name, struct strbuf *value);
int cgx_xattr_set(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		  const char *name, const char *value, size_t size, int flags);
int cgx_xattr_remove(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		     const char *name);
/* The names, each NUL-terminated; trusted.* only when @caller has CAP_SYS_ADMIN. */
int cgx_xattr_list(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		   const struct cgx_caller *caller, struct strbuf *names);

/*
 * Tasks (tasks.c). The pids of a group's tasks or processes, numbered by
 * the pid namespace of @reader (NULL: the daemon's).
 */
int cgx_tasks_list(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, bool threads,
		   const struct cgx_caller *reader, struct strbuf *out);
/*
 * At an open for writing: for tasks and cgroup.procs (V1F_OPENER_CREDS), the
 * opener's groups and capabilities into @creds (malloc()ed, kept with the
 * open file) and @opener, which cgroup2's delegation rule checks at a move;
 * NULL for other files, or when the opener's status cannot be read.
 */
int cgx_tasks_note_opener(struct cgx_ctx *ctx, unsigned int hier, unsigned int file,
			  struct cgx_caller *opener, struct proc_fs_creds **creds);
/* Writes to tasks (@threadgroup false) or cgroup.procs (true). */
int cgx_tasks_attach(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, bool threadgroup,
		     const struct cgx_caller *caller, char *buf);

#endif
