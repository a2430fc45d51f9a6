// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floorfs: the floor cgx-bench measures cgxfs against (issue 18). A libfuse3
 * low-level file system mounted and answered the way cgxfs is (the same mount
 * options, 1 s entry and attribute timeouts, FOPEN_DIRECT_IO, no flush, the
 * same 16-thread loop), over a real cgroup2 directory: each request costs one
 * round trip and the kernel work it must do, nothing else.
 *
 *   floorfs BASE MOUNTPOINT
 *
 * Each directory under BASE that was made through the mount is a directory;
 * each directory holds
 *   tasks                  a write of a pid writes BASE/.../cgroup.procs, a read reads it;
 *   cpu.shares             a knob kept in memory, "1024\n" at first;
 *   cgroup.clone_children  a knob kept in memory, "0\n" at first.
 * mkdir and rmdir are the real mkdirat and unlinkat in BASE. Only what is made
 * through the mount exists in it (as with cgxfs, which is alone in its base),
 * so a lookup is a hash probe and no system call.
 *
 * Runs in the foreground until unmounted or signalled; a benchmark tool, not
 * installed.
 */
#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* As cgxfs: names and attributes change only through the daemon, which the kernel sees. */
#define CACHE_SECONDS 1.0
#define KNOB_MAX      16

/* An inode number is (node << 2 | kind) + 1, so the root directory is FUSE_ROOT_ID. */
enum kind { KIND_DIR, KIND_TASKS, KIND_SHARES, KIND_CLONE, NR_KINDS };

static const char *const kind_names[NR_KINDS] = {
	[KIND_TASKS] = "tasks",
	[KIND_SHARES] = "cpu.shares",
	[KIND_CLONE] = "cgroup.clone_children",
};

struct knob {
	char text[KNOB_MAX];
	size_t len;
};

/* A directory: alive while it exists in BASE (hashed) or the kernel still knows it. */
struct node {
	char *path; /* relative to BASE; "." for the root */
	const char *name;
	uint32_t parent;
	uint32_t next; /* hash chain or free list: index + 1, 0 ends it */
	uint64_t nlookup;
	uint32_t nr_children;
	bool used, hashed;
	struct knob knob[NR_KINDS];
};

struct floorfs {
	int base_fd;
	pthread_mutex_t lock; /* held to find and record, never across a system call */
	struct node *nodes;
	uint32_t nr_nodes, cap, free_list;
	uint32_t *buckets; /* node index + 1 */
	uint32_t nr_buckets, nr_hashed;
};

static struct floorfs *fs_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static uint32_t hash_name(uint32_t parent, const char *name)
{
	uint32_t h = 2166136261u ^ parent;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	return h;
}

static void hash_insert(struct floorfs *fs, uint32_t idx)
{
	struct node *node = &fs->nodes[idx];
	uint32_t *slot = &fs->buckets[hash_name(node->parent, node->name) & (fs->nr_buckets - 1)];

	node->next = *slot;
	*slot = idx + 1;
	node->hashed = true;
	fs->nr_hashed++;
}

static int hash_grow(struct floorfs *fs)
{
	uint32_t nr = fs->nr_buckets ? fs->nr_buckets * 2 : 1024;
	uint32_t *buckets = calloc(nr, sizeof(*buckets));

	if (!buckets)
		return -ENOMEM;
	free(fs->buckets);
	fs->buckets = buckets;
	fs->nr_buckets = nr;
	fs->nr_hashed = 0;
	for (uint32_t i = 0; i < fs->nr_nodes; i++) {
		if (fs->nodes[i].used && fs->nodes[i].hashed)
			hash_insert(fs, i);
	}
	return 0;
}

/* The index + 1 of the directory @name in @parent, or 0. */
static uint32_t *hash_slot(struct floorfs *fs, uint32_t parent, const char *name)
{
	uint32_t *slot = &fs->buckets[hash_name(parent, name) & (fs->nr_buckets - 1)];

	while (*slot &&
	       (fs->nodes[*slot - 1].parent != parent || strcmp(fs->nodes[*slot - 1].name, name)))
		slot = &fs->nodes[*slot - 1].next;
	return slot;
}

static void node_put(struct floorfs *fs, uint32_t idx)
{
	struct node *node = &fs->nodes[idx];

	if (idx == 0 || node->hashed || node->nlookup)
		return;
	free(node->path);
	memset(node, 0, sizeof(*node));
	node->next = fs->free_list;
	fs->free_list = idx + 1;
}

/* A new hashed directory @name in @parent; its path is taken over. */
static int node_add(struct floorfs *fs, uint32_t parent, char *path, uint32_t *out)
{
	struct node *node;
	uint32_t idx;
	int r;

	if (fs->nr_hashed >= fs->nr_buckets && (r = hash_grow(fs)) < 0)
		return r;
	if (fs->free_list) {
		idx = fs->free_list - 1;
		fs->free_list = fs->nodes[idx].next;
	} else {
		if (fs->nr_nodes == fs->cap) {
			uint32_t cap = fs->cap ? fs->cap * 2 : 1024;
			struct node *nodes = realloc(fs->nodes, cap * sizeof(*nodes));

			if (!nodes)
				return -ENOMEM;
			fs->nodes = nodes;
			fs->cap = cap;
		}
		idx = fs->nr_nodes++;
	}
	node = &fs->nodes[idx];
	*node = (struct node){.path = path, .parent = parent, .used = true};
	node->name = idx ? strrchr(path, '/') + 1 : path;
	node->knob[KIND_SHARES] = (struct knob){"1024\n", 5};
	node->knob[KIND_CLONE] = (struct knob){"0\n", 2};
	if (idx)
		hash_insert(fs, idx);
	*out = idx;
	return 0;
}

static fuse_ino_t ino_of(uint32_t idx, enum kind kind)
{
	return ((fuse_ino_t)idx << 2 | kind) + 1;
}

/* The node of @ino, under the lock; NULL when it is not one the kernel may hold. */
static struct node *node_of(struct floorfs *fs, fuse_ino_t ino, enum kind *kind)
{
	uint64_t idx = (ino - 1) >> 2;

	*kind = (ino - 1) & 3;
	if (idx >= fs->nr_nodes || !fs->nodes[idx].used)
		return NULL;
	return &fs->nodes[idx];
}

static void fill_stat(const struct node *node, fuse_ino_t ino, enum kind kind, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_blksize = 4096;
	/* As kernfs: a directory links its subdirectories, a file has size 0. */
	st->st_mode = kind == KIND_DIR ? S_IFDIR | 0755 : S_IFREG | 0644;
	st->st_nlink = kind == KIND_DIR ? 2 + node->nr_children : 1;
}

static void reply_entry_locked(fuse_req_t req, struct floorfs *fs, uint32_t idx, enum kind kind)
{
	struct fuse_entry_param entry = {
		.ino = ino_of(idx, kind),
		.attr_timeout = CACHE_SECONDS,
		.entry_timeout = CACHE_SECONDS,
	};

	fill_stat(&fs->nodes[idx], entry.ino, kind, &entry.attr);
	fs->nodes[idx].nlookup++;
	pthread_mutex_unlock(&fs->lock);
	if (fuse_reply_entry(req, &entry) < 0) {
		/* No forget comes for an entry the kernel never got. */
		pthread_mutex_lock(&fs->lock);
		fs->nodes[idx].nlookup--;
		node_put(fs, idx);
		pthread_mutex_unlock(&fs->lock);
	}
}

static enum kind file_kind(const char *name)
{
	for (enum kind k = KIND_TASKS; k < NR_KINDS; k++) {
		if (!strcmp(name, kind_names[k]))
			return k;
	}
	return KIND_DIR;
}

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* As cgxfs: O_TRUNC comes with the open, and reads are answered in order. */
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~FUSE_CAP_ASYNC_READ;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent_ino, const char *name)
{
	struct floorfs *fs = fs_of(req);
	enum kind kind, file = file_kind(name);
	struct node *parent;
	uint32_t idx, slot;

	pthread_mutex_lock(&fs->lock);
	parent = node_of(fs, parent_ino, &kind);
	if (!parent || kind != KIND_DIR) {
		pthread_mutex_unlock(&fs->lock);
		fuse_reply_err(req, parent ? ENOTDIR : ENOENT);
		return;
	}
	idx = (uint32_t)(parent - fs->nodes);
	if (file != KIND_DIR) {
		reply_entry_locked(req, fs, idx, file);
		return;
	}
	if (!(slot = *hash_slot(fs, idx, name))) {
		pthread_mutex_unlock(&fs->lock);
		fuse_reply_err(req, ENOENT);
		return;
	}
	reply_entry_locked(req, fs, slot - 1, KIND_DIR);
}

static void forget_one(struct floorfs *fs, fuse_ino_t ino, uint64_t nlookup)
{
	enum kind kind;
	struct node *node = node_of(fs, ino, &kind);

	if (!node)
		return;
	node->nlookup -= nlookup < node->nlookup ? nlookup : node->nlookup;
	node_put(fs, (uint32_t)(node - fs->nodes));
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct floorfs *fs = fs_of(req);

	pthread_mutex_lock(&fs->lock);
	forget_one(fs, ino, nlookup);
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *forgets)
{
	struct floorfs *fs = fs_of(req);

	pthread_mutex_lock(&fs->lock);
	for (size_t i = 0; i < count; i++)
		forget_one(fs, forgets[i].ino, forgets[i].nlookup);
	pthread_mutex_unlock(&fs->lock);
	fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct floorfs *fs = fs_of(req);
	enum kind kind;
	struct node *node;
	struct stat st;

	(void)fi;
	pthread_mutex_lock(&fs->lock);
	if ((node = node_of(fs, ino, &kind)))
		fill_stat(node, ino, kind, &st);
	pthread_mutex_unlock(&fs->lock);
	if (node)
		fuse_reply_attr(req, &st, CACHE_SECONDS);
	else
		fuse_reply_err(req, ENOENT);
}

/* A copy of the path of @name in the directory @ino, taken under the lock. */
static int child_path(struct floorfs *fs, fuse_ino_t ino, const char *name, uint32_t *parent,
		      char **out)
{
	enum kind kind;
	struct node *node;
	int r = 0;

	pthread_mutex_lock(&fs->lock);
	node = node_of(fs, ino, &kind);
	if (!node || kind != KIND_DIR)
		r = node ? -ENOTDIR : -ENOENT;
	else if (asprintf(out, "%s/%s", node->path, name) < 0)
		r = -ENOMEM;
	*parent = node ? (uint32_t)(node - fs->nodes) : 0;
	pthread_mutex_unlock(&fs->lock);
	return r;
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent_ino, const char *name, mode_t mode)
{
	struct floorfs *fs = fs_of(req);
	char *path = NULL;
	uint32_t parent, idx;
	int r;

	if (file_kind(name) != KIND_DIR)
		r = -EEXIST;
	else if ((r = child_path(fs, parent_ino, name, &parent, &path)) == 0 &&
		 mkdirat(fs->base_fd, path, mode) < 0)
		r = -errno;
	if (r < 0) {
		free(path);
		fuse_reply_err(req, -r);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	if ((r = node_add(fs, parent, path, &idx)) < 0) {
		pthread_mutex_unlock(&fs->lock);
		/* Nothing half done: the directory goes again. */
		unlinkat(fs->base_fd, path, AT_REMOVEDIR);
		free(path);
		fuse_reply_err(req, -r);
		return;
	}
	fs->nodes[parent].nr_children++;
	reply_entry_locked(req, fs, idx, KIND_DIR);
}

static void op_rmdir(fuse_req_t req, fuse_ino_t parent_ino, const char *name)
{
	struct floorfs *fs = fs_of(req);
	char *path = NULL;
	uint32_t parent, *slot;
	int r;

	if ((r = child_path(fs, parent_ino, name, &parent, &path)) == 0 &&
	    unlinkat(fs->base_fd, path, AT_REMOVEDIR) < 0)
		r = -errno;
	free(path);
	if (r == 0) {
		pthread_mutex_lock(&fs->lock);
		if (*(slot = hash_slot(fs, parent, name))) {
			uint32_t idx = *slot - 1;

			*slot = fs->nodes[idx].next;
			fs->nodes[idx].hashed = false;
			fs->nr_hashed--;
			fs->nodes[parent].nr_children--;
			node_put(fs, idx);
		}
		pthread_mutex_unlock(&fs->lock);
	}
	fuse_reply_err(req, -r);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct floorfs *fs = fs_of(req);
	enum kind kind;
	struct node *node;
	char *path = NULL;
	int fd = -1;

	pthread_mutex_lock(&fs->lock);
	node = node_of(fs, ino, &kind);
	if (node && kind == KIND_TASKS && asprintf(&path, "%s/cgroup.procs", node->path) < 0)
		path = NULL;
	pthread_mutex_unlock(&fs->lock);
	if (!node || kind == KIND_DIR) {
		fuse_reply_err(req, node ? EISDIR : ENOENT);
		return;
	}
	if (kind == KIND_TASKS) {
		int err = ENOMEM;

		/* The real cgroup.procs, opened as the caller opened tasks. */
		if (path &&
		    (fd = openat(fs->base_fd, path, (fi->flags & O_ACCMODE) | O_CLOEXEC)) < 0)
			err = errno;
		free(path);
		if (fd < 0) {
			fuse_reply_err(req, err);
			return;
		}
	}
	fi->fh = (uint64_t)fd;
	fi->direct_io = 1;
	if (fuse_reply_open(req, fi) < 0 && fd >= 0)
		close(fd);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	if ((int)fi->fh >= 0)
		close((int)fi->fh);
	fuse_reply_err(req, 0);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct floorfs *fs = fs_of(req);
	struct knob knob = {0};
	enum kind kind;
	struct node *node;

	if ((int)fi->fh >= 0) {
		char *buf = malloc(size);
		ssize_t n = buf ? pread((int)fi->fh, buf, size, off) : -1;

		if (n < 0)
			fuse_reply_err(req, buf ? errno : ENOMEM);
		else
			fuse_reply_buf(req, buf, (size_t)n);
		free(buf);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	if ((node = node_of(fs, ino, &kind)))
		knob = node->knob[kind];
	pthread_mutex_unlock(&fs->lock);
	if (!node)
		fuse_reply_err(req, ENODEV);
	else if ((size_t)off >= knob.len)
		fuse_reply_buf(req, NULL, 0);
	else
		fuse_reply_buf(req, knob.text + off,
			       size < knob.len - (size_t)off ? size : knob.len - (size_t)off);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *data, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	struct floorfs *fs = fs_of(req);
	enum kind kind;
	struct node *node;
	ssize_t n;

	(void)off;
	if ((int)fi->fh >= 0) {
		if ((n = write((int)fi->fh, data, size)) < 0)
			fuse_reply_err(req, errno);
		else
			fuse_reply_write(req, (size_t)n);
		return;
	}
	if (size >= KNOB_MAX) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_mutex_lock(&fs->lock);
	if ((node = node_of(fs, ino, &kind))) {
		memcpy(node->knob[kind].text, data, size);
		node->knob[kind].len = size;
	}
	pthread_mutex_unlock(&fs->lock);
	if (node)
		fuse_reply_write(req, size);
	else
		fuse_reply_err(req, ENODEV);
}

/* A directory's listing, taken at opendir: its files, then its subdirectories in BASE. */
struct listing {
	size_t nr, cap;
	struct listing_entry {
		fuse_ino_t ino;
		mode_t mode;
		char *name;
	} * entry;
};

static int listing_add(struct listing *list, fuse_ino_t ino, mode_t mode, const char *name)
{
	if (list->nr == list->cap) {
		size_t cap = list->cap ? list->cap * 2 : 64;
		struct listing_entry *entry = realloc(list->entry, cap * sizeof(*entry));

		if (!entry)
			return -ENOMEM;
		list->entry = entry;
		list->cap = cap;
	}
	if (!(list->entry[list->nr].name = strdup(name)))
		return -ENOMEM;
	list->entry[list->nr].ino = ino;
	list->entry[list->nr++].mode = mode;
	return 0;
}

static void listing_free(struct listing *list)
{
	for (size_t i = 0; i < list->nr; i++)
		free(list->entry[i].name);
	free(list->entry);
	free(list);
}

static int listing_fill(struct floorfs *fs, fuse_ino_t ino, struct listing *list)
{
	struct dirent *d;
	uint32_t idx, slot;
	char *path = NULL;
	DIR *dir;
	int fd, r = 0;

	if ((r = child_path(fs, ino, ".", &idx, &path)) < 0)
		return r;
	fd = openat(fs->base_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(path);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		return r;
	}
	if ((r = listing_add(list, ino, S_IFDIR, ".")) < 0 ||
	    (r = listing_add(list, ino, S_IFDIR, "..")) < 0)
		goto out;
	for (enum kind k = KIND_TASKS; k < NR_KINDS && r == 0; k++)
		r = listing_add(list, ino_of(idx, k), S_IFREG, kind_names[k]);
	while (r == 0 && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		pthread_mutex_lock(&fs->lock);
		slot = *hash_slot(fs, idx, d->d_name);
		pthread_mutex_unlock(&fs->lock);
		if (slot)
			r = listing_add(list, ino_of(slot - 1, KIND_DIR), S_IFDIR, d->d_name);
	}
out:
	closedir(dir);
	return r;
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct listing *list = calloc(1, sizeof(*list));
	int r = list ? listing_fill(fs_of(req), ino, list) : -ENOMEM;

	if (r < 0) {
		if (list)
			listing_free(list);
		fuse_reply_err(req, -r);
		return;
	}
	fi->fh = (uintptr_t)list;
	if (fuse_reply_open(req, fi) < 0)
		listing_free(list);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct listing *list = (struct listing *)(uintptr_t)fi->fh;
	char *buf = malloc(size);
	size_t used = 0;

	(void)ino;
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (size_t i = (size_t)off; i < list->nr; i++) {
		struct stat st = {.st_ino = list->entry[i].ino, .st_mode = list->entry[i].mode};
		size_t len = fuse_add_direntry(req, buf + used, size - used, list->entry[i].name,
					       &st, (off_t)i + 1);

		if (len > size - used)
			break;
		used += len;
	}
	fuse_reply_buf(req, buf, used);
	free(buf);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	listing_free((struct listing *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

/*
 * Extended attributes as a v1 view must have them (cgroupfs keeps them;
 * cgxfs answers getxattr): none here. Answered, not ENOSYS, so that the
 * kernel keeps asking for security.capability before each O_TRUNC open, a
 * round trip any such view pays.
 */
static void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	(void)ino, (void)name, (void)size;
	fuse_reply_err(req, ENODATA);
}

static void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	(void)ino;
	if (size == 0)
		fuse_reply_xattr(req, 0);
	else
		fuse_reply_buf(req, NULL, 0);
}

/* No flush: ENOSYS, after which the kernel stops asking. */
static const struct fuse_lowlevel_ops floorfs_ops = {
	.init = op_init,
	.lookup = op_lookup,
	.forget = op_forget,
	.forget_multi = op_forget_multi,
	.getattr = op_getattr,
	.mkdir = op_mkdir,
	.rmdir = op_rmdir,
	.open = op_open,
	.read = op_read,
	.write = op_write,
	.release = op_release,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.releasedir = op_releasedir,
	.getxattr = op_getxattr,
	.listxattr = op_listxattr,
};

static int serve(struct floorfs *fs, const char *mountpoint)
{
	char *fuse_argv[] = {"floorfs", "-o",
			     "default_permissions,allow_other,fsname=floorfs,subtype=floorfs",
			     NULL};
	struct fuse_args args = FUSE_ARGS_INIT(3, fuse_argv);
	struct fuse_loop_config *loop_config;
	struct fuse_session *se;
	int r = -EIO;

	if (!(se = fuse_session_new(&args, &floorfs_ops, sizeof(floorfs_ops), fs)))
		return -EINVAL;
	if (fuse_set_signal_handlers(se) < 0)
		goto out_session;
	if (fuse_session_mount(se, mountpoint) < 0)
		goto out_signals;
	/* The same loop as cgxfs's: up to 16 threads. */
	if ((loop_config = fuse_loop_cfg_create())) {
		fuse_loop_cfg_set_max_threads(loop_config, 16);
		r = fuse_session_loop_mt(se, loop_config) < 0 ? -EIO : 0;
		fuse_loop_cfg_destroy(loop_config);
	}
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
	fuse_opt_free_args(&args);
	return r;
}

int main(int argc, char **argv)
{
	static struct floorfs fs = {.lock = PTHREAD_MUTEX_INITIALIZER};
	char *root_path = strdup(".");
	uint32_t root;
	int r;

	if (argc != 3) {
		fprintf(stderr, "Usage: floorfs BASE MOUNTPOINT\n");
		return 2;
	}
	fs.base_fd = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fs.base_fd < 0) {
		fprintf(stderr, "floorfs: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!root_path || hash_grow(&fs) < 0 || node_add(&fs, 0, root_path, &root) < 0)
		return 1;
	if ((r = serve(&fs, argv[2])) < 0) {
		fprintf(stderr, "floorfs: %s: %s\n", argv[2], strerror(-r));
		return 1;
	}
	return 0;
}
