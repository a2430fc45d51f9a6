// SPDX-License-Identifier: GPL-2.0-or-later
/* v1 groups: lookup, mkdir, rmdir, rename, attributes, and file dispatch. */
#include "group.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define KERNFS_PAGE 4096

const char *cgx_group_name(const struct v2_dir *dir)
{
	return dir->parent ? tree_dir_v1_name(dir) : NULL;
}

int cgx_group_lookup(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier,
		     const char *name, struct v2_dir **child)
{
	struct v2_dir *dir;

	(void)ctx;
	dir = tree_child_named(&ctx->tree, parent, name);
	if (!dir || !dir->group[hier])
		return -ENOENT;
	*child = dir;
	return 0;
}

int cgx_file_lookup(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, const char *name)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	int file = v1_file_find(h, name);

	if (file < 0 || !v1_file_present(h->files[file], dir == ctx->tree.base))
		return -ENOENT;
	return file;
}

/*
 * The kernel refuses '\n' in a group name: it would break /proc/PID/cgroup.
 * kernfs takes a name of any length (past NAME_MAX: tree_escape_name() hashes
 * it for v2); the view keeps a group's v1 path below PATH_MAX, as its records
 * and tuples name groups by path. Only a path built relative to a deep
 * working directory passes that in v1.
 */
static int check_group_name(const struct v2_dir *parent, const char *name)
{
	char path[PATH_MAX];

	if (strchr(name, '\n'))
		return -EINVAL;
	if (tree_path(parent, true, path, sizeof(path)) < 0 ||
	    strlen(parent->parent ? path : "") + 1 + strlen(name) >= sizeof(path))
		return -ENAMETOOLONG;
	return 0;
}

/* A directory whose v2 name is a hash is tried under the next one this many times. */
#define HASHED_NAME_ATTEMPTS 16

/* Makes the v2 directory of v1 name @name under @parent, recorded before it serves anything. */
static int dir_make(struct cgx_ctx *ctx, int parent_fd, struct v2_dir *parent, const char *name,
		    struct v2_dir **dir)
{
	char v2_name[NAME_MAX + 1];
	int hashed, r;

	for (unsigned int attempt = 0;; attempt++) {
		if ((hashed = tree_escape_name_attempt(name, attempt, v2_name, sizeof(v2_name))) <
		    0)
			return hashed;
		/*
		 * Another name's hash, or a directory on disk the mirror does
		 * not know (another tool's, or one a killed daemon made and
		 * never recorded): the next hashed name. v1 has no group of
		 * that name, so the mkdir succeeds there too.
		 */
		if (tree_child(&ctx->tree, parent, v2_name))
			r = -EEXIST;
		else
			r = mkdirat(parent_fd, v2_name, 0755) < 0 ? -errno : 0;
		if (r != -EEXIST || attempt + 1 == HASHED_NAME_ATTEMPTS)
			break;
	}
	if (r < 0)
		return cgx_log_errno(r, "cannot create v2 directory %s", v2_name);
	if ((r = tree_add_dir(&ctx->tree, parent, v2_name, dir)) < 0)
		goto undo;
	/* A cgroup just made is thawed and filters no device. */
	(*dir)->may_be_frozen = (*dir)->may_filter_devices = (*dir)->may_classify_packets = false;
	if (hashed) {
		_cleanup_close_ int fd = -1;

		/* Its name first: a restart removes a hashed directory it cannot name. */
		if ((r = tree_set_v1_name(&ctx->tree, *dir, name)) < 0 ||
		    (fd = cgx_dir_open(ctx, *dir)) < 0 || (r = state_save_dir_name(fd, *dir)) < 0) {
			r = r < 0 ? r : fd;
			tree_remove_dir(&ctx->tree, *dir);
			goto undo;
		}
	}
	return 0;
undo:
	unlinkat(parent_fd, v2_name, AT_REMOVEDIR);
	return r;
}

/* The v2 directory of v1 name @name under @parent, made when missing (@made). */
static int dir_get(struct cgx_ctx *ctx, struct v2_dir *parent, const char *name,
		   struct v2_dir **dir, bool *made)
{
	_cleanup_dir_ref_ struct cgx_dir_ref parent_ref = {ctx, parent, -1};
	int r;

	*made = false;
	/*
	 * One that is neither a group of any hierarchy nor a leaf is another
	 * tool's, kept at start because it was not empty: its name is taken,
	 * and dir_make() goes on to a hashed one.
	 */
	*dir = tree_child_named(&ctx->tree, parent, name);
	if (*dir && (dir_is_any_group(*dir) || (*dir)->leaf_tuple))
		return 0;
	if ((parent_ref.fd = cgx_dir_get(ctx, parent)) < 0)
		return parent_ref.fd;
	if ((r = dir_make(ctx, parent_ref.fd, parent, name, dir)) < 0)
		return r;
	*made = true;
	return 0;
}

void dir_learn_ino(struct v2_dir *dir, int fd)
{
	struct stat st;

	if (!dir->ino && fstat(fd, &st) == 0)
		dir->ino = st.st_ino;
}

static void inherit_values(struct cgx_ctx *ctx, struct v2_dir *parent, struct v2_dir *dir,
			   unsigned int hier)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];

	for (unsigned int file = 0; file < h->nr_files; file++) {
		const char *value = parent->group[hier]->values[file];

		if ((h->files[file]->flags & V1F_INHERIT) && value &&
		    cgx_value_set(ctx, dir, hier, file, value) < 0)
			cgx_log(CGX_LOG_WARNING, "%s of a new group not inherited",
				h->files[file]->name);
	}
}

void group_reset_counts(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	const struct cgx_caller daemon = {own_pid(), 0, 0, true, NULL};

	for (unsigned int file = 0; file < h->nr_files; file++) {
		const struct v1_file *row = h->files[file];
		struct v1_file_ctx fc = {ctx, dir, hier, file, &daemon};
		char zero[] = "0";
		int r;

		/* The handler, not file_write(): no one wrote, and nothing is logged. */
		if ((row->flags & V1F_RESET_POINT) && row->write &&
		    (r = row->write(&fc, zero, 1)) < 0)
			cgx_log_errno(r, "%s of group %s not reset", row->name, dir->name);
	}
}

int cgx_group_mkdir(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier, const char *name,
		    const struct cgx_caller *caller, mode_t mode, struct v2_dir **child)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	struct v1_group *group = NULL;
	_cleanup_close_ int fd = -1;
	struct v2_dir *dir;
	bool made, has_past;
	int r;

	if ((r = check_group_name(parent, name)) < 0)
		return r;
	if (cgx_file_lookup(ctx, parent, hier, name) >= 0 ||
	    cgx_group_lookup(ctx, parent, hier, name, &dir) == 0)
		return -EEXIST;
	/* The v2 directory may already serve the same path in another hierarchy. */
	if ((r = dir_get(ctx, parent, name, &dir, &made)) < 0)
		return r;
	if (!(group = state_new_group(h, caller->uid, caller->gid, mode & 07777))) {
		r = -ENOMEM;
		goto undo;
	}
	/* The id goes into the record: a restarted daemon answers for the same inode. */
	if ((r = state_new_id(ctx, &group->id)) < 0 || (fd = cgx_dir_open(ctx, dir)) < 0 ||
	    (r = state_save_group(ctx, fd, hier, group)) < 0) {
		r = r < 0 ? r : fd;
		cgx_log_errno(r, "cannot record group %s of %s", name, h->dir_name);
		goto undo;
	}
	if ((r = tree_attach_group(&ctx->tree, dir, hier, group)) < 0) {
		state_drop_group(ctx, fd, hier);
		goto undo;
	}
	dir_learn_ino(dir, fd);
	/* The group exists from here on; what follows only moves leaves to their new places. */
	inherit_values(ctx, parent, dir, hier);
	v1_for_each_controller (controller, h)
		if (controller->online)
			controller->online(ctx, dir, hier);
	has_past = tree_dir_has_past(&ctx->tree, dir, hier);
	if ((r = relocate_leaves(ctx)) < 0)
		cgx_log_errno(r, "leaves not yet in place after mkdir %s", name);
	/*
	 * A new group has counted nothing (css_alloc), but its directory may have
	 * served another hierarchy's group of the same path, and counted that
	 * one's processes: the counts are its past, taken once the others'
	 * processes have moved out; the high-water marks, which have no past,
	 * start again from the usage now (reset points of counts read 0 anyway).
	 */
	if (has_past) {
		if ((r = group_stats_start(ctx, dir, hier)) < 0)
			cgx_log_errno(r, "new group %s counts what its directory counted before",
				      name);
		group_reset_counts(ctx, dir, hier);
	}
	dir_sync_controllers(ctx, parent);
	cgx_event_emit(&(struct cgx_event){.kind = CGX_EVENT_MKDIR,
					   .ctx = ctx,
					   .caller = caller,
					   .hier = hier,
					   .parent = parent,
					   .group = dir});
	*child = dir;
	return 0;
undo:
	v1_group_free(group);
	if (made) {
		_cleanup_dir_ref_ struct cgx_dir_ref parent_ref = cgx_dir_ref(ctx, parent);

		if (parent_ref.fd >= 0)
			unlinkat(parent_ref.fd, dir->name, AT_REMOVEDIR);
		tree_remove_dir(&ctx->tree, dir);
	}
	return r;
}

bool dir_is_any_group(const struct v2_dir *dir)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		if (dir->group[h])
			return true;
	return false;
}

/* Removes @dir from v2 when nothing needs it any more: no group, no leaf, no child. */
static int dir_collect(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	struct v2_dir *parent = dir->parent;

	int r;

	if (!parent || dir_is_any_group(dir) || dir->leaf_tuple || dir->first_child)
		return 0;
	if ((r = dir_remove(ctx, dir)) < 0)
		return cgx_log_errno(r, "cannot remove v2 directory %s", dir->name);
	return 0;
}

int group_forget(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, dir);
	int r;

	if (ref.fd < 0)
		return ref.fd;
	if ((r = state_drop_group_marker(ctx, ref.fd, hier)) < 0)
		return r;
	/* Gone from here on: a daemon killed now finishes the rest at its start. */
	knob_offline(ctx, dir, hier);
	if ((r = state_drop_group_records(ctx, ref.fd, hier)) < 0)
		cgx_log_errno(r, "records of a removed group left on %s", dir->name);
	return 0;
}

/* Whether @dir serves nothing but the group of @hier: its rmdir removes it from v2 too. */
static bool dir_only_for(const struct v2_dir *dir, unsigned int hier)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		if (h != hier && dir->group[h])
			return false;
	return dir->parent && !dir->leaf_tuple && !dir->first_child;
}

/* Every leaf whose tuple names @group in @hier must be empty; empty ones are pruned. */
static int prune_members(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	bool again = true;

	while (again) {
		again = false;
		for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
			int r;

			if (leaf->leaf_tuple->coord[hier] != group)
				continue;
			/* The group goes: so do the pages a leaf of its members kept charged. */
			if ((r = leaf_prune(ctx, leaf, false)) < 0)
				return r;
			if (r == 0)
				return -EBUSY; /* it has tasks, as v1 says */
			again = true;
			break;
		}
	}
	return 0;
}

int cgx_group_rmdir(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier, const char *name)
{
	struct v2_dir *dir;
	bool goes;
	int r;

	if ((r = cgx_group_lookup(ctx, parent, hier, name, &dir)) < 0)
		return cgx_file_lookup(ctx, parent, hier, name) >= 0 ? -ENOTDIR : r;
	if (cgx_group_nr_children(dir, hier))
		return -EBUSY;
	if ((r = prune_members(ctx, dir, hier)) < 0)
		return r;
	/*
	 * A directory that goes with its group takes its marker, records and
	 * knobs along in one rmdir: a daemon killed before it finds the group
	 * whole. Taking them off first would be work for nothing (a read and a
	 * write per knob); only a directory that stays after all needs it.
	 */
	goes = dir_only_for(dir, hier);
	if (!goes && (r = group_forget(ctx, dir, hier)) < 0)
		return cgx_log_errno(r, "cannot forget group %s", name);
	cgx_event_emit(&(struct cgx_event){.kind = CGX_EVENT_RMDIR,
					   .ctx = ctx,
					   .hier = hier,
					   .group = dir,
					   .group_id = dir->group[hier]->id});
	tree_drop_group(&ctx->tree, dir, hier);
	/*
	 * The group is gone from here on; a directory that stays is only logged.
	 * It goes before the leaves move: while it is there its parent still
	 * counts as inner, and the parent's processes would stay in its @tasks.
	 */
	if (dir_collect(ctx, dir) < 0 && goes && (r = group_forget(ctx, dir, hier)) < 0)
		cgx_log_errno(r, "group %s removed from the view, its records left on %s", name,
			      dir->name);
	if ((r = relocate_leaves(ctx)) < 0)
		cgx_log_errno(r, "leaves not yet in place after rmdir %s", name);
	return 0;
}

struct dir_pair {
	struct v2_dir *from, *to;
	bool counts_lost; /* group_stats_move() failed */
};

struct dir_map {
	struct dir_pair *pairs;
	size_t nr;
};

static int dir_map_add(struct dir_map *map, struct v2_dir *from, struct v2_dir *to)
{
	struct dir_pair *grown = realloc(map->pairs, (map->nr + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	map->pairs = grown;
	map->pairs[map->nr++] = (struct dir_pair){from, to, false};
	return 0;
}

static struct v2_dir *dir_map_find(const struct dir_map *map, const struct v2_dir *from)
{
	for (size_t i = 0; i < map->nr; i++)
		if (map->pairs[i].from == from)
			return map->pairs[i].to;
	return NULL;
}

/*
 * First half of a rename: writes the records of hierarchy @hier's groups at
 * @from and below onto their new directories under @to, and maps old to new.
 * Nothing is taken from @from yet: a daemon killed now finds the group
 * twice at worst, never lost.
 */
static int copy_group_subtree(struct cgx_ctx *ctx, struct v2_dir *from, struct v2_dir *to,
			      unsigned int hier, struct dir_map *map)
{
	_cleanup_close_ int to_fd = cgx_dir_open(ctx, to), from_fd = cgx_dir_open(ctx, from);
	_cleanup_strbuf_ struct strbuf carried = STRBUF_INIT;
	bool made;
	int r;

	if (to_fd < 0 || from_fd < 0)
		return to_fd < 0 ? to_fd : from_fd;
	dir_learn_ino(to, to_fd);
	if ((r = state_save_group_all(ctx, to_fd, hier, from->group[hier])) < 0)
		return cgx_log_errno(r, "cannot carry group %s over", from->name);
	/* What leaves gone counted for it goes along; one a failed step left on @to goes. */
	if ((r = state_carried_get(ctx, from_fd, hier, &carried)) < 0 && r != -ENODATA)
		return cgx_log_errno(r, "cannot carry the counters of group %s over", from->name);
	if ((r = state_carried_set(ctx, to_fd, hier, r == -ENODATA ? "" : carried.buf)) < 0)
		return cgx_log_errno(r, "cannot carry the counters of group %s over", from->name);
	if ((r = dir_map_add(map, from, to)) < 0)
		return r;
	v2_dir_for_each_child (child, from) {
		struct v2_dir *child_to;

		if (!child->group[hier])
			continue;
		if ((r = dir_get(ctx, to, tree_dir_v1_name(child), &child_to, &made)) < 0)
			return r;
		/*
		 * @to just turned inner: it passes the controllers on before
		 * anything below asks for them (cgroup2 answers ENOENT to a
		 * child that enables what its parent does not). @to may be a
		 * directory other hierarchies' groups already use, holding
		 * processes: EBUSY until they move down, which syncs it again.
		 */
		if (made && (r = dir_sync_controllers(ctx, to)) < 0)
			return r;
		if ((r = copy_group_subtree(ctx, child, child_to, hier, map)) < 0)
			return r;
	}
	return 0;
}

/*
 * Second half: the old directories let go, deepest first; the group objects
 * move over. Their old records and knobs go once the processes have
 * followed (leave_old_dirs()); a daemon killed before finds records
 * without a group and finishes that.
 */
static int commit_group_move(struct cgx_ctx *ctx, unsigned int hier, const struct dir_map *map)
{
	for (size_t i = map->nr; i-- > 0;) {
		const struct dir_pair *pair = &map->pairs[i];
		_cleanup_close_ int from_fd = cgx_dir_open(ctx, pair->from);
		int r;

		if (from_fd < 0 || (r = state_drop_group_marker(ctx, from_fd, hier)) < 0)
			cgx_log(CGX_LOG_WARNING, "old records of %s left behind", pair->from->name);
		/* The same group object, so its inode numbers follow it to the new name. */
		r = tree_attach_group(&ctx->tree, pair->to, hier,
				      tree_detach_group(pair->from, hier));
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * A write through @file's row. @may_yield: the row's handler may give the
 * lock up for blocking kernel work (cgx_kernel_begin()), as a request from
 * the view may; a step of the daemon's own (a replay) may not.
 */
static ssize_t file_write(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			  unsigned int file, const struct cgx_caller *caller, const char *buf,
			  size_t len, bool may_yield)
{
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];
	struct v1_file_ctx fc = {ctx, dir, hier, file, caller};
	size_t max = row->max_write_len ? row->max_write_len : KERNFS_PAGE;
	uint64_t group_id = dir->group[hier]->id, yields = ctx->yields;
	_cleanup_free_ char *copy = NULL;
	bool outer_may_yield;
	int r;

	if (!row->write)
		return -EINVAL;
	/*
	 * cgroup files set kernfs's atomic_write_len: a write(2) longer than
	 * the file takes is refused whole, never cut. FUSE splits a long write
	 * into requests of max_write bytes, far above a page, so the first one
	 * is already too long and the caller sees E2BIG.
	 */
	if (len > max)
		return -E2BIG;
	/* kernfs hands the handler a NUL-terminated copy: a NUL inside ends the value. */
	if (!(copy = malloc(len + 1)))
		return -ENOMEM;
	memcpy(copy, buf, len);
	copy[len] = '\0';
	outer_may_yield = ctx->may_yield;
	ctx->may_yield = may_yield;
	r = row->write(&fc, copy, len);
	ctx->may_yield = outer_may_yield;
	if (r < 0)
		return r;
	/* The group may have moved to another directory while the lock was given up. */
	if (ctx->yields != yields && (r = cgx_group_refind(ctx, group_id, hier, &fc.dir)) < 0)
		return r;
	cgx_event_emit(&(struct cgx_event){
		.kind = CGX_EVENT_WRITE, .ctx = ctx, .caller = caller, .fc = &fc, .value = copy});
	return (ssize_t)len;
}

/*
 * The v2 knobs of a group's new directory (renamed, or made again after
 * another tool removed it): every stored v1 value is written again through
 * its row, as the kernel would have kept it in place.
 */
void group_replay_values(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	const struct cgx_caller daemon = {own_pid(), 0, 0, true, NULL};

	for (unsigned int file = 0; file < h->nr_files; file++) {
		const char *value = dir->group[hier]->values[file];
		_cleanup_free_ char *copy = NULL;

		/* A reset point came with the records, and holds (group_stats_move()). */
		if (!value || !h->files[file]->write || (h->files[file]->flags & V1F_RESET_POINT) ||
		    !(copy = strdup(value)))
			continue;
		if (file_write(ctx, dir, hier, file, &daemon, copy, strlen(copy), false) < 0)
			cgx_log(CGX_LOG_WARNING, "%s not carried to the new directory %s",
				h->files[file]->name, dir->name);
	}
}

static void replay_values(struct cgx_ctx *ctx, unsigned int hier, const struct dir_map *map)
{
	for (size_t i = 0; i < map->nr; i++)
		group_replay_values(ctx, map->pairs[i].to, hier);
}

/* The limits the group set on its old directories go with it (knob_offline()), then its records. */
static void leave_old_dirs(struct cgx_ctx *ctx, unsigned int hier, const struct dir_map *map)
{
	for (size_t i = 0; i < map->nr; i++) {
		_cleanup_close_ int fd = cgx_dir_open(ctx, map->pairs[i].from);

		knob_offline(ctx, map->pairs[i].from, hier);
		if (fd < 0 || state_drop_group_records(ctx, fd, hier) < 0)
			cgx_log(CGX_LOG_WARNING, "old records of %s left behind",
				map->pairs[i].from->name);
	}
}

static void undo_group_copy(struct cgx_ctx *ctx, unsigned int hier, const struct dir_map *map)
{
	for (size_t i = 0; i < map->nr; i++) {
		_cleanup_close_ int to_fd = cgx_dir_open(ctx, map->pairs[i].to);

		if (to_fd >= 0)
			state_drop_group(ctx, to_fd, hier);
	}
}

/* Removes the directories of a moved subtree that no longer serve anything, deepest first. */
static void collect_subtree(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	for (struct v2_dir *child = dir->first_child, *next; child; child = next) {
		next = child->next_sibling;
		collect_subtree(ctx, child);
	}
	dir_collect(ctx, dir);
}

/*
 * cgroup2 has no rename (kernfs says EPERM), and a v2 directory may also
 * stand for groups of other hierarchies, which keep their name: a v1 rename
 * rebuilds the group's subtree under the new name, with what it counted,
 * and moves its leaves' processes there; the other hierarchies sharing the
 * old directories keep them.
 */
int cgx_group_rename(struct cgx_ctx *ctx, struct v2_dir *parent, unsigned int hier,
		     const char *name, struct v2_dir *new_parent, const char *new_name)
{
	struct dir_map map = {0};
	struct v2_dir *from, *to, *existing;
	bool made;
	int r;

	if ((r = cgx_group_lookup(ctx, parent, hier, name, &from)) < 0)
		return cgx_file_lookup(ctx, parent, hier, name) >= 0 ? -ENOTDIR : r;
	if (new_parent != parent)
		return -EIO; /* cgroup1_rename: only within the parent */
	if ((r = check_group_name(parent, new_name)) < 0)
		return r;
	if (!strcmp(name, new_name))
		return 0;
	if (cgx_file_lookup(ctx, parent, hier, new_name) >= 0 ||
	    cgx_group_lookup(ctx, parent, hier, new_name, &existing) == 0)
		return -EEXIST;
	if ((r = dir_get(ctx, parent, new_name, &to, &made)) < 0)
		return r;
	if ((r = copy_group_subtree(ctx, from, to, hier, &map)) < 0) {
		undo_group_copy(ctx, hier, &map);
		free(map.pairs);
		collect_subtree(ctx, to);
		return r;
	}
	/* What each group counted in its old directory, while it is still there to read. */
	for (size_t i = 0; i < map.nr; i++)
		if ((r = group_stats_move(ctx, map.pairs[i].from, map.pairs[i].to, hier)) < 0) {
			cgx_log_errno(r, "the counters of %s start again at its new name",
				      map.pairs[i].from->name);
			map.pairs[i].counts_lost = true;
		}
	/* Leaves follow their groups: no tuple may name a group that left. */
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		struct v2_dir *moved = dir_map_find(&map, leaf->leaf_tuple->coord[hier]);
		_cleanup_close_ int fd = -1;

		if (!moved)
			continue;
		leaf->leaf_tuple->coord[hier] = moved;
		if ((fd = cgx_dir_open(ctx, leaf)) < 0 ||
		    (r = state_save_tuple(ctx, fd, leaf->leaf_tuple)) < 0)
			cgx_log_errno(fd < 0 ? fd : r, "leaf %s keeps its old tuple on disk",
				      leaf->name);
	}
	r = commit_group_move(ctx, hier, &map);
	if (r == 0)
		replay_values(ctx, hier, &map);
	/*
	 * As the log says, from 0: the record copied from the old directory
	 * (its past, its leaves' counts) and its reset points fit it, not this one.
	 */
	for (size_t i = 0; r == 0 && i < map.nr; i++) {
		int started;

		if (!map.pairs[i].counts_lost)
			continue;
		if ((started = group_stats_start(ctx, map.pairs[i].to, hier)) < 0)
			cgx_log_errno(started, "group %s counts what %s counted before", new_name,
				      map.pairs[i].to->name);
		group_reset_counts(ctx, map.pairs[i].to, hier);
	}
	if (r < 0) {
		free(map.pairs);
		return r;
	}
	if ((r = relocate_leaves(ctx)) < 0)
		cgx_log_errno(r, "leaves not yet in place after rename of %s", name);
	leave_old_dirs(ctx, hier, &map);
	free(map.pairs);
	collect_subtree(ctx, from);
	dir_sync_controllers(ctx, parent);
	return 0;
}

static struct v1_file_attr *find_file_attr(const struct v1_group *group, unsigned int file)
{
	for (unsigned int i = 0; i < group->nr_file_attrs; i++)
		if (group->file_attrs[i].file == file)
			return &group->file_attrs[i];
	return NULL;
}

int cgx_group_getattr(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		      struct cgx_attr *attr)
{
	const struct v1_group *group = dir->group[hier];
	const struct v1_file_attr *file_attr;

	if (!group)
		return -ENOENT;
	if (file < 0) {
		*attr = (struct cgx_attr){group->uid, group->gid, group->mode};
		return 0;
	}
	if ((file_attr = find_file_attr(group, file))) {
		*attr = (struct cgx_attr){file_attr->uid, file_attr->gid, file_attr->mode};
		return 0;
	}
	*attr = (struct cgx_attr){group->creator_uid, group->creator_gid,
				  ctx->hiers.hier[hier].files[file]->mode};
	return 0;
}

int cgx_group_setattr(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		      const struct cgx_attr *attr, unsigned int which)
{
	struct v1_group *group = dir->group[hier];
	struct cgx_attr now;
	_cleanup_close_ int fd = -1;
	int r;

	if ((r = cgx_group_getattr(ctx, dir, hier, file, &now)) < 0)
		return r;
	if (which & CGX_SET_UID)
		now.uid = attr->uid;
	if (which & CGX_SET_GID)
		now.gid = attr->gid;
	if (which & CGX_SET_MODE)
		now.mode = attr->mode & 07777;
	if ((fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	if (file < 0) {
		struct v1_group updated = *group;

		updated.uid = now.uid;
		updated.gid = now.gid;
		updated.mode = now.mode;
		if ((r = state_save_group(ctx, fd, hier, &updated)) < 0)
			return r;
		group->uid = now.uid;
		group->gid = now.gid;
		group->mode = now.mode;
		return 0;
	}

	struct v1_file_attr record = {file, now.uid, now.gid, now.mode}, *slot;
	/* Room first, so that a stored record is always also in memory. */
	if (!(slot = find_file_attr(group, file))) {
		slot = realloc(group->file_attrs, (group->nr_file_attrs + 1) * sizeof(*slot));
		if (!slot)
			return -ENOMEM;
		group->file_attrs = slot;
		slot = &group->file_attrs[group->nr_file_attrs];
		*slot = (struct v1_file_attr){file, now.uid, now.gid, now.mode};
		if ((r = state_save_file_attr(ctx, fd, hier, &record)) < 0)
			return r;
		group->nr_file_attrs++;
		return 0;
	}
	if ((r = state_save_file_attr(ctx, fd, hier, &record)) < 0)
		return r;
	*slot = record;
	return 0;
}

int cgx_file_read(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, unsigned int file,
		  const struct cgx_caller *caller, struct strbuf *out)
{
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];
	struct v1_file_ctx fc = {ctx, dir, hier, file, caller};
	const char *value;

	if (row->read)
		return row->read(&fc, out);
	if (!(value = cgx_value_get(ctx, dir, hier, file)))
		return -EINVAL; /* a write-only file, as kernfs answers */
	return strbuf_add(out, value, strlen(value));
}

bool cgx_file_reads_ahead(const struct cgx_ctx *ctx, unsigned int hier, unsigned int file)
{
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];

	return row->read && !(row->mode & 0222);
}

int cgx_file_read_list(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		       unsigned int file, const struct cgx_caller *caller,
		       struct cgx_read_ahead *ahead)
{
	_cleanup_strbuf_ struct strbuf ignored = STRBUF_INIT;

	ahead->listing = true;
	(void)cgx_file_read_ahead(ctx, dir, hier, file, caller, ahead, &ignored);
	ahead->listing = false;
	return (int)ahead->nr;
}

int cgx_file_read_ahead(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			unsigned int file, const struct cgx_caller *caller,
			struct cgx_read_ahead *ahead, struct strbuf *out)
{
	int r;

	ctx->read_ahead = ahead;
	r = cgx_file_read(ctx, dir, hier, file, caller, out);
	ctx->read_ahead = NULL;
	return r;
}

void cgx_file_note_opener(struct cgx_ctx *ctx, unsigned int hier, unsigned int file,
			  struct cgx_caller *opener)
{
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];

	opener->admin_at_open =
		(row->flags & V1F_OPENER_ADMIN) && proc_is_init_ns_admin(opener->tid) == 0;
}

ssize_t cgx_file_write(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		       unsigned int file, const struct cgx_caller *caller, const char *buf,
		       size_t len)
{
	return file_write(ctx, dir, hier, file, caller, buf, len, true);
}
