/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The order kernfs lists a directory in: by a hash of the name, then by
 * name (kernfs_sd_compare() with no namespace). cgroupfs is kernfs, and
 * programs notice the order: libcgroup's cgget -g keeps the status of the
 * last file it saw in a group and fails when that is "tasks".
 */
#ifndef CGXFS_DIR_ORDER_H
#define CGXFS_DIR_ORDER_H

#include "inode.h"

#include <stddef.h>

struct dir_entry {
	unsigned int hash;
	const char *name;
	struct node node;
};

unsigned int kernfs_name_hash(const char *name);
/* Fills in each entry's hash from its name and sorts them as kernfs lists them. */
void dir_entries_sort(struct dir_entry *entries, size_t nr);

#endif
