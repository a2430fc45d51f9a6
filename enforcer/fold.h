/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folding: where the processes of a membership tuple live in the one v2 tree
 * (docs/design.md §3, rules 1-4). Pure functions of the mirror; no system calls.
 */
#ifndef CGX_FOLD_H
#define CGX_FOLD_H

#include "tree.h"

struct fold_target {
	/* Exact: the group directory itself, or its CGX_TASKS_LEAF child when it is inner. */
	bool exact;
	/* The directory the leaf is, or is a child of. */
	struct v2_dir *dir;
	/* The leaf's own name under @dir; "" when the leaf is @dir itself. */
	char leaf_name[256];
};

/* The group of hierarchy @h that @dir belongs to: @dir or its nearest ancestor in @h. */
struct v2_dir *fold_group_of(const struct v2_dir *dir, unsigned int h);

/*
 * A tuple is exact at the v2 directory P when, in every hierarchy, its group
 * is the deepest group of that hierarchy on P's path: then P's ancestors carry
 * the settings of exactly the tuple's groups, and nothing else. The common
 * case (the same path in every hierarchy) is exact, and P is that path.
 * Otherwise the leaf nests under the tuple's first group, in primary order,
 * whose directory carries no group the process is not in (else the base), and is
 * named from the coordinates that differ.
 */
int fold_tuple(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
	       const struct tuple *tuple, struct fold_target *target);

/* True when @dir holds other directories than its own tasks leaf (docs/design.md §3, rule 4). */
bool fold_dir_is_inner(const struct v2_dir *dir);

/*
 * "cpu,cpuacct:/a\nmemory:/b\n": non-root coordinates, as stored in trusted.cgx.tuple;
 * -ENAMETOOLONG past @size. The store takes what an xattr holds (XATTR_SIZE_MAX):
 * each path is below PATH_MAX, so only a process in many groups with paths of
 * kilobytes at once has a tuple that cannot be kept (its move is refused).
 */
#define FOLD_TUPLE_TEXT_MAX 65536
/*
 * The hashed leaf name of @tuple, "@~" and the FNV-1a of its canonical text
 * (fold_tuple_format()): the name of a leaf whose legible name is too long
 * or taken. One rule, so that a restarted daemon and cgx-migrate name the
 * same leaf alike.
 */
int fold_hashed_leaf_name(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
			  const struct tuple *tuple, char *name, size_t size);
int fold_tuple_format(const struct v2_tree *tree, const struct cgx_hier_set *hiers,
		      const struct tuple *tuple, char *buf, size_t size);
/* The inverse; -EINVAL for a malformed line, -ENOENT for a group that does not exist. */
int fold_tuple_parse(const struct v2_tree *tree, const struct cgx_hier_set *hiers, const char *text,
		     struct tuple *tuple);

/* The v2 directory of v1 path @path ("/a/b") in hierarchy @h, or NULL. */
struct v2_dir *fold_lookup_group(const struct v2_tree *tree, unsigned int h, const char *path);

#endif
