// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tasks and cgroup.procs: membership lives in the kernel. A process's tuple
 * is the tuple of the leaf it sits in, so children forked after a move are
 * members without the daemon seeing the fork (docs/design.md §3, rule 1).
 */
#include "group.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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
		dir = tree_child(&ctx->tree, dir, name);
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
		   const struct cgx_caller *reader, struct strbuf *out)
{
	_cleanup_(pid_list_release) struct pid_list members = {0};
	_cleanup_(pid_list_release) struct pid_list elsewhere = {0};
	const char *file = threads ? "cgroup.threads" : "cgroup.procs";
	bool is_root = dir == ctx->tree.base;
	size_t kept = 0;
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
	for (size_t i = 0; i < members.nr; i++)
		if (!is_root || !pid_list_contains(&elsewhere, members.pids[i]))
			members.pids[kept++] = members.pids[i];
	members.nr = kept;
	/* A reader in a container reads the numbers its pid namespace gives (task_tgid_vnr()). */
	if (reader && (r = proc_pids_as_seen_by(reader->tid, &members)) < 0 && r != -ESRCH)
		return r;
	for (size_t i = 0; i < members.nr; i++)
		if ((r = strbuf_addf(out, "%d\n", (int)members.pids[i])) < 0)
			return r;
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

/* The cgroup2 directory @path (from the mount, "/a/b"), never by a symlink nor out of the mount. */
static int cgroup2_dir_open(struct cgx_ctx *ctx, const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV,
	};
	int fd;

	while (*path == '/')
		path++;
	fd = syscall(SYS_openat2, ctx->cgroup2_fd, *path ? path : ".", &how, sizeof(how));
	return fd < 0 ? -errno : fd;
}

static bool cgroup2_path_in_base(const struct cgx_ctx *ctx, const char *path)
{
	size_t base_len = strlen(ctx->base_relpath);

	while (*path == '/')
		path++;
	return !strncmp(path, ctx->base_relpath, base_len) &&
	       (!path[base_len] || path[base_len] == '/');
}

/* The deepest cgroup2 directory that holds both @a and @b ("/" at least), into @common. */
static void cgroup2_common_ancestor(const char *a, const char *b, char *common, size_t size)
{
	size_t used = 0;

	while (*a || *b) {
		size_t len_a, len_b;

		while (*a == '/')
			a++;
		while (*b == '/')
			b++;
		len_a = strcspn(a, "/");
		len_b = strcspn(b, "/");
		if (!len_a || len_a != len_b || strncmp(a, b, len_a) || used + len_a + 2 > size)
			break;
		common[used++] = '/';
		memcpy(common + used, a, len_a);
		used += len_a;
		a += len_a;
		b += len_b;
	}
	if (!used)
		common[used++] = '/';
	common[used] = '\0';
}

static bool in_group(const struct cgx_caller *caller, gid_t gid)
{
	/* Only what the open showed: a handle of an earlier daemon counts no group. */
	if (!caller->creds)
		return false;
	if (caller->gid == gid)
		return true;
	for (unsigned int i = 0; i < caller->creds->nr_groups; i++)
		if (caller->creds->groups[i] == gid)
			return true;
	return false;
}

/*
 * cgroup_may_write(): inode_permission(MAY_WRITE) of @path's cgroup.procs
 * with the opener's fsuid, fsgid and groups; kernfs has no ACLs, so the
 * mode bits decide, then CAP_DAC_OVERRIDE.
 */
static int cgroup2_may_write_procs(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				   const char *path)
{
	_cleanup_close_ int fd = cgroup2_dir_open(ctx, path);
	struct stat st;
	mode_t bit;

	if (fd < 0)
		return fd;
	if (fstatat(fd, "cgroup.procs", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (caller->uid == st.st_uid)
		bit = S_IWUSR;
	else if (in_group(caller, st.st_gid))
		bit = S_IWGRP;
	else
		bit = S_IWOTH;
	if ((st.st_mode & bit) || (caller->creds && caller->creds->dac_override))
		return 0;
	return -EACCES;
}

/*
 * cgroup_procs_write_permission(): cgroup2 moves a process from cgroup @from
 * to cgroup @to for a writer that may write the cgroup.procs of their common
 * ancestor (and of @to, which it opens), with the credentials of the open.
 * The view's own directories stand in for @to inside the base, guarded by
 * v1's rules; a process that comes in from outside the base, or goes back
 * out to its origin, crosses cgroup2 delegation and must pass cgroup2's rule
 * as well: a v1 group delegated to a user (freezer:/g chowned) must not pull
 * the user's process out of the memory and pids limits of its slice. The
 * opener's CAP_SYS_ADMIN in the initial user namespace passes, as it does
 * every check of the view. -EACCES with what the writer lacked in @why.
 */
static int check_v2_delegation(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			       const char *from, const char *to, char *why, size_t size)
{
	char common[PATH_MAX];
	const char *need = common;
	int r;

	/* Within the base the daemon decides, by v1's rules: only a crossing of its edge counts. */
	if (caller->admin_at_open ||
	    (cgroup2_path_in_base(ctx, from) && cgroup2_path_in_base(ctx, to)))
		return 0;
	cgroup2_common_ancestor(from, to, common, sizeof(common));
	r = cgroup2_may_write_procs(ctx, caller, common);
	/* Out of the base, the destination is a cgroup2 cgroup the writer opens itself. */
	if (r == 0 && !cgroup2_path_in_base(ctx, to) &&
	    (r = cgroup2_may_write_procs(ctx, caller, to)) < 0)
		need = to;
	if (r < 0)
		snprintf(why, size, "%s%scgroup.procs", need, strcmp(need, "/") ? "/" : "");
	return r == -EACCES || r == -EPERM ? -EACCES : r;
}

static void record_delegation_refused(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				      unsigned int hier, struct v2_dir *group, bool threadgroup,
				      pid_t tgid, const char *from, const char *to,
				      const char *need, bool stays)
{
	char detail[3 * PATH_MAX + 256];

	snprintf(detail, sizeof(detail),
		 "process %d %s cgroup2 %s to %s: cgroup2 lets only a writer of %s (the "
		 "cgroup.procs of their common ancestor, or of the destination) move it, "
		 "which a v1 delegation does not give%s",
		 (int)tgid, stays ? "stays in the base: not moved from" : "not moved from", from,
		 to, need, stays ? "" : " (EACCES)");
	deprecation_record(ctx, &(struct deprecation_event){
					.kind = DEPRECATION_DELEGATION_REFUSED,
					.caller = caller,
					.hier = (int)hier,
					.group = group,
					.file = threadgroup ? "cgroup.procs" : "tasks",
					.detail = detail,
				});
}

/*
 * A process going back to the root in every hierarchy returns where it came
 * from, when the writer may move it there in cgroup2 (-EACCES otherwise:
 * it stays in the base, and the way home is kept for a writer who may).
 */
static int attach_to_origin(struct cgx_ctx *ctx, const struct cgx_caller *caller, unsigned int hier,
			    bool threadgroup, pid_t tgid, const char *v2_path)
{
	_cleanup_close_ int fd = -1;
	char origin[PATH_MAX], need[PATH_MAX + 16];
	int r = state_origin_get(ctx, tgid, origin, sizeof(origin));

	if (r < 0)
		return r;
	if ((r = check_v2_delegation(ctx, caller, v2_path, origin, need, sizeof(need))) < 0) {
		if (r == -EACCES)
			record_delegation_refused(ctx, caller, hier, ctx->tree.base, threadgroup,
						  tgid, v2_path, origin, need, true);
		return r;
	}
	if ((fd = cgroup2_dir_open(ctx, origin)) < 0)
		return fd;
	/* Forgotten only once back there: a failed move keeps the way home. */
	if ((r = v2_attach(fd, tgid)) == 0)
		state_origin_forget(ctx, tgid);
	return r;
}

static int attach_to_leaf(struct cgx_ctx *ctx, const struct tuple *tuple, pid_t tgid)
{
	struct v2_dir *leaf;
	int fd, r;

	if ((r = leaf_get(ctx, tuple, &leaf)) < 0)
		return r;
	/*
	 * A leaf outside a limited group gets its part before the process
	 * arrives; so does a group's own directory that held no process while
	 * its limit was split (an idle part, aggregate.c). With no split in
	 * force a leaf inside all its groups changes none the moment it fills,
	 * so a plain move does not walk every leaf: the watcher restores what
	 * it leaves exact.
	 */
	if ((aggregate_leaf_divergent(ctx, leaf) || ctx->aggregates.enforcing) &&
	    (r = aggregate_rebalance_for(ctx, leaf)) < 0)
		cgx_log_errno(r, "limits not yet split for %s", leaf->name);
	if ((fd = cgx_dir_file_open(ctx, leaf, "cgroup.procs", O_WRONLY)) < 0)
		return fd;
	r = v2_attach_procs(fd, tgid);
	close(fd);
	if (r < 0) {
		/* Nothing half-done: a leaf made for this move goes again. */
		leaf_prune(ctx, leaf, true);
		return r;
	}
	leaf->vacated = false;
	return 0;
}

/* The leaf of @tuple, found by tuple: it may have moved (a parent turned inner). */
static struct v2_dir *leaf_holding(struct cgx_ctx *ctx, const struct tuple *tuple)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		if (tuple_equal(leaf->leaf_tuple, tuple, ctx->tree.nr_hier))
			return leaf;
	return NULL;
}

static void prune_leaf_of(struct cgx_ctx *ctx, const struct tuple *tuple)
{
	struct v2_dir *leaf = leaf_holding(ctx, tuple);

	if (leaf)
		leaf_prune(ctx, leaf, true);
}

/*
 * The leaf a process just left, @tuple's. While a limit is split it goes
 * at once if empty: the part it holds belongs to the leaf the process went
 * to. Otherwise the watcher's next pass retires it (a second at most), as
 * the move would have: a process moved back and forth (a shell joining each
 * hierarchy in turn, a job's steps) finds its leaf still made, and the move
 * neither reads the old leaf's cgroup.procs nor drops a tuple record it
 * sets again the next time, seven of its twenty system calls.
 */
static void leave_leaf_of(struct cgx_ctx *ctx, const struct tuple *tuple)
{
	struct v2_dir *leaf = leaf_holding(ctx, tuple);

	if (!leaf)
		return;
	if (ctx->aggregates.enforcing) {
		leaf_prune(ctx, leaf, true);
		return;
	}
	leaf->vacated = true;
	ctx->leaves_vacated = true;
}

void cgx_retire_vacated_leaves(struct cgx_ctx *ctx)
{
	struct v2_dir *leaf;

	if (!ctx->leaves_vacated)
		return;
	ctx->leaves_vacated = false;
	/* From the start after each retirement: it may free the leaf the walk stands on. */
again:
	for (leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		int r;

		if (!leaf->vacated)
			continue;
		leaf->vacated = false;
		if ((r = leaf_prune(ctx, leaf, true)) < 0)
			cgx_log_errno(r, "cannot retire the emptied leaf %s", leaf->name);
		if (r > 0)
			goto again;
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

int cgx_tasks_note_opener(struct cgx_ctx *ctx, unsigned int hier, unsigned int file,
			  struct cgx_caller *opener, struct proc_fs_creds **creds)
{
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];
	int r;

	*creds = NULL;
	if (!(row->flags & V1F_OPENER_CREDS))
		return 0;
	/* An opener gone meanwhile (killed in its open) counts no group nor capability. */
	if ((r = proc_fs_creds(opener->tid, creds)) < 0)
		return r == -ESRCH || r == -EIO ? 0 : r;
	opener->creds = *creds;
	opener->admin_at_open = (*creds)->sys_admin;
	return 0;
}

int cgx_tasks_attach(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, bool threadgroup,
		     const struct cgx_caller *caller, char *buf)
{
	struct tuple current, wanted;
	char v2_path[PATH_MAX];
	_cleanup_close_ int pidfd = -1;
	bool from_outside;
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
	/*
	 * Already there, including a process outside the base written to a root.
	 * One a writer could not send home earlier goes now, if this one may.
	 */
	if (tuple_equal(&current, &wanted, ctx->tree.nr_hier)) {
		if (inside && tuple_is_root(&wanted, &ctx->tree) &&
		    attach_to_origin(ctx, caller, hier, threadgroup, tgid, v2_path) == 0)
			prune_leaf_of(ctx, &current);
		return 0;
	}
	from_outside = !cgroup2_path_in_base(ctx, v2_path);
	if (from_outside) {
		char need[PATH_MAX + 16], base[PATH_MAX + 1];

		snprintf(base, sizeof(base), "/%s", ctx->base_relpath);
		r = check_v2_delegation(ctx, caller, v2_path, base, need, sizeof(need));
		if (r == -EACCES)
			record_delegation_refused(ctx, caller, hier, dir, threadgroup, tgid,
						  v2_path, base, need, false);
		if (r < 0)
			return r;
	}
	/*
	 * cgroup_procs_write_start() refuses such a kernel thread before any
	 * controller is asked; the v2 write says so too, when it is reached.
	 */
	v1_for_each_controller (controller, &ctx->hiers.hier[hier])
		if (controller->can_attach && (r = controller->can_attach(ctx, dir, hier)) < 0)
			return proc_is_unmovable(tgid) ? -EINVAL : r;
	if ((r = proc_pidfd_alive(pidfd)) < 0)
		return r;

	if (tuple_is_root(&wanted, &ctx->tree) &&
	    attach_to_origin(ctx, caller, hier, threadgroup, tgid, v2_path) == 0)
		goto moved;
	/*
	 * Where it came from, when that is outside the base: one another tool
	 * put in a directory of the base keeps the way home it had, if any.
	 */
	if (from_outside && (r = state_origin_save(ctx, tgid, v2_path)) < 0)
		return cgx_log_errno(r, "cannot record where process %d came from", (int)tgid);
	if ((r = attach_to_leaf(ctx, &wanted, tgid)) < 0) {
		if (from_outside)
			state_origin_forget(ctx, tgid);
		return r;
	}
moved:
	if (inside)
		leave_leaf_of(ctx, &current);
	/*
	 * The leaf left behind held a part of a split limit, taken from the
	 * one arrived in: given back once the request is done, not at the
	 * watcher's next pass. runc exec's shell, which forks the moment its
	 * last hierarchy is joined, found too few tasks in the meantime.
	 */
	if (ctx->aggregates.enforcing)
		ctx->rebalance_wanted = true;
	cgx_event_emit(&(struct cgx_event){.kind = CGX_EVENT_ATTACH,
					   .ctx = ctx,
					   .caller = caller,
					   .hier = hier,
					   .group = dir,
					   .tuple = &wanted});
	return 0;
}
