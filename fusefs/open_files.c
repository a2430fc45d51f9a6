// SPDX-License-Identifier: GPL-2.0-or-later
#include "open_files.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/*
 * fh = opener uid << 32 | serial << 1 | admin_at_open. The serial starts at
 * random so that a handle of this daemon rarely equals one the kernel still
 * holds from an earlier daemon; when it does on the same inode, both files
 * share the content cache, which holds a read of that same file either way.
 */
static uint32_t fh_uid(uint64_t fh)
{
	return (uint32_t)(fh >> 32);
}

static bool fh_admin_at_open(uint64_t fh)
{
	return fh & 1;
}

static struct open_file **bucket_of(struct open_files *files, uint64_t fh)
{
	return &files->bucket[(fh * 0x9E3779B97F4A7C15ULL) >> 56];
}

void open_files_init(struct open_files *files)
{
	memset(files, 0, sizeof(*files));
	if (getrandom(&files->next_serial, sizeof(files->next_serial), GRND_NONBLOCK) < 0)
		files->next_serial = (uint32_t)getpid() << 16;
}

static void open_file_free(struct open_file *file)
{
	strbuf_release(&file->content);
	free(file->creds);
	free(file);
}

void open_files_release(struct open_files *files)
{
	for (unsigned int b = 0; b < OPEN_FILES_BUCKETS; b++) {
		for (struct open_file *file = files->bucket[b], *next; file; file = next) {
			next = file->next;
			open_file_free(file);
		}
	}
	memset(files->bucket, 0, sizeof(files->bucket));
}

static struct open_file *insert(struct open_files *files, uint64_t fh, fuse_ino_t ino,
				const struct cgx_caller *opener)
{
	struct open_file *file = calloc(1, sizeof(*file));
	struct open_file **bucket = bucket_of(files, fh);

	if (!file)
		return NULL;
	file->fh = fh;
	file->ino = ino;
	file->opener = *opener;
	file->next = *bucket;
	*bucket = file;
	return file;
}

struct open_file *open_files_add(struct open_files *files, fuse_ino_t ino,
				 const struct cgx_caller *opener, struct proc_fs_creds *creds)
{
	uint32_t serial = files->next_serial++ << 1 | opener->admin_at_open;
	uint64_t fh = (uint64_t)opener->uid << 32 | serial;
	struct open_file *file = insert(files, fh, ino, opener);

	if (!file) {
		free(creds);
		return NULL;
	}
	file->creds = creds;
	file->opener.creds = creds;
	return file;
}

static struct open_file **find(struct open_files *files, uint64_t fh, fuse_ino_t ino)
{
	struct open_file **link = bucket_of(files, fh);

	while (*link && ((*link)->fh != fh || (*link)->ino != ino))
		link = &(*link)->next;
	return link;
}

struct open_file *open_files_get(struct open_files *files, uint64_t fh, fuse_ino_t ino,
				 const struct cgx_caller *user)
{
	struct open_file **link = find(files, fh, ino);
	/* Its groups and capabilities went with the earlier daemon: none count (creds NULL). */
	struct cgx_caller opener = {user->tid, fh_uid(fh), user->gid, fh_admin_at_open(fh), NULL};

	if (*link)
		return *link;
	return insert(files, fh, ino, &opener);
}

void open_files_remove(struct open_files *files, uint64_t fh, fuse_ino_t ino)
{
	struct open_file **link = find(files, fh, ino);
	struct open_file *file = *link;

	if (!file)
		return;
	*link = file->next;
	open_file_free(file);
}
