// SPDX-License-Identifier: GPL-2.0-or-later
/* Directory order of kernfs; see dir_order.h. */
#include "dir_order.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN_RATIO_64 0x61C8864680B583EBull

/*
 * init_name_hash(NULL), partial_name_hash() per byte, end_name_hash() as
 * hash_64(.., 32) on a 64-bit kernel, then kernfs keeps 31 bits and
 * reserves 0, 1 and INT_MAX. Bytes are signed as char is on x86.
 */
unsigned int kernfs_name_hash(const char *name)
{
	uint64_t hash = 0;
	unsigned int folded;

	for (const char *p = name; *p; p++) {
		uint64_t c = (uint64_t)(int64_t)(signed char)*p;

		hash = (hash + (c << 4) + (c >> 4)) * 11;
	}
	folded = (unsigned int)((hash * GOLDEN_RATIO_64) >> 32) & 0x7fffffffU;
	if (folded < 2)
		folded += 2;
	if (folded >= INT_MAX)
		folded = INT_MAX - 1;
	return folded;
}

static int dir_entry_compare(const void *a, const void *b)
{
	const struct dir_entry *left = a, *right = b;

	if (left->hash != right->hash)
		return left->hash < right->hash ? -1 : 1;
	return strcmp(left->name, right->name);
}

void dir_entries_sort(struct dir_entry *entries, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		entries[i].hash = kernfs_name_hash(entries[i].name);
	qsort(entries, nr, sizeof(*entries), dir_entry_compare);
}
