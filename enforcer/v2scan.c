// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree below the base, read on two threads (v2scan.h). A unit of work
 * is a directory whose subdirectories are to be read, with its fd open;
 * the threads share a small stack of them. A thread that finds the stack
 * full reads the directory itself, depth first, so that the fds held stay
 * few whatever the shape of the tree.
 *
 * Half of a start at 100,000 groups is these system calls, mostly path
 * lookups in kernfs, which run side by side on two cores; the model is
 * built on one thread afterwards, as it was, and never seen from here.
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

#define SCAN_STACK_MAX	64
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

struct scan_work {
	struct v2scan_dir *dir;
	int fd;
};

struct scan_shared {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct scan_work stack[SCAN_STACK_MAX];
	unsigned int nr;
	unsigned int busy; /* threads reading a directory, which may push more */
	uint64_t mnt_id;   /* the base's mount: the scan never leaves it */
	v2scan_wants_value *wants_value;
};

/* One thread's buffers, reused from one directory to the next. */
struct scanner {
	struct scan_shared *shared;
	struct v2scan_arena *arena;
	struct strbuf names, value;
	char *dents;
};

static size_t count_names(const struct strbuf *names)
{
	size_t n = 0;

	for (const char *name = names->buf; name < names->buf + names->len;
	     name += strlen(name) + 1)
		n++;
	return n;
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
	for (const char *name = sc->names.buf; name < sc->names.buf + sc->names.len;
	     name += strlen(name) + 1, record++) {
		*record = (struct v2scan_record){
			.name = arena_strndup(&sc->arena, name, strlen(name))};
		if (!record->name)
			return -ENOMEM;
		if (!sc->shared->wants_value(dir->name, name))
			continue;
		/* Kept, not returned: the load meets it only when it comes to this record. */
		if ((record->err = v2_xattr_get_at(fd, child, name, &sc->value)) < 0)
			continue;
		if (!(record->value = arena_strndup(&sc->arena, sc->value.buf, sc->value.len)))
			return -ENOMEM;
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
	for (const char *name = sc->names.buf; name < sc->names.buf + sc->names.len;
	     name += strlen(name) + 1, child++) {
		*child = (struct v2scan_dir){.name = arena_strndup(&sc->arena, name, strlen(name))};
		if (!child->name)
			return -ENOMEM;
	}
	return 0;
}

static void scan_dir(struct scanner *sc, struct v2scan_dir *dir, int fd);

/* A child @dir of @parent_fd: its statx, its records, then its own children. */
static void read_child(struct scanner *sc, int parent_fd, struct v2scan_dir *dir)
{
	_cleanup_close_ int fd = -1;
	struct statx stx;

	/* Removed meanwhile, or not a directory: skipped alike. */
	if (statx(parent_fd, dir->name, AT_SYMLINK_NOFOLLOW,
		  STATX_TYPE | STATX_NLINK | STATX_CTIME | STATX_MNT_ID, &stx) < 0) {
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
	if (fd < 0 && (fd = v2_open_dir(parent_fd, dir->name)) < 0) {
		dir->children_err = fd;
		return;
	}
	scan_dir(sc, dir, steal_fd(fd));
}

/* Reads the subdirectories of @dir, whose @fd it closes. */
static void read_children(struct scanner *sc, struct v2scan_dir *dir, int fd)
{
	if ((dir->children_err = list_children(sc, fd, dir)) < 0)
		dir->nr_children = 0;
	for (unsigned int i = 0; i < dir->nr_children; i++)
		read_child(sc, fd, &dir->children[i]);
	close(fd);
}

/* @dir's subdirectories are left to whichever thread is free, or read here when many wait. */
static void scan_dir(struct scanner *sc, struct v2scan_dir *dir, int fd)
{
	struct scan_shared *shared = sc->shared;

	pthread_mutex_lock(&shared->lock);
	if (shared->nr < SCAN_STACK_MAX) {
		shared->stack[shared->nr++] = (struct scan_work){dir, fd};
		pthread_cond_signal(&shared->cond);
		pthread_mutex_unlock(&shared->lock);
		return;
	}
	pthread_mutex_unlock(&shared->lock);
	read_children(sc, dir, fd);
}

/* Takes work until the stack is empty and no thread can push more. */
static void *scan_thread(void *arg)
{
	struct scanner *sc = arg;
	struct scan_shared *shared = sc->shared;

	pthread_mutex_lock(&shared->lock);
	for (;;) {
		if (shared->nr) {
			struct scan_work work = shared->stack[--shared->nr];

			shared->busy++;
			pthread_mutex_unlock(&shared->lock);
			read_children(sc, work.dir, work.fd);
			pthread_mutex_lock(&shared->lock);
			if (!--shared->busy && !shared->nr)
				pthread_cond_broadcast(&shared->cond);
			continue;
		}
		if (!shared->busy)
			break;
		pthread_cond_wait(&shared->cond, &shared->lock);
	}
	pthread_mutex_unlock(&shared->lock);
	return NULL;
}

static void scanner_release(struct scanner *sc, struct v2scan *scan)
{
	/* The arena outlives the thread: the scan's directories live in it. */
	while (sc->arena) {
		struct v2scan_arena *chunk = sc->arena;

		sc->arena = chunk->next;
		chunk->next = scan->arenas;
		scan->arenas = chunk;
	}
	strbuf_release(&sc->names);
	strbuf_release(&sc->value);
	free(sc->dents);
}

/* The second thread, with every signal blocked: the daemon's handlers run on its own. */
static bool helper_start(pthread_t *thread, struct scanner *sc)
{
	sigset_t all, old;
	bool started;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	started = pthread_create(thread, NULL, scan_thread, sc) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

int v2scan_read(int base_fd, v2scan_wants_value *wants_value, struct v2scan *scan)
{
	struct scan_shared shared = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
		.wants_value = wants_value,
	};
	struct scanner sc[2] = {{.shared = &shared}, {.shared = &shared}};
	pthread_t helper;
	bool helped = false;
	struct statx stx;
	int r = 0, fd;

	*scan = (struct v2scan){.base = {.name = "", .may_have_children = true}};
	if (statx(base_fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (stx.stx_mask & STATX_MNT_ID)
		shared.mnt_id = stx.stx_mnt_id;
	for (unsigned int i = 0; i < ARRAY_SIZE(sc); i++)
		if (!(sc[i].dents = malloc(SCAN_DENTS_SIZE)))
			r = -ENOMEM;
	if (r == 0 && (scan->base.err = read_records(&sc[0], base_fd, "", &scan->base)) == 0) {
		/* The base too gets a file of its own: its listing's offset is not base_fd's. */
		if ((fd = v2_open_dir(base_fd, "")) < 0)
			scan->base.children_err = fd;
		else
			scan_dir(&sc[0], &scan->base, fd);
		helped = helper_start(&helper, &sc[1]);
		scan_thread(&sc[0]);
		if (helped)
			pthread_join(helper, NULL);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(sc); i++)
		scanner_release(&sc[i], scan);
	return r;
}

void v2scan_free(struct v2scan *scan)
{
	arenas_free(scan->arenas);
	scan->arenas = NULL;
}
