// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening a view: find the cgroup2 mount, claim the base, rebuild the state from it. */
#include "group.h"

#include <fcntl.h>
#include <libmount/libmount.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>

int cgx_find_cgroup2(char *path, size_t size)
{
	struct libmnt_table *table = mnt_new_table();
	struct libmnt_iter *iter = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int r = -ENOENT;

	if (!table || !iter) {
		r = -ENOMEM;
		goto out;
	}
	if ((r = mnt_table_parse_mtab(table, NULL)) < 0)
		goto out;
	r = -ENOENT;
	while (mnt_table_next_fs(table, iter, &fs) == 0) {
		if (strcmp(mnt_fs_get_fstype(fs), "cgroup2"))
			continue;
		if (snprintf(path, size, "%s", mnt_fs_get_target(fs)) >= (int)size)
			r = -ENAMETOOLONG;
		else
			r = 0;
		break;
	}
out:
	mnt_free_iter(iter);
	mnt_free_table(table);
	return r;
}

/* A base name is a relative path of plain components: no "..", no "@", not empty. */
static int check_base(const char *base)
{
	const char *c = base;

	if (!*base || *base == '/')
		return -EINVAL;
	while (*c) {
		size_t len = strcspn(c, "/");

		if (!len || (len == 1 && c[0] == '.') || (len == 2 && !strncmp(c, "..", 2)))
			return -EINVAL;
		c += len;
		if (*c == '/')
			c++;
	}
	return 0;
}

static int open_base(struct cgx_ctx *ctx, const char *base)
{
	char partial[PATH_MAX];
	size_t used = 0;
	int fd = -1;

	/* mkdir -p, beneath the mount: each component must be a real cgroup2 directory. */
	while (base[used]) {
		size_t len = strcspn(base + used, "/");

		used += len;
		snprintf(partial, sizeof(partial), "%.*s", (int)used, base);
		if (mkdirat(ctx->cgroup2_fd, partial, 0755) < 0 && errno != EEXIST)
			return cgx_log_errno(-errno, "cannot create base %s/%s", ctx->cgroup2_path,
					     partial);
		if (base[used] == '/')
			used++;
	}
	if ((fd = v2_open_dir(ctx->cgroup2_fd, base)) < 0)
		return cgx_log_errno(fd, "cannot open base %s/%s", ctx->cgroup2_path, base);
	return fd;
}

/*
 * flock(2) @fd with @op, waiting up to 5 s for it. A daemon killed with -9
 * holds its locks until its last thread has gone, a while after its
 * command line has (exit_mm() comes before exit_files()): a restart must not
 * take a dying daemon for a live one.
 */
static int lock_waiting(int fd, int op)
{
	for (unsigned int tries = 0;; tries++) {
		if (flock(fd, op | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK || tries == 250)
			return -errno;
		usleep(20 * 1000);
	}
}

/* A shared lock on the directory @relpath above the base, kept while the context lives. */
static int lock_above(struct cgx_ctx *ctx, const char *relpath)
{
	int fd, r, *grown;

	if ((fd = v2_open_dir(ctx->cgroup2_fd, relpath)) < 0)
		return fd;
	if ((r = lock_waiting(fd, LOCK_SH)) < 0) {
		close(fd);
		return r;
	}
	if (!(grown = realloc(ctx->above_fds, (ctx->nr_above + 1) * sizeof(*grown)))) {
		close(fd);
		return -ENOMEM;
	}
	ctx->above_fds = grown;
	ctx->above_fds[ctx->nr_above++] = fd;
	return 0;
}

/*
 * One daemon a base, and no base inside another's. A second daemon would
 * take the first's groups and leaves for strays and its moves for drift,
 * and each would undo the other's repairs. Each daemon holds an exclusive
 * lock on its base and a shared one on every directory above it (up to the
 * cgroup2 mount), so that one on the same base, below it or above it finds
 * a lock it cannot share. The locks go with the descriptors: a daemon
 * killed with -9 leaves none behind.
 */
static int claim_base(struct cgx_ctx *ctx)
{
	char above[PATH_MAX];
	const char *slash;
	int r;

	for (slash = strchr(ctx->base_relpath, '/'); slash; slash = strchr(slash + 1, '/')) {
		snprintf(above, sizeof(above), "%.*s", (int)(slash - ctx->base_relpath),
			 ctx->base_relpath);
		if ((r = lock_above(ctx, above)) == -EWOULDBLOCK) {
			cgx_log(CGX_LOG_ERR,
				"base %s/%s lies inside %s/%s, which another cgxfs serves "
				"(fuser -v %s/%s names it)",
				ctx->cgroup2_path, ctx->base_relpath, ctx->cgroup2_path, above,
				ctx->cgroup2_path, above);
			return -EBUSY;
		}
		if (r < 0)
			return cgx_log_errno(r, "cannot lock %s/%s", ctx->cgroup2_path, above);
	}
	if ((r = lock_waiting(ctx->base_fd, LOCK_EX)) == 0)
		return 0;
	if (r != -EWOULDBLOCK)
		return cgx_log_errno(r, "cannot lock base %s/%s", ctx->cgroup2_path,
				     ctx->base_relpath);
	/* Not its pid from /proc/locks: that is the pid which took the lock, gone after a fork. */
	cgx_log(CGX_LOG_ERR,
		"base %s/%s is served by another cgxfs, or holds the base of one "
		"(fuser -v %s/%s names it)",
		ctx->cgroup2_path, ctx->base_relpath, ctx->cgroup2_path, ctx->base_relpath);
	return -EBUSY;
}

static int read_controllers(struct cgx_ctx *ctx)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	int r = read_file_at(ctx->base_fd, "cgroup.controllers", &text);

	if (r < 0)
		return cgx_log_errno(r, "%s/%s is not a cgroup2 directory", ctx->cgroup2_path,
				     ctx->base_relpath);
	snprintf(ctx->controllers, sizeof(ctx->controllers), "%.*s", (int)strcspn(text.buf, "\n"),
		 text.buf);
	return 0;
}

/*
 * Hierarchies made or removed while mounted are kept on the base, and come
 * back with a restart unless --hierarchies names others, which then replace
 * them there too.
 */
static int choose_hierarchies(struct cgx_ctx *ctx, const struct cgx_options *options)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	struct cgx_hier_set stored;
	int r = state_load_hierarchies(ctx->base_fd, &text);

	if (r == 0)
		r = hier_set_parse_stored(&stored, text.buf);

	if (r == -ENODATA)
		return 0;
	if (r < 0)
		return cgx_log_errno(r, "cannot read the hierarchies kept on %s/%s",
				     ctx->cgroup2_path, ctx->base_relpath);
	if (options->hierarchies) {
		hier_set_release(&stored);
		return state_save_hierarchies(ctx);
	}
	hier_set_release(&ctx->hiers);
	ctx->hiers = stored;
	return 0;
}

/*
 * Who hears the group layer's events, in the order the side effects ran
 * when they were called directly: release, then the deprecation checks.
 */
static cgx_event_fn *const subscribers[] = {
	release_on_event,
	deprecation_on_event,
	memevent_on_event,
	NULL,
};

int cgx_ctx_open(struct cgx_ctx **out, const struct cgx_options *options)
{
	struct cgx_ctx *ctx = calloc(1, sizeof(*ctx));
	unsigned long long log_max;
	const char *log_path;
	int r;

	if (!ctx)
		return -ENOMEM;
	ctx->cgroup2_fd = ctx->base_fd = -1;
	ctx->subscribers = subscribers;
	pthread_mutex_init(&ctx->lock, NULL);
	log_path =
		options->deprecation_log ? options->deprecation_log : CGX_DEFAULT_DEPRECATION_LOG;
	log_max = options->deprecation_log_max ? options->deprecation_log_max
					       : CGX_DEFAULT_DEPRECATION_LOG_MAX;
	if ((r = deprecation_log_init(&ctx->deprecations, log_path, log_max, options->journal)) <
	    0) {
		cgx_log_errno(r, "bad deprecation log path");
		free(ctx);
		return r;
	}
	if ((r = hier_set_parse(&ctx->hiers, options->hierarchies ? options->hierarchies
								  : CGX_DEFAULT_HIERARCHIES)) < 0) {
		cgx_log_errno(r, "bad hierarchy list");
		goto fail;
	}
	if (options->cgroup2)
		snprintf(ctx->cgroup2_path, sizeof(ctx->cgroup2_path), "%s", options->cgroup2);
	else if ((r = cgx_find_cgroup2(ctx->cgroup2_path, sizeof(ctx->cgroup2_path))) < 0) {
		cgx_log_errno(r, "no cgroup2 file system is mounted (mount -t cgroup2 none DIR, "
				 "or give --cgroup2 DIR)");
		goto fail;
	}
	if ((r = check_base(options->base)) < 0) {
		cgx_log_errno(r,
			      "base '%s' must be a directory below the cgroup2 mount, "
			      "never its root, named by plain components (no empty, '.' "
			      "or '..' one, no leading '/')",
			      options->base);
		goto fail;
	}
	snprintf(ctx->base_relpath, sizeof(ctx->base_relpath), "%s", options->base);
	ctx->cgroup2_fd = open(ctx->cgroup2_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->cgroup2_fd < 0) {
		r = cgx_log_errno(-errno, "cannot open %s", ctx->cgroup2_path);
		goto fail;
	}
	if ((r = open_base(ctx, options->base)) < 0)
		goto fail;
	ctx->base_fd = r;
	if ((r = claim_base(ctx)) < 0 || (r = read_controllers(ctx)) < 0)
		goto fail;
	if ((r = choose_hierarchies(ctx, options)) < 0)
		goto fail;
	if (options->primary_order &&
	    (r = hier_set_primary(&ctx->hiers, options->primary_order)) < 0) {
		cgx_log_errno(r, "bad primary order '%s': a comma list of v1 controllers",
			      options->primary_order);
		goto fail;
	}
	if ((r = tree_init(&ctx->tree, ctx->hiers.nr)) < 0)
		goto fail;
	if ((r = state_load(ctx)) < 0) {
		cgx_log_errno(r, "cannot rebuild the view from %s/%s", ctx->cgroup2_path,
			      options->base);
		goto fail;
	}
	/* A daemon killed mid-way may have left leaves in the wrong place. */
	if ((r = dir_sync_controllers(ctx, ctx->tree.base)) < 0 || (r = relocate_leaves(ctx)) < 0 ||
	    (r = cgx_aggregate_settle(ctx)) < 0)
		goto fail;
	memevent_restore(ctx, options->listeners_per_uid);
	release_arm_populated(ctx);
	cgx_dir_fds_close(ctx);
	*out = ctx;
	return 0;
fail:
	cgx_ctx_free(ctx);
	return r;
}

void cgx_ctx_free(struct cgx_ctx *ctx)
{
	if (!ctx)
		return;
	cgx_dir_fds_close(ctx);
	tree_release(&ctx->tree);
	hier_set_release(&ctx->hiers);
	deprecation_log_release(&ctx->deprecations);
	aggregate_state_release(&ctx->aggregates);
	memevent_state_release(&ctx->memevents);
	if (ctx->base_fd >= 0)
		close(ctx->base_fd);
	for (unsigned int i = 0; i < ctx->nr_above; i++)
		close(ctx->above_fds[i]);
	free(ctx->above_fds);
	if (ctx->cgroup2_fd >= 0)
		close(ctx->cgroup2_fd);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

void cgx_lock(struct cgx_ctx *ctx)
{
	pthread_mutex_lock(&ctx->lock);
}

/* The end of a request: what it asked to rebalance is done once, still under the lock. */
void cgx_unlock(struct cgx_ctx *ctx)
{
	cgx_aggregate_settle(ctx);
	cgx_dir_fds_close(ctx);
	pthread_mutex_unlock(&ctx->lock);
}
