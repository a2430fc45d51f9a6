// SPDX-License-Identifier: GPL-2.0-or-later
/* The real v2 directories behind the mirror: opened, read, and what the base delegates. */
#include "cgx.h"
#include "v2io.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cgx_dir_open(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	char path[PATH_MAX];
	int r = tree_path(dir, false, path, sizeof(path));

	if (r < 0)
		return r;
	r = v2_open_dir(ctx->base_fd, path);
	/* Removed behind the daemon's back: the watcher repairs the mirror (reconcile.c). */
	if (r == -ENOENT)
		ctx->reconcile_wanted = true;
	return r;
}

/* The slot of the fd of @dir this request holds, or -1. */
static int dir_fd_slot(const struct cgx_dir_fds *fds, const struct v2_dir *dir)
{
	/* The serial, not the address alone: a freed directory's memory may be another's. */
	for (unsigned int i = 0; i < fds->nr; i++)
		if (fds->slot[i].dir == dir && fds->slot[i].serial == dir->serial)
			return (int)i;
	return -1;
}

int cgx_dir_get(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	struct cgx_dir_fds *fds = &ctx->dir_fds;
	int i = dir_fd_slot(fds, dir), fd;

	if (i < 0)
		return cgx_dir_open(ctx, dir);
	fd = fds->slot[i].fd;
	fds->slot[i] = fds->slot[--fds->nr];
	return fd;
}

/* "DIR/NAME" (or "NAME" in the base), the path of a file of @dir from the base, in @path. */
static int dir_file_path(const struct v2_dir *dir, const char *name, char path[PATH_MAX])
{
	int r = tree_path(dir, false, path, PATH_MAX);
	size_t len;

	if (r < 0)
		return r;
	len = strlen(path);
	r = snprintf(path + len, PATH_MAX - len, "%s%s", len ? "/" : "", name);
	return r < 0 || (size_t)r >= PATH_MAX - len ? -ENAMETOOLONG : 0;
}

int cgx_dir_file_open(struct cgx_ctx *ctx, const struct v2_dir *dir, const char *name, int flags)
{
	int held = dir_fd_slot(&ctx->dir_fds, dir);
	char path[PATH_MAX];
	int fd, r;

	/* Through the fd the request holds, which stays in its place. */
	if (held >= 0) {
		fd = openat(ctx->dir_fds.slot[held].fd, name, flags | O_CLOEXEC | O_NOFOLLOW);
		return fd < 0 ? -errno : fd;
	}
	if ((r = dir_file_path(dir, name, path)) < 0)
		return r;
	fd = v2_open_beneath(ctx->base_fd, path, flags | O_NOFOLLOW);
	/* The directory or the file? Only the directory's absence is the mirror's to repair. */
	if (fd == -ENOENT && (r = cgx_dir_open(ctx, dir)) >= 0)
		close(r);
	return fd;
}

void cgx_dir_put(struct cgx_ctx *ctx, const struct v2_dir *dir, int fd)
{
	struct cgx_dir_fds *fds = &ctx->dir_fds;

	if (fd < 0)
		return;
	if (fds->nr == CGX_DIR_FDS) {
		close(fd);
		return;
	}
	fds->slot[fds->nr].dir = dir;
	fds->slot[fds->nr].serial = dir->serial;
	fds->slot[fds->nr++].fd = fd;
}

void cgx_dir_fds_close(struct cgx_ctx *ctx)
{
	struct cgx_dir_fds *fds = &ctx->dir_fds;

	while (fds->nr)
		close(fds->slot[--fds->nr].fd);
}

bool cgx_kernel_begin(struct cgx_ctx *ctx)
{
	if (!ctx->may_yield)
		return false;
	/* Whoever takes the lock meanwhile has its own say (file_write()), not this handler's. */
	ctx->may_yield = false;
	ctx->yields++;
	cgx_dir_fds_close(ctx);
	pthread_mutex_unlock(&ctx->lock);
	return true;
}

void cgx_kernel_end(struct cgx_ctx *ctx, bool yielded)
{
	if (!yielded)
		return;
	pthread_mutex_lock(&ctx->lock);
	ctx->may_yield = true;
}

int cgx_group_refind(struct cgx_ctx *ctx, uint64_t id, unsigned int hier, struct v2_dir **dir)
{
	struct v1_group *group = tree_group_by_id(&ctx->tree, id);

	if (!group || !group->dir || group->hier != hier)
		return -ENODEV;
	*dir = group->dir;
	return 0;
}

bool cgx_has_controller(const struct cgx_ctx *ctx, const char *controller)
{
	size_t len = strlen(controller);

	for (const char *c = ctx->controllers; *c;) {
		size_t word = strcspn(c, " ");

		if (word == len && !strncmp(c, controller, len))
			return true;
		c += word;
		c += strspn(c, " ");
	}
	return false;
}

int cgx_dir_is_empty(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	_cleanup_(pid_list_release) struct pid_list pids = {0};
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, dir);
	int r;

	if (ref.fd < 0)
		return ref.fd;
	if ((r = v2_read_pids(ref.fd, "cgroup.procs", &pids)) < 0)
		return r;
	return pids.nr == 0;
}

int cgx_subtree_is_empty(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	_cleanup_strbuf_ struct strbuf events = STRBUF_INIT;
	_cleanup_close_ int fd = cgx_dir_open(ctx, dir);
	int r;

	if (fd < 0)
		return fd;
	if ((r = read_file_at(fd, "cgroup.events", &events)) < 0)
		return r;
	return v2_stat_key(events.buf, "populated") == 0;
}

/*
 * The file at @path in @ahead's list, or NULL: most often the next one, as
 * the two runs read in the same order. A file read twice is listed twice.
 */
static struct cgx_read_ahead_file *read_ahead_find(struct cgx_read_ahead *ahead, const char *path)
{
	for (unsigned int n = 0; n < ahead->nr; n++) {
		unsigned int i = (ahead->next + n) % ahead->nr;

		if (!strcmp(ahead->paths.buf + ahead->file[i].path, path)) {
			ahead->next = i + 1;
			return &ahead->file[i];
		}
	}
	return NULL;
}

/*
 * While a read is listed, each file is noted and read as empty; while it
 * is made, a file read ahead is taken from the list. A file the list lacks
 * is read now, as is one found gone: cgx_dir_file_open() tells a removed
 * directory (the mirror's to repair) from a missing file.
 */
static int read_ahead_take(struct cgx_read_ahead *ahead, const struct v2_dir *dir, const char *file,
			   struct strbuf *out)
{
	struct cgx_read_ahead_file *found;
	char path[PATH_MAX];
	int r;

	if ((r = dir_file_path(dir, file, path)) < 0)
		return 0; /* read now, and fail there */
	if (ahead->listing) {
		/* As read_fd() leaves it, for a file that is empty. */
		out->len = 0;
		if (strbuf_add(out, "", 0) < 0)
			return -ENOMEM;
		/* What cannot be listed is left to the second run. */
		if (ahead->nr == CGX_READ_AHEAD_FILES)
			return 1;
		if (ahead->nr == ahead->alloc) {
			unsigned int alloc = ahead->alloc ? 2 * ahead->alloc : 8;
			struct cgx_read_ahead_file *grown =
				reallocarray(ahead->file, alloc, sizeof(*grown));

			if (!grown)
				return 1;
			ahead->file = grown;
			ahead->alloc = alloc;
		}
		ahead->file[ahead->nr] = (struct cgx_read_ahead_file){.path = ahead->paths.len};
		if (strbuf_add(&ahead->paths, path, strlen(path) + 1) < 0)
			return 1;
		ahead->nr++;
		return 1;
	}
	if (!(found = read_ahead_find(ahead, path)) || found->error == -ENOENT ||
	    found->error == -ENOMEM)
		return 0;
	if (found->error < 0)
		return found->error;
	out->len = 0;
	if (strbuf_add(out, "", 0) < 0 ||
	    (found->len && strbuf_add(out, ahead->texts.buf + found->text, found->len) < 0))
		return -ENOMEM;
	return 1;
}

int cgx_dir_file_read(struct cgx_ctx *ctx, const struct v2_dir *dir, const char *file,
		      struct strbuf *out)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (ctx->read_ahead && (r = read_ahead_take(ctx->read_ahead, dir, file, out)) != 0)
		return r < 0 ? r : 0;
	if ((fd = cgx_dir_file_open(ctx, dir, file, O_RDONLY)) < 0)
		return fd;
	return read_fd(fd, out);
}

void cgx_read_ahead_fetch(const struct cgx_ctx *ctx, struct cgx_read_ahead *ahead)
{
	for (unsigned int i = 0; i < ahead->nr; i++) {
		struct cgx_read_ahead_file *file = &ahead->file[i];
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
		_cleanup_close_ int fd =
			v2_open_beneath(ctx->base_fd, ahead->paths.buf + file->path, O_RDONLY);

		file->error = fd < 0 ? fd : read_fd(fd, &text);
		file->text = ahead->texts.len;
		if (!file->error && strbuf_add(&ahead->texts, text.buf, text.len) < 0)
			file->error = -ENOMEM; /* read again under the lock */
		file->len = file->error ? 0 : text.len;
	}
	ahead->fetched = true;
	ahead->next = 0;
}

void cgx_read_ahead_release(struct cgx_read_ahead *ahead)
{
	free(ahead->file);
	strbuf_release(&ahead->paths);
	strbuf_release(&ahead->texts);
}

int knob_read(struct cgx_ctx *ctx, struct v2_dir *dir, const char *controller, const char *v2_file,
	      struct strbuf *out)
{
	if (!cgx_has_controller(ctx, controller))
		return -EOPNOTSUPP;
	return cgx_dir_file_read(ctx, dir, v2_file, out);
}

unsigned long long v2_stat_key(const char *text, const char *key)
{
	size_t len = strlen(key);

	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, len) && line[len] == ' ')
			return strtoull(line + len + 1, NULL, 10);
	}
	return 0;
}

unsigned long long v2_stat_key_eq(const char *fields, const char *key)
{
	size_t len = strlen(key);

	for (const char *f = fields; f && *f; f = strchr(f, ' ')) {
		while (*f == ' ')
			f++;
		if (!strncmp(f, key, len) && f[len] == '=')
			return strtoull(f + len + 1, NULL, 10);
	}
	return 0;
}
