/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A string-keyed hash map of pointers. A scan of 100,000 groups and a log of
 * a million lines look things up by path, pid and program: a list would
 * make them quadratic.
 */
#ifndef CGX_MIGRATE_STRMAP_H
#define CGX_MIGRATE_STRMAP_H

#include <stddef.h>

struct strmap_slot {
	char *key;
	void *value;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap; /* a power of two, or 0 */
	size_t nr;
};

#define STRMAP_INIT                                                                                \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Adds or replaces @key (copied); -ENOMEM. */
int strmap_put(struct strmap *map, const char *key, void *value);
/* The value of @key, or NULL. */
void *strmap_get(const struct strmap *map, const char *key);
/* Frees the keys, and each value with @free_value unless it is NULL. */
void strmap_release(struct strmap *map, void (*free_value)(void *));

#endif
