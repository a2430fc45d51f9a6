// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The state of a view lives on the kernel's objects (docs/design.md §3, rule 8):
 *   trusted.cgx.group/H             "uid gid mode creator_uid creator_gid id": v1 group of H here
 *   trusted.cgx.val/H/FILE          what a v1 read of FILE returns, once written
 *   trusted.cgx.attr/H/FILE         "uid gid mode" after a chown/chmod of FILE
 *   trusted.cgx.carried/H           what removed leaves and old directories counted for H's
 *                                   group here, and its directories' past (stat_sum.h)
 *   trusted.cgx.tuple               this directory is a leaf; its tuple (fold_tuple_format)
 *   trusted.cgx.name                the v1 name of a directory whose v2 name is its hash,
 *                                   written before any other record (tree_escape_name)
 *   trusted.cgx.x{v,n}/H/F/N        an extended attribute of H's group or its file F (xattr.c)
 *   trusted.cgx.origin/PID.START    on the base: the cgroup2 path PID came from
 *   trusted.cgx.listener/SERIAL     on the base: a cgroup.event_control registration and
 *                                   where its eventfd is held (memevent.c)
 *   trusted.cgx.hierarchies         on the base: the hierarchies, once one was made or removed
 *   trusted.cgx.next-id             on the base: no group id at or above it was handed out
 * Every change is written here before it is answered, so a daemon killed at
 * any point restarts into the same view.
 */
#include "state.h"

#include "v2scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define XATTR_GROUP    "trusted.cgx.group/"
#define XATTR_VALUE    "trusted.cgx.val/"
#define XATTR_ATTR     "trusted.cgx.attr/"
#define XATTR_CARRIED  "trusted.cgx.carried/"
#define XATTR_TUPLE    "trusted.cgx.tuple"
#define XATTR_NAME     "trusted.cgx.name"
#define XATTR_ORIGIN   "trusted.cgx.origin/"
#define XATTR_HIERS    "trusted.cgx.hierarchies"
#define XATTR_NEXT_ID  "trusted.cgx.next-id"
#define XATTR_LISTENER "trusted.cgx.listener/"

/*
 * Group ids are the view's inode numbers, which the kernel keeps across a
 * daemon restart on the same connection (cgxfs --supervise): a group keeps
 * its id in its record, and ids are reserved on the base a block at a time
 * so that a restarted daemon never hands out again the id of a group
 * removed earlier, which a process's cwd may still name.
 */
#define ID_BLOCK 1024

struct pending_tuple {
	struct v2_dir *dir;
	char *text;
	struct pending_tuple *next;
};

/* Records of a group whose marker is gone: its removal was cut short. */
struct unfinished_removal {
	struct v2_dir *dir;
	unsigned int hier;
	struct unfinished_removal *next;
};

/* What a load finds that it can only settle once the whole tree is known. */
struct load_pending {
	struct pending_tuple *tuples;
	struct unfinished_removal *removals;
};

int state_save_hierarchies(struct cgx_ctx *ctx)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	int r;

	if ((r = hier_set_format(&ctx->hiers, &text)) < 0)
		return r;
	return v2_xattr_set(ctx->base_fd, XATTR_HIERS, text.buf, text.len);
}

int state_load_hierarchies(int base_fd, struct strbuf *text)
{
	return v2_xattr_get(base_fd, XATTR_HIERS, text);
}

struct v1_group *state_new_group(const struct cgx_hier *hier, uid_t uid, gid_t gid, mode_t mode)
{
	struct v1_group *group = calloc(1, sizeof(*group));

	if (!group)
		return NULL;
	group->values = calloc(hier->nr_files ? hier->nr_files : 1, sizeof(*group->values));
	if (!group->values) {
		free(group);
		return NULL;
	}
	group->nr_values = hier->nr_files;
	group->uid = group->creator_uid = uid;
	group->gid = group->creator_gid = gid;
	group->mode = mode & 07777;
	return group;
}

int state_save_group(struct cgx_ctx *ctx, int fd, unsigned int hier, const struct v1_group *group)
{
	char name[512], value[128];
	int len;

	snprintf(name, sizeof(name), XATTR_GROUP "%s", ctx->hiers.hier[hier].proc_name);
	len = snprintf(value, sizeof(value), "%u %u %o %u %u %llu", group->uid, group->gid,
		       group->mode, group->creator_uid, group->creator_gid,
		       (unsigned long long)group->id);
	return v2_xattr_set(fd, name, value, len);
}

int state_new_id(struct cgx_ctx *ctx, uint64_t *id)
{
	struct v2_tree *tree = &ctx->tree;

	if (tree->next_id >= tree->id_reserved) {
		uint64_t reserve = tree->next_id + ID_BLOCK;
		char text[32];
		int len = snprintf(text, sizeof(text), "%llu", (unsigned long long)reserve);
		int r = v2_xattr_set(ctx->base_fd, XATTR_NEXT_ID, text, len);

		if (r < 0)
			return cgx_log_errno(r, "cannot reserve group ids");
		tree->id_reserved = reserve;
	}
	*id = tree->next_id++;
	return 0;
}

int state_save_group_all(struct cgx_ctx *ctx, int fd, unsigned int hier, struct v1_group *group)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	char name[512];
	int r;

	if ((r = state_save_group(ctx, fd, hier, group)) < 0)
		return r;
	for (unsigned int file = 0; file < group->nr_values; file++) {
		if (!group->values[file])
			continue;
		snprintf(name, sizeof(name), XATTR_VALUE "%s/%s", h->proc_name,
			 h->files[file]->name);
		if ((r = v2_xattr_set(fd, name, group->values[file], strlen(group->values[file]))) <
		    0)
			return r;
	}
	for (unsigned int i = 0; i < group->nr_file_attrs; i++)
		if ((r = state_save_file_attr(ctx, fd, hier, &group->file_attrs[i])) < 0)
			return r;
	return xattr_copy_group(ctx, fd, hier, group);
}

int state_drop_group_marker(struct cgx_ctx *ctx, int fd, unsigned int hier)
{
	char group_name[512];

	snprintf(group_name, sizeof(group_name), XATTR_GROUP "%s", ctx->hiers.hier[hier].proc_name);
	return v2_xattr_remove(fd, group_name);
}

/* "H/..." (a value, an attribute) or "H" (the carried record) of @proc_name's group, or NULL. */
static const char *group_record_rest(const char *name, const char *proc_name)
{
	static const char *const prefixes[] = {XATTR_VALUE, XATTR_ATTR, XATTR_CARRIED};

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		const char *rest = name + strlen(prefixes[i]);
		char end;

		if (strncmp(name, prefixes[i], strlen(prefixes[i])) ||
		    strncmp(rest, proc_name, strlen(proc_name)))
			continue;
		end = rest[strlen(proc_name)];
		if (end == '/' || (end == '\0' && !strcmp(prefixes[i], XATTR_CARRIED)))
			return rest;
	}
	return NULL;
}

int state_drop_group_records(struct cgx_ctx *ctx, int fd, unsigned int hier)
{
	_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;
	const char *proc_name = ctx->hiers.hier[hier].proc_name;
	int r;

	if ((r = v2_xattr_list(fd, &names)) < 0)
		return r;
	for_each_name (name, &names)
		if ((group_record_rest(name, proc_name) || xattr_record_of_hier(name, proc_name)) &&
		    (r = v2_xattr_remove(fd, name)) < 0 && r != -ENODATA)
			return r;
	return 0;
}

int state_drop_group(struct cgx_ctx *ctx, int fd, unsigned int hier)
{
	int r;

	/* The group marker goes first: without it, leftovers are ignored on load. */
	if ((r = state_drop_group_marker(ctx, fd, hier)) < 0)
		return r;
	return state_drop_group_records(ctx, fd, hier);
}

static void carried_name(struct cgx_ctx *ctx, unsigned int hier, char *name, size_t size)
{
	snprintf(name, size, XATTR_CARRIED "%s", ctx->hiers.hier[hier].proc_name);
}

int state_carried_get(struct cgx_ctx *ctx, int fd, unsigned int hier, struct strbuf *text)
{
	char name[512];

	carried_name(ctx, hier, name, sizeof(name));
	return v2_xattr_get(fd, name, text);
}

int state_carried_set(struct cgx_ctx *ctx, int fd, unsigned int hier, const char *text)
{
	char name[512];
	int r;

	carried_name(ctx, hier, name, sizeof(name));
	if (*text)
		return v2_xattr_set(fd, name, text, strlen(text));
	r = v2_xattr_remove(fd, name);
	return r == -ENODATA ? 0 : r;
}

int state_save_file_attr(struct cgx_ctx *ctx, int fd, unsigned int hier,
			 const struct v1_file_attr *attr)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	char name[512], value[64];
	int len;

	snprintf(name, sizeof(name), XATTR_ATTR "%s/%s", h->proc_name, h->files[attr->file]->name);
	len = snprintf(value, sizeof(value), "%u %u %o", attr->uid, attr->gid, attr->mode);
	return v2_xattr_set(fd, name, value, len);
}

int state_save_tuple(struct cgx_ctx *ctx, int fd, const struct tuple *tuple)
{
	_cleanup_free_ char *text = malloc(FOLD_TUPLE_TEXT_MAX);
	int r;

	if (!text)
		return -ENOMEM;
	if ((r = fold_tuple_format(&ctx->tree, &ctx->hiers, tuple, text, FOLD_TUPLE_TEXT_MAX)) < 0)
		return r;
	return v2_xattr_set(fd, XATTR_TUPLE, text, strlen(text));
}

int state_save_dir_name(int fd, const struct v2_dir *dir)
{
	if (!dir->v1_name)
		return 0;
	return v2_xattr_set(fd, XATTR_NAME, dir->v1_name, strlen(dir->v1_name));
}

int state_drop_tuple(int fd)
{
	return v2_xattr_remove(fd, XATTR_TUPLE);
}

const char *cgx_value_get(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			  unsigned int file)
{
	const struct v1_group *group = dir->group[hier];

	if (group && file < group->nr_values && group->values[file])
		return group->values[file];
	return ctx->hiers.hier[hier].files[file]->default_value;
}

const char *cgx_value_named(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			    const char *name)
{
	int file = v1_file_find(&ctx->hiers.hier[hier], name);

	if (file < 0 || !dir->group[hier])
		return NULL;
	return cgx_value_get(ctx, dir, hier, file);
}

const char *stored_values_get(const struct v1_values *values, const char *file)
{
	const struct stored_values *g = (const struct stored_values *)values;

	return cgx_value_named(g->ctx, g->dir, g->hier, file);
}

int cgx_value_set_named(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			const char *name, const char *text)
{
	int file = v1_file_find(&ctx->hiers.hier[hier], name);

	return file < 0 ? file : cgx_value_set(ctx, dir, hier, file, text);
}

int cgx_value_set(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, unsigned int file,
		  const char *text)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	struct v1_group *group = dir->group[hier];
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *copy = NULL;
	char name[512];
	int r;

	if (!group || file >= group->nr_values)
		return -ENOENT;
	if (!(copy = strdup(text)))
		return -ENOMEM;
	if ((fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	snprintf(name, sizeof(name), XATTR_VALUE "%s/%s", h->proc_name, h->files[file]->name);
	if ((r = v2_xattr_set(fd, name, text, strlen(text))) < 0)
		return cgx_log_errno(r, "cannot store %s of %s", h->files[file]->name, dir->name);
	free(group->values[file]);
	group->values[file] = steal_ptr(copy);
	return 0;
}

static int origin_xattr_name(pid_t pid, char *name, size_t size)
{
	unsigned long long start;
	int r = proc_start_time(pid, &start);

	if (r < 0)
		return r;
	snprintf(name, size, XATTR_ORIGIN "%d.%llu", (int)pid, start);
	return 0;
}

int state_origin_save(struct cgx_ctx *ctx, pid_t pid, const char *cgroup2_path)
{
	char name[128];
	int r = origin_xattr_name(pid, name, sizeof(name));

	if (r < 0)
		return r;
	return v2_xattr_set(ctx->base_fd, name, cgroup2_path, strlen(cgroup2_path));
}

void state_origin_forget(struct cgx_ctx *ctx, pid_t pid)
{
	char name[128];

	if (origin_xattr_name(pid, name, sizeof(name)) == 0)
		v2_xattr_remove(ctx->base_fd, name);
}

int state_origin_get(struct cgx_ctx *ctx, pid_t pid, char *cgroup2_path, size_t size)
{
	_cleanup_strbuf_ struct strbuf value = STRBUF_INIT;
	char name[128];
	int r = origin_xattr_name(pid, name, sizeof(name));

	if (r < 0)
		return r;
	if ((r = v2_xattr_get(ctx->base_fd, name, &value)) < 0)
		return r;
	if (value.len >= size)
		return -ENAMETOOLONG;
	memcpy(cgroup2_path, value.buf, value.len + 1);
	return 0;
}

static void listener_xattr_name(uint64_t serial, char *name, size_t size)
{
	snprintf(name, size, XATTR_LISTENER "%" PRIu64, serial);
}

int state_listener_save(struct cgx_ctx *ctx, uint64_t serial, const char *record)
{
	char name[64];

	listener_xattr_name(serial, name, sizeof(name));
	return v2_xattr_set(ctx->base_fd, name, record, strlen(record));
}

void state_listener_forget(struct cgx_ctx *ctx, uint64_t serial)
{
	char name[64];

	listener_xattr_name(serial, name, sizeof(name));
	v2_xattr_remove(ctx->base_fd, name);
}

int state_listeners_each(struct cgx_ctx *ctx,
			 void (*fn)(struct cgx_ctx *ctx, uint64_t serial, const char *record))
{
	_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;
	int r;

	if ((r = v2_xattr_list(ctx->base_fd, &names)) < 0)
		return r;
	for_each_name (name, &names) {
		_cleanup_strbuf_ struct strbuf record = STRBUF_INIT;
		uint64_t serial;

		if (strncmp(name, XATTR_LISTENER, strlen(XATTR_LISTENER)) ||
		    sscanf(name + strlen(XATTR_LISTENER), "%" SCNu64, &serial) != 1)
			continue;
		if (v2_xattr_get(ctx->base_fd, name, &record) == 0)
			fn(ctx, serial, record.buf);
		else
			v2_xattr_remove(ctx->base_fd, name);
	}
	return 0;
}

/* Origins of processes that have exited (their pid.start no longer matches) go. */
static void prune_origins(struct cgx_ctx *ctx)
{
	_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;

	if (v2_xattr_list(ctx->base_fd, &names) < 0)
		return;
	for_each_name (name, &names) {
		unsigned long long start, now;
		int pid;

		if (strncmp(name, XATTR_ORIGIN, strlen(XATTR_ORIGIN)) ||
		    sscanf(name + strlen(XATTR_ORIGIN), "%d.%llu", &pid, &start) != 2)
			continue;
		if (proc_start_time(pid, &now) < 0 || now != start)
			v2_xattr_remove(ctx->base_fd, name);
	}
}

/* "H/FILE" of a val/ or attr/ xattr: the hierarchy and file index, or -ENOENT. */
static int split_hier_file(struct cgx_ctx *ctx, const char *rest, unsigned int *hier)
{
	const char *slash = strrchr(rest, '/');
	char proc_name[256];
	int h;

	if (!slash || (size_t)(slash - rest) >= sizeof(proc_name))
		return -ENOENT;
	memcpy(proc_name, rest, slash - rest);
	proc_name[slash - rest] = '\0';
	if ((h = hier_set_find(&ctx->hiers, proc_name)) < 0)
		return h;
	*hier = h;
	return v1_file_find(&ctx->hiers.hier[h], slash + 1);
}

static int load_group_marker(struct cgx_ctx *ctx, struct v2_dir *dir, const char *proc_name,
			     const char *value)
{
	unsigned int uid, gid, mode, cuid, cgid;
	unsigned long long id = 0;
	struct v1_group *group;
	int h = hier_set_find(&ctx->hiers, proc_name);
	int n;

	if (h < 0)
		return 0; /* a hierarchy this view does not show: left as it is */
	n = sscanf(value, "%u %u %o %u %u %llu", &uid, &gid, &mode, &cuid, &cgid, &id);
	if (n != 5 && n != 6)
		return cgx_log_errno(-EINVAL, "corrupt group record %s on %s", proc_name,
				     dir->name);
	if (!(group = state_new_group(&ctx->hiers.hier[h], uid, gid, mode)))
		return -ENOMEM;
	group->creator_uid = cuid;
	group->creator_gid = cgid;
	/* A record of an older daemon, or a copied one: a new id, stored once all are loaded. */
	group->id = id;
	if (!id || id & ~CGX_GROUP_ID_MASK || tree_group_by_id(&ctx->tree, id)) {
		group->id = 0;
		group->id_unsaved = true;
	}
	tree_drop_group(&ctx->tree, dir, h);
	return tree_attach_group(&ctx->tree, dir, h, group);
}

/*
 * Records of hierarchy @hier on @dir without its group marker: a daemon
 * killed while removing the group (the marker goes first). The base's are
 * a hierarchy's root, whose marker an older daemon did not write.
 */
static int note_unfinished_removal(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
				   struct load_pending *pending)
{
	struct unfinished_removal *removal;

	if (dir == ctx->tree.base)
		return 0;
	for (removal = pending->removals; removal; removal = removal->next)
		if (removal->dir == dir && removal->hier == hier)
			return 0;
	if (!(removal = calloc(1, sizeof(*removal))))
		return -ENOMEM;
	*removal = (struct unfinished_removal){dir, hier, pending->removals};
	pending->removals = removal;
	return 0;
}

static int load_file_record(struct cgx_ctx *ctx, struct v2_dir *dir, const char *rest,
			    const char *value, bool is_attr, struct load_pending *pending)
{
	unsigned int hier, uid, gid, mode;
	struct v1_group *group;
	struct v1_file_attr *grown;
	int file = split_hier_file(ctx, rest, &hier);

	if (file < 0)
		return 0;
	if (!(group = dir->group[hier]))
		return note_unfinished_removal(ctx, dir, hier, pending);
	if (!is_attr) {
		free(group->values[file]);
		return (group->values[file] = strdup(value)) ? 0 : -ENOMEM;
	}
	if (sscanf(value, "%u %u %o", &uid, &gid, &mode) != 3)
		return 0;
	grown = realloc(group->file_attrs, (group->nr_file_attrs + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	group->file_attrs = grown;
	/* Permission bits, as cgx_group_setattr() keeps them: FUSE adds the file type. */
	grown[group->nr_file_attrs++] = (struct v1_file_attr){file, uid, gid, mode & 07777};
	return 0;
}

/* A carried record is its group's: without the group, a removal was cut short. */
static int check_carried(struct cgx_ctx *ctx, struct v2_dir *dir, const char *proc_name,
			 struct load_pending *pending)
{
	int h = hier_set_find(&ctx->hiers, proc_name);

	if (h < 0 || dir->group[h])
		return 0;
	return note_unfinished_removal(ctx, dir, h, pending);
}

/* The records whose value the load reads: a carried or an xv/ record only counts by its name. */
static bool load_wants_value(const char *dir_name, const char *name)
{
	static const char *const prefixes[] = {XATTR_GROUP, XATTR_VALUE, XATTR_ATTR};

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	if (!strcmp(name, XATTR_TUPLE))
		return true;
	if (!strcmp(name, XATTR_NAME))
		return tree_is_hashed_name(dir_name);
	return xattr_record_wants_value(name);
}

static int load_xattrs(struct cgx_ctx *ctx, struct v2_dir *dir, const struct v2scan_dir *scanned,
		       struct load_pending *pending)
{
	const struct v2scan_record *records = scanned->records;
	bool users_records = false;
	_cleanup_close_ int fd = -1;
	int r;

	for (unsigned int i = 0; i < scanned->nr_records; i++)
		users_records |= xattr_is_record(records[i].name);
	/* Users' records are checked and pruned on an fd of their directory (xattr.c). */
	if (users_records && (fd = cgx_dir_open(ctx, dir)) < 0)
		return fd;
	/*
	 * Group markers first: values and attributes belong to a group. Last,
	 * once every extended attribute's name is known, the values no name claims.
	 */
	for (int pass = 0; pass < 3; pass++) {
		for (unsigned int i = 0; i < scanned->nr_records; i++) {
			const char *name = records[i].name, *value = records[i].value;
			bool marker = !strncmp(name, XATTR_GROUP, strlen(XATTR_GROUP));

			if (pass == 2) {
				if (users_records)
					xattr_prune_orphans(ctx, dir, fd, name);
				continue;
			}
			if (marker != (pass == 0) || !load_wants_value(dir->name, name)) {
				/* A carried record needs no value: its name says whose it is. */
				if (pass == 1 &&
				    !strncmp(name, XATTR_CARRIED, strlen(XATTR_CARRIED)) &&
				    (r = check_carried(ctx, dir, name + strlen(XATTR_CARRIED),
						       pending)) < 0)
					return r;
				continue;
			}
			if ((r = records[i].err) < 0)
				return r;
			if (marker)
				r = load_group_marker(ctx, dir, name + strlen(XATTR_GROUP), value);
			else if (!strncmp(name, XATTR_VALUE, strlen(XATTR_VALUE)))
				r = load_file_record(ctx, dir, name + strlen(XATTR_VALUE), value,
						     false, pending);
			else if (!strncmp(name, XATTR_ATTR, strlen(XATTR_ATTR)))
				r = load_file_record(ctx, dir, name + strlen(XATTR_ATTR), value,
						     true, pending);
			/* A hashed v2 name says nothing of the v1 name: its record does. */
			else if (!strcmp(name, XATTR_NAME))
				r = tree_set_v1_name(&ctx->tree, dir, value);
			else if (xattr_is_record(name))
				r = xattr_load_record(ctx, dir, fd, name, value);
			else if (!strcmp(name, XATTR_TUPLE)) {
				struct pending_tuple *p = calloc(1, sizeof(*p));

				if (!p || !(p->text = strdup(value))) {
					free(p);
					return -ENOMEM;
				}
				p->dir = dir;
				p->next = pending->tuples;
				pending->tuples = p;
			}
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/*
 * @dir, read as @scanned, and the directories below it: the errors the
 * scan met are returned where a load reading as it went met them.
 */
static int load_subtree(struct cgx_ctx *ctx, struct v2_dir *dir, struct v2scan *scan,
			const struct v2scan_dir *scanned, struct load_pending *pending)
{
	int r;

	if ((r = load_xattrs(ctx, dir, scanned, pending)) < 0 || !scanned->may_have_children)
		return r;
	v2scan_wait(scan, scanned);
	if (scanned->children_err < 0)
		return scanned->children_err;
	for (unsigned int i = 0; i < scanned->nr_children; i++) {
		const struct v2scan_dir *scanned_child = &scanned->children[i];
		struct v2_dir *child;

		/* Removed meanwhile (or no directory): as if never listed. */
		if (scanned_child->err == -ENOENT)
			continue;
		if (scanned_child->err < 0)
			return scanned_child->err;
		/* Read before it enters the mirror: a directory gone by then is skipped whole. */
		if ((r = tree_add_dir(&ctx->tree, dir, scanned_child->name, &child)) < 0) {
			if (r == -ENOENT)
				continue;
			return r;
		}
		child->created = scanned_child->created;
		child->ino = scanned_child->ino;
		if ((r = load_subtree(ctx, child, scan, scanned_child, pending)) < 0)
			return r;
	}
	return 0;
}

static bool dir_is_group(const struct v2_dir *dir)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		if (dir->group[h])
			return true;
	return false;
}

/*
 * Directories that are neither a group, a leaf nor above one are what a
 * daemon killed between mkdir and its xattr left behind: remove the empty ones.
 */
static void prune_strays(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	for (struct v2_dir *child = dir->first_child, *next; child; child = next) {
		next = child->next_sibling;
		prune_strays(ctx, child);
	}
	if (dir == ctx->tree.base || dir->first_child || dir->leaf_tuple || dir_is_group(dir))
		return;

	_cleanup_close_ int parent_fd = cgx_dir_open(ctx, dir->parent);
	if (parent_fd >= 0 && unlinkat(parent_fd, dir->name, AT_REMOVEDIR) == 0) {
		cgx_log(CGX_LOG_INFO, "removed stray v2 directory %s", dir->name);
		tree_remove_dir(&ctx->tree, dir);
	}
}

/* Groups loaded or made without a stored id get one now that every stored id is known. */
static int save_new_ids(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	int r;

	v2_dir_for_each_child (child, dir)
		if ((r = save_new_ids(ctx, child)) < 0)
			return r;
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		struct v1_group *group = dir->group[h];
		_cleanup_close_ int fd = -1;
		uint64_t id;

		if (!group || !group->id_unsaved)
			continue;
		if ((r = state_new_id(ctx, &id)) < 0)
			return r;
		tree_reindex_group(&ctx->tree, group, id);
		if ((fd = cgx_dir_open(ctx, dir)) < 0 ||
		    (r = state_save_group(ctx, fd, h, group)) < 0)
			return fd < 0 ? fd : r;
		group->id_unsaved = false;
	}
	return 0;
}

static void load_next_id(struct cgx_ctx *ctx)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	unsigned long long stored;

	if (v2_xattr_get(ctx->base_fd, XATTR_NEXT_ID, &text) == 0 &&
	    sscanf(text.buf, "%llu", &stored) == 1 && stored > ctx->tree.next_id &&
	    stored <= CGX_GROUP_ID_MASK)
		ctx->tree.next_id = stored;
}

/*
 * Ends the removals a killed daemon began: the knobs the group set, then its
 * records. Frees the list; does nothing more once @r (the load's) is an error.
 */
static int finish_removals(struct cgx_ctx *ctx, struct unfinished_removal *removals, int r)
{
	for (struct unfinished_removal *removal = removals, *next; removal; removal = next) {
		_cleanup_close_ int fd = -1;

		next = removal->next;
		if (r == 0 && !removal->dir->group[removal->hier]) {
			cgx_log(CGX_LOG_INFO, "finishing the removal of a %s group at %s",
				ctx->hiers.hier[removal->hier].dir_name, removal->dir->name);
			knob_offline(ctx, removal->dir, removal->hier);
			if ((fd = cgx_dir_open(ctx, removal->dir)) < 0 ||
			    (r = state_drop_group_records(ctx, fd, removal->hier)) < 0)
				r = fd < 0 ? fd : r;
		}
		free(removal);
	}
	return r;
}

int state_load(struct cgx_ctx *ctx)
{
	struct load_pending loading = {0};
	struct pending_tuple *pending;
	struct v2scan scan;
	int r;

	load_next_id(ctx);
	/* The system calls on other threads, the mirror on this one meanwhile. */
	r = v2scan_start(ctx->base_fd, load_wants_value, &scan);
	if (r == 0 && (r = scan.base.err) == 0)
		r = load_subtree(ctx, ctx->tree.base, &scan, &scan.base, &loading);
	v2scan_end(&scan);
	pending = loading.tuples;
	for (unsigned int h = 0; r == 0 && h < ctx->hiers.nr; h++) {
		if (ctx->tree.base->group[h])
			continue;
		/* kernfs_create_root(): a hierarchy's root directory is 0555. */
		struct v1_group *root = state_new_group(&ctx->hiers.hier[h], 0, 0, 0555);

		if (root)
			root->id_unsaved = true;
		r = root ? tree_attach_group(&ctx->tree, ctx->tree.base, h, root) : -ENOMEM;
	}
	/* Every id stored is known: what is handed out from here on was never seen. */
	ctx->tree.id_reserved = ctx->tree.next_id;
	if (r == 0)
		r = save_new_ids(ctx, ctx->tree.base);
	while (pending) {
		struct pending_tuple *p = pending;
		struct tuple tuple;

		pending = p->next;
		if (r == 0) {
			int pr = fold_tuple_parse(&ctx->tree, &ctx->hiers, p->text, &tuple);

			if (pr < 0) {
				/* Its groups are gone: its processes fall back to the root. */
				cgx_log_errno(pr, "leaf %s has an unreadable tuple", p->dir->name);
				fold_tuple_parse(&ctx->tree, &ctx->hiers, "", &tuple);
			}
			r = tree_set_leaf(&ctx->tree, p->dir, &tuple);
		}
		free(p->text);
		free(p);
	}
	if ((r = finish_removals(ctx, loading.removals, r)) == 0) {
		prune_strays(ctx, ctx->tree.base);
		prune_origins(ctx);
	}
	return r;
}
