// SPDX-License-Identifier: GPL-2.0-or-later
#include "fold.h"

#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Long enough to read, short enough to leave room for a hash within NAME_MAX. */
#define LEGIBLE_NAME_MAX 200

struct v2_dir *fold_group_of(const struct v2_dir *dir, unsigned int h)
{
	while (dir->parent && !dir->group[h])
		dir = dir->parent;
	return (struct v2_dir *)dir;
}

bool fold_dir_is_inner(const struct v2_dir *dir)
{
	v2_dir_for_each_child (child, dir)
		if (strcmp(child->name, CGX_TASKS_LEAF))
			return true;
	return false;
}

static bool tuple_exact_at(const struct v2_tree *tree, const struct tuple *tuple,
			   const struct v2_dir *dir)
{
	for (unsigned int h = 0; h < tree->nr_hier; h++)
		if (tuple->coord[h] != fold_group_of(dir, h))
			return false;
	return true;
}

/* "a:b" for the v1 path /a/b, "." for the root: legible, not meant to be parsed back. */
static void legible_path(const struct v2_dir *group, char *buf, size_t size)
{
	char path[4096];

	if (tree_path(group, true, path, sizeof(path)) < 0 || !strcmp(path, "/")) {
		snprintf(buf, size, "%s", group->parent ? "~" : ".");
		return;
	}
	for (char *c = path; *c; c++)
		if (*c == '/')
			*c = ':';
	/* Cut to fit: the name is for reading, and a long one falls back to a hash anyway. */
	size_t len = strnlen(path + 1, size - 1);
	memcpy(buf, path + 1, len);
	buf[len] = '\0';
}

int fold_hashed_leaf_name(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
			  const struct tuple *tuple, char *name, size_t size)
{
	_cleanup_free_ char *canonical = malloc(FOLD_TUPLE_TEXT_MAX);
	int r;

	if (!canonical)
		return -ENOMEM;
	if ((r = fold_tuple_format(tree, hiers, tuple, canonical, FOLD_TUPLE_TEXT_MAX)) < 0)
		return r;
	snprintf(name, size, "@~%016" PRIx64, fnv1a(canonical));
	return 0;
}

static int divergent_leaf_name(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
			       const struct tuple *tuple, unsigned int primary,
			       struct fold_target *target)
{
	char legible[4096] = "@", part[1024];
	size_t used = 1;

	for (unsigned int i = 0; i < hiers->nr; i++) {
		unsigned int h = hiers->primary_order[i];
		struct v2_dir *implied = fold_group_of(target->dir, h);
		int w;

		if (h == primary || tuple->coord[h] == implied)
			continue;
		legible_path(tuple->coord[h], part, sizeof(part));
		w = snprintf(legible + used, sizeof(legible) - used, "%s%s=%s", used > 1 ? ";" : "",
			     hiers->hier[h].short_name, part);
		if (w < 0 || (size_t)w >= sizeof(legible) - used) {
			used = sizeof(legible);
			break;
		}
		used += w;
	}
	if (used > LEGIBLE_NAME_MAX)
		return fold_hashed_leaf_name(tree, hiers, tuple, target->leaf_name,
					     sizeof(target->leaf_name));
	memcpy(target->leaf_name, legible, used + 1);
	return 0;
}

/*
 * Whether @dir can hold a leaf of @tuple: every group its path carries is one
 * of the tuple's groups or an ancestor of one (whose limits a v1 member was
 * under too), never a group the process is not in.
 */
static bool can_hold(const struct v2_tree *tree, const struct tuple *tuple,
		     const struct v2_dir *dir)
{
	for (unsigned int h = 0; h < tree->nr_hier; h++)
		if (!tree_is_ancestor(fold_group_of(dir, h), tuple->coord[h]))
			return false;
	return true;
}

int fold_tuple(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
	       const struct tuple *tuple, struct fold_target *target)
{
	struct v2_dir *deepest = tree->base;
	unsigned int primary = hiers->primary_order[0];

	memset(target, 0, sizeof(*target));
	for (unsigned int h = 0; h < tree->nr_hier; h++)
		if (tree_depth(tuple->coord[h]) > tree_depth(deepest))
			deepest = tuple->coord[h];

	if (tuple_exact_at(tree, tuple, deepest)) {
		target->exact = true;
		target->dir = deepest;
		/* The base never holds processes itself: its parent delegates controllers to it. */
		if (fold_dir_is_inner(deepest) || !deepest->parent)
			snprintf(target->leaf_name, sizeof(target->leaf_name), "%s",
				 CGX_TASKS_LEAF);
		return 0;
	}
	/*
	 * The primary group is the tuple's first non-root group, in primary
	 * order, that can hold it: a process in a cpu group and no memory group
	 * nests under the cpu group, whose weight and quota then cover it. The
	 * base holds what no group can.
	 */
	target->dir = tree->base;
	primary = CGX_MAX_HIER;
	for (unsigned int i = 0; i < hiers->nr; i++) {
		unsigned int h = hiers->primary_order[i];

		if (tuple->coord[h] != tree->base && can_hold(tree, tuple, tuple->coord[h])) {
			primary = h;
			target->dir = tuple->coord[h];
			break;
		}
	}
	return divergent_leaf_name(tree, hiers, tuple, primary, target);
}

int fold_tuple_format(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
		      const struct tuple *tuple, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int h = 0; h < tree->nr_hier; h++) {
		char path[4096];
		int w, r;

		if (tuple->coord[h] == tree->base)
			continue;
		if ((r = tree_path(tuple->coord[h], true, path, sizeof(path))) < 0)
			return r;
		w = snprintf(buf + used, size - used, "%s:%s\n", hiers->hier[h].proc_name, path);
		if (w < 0 || (size_t)w >= size - used)
			return -ENAMETOOLONG;
		used += w;
	}
	return 0;
}

struct v2_dir *fold_lookup_group(const struct v2_tree *tree, unsigned int h, const char *path)
{
	struct v2_dir *dir = tree->base;

	while (*path) {
		_cleanup_free_ char *name = NULL;
		size_t len;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		len = strcspn(path, "/");
		/* kernfs takes a name of any length: so does the path of a group. */
		if (!(name = strndup(path, len)))
			return NULL;
		dir = tree_child_named(tree, dir, name);
		if (!dir || !dir->group[h])
			return NULL;
		path += len;
	}
	return dir;
}

int fold_tuple_parse(const struct v2_tree *tree, const struct cgx_hier_set *hiers, const char *text,
		     struct tuple *tuple)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		tuple->coord[h] = tree->base;

	while (*text) {
		size_t len = strcspn(text, "\n");
		_cleanup_free_ char *line = strndup(text, len);
		struct v2_dir *group;
		char *colon;
		int h;

		if (!line)
			return -ENOMEM;
		if (len == 0)
			return -EINVAL;
		colon = strchr(line, ':');
		if (!colon || colon[1] != '/')
			return -EINVAL;
		*colon = '\0';
		if ((h = hier_set_find(hiers, line)) < 0)
			return -ENOENT;
		if (!(group = fold_lookup_group(tree, h, colon + 1)))
			return -ENOENT;
		tuple->coord[h] = group;
		text += len + (text[len] == '\n');
	}
	return 0;
}
