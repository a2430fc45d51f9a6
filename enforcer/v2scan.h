/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system calls of a start, apart from the model: the directories below
 * the base and their trusted.cgx.* records, read on two threads into plain
 * buffers that state_load() turns into the mirror on its own thread
 * meanwhile, in the order and with the checks of a load that read as it
 * went, waiting for a directory's subdirectories where it overtakes them.
 */
#ifndef CGX_V2SCAN_H
#define CGX_V2SCAN_H

#include "util.h"

#include <stdint.h>

/* One record of a directory: its value when the load needs it. */
struct v2scan_record {
	const char *name;
	const char *value; /* NULL: not read, the load counts it by its name */
	int err;	   /* reading the value failed: what the load returns there */
};

struct v2scan_dir {
	const char *name; /* the v2 name, "" for the base */
	/*
	 * What the load meets before this directory enters the mirror (its
	 * statx, its listing of records): -ENOENT, gone meanwhile and skipped.
	 */
	int err;
	bool may_have_children; /* its link count says it has subdirectories */
	int64_t created;	/* its ctime, seconds */
	uint64_t ino;		/* its inode (v2_dir.ino) */
	struct v2scan_record *records;
	unsigned int nr_records;
	/* Only once v2scan_wait() returned, unless may_have_children is false: */
	int children_err; /* opening or listing it for its subdirectories failed */
	struct v2scan_dir *children;
	unsigned int nr_children;

	/* The scan's own. */
	const char *path;	 /* beneath the base, of one that may have children */
	struct v2scan_dir *next; /* on the stack of directories to read */
	bool ready;		 /* its subdirectories are read */
};

/* Says whether the load needs the value of record @name of the directory @dir_name. */
typedef bool v2scan_wants_value(const char *dir_name, const char *name);

struct v2scan_shared;

struct v2scan {
	struct v2scan_dir base;
	struct v2scan_shared *shared; /* the threads, their buffers */
};

/*
 * Reads the records of the base @base_fd, then starts reading the tree below
 * it (never leaving its mount) into @scan. Errors met on the way are kept
 * where the load meets them; the return is the base's own (its statx, an
 * allocation, no thread to read). v2scan_end() in every case.
 */
int v2scan_start(int base_fd, v2scan_wants_value *wants_value, struct v2scan *scan);
/* Until @dir's subdirectories, their statx and their records are read. */
void v2scan_wait(struct v2scan *scan, const struct v2scan_dir *dir);
/* Stops what is left to read, waits for the threads and frees every buffer. */
void v2scan_end(struct v2scan *scan);

#endif
