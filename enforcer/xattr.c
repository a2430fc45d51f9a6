// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extended attributes of v1 groups and their files, as kernfs keeps them on
 * a v1 hierarchy (KERNFS_ROOT_SUPPORT_USER_XATTR, since 5.7): user.* for
 * whoever may write the inode, trusted.* and security.* for CAP_SYS_ADMIN.
 * The kernel checks those rights before a request comes (xattr_permission()
 * and the LSM hook, with default_permissions); what is left to do here is
 * what kernfs itself does: the namespaces it knows, its limits on user.*
 * (kernfs_vfs_user_xattr_add()), and the store.
 *
 * One v2 directory carries the groups of every hierarchy at its path, so
 * each attribute is two records there, in slot N of inode F (the group
 * directory "-" or one of its files) of hierarchy H:
 *   trusted.cgx.xv/H/F/N   the value (written first)
 *   trusted.cgx.xn/H/F/N   the full name: the attribute exists once it is there
 * Values are not kept in memory (a group may hold 128 KiB of them per
 * inode): only which slots are in use and what user.* takes of the limits.
 */
#include "state.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#define XATTR_REC_NAME	"trusted.cgx.xn/"
#define XATTR_REC_VALUE "trusted.cgx.xv/"

/* kernfs's limits on user.* per inode (include/linux/kernfs.h). */
#define KERNFS_MAX_USER_XATTRS	     128
#define KERNFS_USER_XATTR_SIZE_LIMIT (128 << 10)

/* The slot of each inode's attributes, user.* and the others together. */
#define XATTR_SLOTS (2 * KERNFS_MAX_USER_XATTRS)

struct v1_xattrs {
	uint64_t used[XATTR_SLOTS / 64];
	unsigned int nr_user;
	size_t user_size;
};

enum xattr_ns { NS_USER, NS_TRUSTED, NS_SECURITY };

/* The namespaces kernfs has handlers for; -EOPNOTSUPP for others, -EINVAL for a bare prefix. */
static int xattr_namespace(const char *name)
{
	static const char *const prefixes[] = {
		[NS_USER] = "user.", [NS_TRUSTED] = "trusted.", [NS_SECURITY] = "security."};

	for (int ns = 0; ns < (int)ARRAY_SIZE(prefixes); ns++) {
		size_t len = strlen(prefixes[ns]);

		if (!strncmp(name, prefixes[ns], len))
			return name[len] ? ns : -EINVAL; /* xattr_resolve_name() */
	}
	return -EOPNOTSUPP;
}

static unsigned int inode_of(int file)
{
	return file < 0 ? 0 : (unsigned int)file + 1;
}

static struct v1_xattrs *xattrs_of(const struct v1_group *group, int file)
{
	return group->xattrs ? &group->xattrs[inode_of(file)] : NULL;
}

/* The accounting of @file's inode, made on first use. */
static struct v1_xattrs *xattrs_get(struct v1_group *group, int file)
{
	if (!group->xattrs &&
	    !(group->xattrs = calloc(group->nr_values + 1, sizeof(struct v1_xattrs))))
		return NULL;
	return &group->xattrs[inode_of(file)];
}

static bool slot_used(const struct v1_xattrs *x, unsigned int slot)
{
	return x->used[slot / 64] & (1ULL << (slot % 64));
}

static void slot_mark(struct v1_xattrs *x, unsigned int slot, bool used)
{
	if (used)
		x->used[slot / 64] |= 1ULL << (slot % 64);
	else
		x->used[slot / 64] &= ~(1ULL << (slot % 64));
}

static int record_name(struct cgx_ctx *ctx, const char *kind, unsigned int hier, int file,
		       unsigned int slot, char *buf, size_t size)
{
	const struct cgx_hier *h = &ctx->hiers.hier[hier];
	int w = snprintf(buf, size, "%s%s/%s/%u", kind, h->proc_name,
			 file < 0 ? "-" : h->files[file]->name, slot);

	return w < 0 || (size_t)w >= size || w > XATTR_NAME_MAX ? -ENAMETOOLONG : 0;
}

/* The slot of attribute @name on the inode, -ENODATA when it has none. */
static int slot_find(struct cgx_ctx *ctx, int fd, unsigned int hier, int file,
		     const struct v1_xattrs *x, const char *name)
{
	_cleanup_strbuf_ struct strbuf stored = STRBUF_INIT;
	char key[XATTR_NAME_MAX + 1];
	int r;

	for (unsigned int slot = 0; x && slot < XATTR_SLOTS; slot++) {
		if (!slot_used(x, slot))
			continue;
		if ((r = record_name(ctx, XATTR_REC_NAME, hier, file, slot, key, sizeof(key))) < 0)
			return r;
		if ((r = v2_xattr_get(fd, key, &stored)) < 0 && r != -ENODATA)
			return r;
		if (r == 0 && !strcmp(stored.buf, name))
			return (int)slot;
	}
	return -ENODATA;
}

static int group_fd(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		    struct v1_group **group)
{
	if (!(*group = dir->group[hier]))
		return -ENOENT;
	return cgx_dir_open(ctx, dir);
}

int cgx_xattr_get(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		  const char *name, struct strbuf *value)
{
	_cleanup_close_ int fd = -1;
	struct v1_group *group;
	char key[XATTR_NAME_MAX + 1];
	int slot, r;

	if ((r = xattr_namespace(name)) < 0)
		return r;
	/* The common question (ls, a truncating open's security.capability) answers from memory. */
	if (!(group = dir->group[hier]) || !xattrs_of(group, file))
		return group ? -ENODATA : -ENOENT;
	if ((fd = group_fd(ctx, dir, hier, &group)) < 0)
		return fd;
	if ((slot = slot_find(ctx, fd, hier, file, xattrs_of(group, file), name)) < 0)
		return slot;
	if ((r = record_name(ctx, XATTR_REC_VALUE, hier, file, slot, key, sizeof(key))) < 0)
		return r;
	return v2_xattr_get(fd, key, value);
}

int cgx_xattr_list(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		   const struct cgx_caller *caller, struct strbuf *names)
{
	_cleanup_strbuf_ struct strbuf stored = STRBUF_INIT;
	_cleanup_close_ int fd = -1;
	struct v1_group *group;
	const struct v1_xattrs *x;
	char key[XATTR_NAME_MAX + 1];
	int admin = -1, r;

	names->len = 0;
	if (!(group = dir->group[hier]))
		return -ENOENT;
	if (!(x = xattrs_of(group, file)))
		return 0;
	if ((fd = group_fd(ctx, dir, hier, &group)) < 0)
		return fd;
	for (unsigned int slot = 0; slot < XATTR_SLOTS; slot++) {
		if (!slot_used(x, slot))
			continue;
		if ((r = record_name(ctx, XATTR_REC_NAME, hier, file, slot, key, sizeof(key))) < 0)
			return r;
		if ((r = v2_xattr_get(fd, key, &stored)) == -ENODATA)
			continue;
		if (r < 0)
			return r;
		/* simple_xattr_list(): trusted.* only to CAP_SYS_ADMIN in the initial namespace. */
		if (xattr_namespace(stored.buf) == NS_TRUSTED && admin < 0)
			admin = proc_is_init_ns_admin(caller->tid) == 0;
		if (xattr_namespace(stored.buf) == NS_TRUSTED && !admin)
			continue;
		if ((r = strbuf_add(names, stored.buf, stored.len + 1)) < 0)
			return r;
	}
	return 0;
}

/* The size of the value in @slot, 0 when it has none. */
static size_t value_size(struct cgx_ctx *ctx, int fd, unsigned int hier, int file,
			 unsigned int slot)
{
	char key[XATTR_NAME_MAX + 1];
	ssize_t n;

	if (record_name(ctx, XATTR_REC_VALUE, hier, file, slot, key, sizeof(key)) < 0)
		return 0;
	n = fgetxattr(fd, key, NULL, 0);
	return n < 0 ? 0 : (size_t)n;
}

int cgx_xattr_set(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		  const char *name, const char *value, size_t size, int flags)
{
	_cleanup_close_ int fd = -1;
	struct v1_group *group;
	struct v1_xattrs *x;
	char key[XATTR_NAME_MAX + 1];
	int ns = xattr_namespace(name), slot, r;
	size_t old_size = 0;

	if (ns < 0)
		return ns;
	if (flags & ~(XATTR_CREATE | XATTR_REPLACE))
		return -EINVAL;
	if ((fd = group_fd(ctx, dir, hier, &group)) < 0)
		return fd;
	if (!(x = xattrs_get(group, file)))
		return -ENOMEM;
	if ((slot = slot_find(ctx, fd, hier, file, x, name)) < 0 && slot != -ENODATA)
		return slot;
	/*
	 * kernfs_vfs_user_xattr_add() counts the new attribute and its size
	 * before it looks for the old one: at 128 attributes, or 128 KiB, even a
	 * replace is ENOSPC, and these come before EEXIST and ENODATA.
	 */
	if (ns == NS_USER && (x->nr_user + 1 > KERNFS_MAX_USER_XATTRS ||
			      x->user_size + size > KERNFS_USER_XATTR_SIZE_LIMIT))
		return -ENOSPC;
	if (slot >= 0 && (flags & XATTR_CREATE))
		return -EEXIST;
	if (slot < 0 && (flags & XATTR_REPLACE))
		return -ENODATA;
	if (slot >= 0) {
		old_size = value_size(ctx, fd, hier, file, slot);
	} else {
		/* Past kernfs's own limits only trusted.* and security.* of root: a bound all the
		 * same. */
		for (slot = 0; slot < XATTR_SLOTS && slot_used(x, slot); slot++)
			;
		if (slot == XATTR_SLOTS)
			return -ENOSPC;
	}
	/* The value first: a name record always has its value, even after a crash in between. */
	if ((r = record_name(ctx, XATTR_REC_VALUE, hier, file, slot, key, sizeof(key))) < 0 ||
	    (r = v2_xattr_set(fd, key, value, size)) < 0)
		return cgx_log_errno(r, "cannot store extended attribute %s", name);
	if (!slot_used(x, slot)) {
		if ((r = record_name(ctx, XATTR_REC_NAME, hier, file, slot, key, sizeof(key))) <
			    0 ||
		    (r = v2_xattr_set(fd, key, name, strlen(name))) < 0) {
			record_name(ctx, XATTR_REC_VALUE, hier, file, slot, key, sizeof(key));
			v2_xattr_remove(fd, key);
			return cgx_log_errno(r, "cannot store extended attribute %s", name);
		}
		slot_mark(x, slot, true);
		x->nr_user += ns == NS_USER;
	}
	if (ns == NS_USER)
		x->user_size = x->user_size - old_size + size;
	return 0;
}

int cgx_xattr_remove(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier, int file,
		     const char *name)
{
	_cleanup_close_ int fd = -1;
	struct v1_group *group;
	struct v1_xattrs *x;
	char key[XATTR_NAME_MAX + 1];
	int ns = xattr_namespace(name), slot, r;
	size_t size;

	if (ns < 0)
		return ns;
	if (!(group = dir->group[hier]) || !(x = xattrs_of(group, file)))
		return group ? -ENODATA : -ENOENT;
	if ((fd = group_fd(ctx, dir, hier, &group)) < 0)
		return fd;
	if ((slot = slot_find(ctx, fd, hier, file, x, name)) < 0)
		return slot;
	size = value_size(ctx, fd, hier, file, slot);
	/* The name first: without it the value left behind is dropped at the next start. */
	if ((r = record_name(ctx, XATTR_REC_NAME, hier, file, slot, key, sizeof(key))) < 0 ||
	    (r = v2_xattr_remove(fd, key)) < 0)
		return cgx_log_errno(r, "cannot remove extended attribute %s", name);
	slot_mark(x, slot, false);
	if (ns == NS_USER) {
		x->nr_user--;
		x->user_size -= size;
	}
	if (record_name(ctx, XATTR_REC_VALUE, hier, file, slot, key, sizeof(key)) == 0)
		v2_xattr_remove(fd, key);
	return 0;
}

bool xattr_is_record(const char *name)
{
	return !strncmp(name, XATTR_REC_NAME, strlen(XATTR_REC_NAME)) ||
	       !strncmp(name, XATTR_REC_VALUE, strlen(XATTR_REC_VALUE));
}

/* "H/F/N" of a record: the hierarchy, the inode (file < 0: the directory) and the slot. */
static int split_record(struct cgx_ctx *ctx, const char *rest, unsigned int *hier, int *file,
			unsigned int *slot)
{
	const char *slash_slot = strrchr(rest, '/'), *slash_file;
	char proc_name[256], file_name[256], *end;
	unsigned long n;
	int h;

	if (!slash_slot || slash_slot == rest)
		return -ENOENT;
	for (slash_file = slash_slot - 1; slash_file > rest && *slash_file != '/'; slash_file--)
		;
	if (*slash_file != '/' || (size_t)(slash_file - rest) >= sizeof(proc_name) ||
	    (size_t)(slash_slot - slash_file - 1) >= sizeof(file_name))
		return -ENOENT;
	n = strtoul(slash_slot + 1, &end, 10);
	if (!slash_slot[1] || *end || n >= XATTR_SLOTS)
		return -ENOENT;
	memcpy(proc_name, rest, slash_file - rest);
	proc_name[slash_file - rest] = '\0';
	memcpy(file_name, slash_file + 1, slash_slot - slash_file - 1);
	file_name[slash_slot - slash_file - 1] = '\0';
	if ((h = hier_set_find(&ctx->hiers, proc_name)) < 0)
		return h;
	*hier = h;
	*slot = n;
	*file = strcmp(file_name, "-") ? v1_file_find(&ctx->hiers.hier[h], file_name) : -1;
	return *file == -ENOENT ? -ENOENT : 0;
}

bool xattr_record_wants_value(const char *name)
{
	/* A value record counts only by its name: xattr_load_record() reads its size. */
	return !strncmp(name, XATTR_REC_NAME, strlen(XATTR_REC_NAME));
}

int xattr_load_record(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, const char *name,
		      const char *value)
{
	unsigned int hier, slot;
	struct v1_group *group;
	struct v1_xattrs *x;
	int file, ns;
	ssize_t size;
	char key[XATTR_NAME_MAX + 1];

	/* Values are taken with their names; one without a name was left by a crash. */
	if (strncmp(name, XATTR_REC_NAME, strlen(XATTR_REC_NAME)))
		return 0;
	if (split_record(ctx, name + strlen(XATTR_REC_NAME), &hier, &file, &slot) < 0 ||
	    !(group = dir->group[hier]))
		return 0; /* a hierarchy this view does not show, or no group: left as it is */
	if ((ns = xattr_namespace(value)) < 0 ||
	    record_name(ctx, XATTR_REC_VALUE, hier, file, slot, key, sizeof(key)) < 0 ||
	    (size = fgetxattr(fd, key, NULL, 0)) < 0) {
		v2_xattr_remove(fd, name);
		return 0;
	}
	if (!(x = xattrs_get(group, file)))
		return -ENOMEM;
	if (slot_used(x, slot))
		return 0;
	slot_mark(x, slot, true);
	if (ns == NS_USER) {
		x->nr_user++;
		x->user_size += (size_t)size;
	}
	return 0;
}

void xattr_prune_orphans(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, const char *name)
{
	unsigned int hier, slot;
	int file;

	if (strncmp(name, XATTR_REC_VALUE, strlen(XATTR_REC_VALUE)) ||
	    split_record(ctx, name + strlen(XATTR_REC_VALUE), &hier, &file, &slot) < 0 ||
	    !dir->group[hier])
		return;
	if (!xattrs_of(dir->group[hier], file) ||
	    !slot_used(xattrs_of(dir->group[hier], file), slot))
		v2_xattr_remove(fd, name);
}

bool xattr_record_of_hier(const char *name, const char *proc_name)
{
	const char *rest = NULL;

	if (!strncmp(name, XATTR_REC_NAME, strlen(XATTR_REC_NAME)))
		rest = name + strlen(XATTR_REC_NAME);
	else if (!strncmp(name, XATTR_REC_VALUE, strlen(XATTR_REC_VALUE)))
		rest = name + strlen(XATTR_REC_VALUE);
	return rest && !strncmp(rest, proc_name, strlen(proc_name)) &&
	       rest[strlen(proc_name)] == '/';
}

/* nr_user and user_size again from the records on @fd, after slots were dropped. */
static void xattrs_recount(struct cgx_ctx *ctx, int fd, unsigned int hier, struct v1_group *group,
			   int file)
{
	_cleanup_strbuf_ struct strbuf stored = STRBUF_INIT;
	struct v1_xattrs *x = xattrs_of(group, file);
	char key[XATTR_NAME_MAX + 1];

	x->nr_user = 0;
	x->user_size = 0;
	for (unsigned int slot = 0; slot < XATTR_SLOTS; slot++) {
		if (!slot_used(x, slot) ||
		    record_name(ctx, XATTR_REC_NAME, hier, file, slot, key, sizeof(key)) < 0 ||
		    v2_xattr_get(fd, key, &stored) < 0 || xattr_namespace(stored.buf) != NS_USER)
			continue;
		x->nr_user++;
		x->user_size += value_size(ctx, fd, hier, file, slot);
	}
}

int xattr_copy_group(struct cgx_ctx *ctx, int to_fd, unsigned int hier, struct v1_group *group)
{
	_cleanup_strbuf_ struct strbuf record = STRBUF_INIT;
	_cleanup_close_ int from_fd = -1;
	int r;

	if (!group->xattrs)
		return 0;
	if (!group->dir || (from_fd = cgx_dir_open(ctx, group->dir)) < 0)
		from_fd = -1;
	for (int file = -1; file < (int)group->nr_values; file++) {
		struct v1_xattrs *x = xattrs_of(group, file);

		for (unsigned int slot = 0; slot < XATTR_SLOTS; slot++) {
			static const char *const kinds[] = {XATTR_REC_VALUE, XATTR_REC_NAME};

			if (!slot_used(x, slot))
				continue;
			for (unsigned int k = 0; k < ARRAY_SIZE(kinds); k++) {
				char key[XATTR_NAME_MAX + 1];

				if ((r = record_name(ctx, kinds[k], hier, file, slot, key,
						     sizeof(key))) < 0)
					return r;
				/*
				 * Gone with a directory another tool removed (the
				 * copy is onto its new self): forgotten, as values
				 * are not kept in memory.
				 */
				if (from_fd < 0 ||
				    (r = v2_xattr_get(from_fd, key, &record)) == -ENODATA) {
					slot_mark(x, slot, false);
					break;
				}
				if (r < 0 ||
				    (r = v2_xattr_set(to_fd, key, record.buf, record.len)) < 0)
					return r;
			}
		}
		xattrs_recount(ctx, to_fd, hier, group, file);
	}
	return 0;
}
