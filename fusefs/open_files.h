/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open files of the view, found by the file handle the kernel keeps. A
 * handle carries what a restarted daemon needs (the opener's uid and whether
 * it held CAP_SYS_ADMIN); the table only caches a read's content, so a handle
 * the kernel got from an earlier daemon on the same connection is taken up
 * where it is first used.
 */
#ifndef CGXFS_OPEN_FILES_H
#define CGXFS_OPEN_FILES_H

#include "cgx.h"

#include <fuse_lowlevel.h>

struct open_file {
	uint64_t fh;
	fuse_ino_t ino;
	struct cgx_caller opener;    /* v1 checks a move with the credentials of the open */
	struct proc_fs_creds *creds; /* what opener.creds points to, owned */
	struct strbuf content;	     /* generated at a read from offset 0, as seq_file does */
	int content_error;
	struct open_file *next;
};

#define OPEN_FILES_BUCKETS 256

struct open_files {
	struct open_file *bucket[OPEN_FILES_BUCKETS];
	uint32_t next_serial;
};

void open_files_init(struct open_files *files);
void open_files_release(struct open_files *files);
/* A new open file of @opener on @ino, its handle set, owning @creds; NULL on ENOMEM. */
struct open_file *open_files_add(struct open_files *files, fuse_ino_t ino,
				 const struct cgx_caller *opener, struct proc_fs_creds *creds);
/*
 * The open file of handle @fh on @ino. One of an earlier daemon is made on
 * first use, its opener the uid in the handle with @user's task and gid.
 */
struct open_file *open_files_get(struct open_files *files, uint64_t fh, fuse_ino_t ino,
				 const struct cgx_caller *user);
void open_files_remove(struct open_files *files, uint64_t fh, fuse_ino_t ino);

#endif
