// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FUSE glue: decodes a request into a v1 operation on a group and replies.
 * Every path ends in exactly one fuse_reply_*.
 *
 * A request is decided under the model lock, so no request sees another
 * half done, and answered once the lock is released: the answer's write to
 * /dev/fuse wakes the caller, whose next request (an `echo PID > tasks` is
 * OPEN, GETXATTR, WRITE and RELEASE in a row) found the lock still held and
 * slept on it. So each op_X takes the lock around one call, X_locked(),
 * which leaves the answer in the op's locals, never pointing into the model.
 */
#include "ops.h"

#include "dir_order.h"
#include "inode.h"

#include <stddef.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#define CGROUP_SUPER_MAGIC 0x27e0eb
/* Attributes and names change only through this daemon, which tells the kernel: cache them. */
#define CACHE_SECONDS 1.0

/* @call's value, @call evaluated under the model lock of @fs. */
#define LOCKED(fs, call)                                                                           \
	({                                                                                         \
		cgx_lock((fs)->ctx);                                                               \
		__typeof__(call) locked_value__ = (call);                                          \
		cgx_unlock((fs)->ctx);                                                             \
		locked_value__;                                                                    \
	})

static struct cgx_caller req_caller(fuse_req_t req)
{
	const struct fuse_ctx *fc = fuse_req_ctx(req);

	return (struct cgx_caller){fc->pid, fc->uid, fc->gid, false, NULL};
}

static int node_decode(struct cgx_ctx *ctx, fuse_ino_t ino, struct node *node)
{
	struct hier_alias aliases[CGX_MAX_HIER * CGX_MAX_CONTROLLER];
	struct v1_group *group;
	unsigned int slot = ino & 0xff;

	memset(node, 0, sizeof(*node));
	if (ino == FUSE_ROOT_ID) {
		node->kind = NODE_ROOT;
		return 0;
	}
	if (ino == COUNTERS_INO || ino == LIMITS_INO) {
		node->kind = ino == COUNTERS_INO ? NODE_COUNTERS : NODE_LIMITS;
		return 0;
	}
	if (ino & ALIAS_INO_BIT) {
		node->alias = ino & ~ALIAS_INO_BIT;
		if (node->alias >= hier_set_aliases(&ctx->hiers, aliases))
			return -ENOENT;
		node->kind = NODE_ALIAS;
		node->hier = aliases[node->alias].hier;
		return 0;
	}
	/* A group removed since the kernel learnt its inode answers ENOENT. */
	if (!(group = tree_group_by_id(&ctx->tree, ino >> 8)) || !group->dir)
		return -ENOENT;
	node->dir = group->dir;
	node->hier = group->hier;
	if (slot == 0) {
		node->kind = NODE_GROUP;
		return 0;
	}
	node->kind = NODE_FILE;
	node->file = slot - 1;
	if (node->file >= ctx->hiers.hier[node->hier].nr_files ||
	    !v1_file_present(ctx->hiers.hier[node->hier].files[node->file],
			     node->dir == ctx->tree.base))
		return -ENOENT;
	return 0;
}

static int node_stat(struct cgx_ctx *ctx, const struct node *node, struct stat *st)
{
	struct cgx_attr attr = {0, 0, 0755};
	int r;

	memset(st, 0, sizeof(*st));
	st->st_ino = node_ino(node);
	st->st_blksize = 4096;
	st->st_atime = st->st_mtime = st->st_ctime =
		(node->dir ? node->dir : ctx->tree.base)->created;
	switch (node->kind) {
	case NODE_ROOT:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2 + ctx->hiers.nr;
		return 0;
	case NODE_COUNTERS:
	case NODE_LIMITS:
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		return 0;
	case NODE_ALIAS:
		st->st_mode = S_IFLNK | 0777;
		st->st_nlink = 1;
		st->st_size = strlen(ctx->hiers.hier[node->hier].dir_name);
		return 0;
	case NODE_GROUP:
		if ((r = cgx_group_getattr(ctx, node->dir, node->hier, -1, &attr)) < 0)
			return r;
		st->st_mode = S_IFDIR | attr.mode;
		st->st_nlink = 2 + cgx_group_nr_children(node->dir, node->hier);
		break;
	case NODE_FILE:
		if ((r = cgx_group_getattr(ctx, node->dir, node->hier, node->file, &attr)) < 0)
			return r;
		/* Size 0, as kernfs: content is generated per read. */
		st->st_mode = S_IFREG | attr.mode;
		st->st_nlink = 1;
		break;
	}
	st->st_uid = attr.uid;
	st->st_gid = attr.gid;
	return 0;
}

static int entry_fill(struct cgx_ctx *ctx, const struct node *node, struct fuse_entry_param *entry)
{
	*entry = (struct fuse_entry_param){
		.ino = node_ino(node),
		.attr_timeout = CACHE_SECONDS,
		.entry_timeout = CACHE_SECONDS,
	};
	return node_stat(ctx, node, &entry->attr);
}

static void reply_entry(fuse_req_t req, int r, const struct fuse_entry_param *entry)
{
	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_entry(req, entry);
}

static void reply_attr(fuse_req_t req, int r, const struct stat *st)
{
	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_attr(req, st, CACHE_SECONDS);
}

static int lookup_in_root(struct cgx_ctx *ctx, const char *name, struct node *node)
{
	struct hier_alias aliases[CGX_MAX_HIER * CGX_MAX_CONTROLLER];
	unsigned int nr_aliases = hier_set_aliases(&ctx->hiers, aliases);

	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		if (!strcmp(ctx->hiers.hier[h].dir_name, name)) {
			*node = (struct node){.kind = NODE_GROUP, .dir = ctx->tree.base, .hier = h};
			return 0;
		}
	}
	/*
	 * The status files are found by name but never listed: a script that
	 * loops over the root's entries sees the hierarchies only, as on a v1 host.
	 */
	if (!strcmp(name, COUNTERS_NAME) || !strcmp(name, LIMITS_NAME)) {
		*node = (struct node){.kind = strcmp(name, COUNTERS_NAME) ? NODE_LIMITS
									  : NODE_COUNTERS};
		return 0;
	}
	for (unsigned int a = 0; a < nr_aliases; a++) {
		if (!strcmp(aliases[a].name, name)) {
			*node = (struct node){
				.kind = NODE_ALIAS, .hier = aliases[a].hier, .alias = a};
			return 0;
		}
	}
	return -ENOENT;
}

static int lookup_in_group(struct cgx_ctx *ctx, const struct node *parent, const char *name,
			   struct node *node)
{
	int file = cgx_file_lookup(ctx, parent->dir, parent->hier, name);

	if (file >= 0) {
		*node = (struct node){
			.kind = NODE_FILE, .dir = parent->dir, .hier = parent->hier, .file = file};
		return 0;
	}
	*node = (struct node){.kind = NODE_GROUP, .hier = parent->hier};
	return cgx_group_lookup(ctx, parent->dir, parent->hier, name, &node->dir);
}

static int lookup_locked(struct cgx_ctx *ctx, fuse_ino_t parent_ino, const char *name,
			 struct fuse_entry_param *entry)
{
	struct node parent, node;
	int r = node_decode(ctx, parent_ino, &parent);

	if (r == 0 && parent.kind == NODE_ROOT)
		r = lookup_in_root(ctx, name, &node);
	else if (r == 0 && parent.kind == NODE_GROUP)
		r = lookup_in_group(ctx, &parent, name, &node);
	else if (r == 0)
		r = -ENOTDIR;
	return r < 0 ? r : entry_fill(ctx, &node, entry);
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent_ino, const char *name)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct fuse_entry_param entry;
	int r = LOCKED(fs, lookup_locked(fs->ctx, parent_ino, name, &entry));

	reply_entry(req, r, &entry);
}

/*
 * kernfs keeps answering stat on the inode of a removed group and its files
 * (an open descriptor, a holder's cwd): glibc's opendir() fstat()s, and ls of
 * such a directory then lists nothing, where ENOENT would make it fail. Ids
 * are never reused, so an id below next_id with no group was removed (the
 * status files' numbers lie far above any id). Its file table went with it:
 * files read back as 0644, the mode of most.
 */
static bool removed_node_stat(struct cgx_ctx *ctx, fuse_ino_t ino, struct stat *st)
{
	uint64_t id = ino >> 8;

	if ((ino & ALIAS_INO_BIT) || id == 0 || id >= ctx->tree.next_id ||
	    tree_group_by_id(&ctx->tree, id))
		return false;
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_blksize = 4096;
	st->st_mode = (ino & 0xff) ? S_IFREG | 0644 : S_IFDIR | 0755;
	st->st_nlink = (ino & 0xff) ? 1 : 2;
	return true;
}

static int getattr_locked(struct cgx_ctx *ctx, fuse_ino_t ino, struct stat *st)
{
	struct node node;
	int r = node_decode(ctx, ino, &node);

	if (r == -ENOENT && removed_node_stat(ctx, ino, st))
		return 0;
	return r < 0 ? r : node_stat(ctx, &node, st);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct stat st;
	int r = LOCKED(fs, getattr_locked(fs->ctx, ino, &st));

	(void)fi;
	reply_attr(req, r, &st);
}

static int setattr_locked(struct cgx_ctx *ctx, fuse_ino_t ino, const struct stat *attr, int to_set,
			  struct stat *st)
{
	struct cgx_attr wanted = {attr->st_uid, attr->st_gid, attr->st_mode};
	unsigned int which = 0;
	struct node node;
	int r;

	if ((r = node_decode(ctx, ino, &node)) < 0)
		return r;
	if (node.kind != NODE_GROUP && node.kind != NODE_FILE)
		return -EPERM;
	which |= (to_set & FUSE_SET_ATTR_UID) ? CGX_SET_UID : 0;
	which |= (to_set & FUSE_SET_ATTR_GID) ? CGX_SET_GID : 0;
	which |= (to_set & FUSE_SET_ATTR_MODE) ? CGX_SET_MODE : 0;
	/* A truncate (echo > file) and times carry nothing for a cgroup file. */
	if (which && (r = cgx_group_setattr(ctx, node.dir, node.hier,
					    node.kind == NODE_FILE ? (int)node.file : -1, &wanted,
					    which)) < 0)
		return r;
	return node_stat(ctx, &node, st);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct stat st;
	int r = LOCKED(fs, setattr_locked(fs->ctx, ino, attr, to_set, &st));

	(void)fi;
	reply_attr(req, r, &st);
}

/* The target of a hierarchy's alias, copied into @target (NAME_MAX + 1 bytes). */
static int readlink_locked(struct cgx_ctx *ctx, fuse_ino_t ino, char *target)
{
	struct node node;
	int r = node_decode(ctx, ino, &node);

	if (r == 0 && node.kind != NODE_ALIAS)
		r = -EINVAL;
	if (r == 0)
		snprintf(target, NAME_MAX + 1, "%s", ctx->hiers.hier[node.hier].dir_name);
	return r;
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	char target[NAME_MAX + 1];
	int r = LOCKED(fs, readlink_locked(fs->ctx, ino, target));

	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_readlink(req, target);
}

/* Adds one entry; returns false when the reply buffer is full. */
static bool dir_add(fuse_req_t req, char *buf, size_t size, size_t *used, const char *name,
		    const struct stat *st, off_t next)
{
	size_t len = fuse_add_direntry(req, buf + *used, size - *used, name, st, next);

	if (len > size - *used)
		return false;
	*used += len;
	return true;
}

static void readdir_root(fuse_req_t req, struct cgx_ctx *ctx, char *buf, size_t size, off_t off,
			 size_t *used)
{
	struct hier_alias aliases[CGX_MAX_HIER * CGX_MAX_CONTROLLER];
	unsigned int nr_aliases = hier_set_aliases(&ctx->hiers, aliases);
	off_t index = 2;

	for (unsigned int h = 0; h < ctx->hiers.nr; h++, index++) {
		struct node node = {.kind = NODE_GROUP, .dir = ctx->tree.base, .hier = h};
		struct stat st = {.st_ino = node_ino(&node), .st_mode = S_IFDIR};

		if (index >= off &&
		    !dir_add(req, buf, size, used, ctx->hiers.hier[h].dir_name, &st, index + 1))
			return;
	}
	for (unsigned int a = 0; a < nr_aliases; a++, index++) {
		struct node node = {.kind = NODE_ALIAS, .alias = a};
		struct stat st = {.st_ino = node_ino(&node), .st_mode = S_IFLNK};

		if (index >= off && !dir_add(req, buf, size, used, aliases[a].name, &st, index + 1))
			return;
	}
}

/* The files and child groups in kernfs's order; -ENOMEM when they cannot be sorted. */
static int readdir_group(fuse_req_t req, struct cgx_ctx *ctx, const struct node *group, char *buf,
			 size_t size, off_t off, size_t *used)
{
	const struct cgx_hier *hier = &ctx->hiers.hier[group->hier];
	bool is_root = group->dir == ctx->tree.base;
	_cleanup_free_ struct dir_entry *entries = NULL;
	size_t nr = 0, max = hier->nr_files;

	for (struct v2_dir *child = cgx_group_next_child(group->dir, group->hier, NULL); child;
	     child = cgx_group_next_child(group->dir, group->hier, child))
		max++;
	if (!(entries = calloc(max ? max : 1, sizeof(*entries))))
		return -ENOMEM;
	for (unsigned int f = 0; f < hier->nr_files; f++) {
		if (!v1_file_present(hier->files[f], is_root))
			continue;
		entries[nr++] = (struct dir_entry){.name = hier->files[f]->name,
						   .node = {.kind = NODE_FILE,
							    .dir = group->dir,
							    .hier = group->hier,
							    .file = f}};
	}
	for (struct v2_dir *child = cgx_group_next_child(group->dir, group->hier, NULL); child;
	     child = cgx_group_next_child(group->dir, group->hier, child))
		entries[nr++] = (struct dir_entry){
			.name = cgx_group_name(child),
			.node = {.kind = NODE_GROUP, .dir = child, .hier = group->hier}};
	dir_entries_sort(entries, nr);
	for (size_t i = 0; i < nr; i++) {
		off_t index = 2 + (off_t)i;
		struct stat st = {.st_ino = node_ino(&entries[i].node),
				  .st_mode =
					  entries[i].node.kind == NODE_GROUP ? S_IFDIR : S_IFREG};

		if (index >= off && !dir_add(req, buf, size, used, entries[i].name, &st, index + 1))
			break;
	}
	return 0;
}

/* The entries of @ino from @off that fit in @buf (@size bytes); their length in @used. */
static int readdir_locked(fuse_req_t req, struct cgx_ctx *ctx, fuse_ino_t ino, char *buf,
			  size_t size, off_t off, size_t *used)
{
	struct node node;
	int r;

	if ((r = node_decode(ctx, ino, &node)) < 0)
		return r;
	if (node.kind != NODE_ROOT && node.kind != NODE_GROUP)
		return -ENOTDIR;
	if (off < 1) {
		struct stat st = {.st_ino = ino, .st_mode = S_IFDIR};

		if (!dir_add(req, buf, size, used, ".", &st, 1))
			return 0;
	}
	if (off < 2) {
		struct stat st = {.st_ino = FUSE_ROOT_ID, .st_mode = S_IFDIR};

		if (!dir_add(req, buf, size, used, "..", &st, 2))
			return 0;
	}
	if (node.kind == NODE_ROOT) {
		readdir_root(req, ctx, buf, size, off, used);
		return 0;
	}
	return readdir_group(req, ctx, &node, buf, size, off, used);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	_cleanup_free_ char *buf = malloc(size);
	size_t used = 0;
	int r;

	(void)fi;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if ((r = LOCKED(fs, readdir_locked(req, fs->ctx, ino, buf, size, off, &used))) < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_buf(req, buf, used);
}

/* A new open of @ino by @opener, its handle in @fh. */
static int open_locked(struct cgxfs *fs, fuse_ino_t ino, int flags, struct cgx_caller *opener,
		       uint64_t *fh)
{
	struct cgx_ctx *ctx = fs->ctx;
	struct proc_fs_creds *creds = NULL;
	struct open_file *file;
	struct node node;
	int r;

	if ((r = node_decode(ctx, ino, &node)) < 0)
		return r;
	if (node.kind != NODE_FILE && node.kind != NODE_COUNTERS && node.kind != NODE_LIMITS)
		return -EISDIR;
	/* Read-only for root too, as kernfs refuses a write open of a file with no write. */
	if (node.kind != NODE_FILE && (flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	if (node.kind == NODE_FILE && (flags & O_ACCMODE) != O_RDONLY) {
		cgx_file_note_opener(ctx, node.hier, node.file, opener);
		if ((r = cgx_tasks_note_opener(ctx, node.hier, node.file, opener, &creds)) < 0)
			return r;
	}
	if (!(file = open_files_add(&fs->files, ino, opener, creds)))
		return -ENOMEM;
	*fh = file->fh;
	return 0;
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct cgx_caller opener = req_caller(req);
	int r = LOCKED(fs, open_locked(fs, ino, fi->flags, &opener, &fi->fh));

	if (r < 0) {
		fuse_reply_err(req, -r);
		return;
	}
	fi->direct_io = 1;
	if (fuse_reply_open(req, fi) < 0) {
		/* The opener is gone (interrupted): no release will come. */
		cgx_lock(fs->ctx);
		open_files_remove(&fs->files, fi->fh, ino);
		cgx_unlock(fs->ctx);
	}
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);

	cgx_lock(fs->ctx);
	open_files_remove(&fs->files, fi->fh, ino);
	cgx_unlock(fs->ctx);
	fuse_reply_err(req, 0);
}

/*
 * At most @size bytes of @ino's content from @off, copied into @slice: the
 * open file's buffer is freed by a release, which the kernel may send while
 * this answer is on its way (a reader interrupted by a signal).
 *
 * A statistics file's content is made in two holds of the lock: the first
 * lists the v2 files it reads in @ahead and returns with nothing copied,
 * the caller reads them without the lock, and the second makes the content
 * from them (struct cgx_read_ahead).
 */
static int read_locked(struct cgxfs *fs, fuse_ino_t ino, uint64_t fh, size_t size, off_t off,
		       const struct cgx_caller *reader, struct cgx_read_ahead *ahead,
		       struct strbuf *slice)
{
	struct cgx_ctx *ctx = fs->ctx;
	struct open_file *file = open_files_get(&fs->files, fh, ino, reader);

	if (!file)
		return -ENOMEM;
	/* A handle of an earlier daemon has no content yet: generated as at offset 0. */
	if (off == 0 || (!file->content.len && !file->content_error)) {
		struct node node;

		/* Decoded at each read: the group may have gone since open (ENODEV, as kernfs). */
		file->content.len = 0;
		file->content_error = node_decode(ctx, ino, &node);
		if (file->content_error == 0 && node.kind == NODE_COUNTERS)
			file->content_error = cgx_deprecation_counters(ctx, &file->content);
		else if (file->content_error == 0 && node.kind == NODE_LIMITS)
			file->content_error = cgx_limits_report(ctx, &file->content);
		else if (file->content_error == 0) {
			/*
			 * As the opener, but numbered by the reader's pid
			 * namespace: v1 lists pids as the reading task sees them.
			 */
			struct cgx_caller as_read = file->opener;

			as_read.tid = reader->tid;
			if (!ahead->fetched && cgx_file_reads_ahead(ctx, node.hier, node.file) &&
			    cgx_file_read_list(ctx, node.dir, node.hier, node.file, &as_read,
					       ahead) > 0)
				return 0;
			file->content_error =
				cgx_file_read_ahead(ctx, node.dir, node.hier, node.file, &as_read,
						    ahead, &file->content);
		}
	}
	if (file->content_error < 0)
		return file->content_error == -ENOENT ? -ENODEV : file->content_error;
	if ((size_t)off >= file->content.len)
		return 0;
	if (size > file->content.len - off)
		size = file->content.len - off;
	return strbuf_add(slice, file->content.buf + off, size);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct cgx_caller reader = req_caller(req);
	_cleanup_strbuf_ struct strbuf slice = STRBUF_INIT;
	struct cgx_read_ahead ahead = {0};
	int r = LOCKED(fs, read_locked(fs, ino, fi->fh, size, off, &reader, &ahead, &slice));

	if (r == 0 && ahead.nr && !ahead.fetched) {
		cgx_read_ahead_fetch(fs->ctx, &ahead);
		r = LOCKED(fs, read_locked(fs, ino, fi->fh, size, off, &reader, &ahead, &slice));
	}
	cgx_read_ahead_release(&ahead);
	if (r < 0)
		fuse_reply_err(req, -r);
	else
		fuse_reply_buf(req, slice.buf, slice.len);
}

static ssize_t write_locked(struct cgxfs *fs, fuse_ino_t ino, uint64_t fh,
			    const struct cgx_caller *caller, const char *data, size_t size)
{
	struct cgx_ctx *ctx = fs->ctx;
	struct open_file *file = open_files_get(&fs->files, fh, ino, caller);
	struct cgx_caller writer;
	struct node node;
	int r;

	if (!file)
		return -ENOMEM;
	writer = file->opener;
	/* "0" means the writing task itself; its rights are those of the opener. */
	writer.tid = caller->tid;
	if ((r = node_decode(ctx, ino, &node)) < 0)
		return r == -ENOENT ? -ENODEV : r;
	return cgx_file_write(ctx, node.dir, node.hier, node.file, &writer, data, size);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *data, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct cgx_caller caller = req_caller(req);
	ssize_t written = LOCKED(fs, write_locked(fs, ino, fi->fh, &caller, data, size));

	(void)off;
	if (written < 0)
		fuse_reply_err(req, (int)-written);
	else
		fuse_reply_write(req, (size_t)written);
}

static int mkdir_locked(struct cgx_ctx *ctx, fuse_ino_t parent_ino, const char *name, mode_t mode,
			const struct cgx_caller *caller, struct fuse_entry_param *entry)
{
	struct node parent, node;
	int r;

	if ((r = node_decode(ctx, parent_ino, &parent)) < 0)
		return r;
	if (parent.kind == NODE_ROOT) {
		/* A new hierarchy, as `mount -t cgroup -o NAME` made one. */
		node = (struct node){.kind = NODE_GROUP, .dir = ctx->tree.base};
		if ((r = cgx_hierarchy_add(ctx, name, caller, &node.hier)) < 0)
			return r;
		return entry_fill(ctx, &node, entry);
	}
	if (parent.kind != NODE_GROUP)
		return -ENOTDIR;
	node = (struct node){.kind = NODE_GROUP, .hier = parent.hier};
	if ((r = cgx_group_mkdir(ctx, parent.dir, parent.hier, name, caller, mode, &node.dir)) < 0)
		return r;
	return entry_fill(ctx, &node, entry);
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent_ino, const char *name, mode_t mode)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct cgx_caller caller = req_caller(req);
	struct fuse_entry_param entry;
	int r = LOCKED(fs, mkdir_locked(fs->ctx, parent_ino, name, mode, &caller, &entry));

	reply_entry(req, r, &entry);
}

static int rmdir_locked(struct cgx_ctx *ctx, fuse_ino_t parent_ino, const char *name,
			const struct cgx_caller *caller)
{
	struct node parent;
	int r = node_decode(ctx, parent_ino, &parent);

	if (r < 0)
		return r;
	if (parent.kind == NODE_ROOT)
		return cgx_hierarchy_remove(ctx, name, caller);
	if (parent.kind != NODE_GROUP)
		return -ENOTDIR;
	return cgx_group_rmdir(ctx, parent.dir, parent.hier, name);
}

static void op_rmdir(fuse_req_t req, fuse_ino_t parent_ino, const char *name)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	struct cgx_caller caller = req_caller(req);

	fuse_reply_err(req, -LOCKED(fs, rmdir_locked(fs->ctx, parent_ino, name, &caller)));
}

/*
 * Which v1 mount @node would be on: its hierarchy's, or (-1) the tmpfs that
 * holds the mount points, where the root, its status files and aliases are.
 */
static int node_mount(const struct node *node)
{
	return node->kind == NODE_GROUP || node->kind == NODE_FILE ? (int)node->hier : -1;
}

static int rename_locked(struct cgx_ctx *ctx, fuse_ino_t parent_ino, const char *name,
			 fuse_ino_t new_parent_ino, const char *new_name, unsigned int flags)
{
	struct node parent, new_parent;
	int r;

	if ((r = node_decode(ctx, parent_ino, &parent)) < 0 ||
	    (r = node_decode(ctx, new_parent_ino, &new_parent)) < 0)
		return r;
	/* Each hierarchy is a mount of its own: the VFS says so before kernfs sees the flags. */
	if (node_mount(&parent) != node_mount(&new_parent))
		return -EXDEV;
	if (flags)
		return -EINVAL;
	if (parent.kind != NODE_GROUP)
		return -EPERM;
	/* kernfs: a group moves only within its parent (cgroup1_rename says EIO). */
	return cgx_group_rename(ctx, parent.dir, parent.hier, name,
				new_parent_ino == parent_ino ? new_parent.dir : NULL, new_name);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent_ino, const char *name,
		      fuse_ino_t new_parent_ino, const char *new_name, unsigned int flags)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	int r = LOCKED(fs,
		       rename_locked(fs->ctx, parent_ino, name, new_parent_ino, new_name, flags));

	fuse_reply_err(req, -r);
}

/*
 * The inode an xattr request names: a group directory (@file -1) or one of
 * its files; -EOPNOTSUPP for the mount root, the aliases and the status
 * files, which keep none (a read finds nothing there).
 */
static int xattr_node(struct cgx_ctx *ctx, fuse_ino_t ino, struct node *node, int *file)
{
	int r = node_decode(ctx, ino, node);

	if (r < 0)
		return r;
	if (node->kind != NODE_GROUP && node->kind != NODE_FILE)
		return -EOPNOTSUPP;
	*file = node->kind == NODE_FILE ? (int)node->file : -1;
	return 0;
}

/* A value or a list: its size when asked with size 0, ERANGE when it does not fit. */
static void reply_xattr(fuse_req_t req, int r, const struct strbuf *data, size_t size)
{
	if (r < 0)
		fuse_reply_err(req, -r);
	else if (!size)
		fuse_reply_xattr(req, data->len);
	else if (size < data->len)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, data->buf, data->len);
}

static int getxattr_locked(struct cgx_ctx *ctx, fuse_ino_t ino, const char *name,
			   struct strbuf *value)
{
	struct node node;
	int file, r = xattr_node(ctx, ino, &node, &file);

	if (r == -EOPNOTSUPP)
		return -ENODATA;
	return r < 0 ? r : cgx_xattr_get(ctx, node.dir, node.hier, file, name, value);
}

static void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	_cleanup_strbuf_ struct strbuf value = STRBUF_INIT;
	int r = LOCKED(fs, getxattr_locked(fs->ctx, ino, name, &value));

	reply_xattr(req, r, &value, size);
}

static int listxattr_locked(struct cgx_ctx *ctx, fuse_ino_t ino, const struct cgx_caller *caller,
			    struct strbuf *names)
{
	struct node node;
	int file, r = xattr_node(ctx, ino, &node, &file);

	if (r == -EOPNOTSUPP)
		return 0;
	return r < 0 ? r : cgx_xattr_list(ctx, node.dir, node.hier, file, caller, names);
}

static void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct cgxfs *fs = fuse_req_userdata(req);
	_cleanup_strbuf_ struct strbuf names = STRBUF_INIT;
	struct cgx_caller caller = req_caller(req);
	int r = LOCKED(fs, listxattr_locked(fs->ctx, ino, &caller, &names));

	reply_xattr(req, r, &names, size);
}

static int setxattr_locked(struct cgx_ctx *ctx, fuse_ino_t ino, const char *name, const char *value,
			   size_t size, int flags)
{
	struct node node;
	int file, r = xattr_node(ctx, ino, &node, &file);

	return r < 0 ? r : cgx_xattr_set(ctx, node.dir, node.hier, file, name, value, size, flags);
}

static void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name, const char *value,
			size_t size, int flags)
{
	struct cgxfs *fs = fuse_req_userdata(req);

	fuse_reply_err(req, -LOCKED(fs, setxattr_locked(fs->ctx, ino, name, value, size, flags)));
}

static int removexattr_locked(struct cgx_ctx *ctx, fuse_ino_t ino, const char *name)
{
	struct node node;
	int file, r = xattr_node(ctx, ino, &node, &file);

	return r < 0 ? r : cgx_xattr_remove(ctx, node.dir, node.hier, file, name);
}

static void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	struct cgxfs *fs = fuse_req_userdata(req);

	fuse_reply_err(req, -LOCKED(fs, removexattr_locked(fs->ctx, ino, name)));
}

/* kernfs has no create, mknod, link, symlink or unlink: the VFS answers for it. */
static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	(void)parent, (void)name, (void)mode, (void)fi;
	fuse_reply_err(req, EACCES);
}

static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev)
{
	(void)parent, (void)name, (void)mode, (void)rdev;
	fuse_reply_err(req, EPERM);
}

static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	(void)link, (void)parent, (void)name;
	fuse_reply_err(req, EPERM);
}

static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent, const char *name)
{
	(void)ino, (void)parent, (void)name;
	fuse_reply_err(req, EPERM);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)parent, (void)name;
	fuse_reply_err(req, EPERM);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	/* simple_statfs() of cgroupfs; the magic itself is FUSE's (cgx-exec answers it). */
	struct statvfs st = {
		.f_bsize = 4096, .f_frsize = 4096, .f_namemax = 255, .f_fsid = CGROUP_SUPER_MAGIC};

	(void)ino;
	fuse_reply_statfs(req, &st);
}

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* O_TRUNC comes with the open, sparing a setattr round trip for every `echo >`. */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~FUSE_CAP_ASYNC_READ;
}

const struct fuse_lowlevel_ops cgxfs_ops = {
	.init = op_init,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.setattr = op_setattr,
	.readlink = op_readlink,
	.mknod = op_mknod,
	.mkdir = op_mkdir,
	.unlink = op_unlink,
	.rmdir = op_rmdir,
	.symlink = op_symlink,
	.rename = op_rename,
	.link = op_link,
	.open = op_open,
	.read = op_read,
	.write = op_write,
	.release = op_release,
	.readdir = op_readdir,
	.statfs = op_statfs,
	.setxattr = op_setxattr,
	.getxattr = op_getxattr,
	.listxattr = op_listxattr,
	.removexattr = op_removexattr,
	.create = op_create,
};
