// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree below the base, read on two threads (v2scan.h). A unit of work
 * is a directory whose subdirectories are to be read; the threads take
 * them from a stack that holds them in the order the load walks the tree
 * (depth first, a directory's subdirectories in their listing's order), so
 * that the load, building the mirror on its own thread meanwhile, finds
 * what it comes to read already there, or waits for it.
 *
 * Half of a start at 100,000 groups is these system calls, mostly path
 * lookups in kernfs: on two cores beside the building of the mirror, which
 * stays on one thread as it was and is never seen from here.
 */
#include "v2scan.h"

#include "v2io.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCAN_THREADS	2
#define SCAN_DENTS_SIZE 32768
#define ARENA_CHUNK	(1U << 20)

/*
 * The buffers of one thread, mapped a chunk at a time: they all go at once
 * after the load, and unmapped they give their memory back rather than
 * leave holes in the heap the mirror grew around.
 */
struct v2scan_arena {
	struct v2scan_arena *next;
	size_t used, size;
	char data[];
};
static void *arena_alloc(struct v2scan_arena **arena, size_t size)
{
	struct v2scan_arena *chunk = *arena;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!chunk || chunk->size - chunk->used < size) {
		size_t bytes = sizeof(*chunk) + size;

		if (bytes < ARENA_CHUNK)
			bytes = ARENA_CHUNK;

		chunk = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			     0);
		if (chunk == MAP_FAILED)
			return NULL;
		chunk->next = *arena;
		chunk->used = 0;
		chunk->size = bytes - sizeof(*chunk);
		*arena = chunk;
	}
	p = chunk->data + chunk->used;
	chunk->used += size;
	return p;
}

static char *arena_strndup(struct v2scan_arena **arena, const char *s, size_t len)
{
	char *copy = arena_alloc(arena, len + 1);

	if (copy) {
		memcpy(copy, s, len);
		copy[len] = '\0';
	}
	return copy;
}

static void arenas_free(struct v2scan_arena *arena)
{
	for (struct v2scan_arena *next; arena; arena = next) {
		next = arena->next;
		munmap(arena, sizeof(*arena) + arena->size);
	}
}

/* One thread's buffers, reused from one directory to the next. */
struct scanner {
	struct v2scan_shared *shared;
	struct v2scan_arena *arena;
	struct strbuf names, value;
	char *dents;
};

struct v2scan_shared {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* work pushed, a directory ready, the scan stopped */
	struct v2scan_dir *stack;
	unsigned int busy; /* threads reading a directory, which may push more */
	bool stop;
	int base_fd;
	uint64_t mnt_id; /* the base's mount: the scan never leaves it */
	v2scan_wants_value *wants_value;
	struct scanner scanner[SCAN_THREADS];
	pthread_t thread[SCAN_THREADS];
	bool started[SCAN_THREADS];
};

static size_t count_names(const struct strbuf *names)
{
	size_t n = 0;

	for_each_name (name, names)
		n++;
	return n;
}

/* The record @name of @dir into @record, with its value if the load needs it. */
static int read_record(struct scanner *sc, int fd, const char *child, const struct v2scan_dir *dir,
		       const char *name, struct v2scan_record *record)
{
	*record = (struct v2scan_record){.name = arena_strndup(&sc->arena, name, strlen(name))};
	if (!record->name)
		return -ENOMEM;
	if (!sc->shared->wants_value(dir->name, name))
		return 0;
	/* Kept, not returned: the load meets it only when it comes to this record. */
	if ((record->err = v2_xattr_get_at(fd, child, name, &sc->value)) < 0)
		return 0;
	if (!(record->value = arena_strndup(&sc->arena, sc->value.buf, sc->value.len)))
		return -ENOMEM;
	return 0;
}

/* @dir's records, of @fd's child @child ("" for @fd itself), and the values the load needs. */
static int read_records(struct scanner *sc, int fd, const char *child, struct v2scan_dir *dir)
{
	struct v2scan_record *record;
	int r;

	if ((r = v2_xattr_list_at(fd, child, &sc->names)) < 0)
		return r;
	dir->nr_records = count_names(&sc->names);
	if (!dir->nr_records)
		return 0;
	if (!(dir->records = arena_alloc(&sc->arena, dir->nr_records * sizeof(*dir->records))))
		return -ENOMEM;
	record = dir->records;
	for_each_name (name, &sc->names) {
		if ((r = read_record(sc, fd, child, dir, name, record++)) < 0)
			return r;
	}
	return 0;
}

/* The subdirectories of @fd, by name only: each is looked at by statx next. */
static int list_children(struct scanner *sc, int fd, struct v2scan_dir *dir)
{
	struct v2scan_dir *child;
	ssize_t n;
	int r;

	sc->names.len = 0;
	while ((n = getdents64(fd, sc->dents, SCAN_DENTS_SIZE)) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *entry = (struct dirent64 *)(sc->dents + off);

			off += entry->d_reclen;
			if (entry->d_type != DT_DIR || !strcmp(entry->d_name, ".") ||
			    !strcmp(entry->d_name, ".."))
				continue;
			if ((r = strbuf_add(&sc->names, entry->d_name, strlen(entry->d_name) + 1)) <
			    0)
				return r;
		}
	}
	if (n < 0)
		return -errno;
	dir->nr_children = count_names(&sc->names);
	if (!dir->nr_children)
		return 0;
	if (!(dir->children = arena_alloc(&sc->arena, dir->nr_children * sizeof(*child))))
		return -ENOMEM;
	child = dir->children;
	for_each_name (name, &sc->names) {
		*child = (struct v2scan_dir){.name = arena_strndup(&sc->arena, name, strlen(name))};
		if (!child->name)
			return -ENOMEM;
		child++;
	}
	return 0;
}

/* "@parent/@name" beneath the base, for a directory opened to read its subdirectories. */
static const char *child_path(struct scanner *sc, const char *parent, const char *name)
{
	size_t parent_len = strlen(parent), name_len = strlen(name);
	char *path = arena_alloc(&sc->arena, parent_len + 1 + name_len + 1);

	if (!path)
		return NULL;
	if (parent_len) {
		memcpy(path, parent, parent_len);
		path[parent_len++] = '/';
	}
	memcpy(path + parent_len, name, name_len + 1);
	return path;
}

/* A subdirectory @dir of @parent, listed on @parent_fd: its statx and its records. */
static void read_child(struct scanner *sc, const struct v2scan_dir *parent, int parent_fd,
		       struct v2scan_dir *dir)
{
	_cleanup_close_ int fd = -1;
	struct statx stx;

	/* Removed meanwhile, or not a directory: skipped alike. */
	if (statx(parent_fd, dir->name, AT_SYMLINK_NOFOLLOW,
		  STATX_TYPE | STATX_INO | STATX_NLINK | STATX_CTIME | STATX_MNT_ID, &stx) < 0) {
		dir->err = -errno;
		return;
	}
	if (!S_ISDIR(stx.stx_mode)) {
		dir->err = -ENOENT;
		return;
	}
	/* As v2_open_dir()'s RESOLVE_NO_XDEV: nothing mounted over a directory is read. */
	if ((stx.stx_mask & STATX_MNT_ID) && stx.stx_mnt_id != sc->shared->mnt_id) {
		dir->err = -EXDEV;
		return;
	}
	/*
	 * cgroup2's (kernfs's) and most file systems' link count of a
	 * directory is 2 and one for each subdirectory: one of 2 has none and
	 * is not listed. Where the count means nothing (1), it is.
	 */
	dir->may_have_children = !(stx.stx_mask & STATX_NLINK) || stx.stx_nlink != 2;
	dir->created = stx.stx_ctime.tv_sec;
	dir->ino = stx.stx_mask & STATX_INO ? stx.stx_ino : 0;
	/* A kernel without getxattrat: one open for all of the directory's records. */
	if (!v2_xattr_at_supported() && (fd = v2_open_dir(parent_fd, dir->name)) < 0) {
		dir->err = fd;
		return;
	}
	if (fd >= 0)
		dir->err = read_records(sc, fd, "", dir);
	else
		dir->err = read_records(sc, parent_fd, dir->name, dir);
	if (dir->err < 0 || !dir->may_have_children)
		return;
	/* Without a path, it is ready already: the load returns its error there. */
	if (!(dir->path = child_path(sc, parent->path, dir->name))) {
		dir->children_err = -ENOMEM;
		dir->ready = true;
	}
}

/* The subdirectories of @dir and, for each, its statx and its records. */
static void read_children(struct scanner *sc, struct v2scan_dir *dir)
{
	_cleanup_close_ int fd = v2_open_dir(sc->shared->base_fd, dir->path);

	if (fd < 0) {
		dir->children_err = fd;
		return;
	}
	if ((dir->children_err = list_children(sc, fd, dir)) < 0) {
		dir->nr_children = 0;
		return;
	}
	for (unsigned int i = 0; i < dir->nr_children; i++)
		read_child(sc, dir, fd, &dir->children[i]);
}

/* With the lock: @dir's subdirectories that have their own go on the stack, the first on top. */
static void push_children(struct v2scan_shared *shared, struct v2scan_dir *dir)
{
	for (unsigned int i = dir->nr_children; i-- > 0;) {
		struct v2scan_dir *child = &dir->children[i];

		if (child->path && !child->ready) {
			child->next = shared->stack;
			shared->stack = child;
		}
	}
}

/* Takes work until the stack is empty and no thread can push more, or the scan stops. */
static void *scan_thread(void *arg)
{
	struct scanner *sc = arg;
	struct v2scan_shared *shared = sc->shared;

	pthread_mutex_lock(&shared->lock);
	while (!shared->stop && (shared->stack || shared->busy)) {
		struct v2scan_dir *dir = shared->stack;

		if (!dir) {
			pthread_cond_wait(&shared->cond, &shared->lock);
			continue;
		}
		shared->stack = dir->next;
		shared->busy++;
		pthread_mutex_unlock(&shared->lock);
		read_children(sc, dir);
		pthread_mutex_lock(&shared->lock);
		push_children(shared, dir);
		dir->ready = true;
		shared->busy--;
		pthread_cond_broadcast(&shared->cond);
	}
	pthread_mutex_unlock(&shared->lock);
	return NULL;
}

/* Every signal blocked: the daemon's handlers run on its own threads. */
static bool thread_start(pthread_t *thread, struct scanner *sc)
{
	sigset_t all, old;
	bool started;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	started = pthread_create(thread, NULL, scan_thread, sc) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

int v2scan_start(int base_fd, v2scan_wants_value *wants_value, struct v2scan *scan)
{
	struct v2scan_shared *shared;
	bool any_started = false;
	struct statx stx;

	*scan = (struct v2scan){.base = {.name = "", .path = "", .may_have_children = true}};
	if (!(shared = calloc(1, sizeof(*shared))))
		return -ENOMEM;
	scan->shared = shared;
	pthread_mutex_init(&shared->lock, NULL);
	pthread_cond_init(&shared->cond, NULL);
	shared->base_fd = base_fd;
	shared->wants_value = wants_value;
	for (unsigned int i = 0; i < SCAN_THREADS; i++) {
		shared->scanner[i].shared = shared;
		if (!(shared->scanner[i].dents = malloc(SCAN_DENTS_SIZE)))
			return -ENOMEM;
	}
	if (statx(base_fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (stx.stx_mask & STATX_MNT_ID)
		shared->mnt_id = stx.stx_mnt_id;
	/* On this thread, before any other starts: the load begins with them. */
	if ((scan->base.err = read_records(&shared->scanner[0], base_fd, "", &scan->base)) < 0)
		return 0;
	shared->stack = &scan->base;
	for (unsigned int i = 0; i < SCAN_THREADS; i++)
		any_started |= shared->started[i] =
			thread_start(&shared->thread[i], &shared->scanner[i]);
	/* No thread to be had: the scan is read whole here, then built. */
	if (!any_started)
		scan_thread(&shared->scanner[0]);
	return 0;
}

void v2scan_wait(struct v2scan *scan, const struct v2scan_dir *dir)
{
	struct v2scan_shared *shared = scan->shared;

	pthread_mutex_lock(&shared->lock);
	while (!dir->ready)
		pthread_cond_wait(&shared->cond, &shared->lock);
	pthread_mutex_unlock(&shared->lock);
}

void v2scan_end(struct v2scan *scan)
{
	struct v2scan_shared *shared = scan->shared;

	if (!shared)
		return;
	pthread_mutex_lock(&shared->lock);
	shared->stop = true;
	pthread_cond_broadcast(&shared->cond);
	pthread_mutex_unlock(&shared->lock);
	for (unsigned int i = 0; i < SCAN_THREADS; i++) {
		struct scanner *sc = &shared->scanner[i];

		if (shared->started[i])
			pthread_join(shared->thread[i], NULL);
		arenas_free(sc->arena);
		strbuf_release(&sc->names);
		strbuf_release(&sc->value);
		free(sc->dents);
	}
	pthread_cond_destroy(&shared->cond);
	pthread_mutex_destroy(&shared->lock);
	free(shared);
	scan->shared = NULL;
}
