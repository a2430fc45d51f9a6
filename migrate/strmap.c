// SPDX-License-Identifier: GPL-2.0-or-later
#include "strmap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_key(const char *key)
{
	uint64_t hash = 0xcbf29ce484222325ULL;

	for (; *key; key++)
		hash = (hash ^ (unsigned char)*key) * 0x100000001b3ULL;
	return hash;
}

static struct strmap_slot *find_slot(struct strmap_slot *slots, size_t cap, const char *key)
{
	size_t i = hash_key(key) & (cap - 1);

	while (slots[i].key && strcmp(slots[i].key, key))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

/* Kept at most half full, so that linear probing stays short. */
static int grow(struct strmap *map)
{
	size_t cap = map->cap ? map->cap * 2 : 64;
	struct strmap_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < map->cap; i++)
		if (map->slots[i].key)
			*find_slot(slots, cap, map->slots[i].key) = map->slots[i];
	free(map->slots);
	map->slots = slots;
	map->cap = cap;
	return 0;
}

int strmap_put(struct strmap *map, const char *key, void *value)
{
	struct strmap_slot *slot;
	int r;

	if ((map->nr + 1) * 2 > map->cap && (r = grow(map)) < 0)
		return r;
	slot = find_slot(map->slots, map->cap, key);
	if (!slot->key) {
		if (!(slot->key = strdup(key)))
			return -ENOMEM;
		map->nr++;
	}
	slot->value = value;
	return 0;
}

void *strmap_get(const struct strmap *map, const char *key)
{
	if (!map->cap)
		return NULL;
	return find_slot(map->slots, map->cap, key)->value;
}

void strmap_release(struct strmap *map, void (*free_value)(void *))
{
	for (size_t i = 0; i < map->cap; i++) {
		if (!map->slots[i].key)
			continue;
		if (free_value)
			free_value(map->slots[i].value);
		free(map->slots[i].key);
	}
	free(map->slots);
	map->slots = NULL;
	map->cap = map->nr = 0;
}
