// SPDX-License-Identifier: GPL-2.0-or-later
#include "tree.h"

#include "util.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* "@@~" is no escape of a v1 name: "@@" goes only before '@' and the prefixes below. */
#define HASHED_PREFIX "@@~"

/* v2 interface files are named "<controller or cgroup>.<knob>": such names cannot be groups. */
static const char *const v2_file_prefixes[] = {
	"cgroup.",  "cpu.",  "cpuset.", "io.",	 "memory.",
	"hugetlb.", "pids.", "rdma.",	"misc.", "irq.",
};

static unsigned int id_bucket(const struct v2_tree *tree, uint64_t id)
{
	return (unsigned int)((id * 0x9E3779B97F4A7C15ULL) >> 40) & (tree->nr_id_buckets - 1);
}

static int tree_grow_ids(struct v2_tree *tree)
{
	unsigned int nr = tree->nr_id_buckets ? tree->nr_id_buckets * 2 : 1024;
	struct v1_group **buckets = calloc(nr, sizeof(*buckets));
	struct v1_group **old = tree->id_buckets;
	unsigned int old_nr = tree->nr_id_buckets;

	if (!buckets)
		return -ENOMEM;
	tree->id_buckets = buckets;
	tree->nr_id_buckets = nr;
	for (unsigned int i = 0; i < old_nr; i++) {
		for (struct v1_group *group = old[i], *next; group; group = next) {
			unsigned int b = id_bucket(tree, group->id);

			next = group->id_next;
			group->id_next = buckets[b];
			buckets[b] = group;
		}
	}
	free(old);
	return 0;
}

static int tree_new_dir(struct v2_tree *tree, const char *v2_name, struct v2_dir **out)
{
	struct v2_dir *dir = calloc(1, sizeof(*dir));

	if (!dir || !(dir->name = strdup(v2_name))) {
		free(dir);
		return -ENOMEM;
	}
	dir->created = time(NULL);
	dir->may_be_frozen = dir->may_filter_devices = dir->may_classify_packets = true;
	dir->serial = ++tree->next_serial;
	tree->nr_dirs++;
	*out = dir;
	return 0;
}

static unsigned int name_bucket(const struct v2_tree *tree, const struct v2_dir *parent,
				const char *name)
{
	uint64_t h = fnv1a(name) ^ ((uintptr_t)parent * 0x9E3779B97F4A7C15ULL);

	return (unsigned int)(h ^ (h >> 29)) & (tree->nr_name_buckets - 1);
}

static void name_index_add(struct v2_tree *tree, struct v2_dir *dir)
{
	unsigned int b = name_bucket(tree, dir->parent, dir->name);

	dir->name_next = tree->name_buckets[b];
	tree->name_buckets[b] = dir;
	if (dir->v1_name) {
		b = name_bucket(tree, dir->parent, dir->v1_name);
		dir->v1_name_next = tree->v1_name_buckets[b];
		tree->v1_name_buckets[b] = dir;
	}
}

static void unlink_from(struct v2_dir **link, struct v2_dir *dir, bool v1)
{
	while (*link && *link != dir)
		link = v1 ? &(*link)->v1_name_next : &(*link)->name_next;
	if (*link)
		*link = v1 ? dir->v1_name_next : dir->name_next;
}

static void name_index_remove(struct v2_tree *tree, struct v2_dir *dir)
{
	if (!tree->nr_name_buckets || !dir->parent)
		return;
	unlink_from(&tree->name_buckets[name_bucket(tree, dir->parent, dir->name)], dir, false);
	if (dir->v1_name)
		unlink_from(&tree->v1_name_buckets[name_bucket(tree, dir->parent, dir->v1_name)],
			    dir, true);
	dir->name_next = dir->v1_name_next = NULL;
}

static void name_index_add_subtree(struct v2_tree *tree, struct v2_dir *dir)
{
	v2_dir_for_each_child (child, dir) {
		name_index_add(tree, child);
		name_index_add_subtree(tree, child);
	}
}

/* Doubled when the directories outnumber the buckets, as the id index is. */
static int tree_grow_names(struct v2_tree *tree)
{
	unsigned int nr = tree->nr_name_buckets ? tree->nr_name_buckets * 2 : 1024;
	struct v2_dir **names = calloc(nr, sizeof(*names));
	struct v2_dir **v1_names = calloc(nr, sizeof(*v1_names));

	if (!names || !v1_names) {
		free(names);
		free(v1_names);
		return -ENOMEM;
	}
	free(tree->name_buckets);
	free(tree->v1_name_buckets);
	tree->name_buckets = names;
	tree->v1_name_buckets = v1_names;
	tree->nr_name_buckets = nr;
	name_index_add_subtree(tree, tree->base);
	return 0;
}

int tree_attach_group(struct v2_tree *tree, struct v2_dir *dir, unsigned int hier,
		      struct v1_group *group)
{
	int r;

	if (!group->id)
		group->id = tree->next_id;
	/* A new group, or one loaded with the id it was stored with: indexed under it. */
	if (tree_group_by_id(tree, group->id) != group) {
		unsigned int b;

		if (tree->nr_groups + 1 > tree->nr_id_buckets && (r = tree_grow_ids(tree)) < 0)
			return r;
		b = id_bucket(tree, group->id);
		group->id_next = tree->id_buckets[b];
		tree->id_buckets[b] = group;
		tree->nr_groups++;
		if (group->id >= tree->next_id)
			tree->next_id = group->id + 1;
	}
	if (!dir->group[hier] && dir->parent)
		dir->parent->nr_group_children[hier]++;
	group->dir = dir;
	group->hier = hier;
	dir->group[hier] = group;
	return 0;
}

struct v1_group *tree_detach_group(struct v2_dir *dir, unsigned int hier)
{
	struct v1_group *group = dir->group[hier];

	dir->group[hier] = NULL;
	if (group)
		group->dir = NULL;
	if (group && dir->parent)
		dir->parent->nr_group_children[hier]--;
	return group;
}

/* A group never attached (as unit tests make them) is in no bucket: nothing to do. */
static void tree_unindex_group(struct v2_tree *tree, struct v1_group *group)
{
	struct v1_group **link;

	if (!tree->nr_id_buckets)
		return;
	link = &tree->id_buckets[id_bucket(tree, group->id)];
	while (*link && *link != group)
		link = &(*link)->id_next;
	if (!*link)
		return;
	*link = group->id_next;
	tree->nr_groups--;
}

void tree_drop_group(struct v2_tree *tree, struct v2_dir *dir, unsigned int hier)
{
	struct v1_group *group = tree_detach_group(dir, hier);

	if (!group)
		return;
	tree_unindex_group(tree, group);
	v1_group_free(group);
}

void tree_reindex_group(struct v2_tree *tree, struct v1_group *group, uint64_t id)
{
	tree_unindex_group(tree, group);
	group->id = id;
	/* Cannot fail: the bucket array held it a moment ago. */
	tree_attach_group(tree, group->dir, group->hier, group);
}

struct v1_group *tree_group_by_id(const struct v2_tree *tree, uint64_t id)
{
	if (!tree->nr_id_buckets)
		return NULL;
	for (struct v1_group *group = tree->id_buckets[id_bucket(tree, id)]; group;
	     group = group->id_next)
		if (group->id == id)
			return group;
	return NULL;
}

int tree_init(struct v2_tree *tree, unsigned int nr_hier)
{
	memset(tree, 0, sizeof(*tree));
	tree->next_id = 1;
	tree->nr_hier = nr_hier;
	return tree_new_dir(tree, "", &tree->base);
}

void v1_group_free(struct v1_group *group)
{
	if (!group)
		return;
	for (unsigned int i = 0; i < group->nr_values; i++)
		free(group->values[i]);
	free(group->values);
	free(group->file_attrs);
	free(group->xattrs);
	free(group);
}

static void tree_free_dir(struct v2_tree *tree, struct v2_dir *dir)
{
	tree->nr_dirs--;
	tree_clear_leaf(tree, dir);
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		tree_drop_group(tree, dir, h);
	free(dir->name);
	free(dir->v1_name);
	free(dir);
}

static void tree_free_subtree(struct v2_tree *tree, struct v2_dir *dir)
{
	while (dir->first_child) {
		struct v2_dir *child = dir->first_child;

		dir->first_child = child->next_sibling;
		child->parent = NULL; /* off every index: the whole tree goes */
		tree_free_subtree(tree, child);
	}
	tree_free_dir(tree, dir);
}

void tree_release(struct v2_tree *tree)
{
	if (tree->base)
		tree_free_subtree(tree, tree->base);
	free(tree->id_buckets);
	free(tree->name_buckets);
	free(tree->v1_name_buckets);
	memset(tree, 0, sizeof(*tree));
}

int tree_add_dir(struct v2_tree *tree, struct v2_dir *parent, const char *v2_name,
		 struct v2_dir **out)
{
	struct v2_dir *dir;
	int r;

	if (tree->nr_dirs + 1 > tree->nr_name_buckets && (r = tree_grow_names(tree)) < 0)
		return r;
	if ((r = tree_new_dir(tree, v2_name, &dir)) < 0)
		return r;
	dir->parent = parent;
	dir->next_sibling = parent->first_child;
	if (dir->next_sibling)
		dir->next_sibling->sibling_pprev = &dir->next_sibling;
	dir->sibling_pprev = &parent->first_child;
	parent->first_child = dir;
	parent->nr_children++;
	name_index_add(tree, dir);
	*out = dir;
	return 0;
}

void tree_dir_renew(struct v2_tree *tree, struct v2_dir *dir)
{
	dir->events_watched = false;
	dir->may_be_frozen = dir->may_filter_devices = dir->may_classify_packets = true;
	dir->serial = ++tree->next_serial;
	dir->ino = 0;
}

void tree_remove_dir(struct v2_tree *tree, struct v2_dir *dir)
{
	if (tree->cursor && tree_is_ancestor(dir, tree->cursor))
		tree->cursor = tree_preorder_next(dir, false);
	name_index_remove(tree, dir);
	*dir->sibling_pprev = dir->next_sibling;
	if (dir->next_sibling)
		dir->next_sibling->sibling_pprev = dir->sibling_pprev;
	dir->parent->nr_children--;
	tree_free_dir(tree, dir);
}

/*
 * No index yet means no directory was ever added below the base: tree_add_dir()
 * makes the index before the first one and indexes every one.
 */
static struct v2_dir *by_v2_name(const struct v2_tree *tree, const struct v2_dir *dir,
				 const char *v2_name)
{
	if (!tree->nr_name_buckets)
		return NULL;
	for (struct v2_dir *d = tree->name_buckets[name_bucket(tree, dir, v2_name)]; d;
	     d = d->name_next)
		if (d->parent == dir && !strcmp(d->name, v2_name))
			return d;
	return NULL;
}

struct v2_dir *tree_child(const struct v2_tree *tree, const struct v2_dir *dir, const char *v2_name)
{
	return by_v2_name(tree, dir, v2_name);
}

/*
 * The child whose tree_dir_v1_name() is @v1_name: one recorded under that
 * v1 name, or one without a record whose v2 name unescapes to it, which
 * only "@@" + name and (for a name not starting with '@') the name itself do.
 */
struct v2_dir *tree_child_named(const struct v2_tree *tree, const struct v2_dir *dir,
				const char *v1_name)
{
	char escaped[NAME_MAX + 3];
	struct v2_dir *child;

	if (!tree->nr_name_buckets)
		return NULL;
	for (child = tree->v1_name_buckets[name_bucket(tree, dir, v1_name)]; child;
	     child = child->v1_name_next)
		if (child->parent == dir && !strcmp(child->v1_name, v1_name))
			return child;
	if (v1_name[0] != '@' && (child = by_v2_name(tree, dir, v1_name)) && !child->v1_name)
		return child;
	if (strlen(v1_name) > NAME_MAX)
		return NULL;
	snprintf(escaped, sizeof(escaped), "@@%s", v1_name);
	if ((child = by_v2_name(tree, dir, escaped)) && !child->v1_name)
		return child;
	return NULL;
}

int tree_set_v1_name(struct v2_tree *tree, struct v2_dir *dir, const char *v1_name)
{
	char *copy = strdup(v1_name);

	if (!copy)
		return -ENOMEM;
	name_index_remove(tree, dir);
	free(dir->v1_name);
	dir->v1_name = copy;
	if (tree->nr_name_buckets && dir->parent)
		name_index_add(tree, dir);
	return 0;
}

int tree_set_leaf(struct v2_tree *tree, struct v2_dir *dir, const struct tuple *tuple)
{
	if (!dir->leaf_tuple) {
		dir->leaf_tuple = malloc(sizeof(*dir->leaf_tuple));
		if (!dir->leaf_tuple)
			return -ENOMEM;
		dir->leaf_next = tree->leaves;
		if (tree->leaves)
			tree->leaves->leaf_pprev = &dir->leaf_next;
		dir->leaf_pprev = &tree->leaves;
		tree->leaves = dir;
	}
	*dir->leaf_tuple = *tuple;
	dir->vacated = false;
	return 0;
}

void tree_clear_leaf(struct v2_tree *tree, struct v2_dir *dir)
{
	(void)tree;
	if (!dir->leaf_tuple)
		return;
	*dir->leaf_pprev = dir->leaf_next;
	if (dir->leaf_next)
		dir->leaf_next->leaf_pprev = dir->leaf_pprev;
	free(dir->leaf_tuple);
	dir->leaf_tuple = NULL;
	dir->vacated = false;
	dir->leaf_next = NULL;
	dir->leaf_pprev = NULL;
}

unsigned int tree_depth(const struct v2_dir *dir)
{
	unsigned int depth = 0;

	for (; dir->parent; dir = dir->parent)
		depth++;
	return depth;
}

bool tree_dir_has_past(const struct v2_tree *tree, const struct v2_dir *dir, unsigned int hier)
{
	for (unsigned int h = 0; h < tree->nr_hier; h++)
		if (h != hier && dir->group[h])
			return true;
	return dir->first_child || dir->leaf_tuple;
}

struct v2_dir *tree_preorder_next(const struct v2_dir *dir, bool descend)
{
	if (descend && dir->first_child)
		return dir->first_child;
	for (; dir->parent; dir = dir->parent)
		if (dir->next_sibling)
			return dir->next_sibling;
	return NULL;
}

struct v2_dir *tree_dir_at(const struct v2_tree *tree, const char *path)
{
	struct v2_dir *dir = tree->base;
	char name[NAME_MAX + 1];

	while (dir && *path) {
		size_t len = strcspn(path, "/");

		if (len > NAME_MAX)
			return NULL;
		memcpy(name, path, len);
		name[len] = '\0';
		dir = tree_child(tree, dir, name);
		path += len + (path[len] == '/');
	}
	return dir;
}

bool tree_is_ancestor(const struct v2_dir *ancestor, const struct v2_dir *dir)
{
	for (; dir; dir = dir->parent)
		if (dir == ancestor)
			return true;
	return false;
}

int tree_path(const struct v2_dir *dir, bool v1, char *buf, size_t size)
{
	const struct v2_dir *chain[256];
	unsigned int n = 0;
	size_t used = 0;

	for (; dir->parent; dir = dir->parent) {
		if (n == ARRAY_SIZE(chain))
			return -ENAMETOOLONG;
		chain[n++] = dir;
	}
	if (size < 2)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	if (v1 && n == 0) {
		strcpy(buf, "/");
		return 0;
	}
	while (n--) {
		const char *name = chain[n]->name;
		int w;

		if (v1)
			name = tree_dir_v1_name(chain[n]) ? tree_dir_v1_name(chain[n]) : name;
		w = snprintf(buf + used, size - used, "%s%s", (v1 || used) ? "/" : "", name);
		if (w < 0 || (size_t)w >= size - used)
			return -ENAMETOOLONG;
		used += w;
	}
	return 0;
}

bool tree_is_cgx_leaf_name(const char *v2_name)
{
	return v2_name[0] == '@' && v2_name[1] != '@';
}

bool tree_is_hashed_name(const char *v2_name)
{
	return !strncmp(v2_name, HASHED_PREFIX, strlen(HASHED_PREFIX));
}

int tree_escape_name_attempt(const char *v1_name, unsigned int attempt, char *v2_name, size_t size)
{
	bool escape = v1_name[0] == '@';
	int w;

	for (size_t i = 0; !escape && i < ARRAY_SIZE(v2_file_prefixes); i++)
		escape = !strncmp(v1_name, v2_file_prefixes[i], strlen(v2_file_prefixes[i]));
	if (!attempt && strlen(v1_name) + (escape ? 2 : 0) <= NAME_MAX) {
		w = snprintf(v2_name, size, "%s%s", escape ? "@@" : "", v1_name);
		return w < 0 || (size_t)w >= size ? -ENAMETOOLONG : 0;
	}
	/* The attempt is a suffix, so that the first hashed name is the one cgx-migrate predicts.
	 */
	w = snprintf(v2_name, size, HASHED_PREFIX "%016" PRIx64, fnv1a(v1_name));
	if (w > 0 && (size_t)w < size && attempt)
		w = snprintf(v2_name + w, size - w, "-%u", attempt) + w;
	return w < 0 || (size_t)w >= size ? -ENAMETOOLONG : 1;
}

int tree_escape_name(const char *v1_name, char *v2_name, size_t size)
{
	return tree_escape_name_attempt(v1_name, 0, v2_name, size);
}

const char *tree_unescape_name(const char *v2_name)
{
	if (tree_is_cgx_leaf_name(v2_name))
		return NULL;
	return v2_name[0] == '@' ? v2_name + 2 : v2_name;
}

const char *tree_dir_v1_name(const struct v2_dir *dir)
{
	return dir->v1_name ? dir->v1_name : tree_unescape_name(dir->name);
}

bool tuple_equal(const struct tuple *a, const struct tuple *b, unsigned int nr_hier)
{
	for (unsigned int h = 0; h < nr_hier; h++)
		if (a->coord[h] != b->coord[h])
			return false;
	return true;
}

bool tuple_is_root(const struct tuple *t, const struct v2_tree *tree)
{
	for (unsigned int h = 0; h < tree->nr_hier; h++)
		if (t->coord[h] != tree->base)
			return false;
	return true;
}

bool tree_leaf_outside(const struct v2_dir *leaf, const struct v2_dir *group, unsigned int hier)
{
	return tree_is_ancestor(group, leaf->leaf_tuple->coord[hier]) &&
	       !tree_is_ancestor(group, leaf);
}

bool cgx_is_group(const struct v2_dir *dir, unsigned int hier)
{
	return dir->group[hier] != NULL;
}

struct v2_dir *cgx_group_next_child(struct v2_dir *parent, unsigned int hier, struct v2_dir *prev)
{
	struct v2_dir *dir = prev ? prev->next_sibling : parent->first_child;

	while (dir && !dir->group[hier])
		dir = dir->next_sibling;
	return dir;
}

unsigned int cgx_group_nr_children(const struct v2_dir *dir, unsigned int hier)
{
	return dir->nr_group_children[hier];
}
