// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tasks and cgroup.procs: membership lives in the kernel. A process's tuple
 * is the tuple of the leaf it sits in, so children forked after a move are
 * members without the daemon seeing the fork (DESIGN 3, rule 1).
 */
#include "internal.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

static void tuple_root(struct cgx_ctx *ctx, struct tuple *tuple)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		tuple->coord[h] = ctx->tree.base;
}

/* The mirror's directory at @v2_path (relative to the cgroup2 mount), or NULL. */
static struct v2_dir *dir_at_cgroup2_path(struct cgx_ctx *ctx, const char *v2_path)
{
	size_t base_len = strlen(ctx->base_relpath);
	struct v2_dir *dir = ctx->tree.base;

	while (*v2_path == '/')
		v2_path++;
	if (strncmp(v2_path, ctx->base_relpath, base_len) ||
	    (v2_path[base_len] && v2_path[base_len] != '/'))
		return NULL;
	v2_path += base_len;
	while (dir && *v2_path) {
		char name[256];
		size_t len;

		while (*v2_path == '/')
			v2_path++;
		len = strcspn(v2_path, "/");
		if (!len)
			break;
		if (len >= sizeof(name))
			return NULL;
		memcpy(name, v2_path, len);
		name[len] = '\0';
		dir = tree_child(dir, name);
		v2_path += len;
	}
	return dir;
}

int tasks_tuple_of(struct cgx_ctx *ctx, pid_t pid, struct tuple *tuple, char *v2_path, size_t size)
{
	struct v2_dir *dir;
	int r = proc_cgroup2_path(pid, v2_path, size);

	if (r < 0)
		return r;
	dir = dir_at_cgroup2_path(ctx, v2_path);
	if (dir && dir->leaf_tuple) {
		*tuple = *dir->leaf_tuple;
		return 1;
	}
	/* Outside the base, or put inside by another tool: root in every hierarchy. */
	tuple_root(ctx, tuple);
	return 0;
}

int cgx_tasks_list(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, bool threads,
		   struct strbuf *out)
{
	_cleanup_(pid_list_release) struct pid_list members = {0};
	_cleanup_(pid_list_release) struct pid_list elsewhere = {0};
	const char *file = threads ? "cgroup.threads" : "cgroup.procs";
	bool is_root = dir == ctx->tree.base;
	int r;

	/* The v1 root holds everything not in one of its groups, whatever cgxfs never moved. */
	if (is_root && (r = proc_list_all(threads, &members)) < 0)
		return r;
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		_cleanup_close_ int fd = -1;
		struct v2_dir *coord = leaf->leaf_tuple->coord[hier];

		if (is_root ? coord == ctx->tree.base : coord != dir)
			continue;
		if ((fd = cgx_dir_open(ctx, leaf)) < 0)
			return fd;
		r = v2_read_pids(fd, file, is_root ? &elsewhere : &members);
		if (r < 0 && r != -ENOENT)
			return r;
	}
	pid_list_sort_unique(&members);
	pid_list_sort_unique(&elsewhere);
	for (size_t i = 0; i < members.nr; i++) {
		if (is_root && pid_list_contains(&elsewhere, members.pids[i]))
			continue;
		if ((r = strbuf_addf(out, "%d\n", (int)members.pids[i])) < 0)
			return r;
	}
	return 0;
}

int tasks_count_below(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		      unsigned long long *count)
{
	*count = 0;
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		_cleanup_(pid_list_release) struct pid_list threads = {0};
		_cleanup_close_ int fd = -1;
		int r;

		if (!tree_is_ancestor(group, leaf->leaf_tuple->coord[hier]))
			continue;
		if ((fd = cgx_dir_open(ctx, leaf)) < 0)
			return fd;
		if ((r = v2_read_pids(fd, "cgroup.threads", &threads)) < 0)
			return r;
		*count += threads.nr;
	}
	return 0;
}

/* cgroup1_procs_write_permission(): root, or the target's real or saved uid is the writer's. */
static int check_move_permission(const struct cgx_caller *caller, pid_t target)
{
	struct proc_creds creds;
	int r;

	if (caller->uid == 0)
		return 0;
	if ((r = proc_creds(target, &creds)) < 0)
		return r;
	if (caller->uid != creds.uid && caller->uid != creds.suid)
		return -EACCES;
	return 0;
}

/* A process going back to the root in every hierarchy returns where it came from. */
static int attach_to_origin(struct cgx_ctx *ctx, pid_t tgid)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV,
	};
	_cleanup_close_ int fd = -1;
	char origin[PATH_MAX];
	const char *rel = origin;
	int r = state_origin_get(ctx, tgid, origin, sizeof(origin));

	if (r < 0)
		return r;
	while (*rel == '/')
		rel++;
	fd = syscall(SYS_openat2, ctx->cgroup2_fd, *rel ? rel : ".", &how, sizeof(how));
	if (fd < 0)
		return -errno;
	/* Forgotten only once back there: a failed move keeps the way home. */
	if ((r = v2_attach(fd, tgid)) == 0)
		state_origin_forget(ctx, tgid);
	return r;
}

static int attach_to_leaf(struct cgx_ctx *ctx, const struct tuple *tuple, pid_t tgid)
{
	_cleanup_close_ int fd = -1;
	struct v2_dir *leaf;
	int r;

	if ((r = leaf_get(ctx, tuple, &leaf)) < 0)
		return r;
	/*
	 * A leaf outside a limited group gets its part before the process
	 * arrives. A leaf inside all its groups changes no split the moment it
	 * fills, so a plain move does not walk every leaf: the watcher restores
	 * what it leaves exact.
	 */
	if (aggregate_leaf_divergent(ctx, leaf) && (r = cgx_aggregate_rebalance(ctx)) < 0)
		cgx_log_errno(r, "limits not yet split for %s", leaf->name);
	if ((fd = cgx_dir_open(ctx, leaf)) < 0)
		return fd;
	if ((r = v2_attach(fd, tgid)) < 0) {
		/* Nothing half-done: a leaf made for this move goes again. */
		leaf_prune(ctx, leaf, true);
		return r;
	}
	return 0;
}

static void prune_leaf_of(struct cgx_ctx *ctx, const struct tuple *tuple)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		if (tuple_equal(leaf->leaf_tuple, tuple, ctx->tree.nr_hier)) {
			leaf_prune(ctx, leaf, true);
			return;
		}
	}
}

/*
 * The task a write names, pinned: the pid is read in the writer's pid
 * namespace as the kernel does, the process is held by a pidfd from here on,
 * so a pid reused meanwhile is never the one moved.
 */
static int pin_target(const struct cgx_caller *caller, int pid, pid_t *tgid)
{
	pid_t tid, tgid_again;
	int pidfd, r;

	if (pid == 0)
		tid = caller->tid;
	else if ((r = proc_pid_in_ns_of(caller->tid, pid, &tid)) < 0)
		return r;
	/*
	 * The usual case, a process's own pid: pidfd_open() takes only a thread
	 * group leader, and answers any other thread EINVAL (ENOENT on newer
	 * kernels, measured on 6.18).
	 */
	pidfd = proc_pidfd(tid);
	if (pidfd >= 0) {
		*tgid = tid;
		return pidfd;
	}
	if (pidfd != -EINVAL && pidfd != -ENOENT)
		return pidfd;
	/* Another thread: its leader, pinned, must still be the one it names. */
	if ((r = proc_tgid(tid, tgid)) < 0)
		return r;
	if ((pidfd = proc_pidfd(*tgid)) < 0)
		return pidfd == -EINVAL || pidfd == -ENOENT ? -ESRCH : pidfd;
	/* The tgid read before the pidfd was opened must still be the tid's. */
	if ((r = proc_tgid(tid, &tgid_again)) < 0 || tgid_again != *tgid) {
		close(pidfd);
		return -ESRCH;
	}
	return pidfd;
}

int cgx_tasks_attach(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, bool threadgroup,
		     const struct cgx_caller *caller, char *buf)
{
	struct tuple current, wanted;
	char v2_path[PATH_MAX];
	_cleanup_close_ int pidfd = -1;
	pid_t tgid;
	int pid, r, inside;

	/* cgroup_procs_write_start(): kstrtoint(strstrip(buf), 0) and no negative pid. */
	if (kstrtoint_strict_pid(buf, &pid) < 0)
		return -EINVAL;
	if ((pidfd = pin_target(caller, pid, &tgid)) < 0)
		return pidfd;
	/* The whole process moves, so its leader's credentials are the ones checked. */
	if ((r = check_move_permission(caller, tgid)) < 0)
		return r;
	if (!threadgroup && pid && pid != tgid)
		cgx_log(CGX_LOG_INFO,
			"thread %d written to %s tasks: v2 moves its whole process %d "
			"(no thread granularity outside threaded subtrees)",
			pid, ctx->hiers.hier[hier].dir_name, (int)tgid);

	if ((inside = tasks_tuple_of(ctx, tgid, &current, v2_path, sizeof(v2_path))) < 0)
		return inside;
	wanted = current;
	wanted.coord[hier] = dir;
	/* Already there, including a process outside the base written to a root. */
	if (tuple_equal(&current, &wanted, ctx->tree.nr_hier))
		return 0;
	v1_for_each_controller (controller, &ctx->hiers.hier[hier])
		if (controller->can_attach && (r = controller->can_attach(ctx, dir, hier)) < 0)
			return r;
	if ((r = proc_pidfd_alive(pidfd)) < 0)
		return r;

	if (tuple_is_root(&wanted, &ctx->tree) && attach_to_origin(ctx, tgid) == 0)
		goto moved;
	if (!inside && (r = state_origin_save(ctx, tgid, v2_path)) < 0)
		return cgx_log_errno(r, "cannot record where process %d came from", (int)tgid);
	if ((r = attach_to_leaf(ctx, &wanted, tgid)) < 0) {
		if (!inside)
			state_origin_forget(ctx, tgid);
		return r;
	}
moved:
	/* The old tuple's leaf may have moved meanwhile (a parent turned inner): find it by tuple.
	 */
	if (inside)
		prune_leaf_of(ctx, &current);
	for (unsigned int h = 0; h < ctx->hiers.nr; h++)
		release_arm(ctx, wanted.coord[h], h);
	deprecation_check_attach(ctx, caller, hier, dir, &wanted);
	return 0;
}
