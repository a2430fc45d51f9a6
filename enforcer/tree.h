/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's mirror of the v2 tree it manages under its base directory.
 *
 * One v2 directory serves every hierarchy that has a v1 group at the same
 * path (docs/design.md §3, rule 2): v1 group (h, P) exists exactly when the v2
 * directory base/P carries a v1_group for h. Leaves are the v2 directories
 * that hold processes; each records its membership tuple. Everything here is
 * rebuilt from the kernel's tree and its trusted.cgx.* xattrs at start-up.
 */
#ifndef CGX_TREE_H
#define CGX_TREE_H

#include "hierarchy.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct v1_xattrs;

/* chmod/chown of one file of a group, which v1 keeps per file. */
struct v1_file_attr {
	unsigned int file;
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

/* What hierarchy h keeps for its group at one v2 directory. */
struct v1_group {
	/*
	 * Stable for the group's life, also across a rename that moves it to
	 * another v2 directory: the basis of its inode numbers.
	 */
	uint64_t id;
	/* Loaded from a record without an id, or made at load: state.c stores one. */
	bool id_unsaved;
	struct v1_group *id_next;
	struct v2_dir *dir;
	unsigned int hier;
	uid_t uid; /* the group directory's owner and mode */
	gid_t gid;
	mode_t mode;
	uid_t creator_uid; /* files belong to whoever made the group */
	gid_t creator_gid;
	struct v1_file_attr *file_attrs;
	unsigned int nr_file_attrs;
	/* Bit k: limit kind k of aggregate.c is split over outside leaves (not exact). */
	unsigned int limit_enforced;
	/* Held a task or a child since its release agent last ran (release.c). */
	bool release_armed;
	/* Text a v1 read returns, per file index of the hierarchy; NULL = default. */
	char **values;
	unsigned int nr_values;
	/* Extended attributes kept, per inode: [0] the directory, [1 + file] (xattr.c). */
	struct v1_xattrs *xattrs;
};

/* A membership tuple: the v1 group of a process in every hierarchy. */
struct tuple {
	struct v2_dir *coord[CGX_MAX_HIER];
};

struct v2_dir {
	char *name; /* the v2 name, escaped (tree_escape_name) */
	/* The v1 name when the v2 name is a hash of it (trusted.cgx.name), else NULL. */
	char *v1_name;
	struct v2_dir *parent;
	struct v2_dir *first_child;
	struct v2_dir *next_sibling, **sibling_pprev;
	unsigned int nr_children;
	/* Children that are groups of hierarchy h: st_nlink and rmdir ask for it on every call. */
	unsigned int nr_group_children[CGX_MAX_HIER];
	/* Chains of the tree's name indexes: by v2 name, and by recorded v1 name. */
	struct v2_dir *name_next, *v1_name_next;
	time_t created;
	struct v1_group *group[CGX_MAX_HIER];
	/* Non-NULL when processes of this tuple live here. */
	struct tuple *leaf_tuple;
	struct v2_dir *leaf_next, **leaf_pprev;
	/* Its cgroup.events has the watcher's inotify watch (as long as the directory lasts). */
	bool events_watched;
	/* A move took a process out of this leaf: the watcher's next pass retires it if empty. */
	bool vacated;
	/*
	 * What a leaf's settings may have left in the kernel: cgroup.freeze 1,
	 * a device program, an egress program. Set until known otherwise (a directory found at
	 * start-up, one written to), cleared when the daemon made the directory
	 * or reset it, so that retiring a leaf of a group never frozen nor
	 * filtered costs no write and no BPF query.
	 */
	bool may_be_frozen, may_filter_devices, may_classify_packets;
	/* Unique in the tree's life: a freed directory's memory may come back as another. */
	uint64_t serial;
	/*
	 * Its inode in v2, from the load, the mkdir of a group, or the
	 * watcher's pass; 0 until one of them: another inode under the same
	 * name is another tool's rmdir and mkdir, which took the records with
	 * it (reconcile.c).
	 */
	uint64_t ino;
};

#define v2_dir_for_each_child(child, dir)                                                          \
	for (struct v2_dir *child = (dir)->first_child; child; child = child->next_sibling)

struct v2_tree {
	struct v2_dir *base;
	struct v1_group **id_buckets;
	unsigned int nr_id_buckets;
	unsigned int nr_dirs;
	unsigned int nr_groups;
	uint64_t next_serial;
	/* Above every id handed out, now or by an earlier daemon on this base. */
	uint64_t next_id;
	/* Ids below this may be in use by the kernel: next_id past it is stored first. */
	uint64_t id_reserved;
	struct v2_dir *leaves;
	unsigned int nr_hier;
	/*
	 * Children by (parent, name), so that a lookup beside 100,000 siblings
	 * costs what it costs beside none: one index of every directory by its
	 * v2 name, one of those whose v1 name is recorded (hashed names).
	 */
	struct v2_dir **name_buckets, **v1_name_buckets;
	unsigned int nr_name_buckets;
	/*
	 * Where a walk that gives the lock up between its steps goes on (the
	 * watcher's pass, reconcile.c), NULL when none is under way:
	 * tree_remove_dir() moves it past the directory it removes, so that it
	 * never points at freed memory.
	 */
	struct v2_dir *cursor;
};

void v1_group_free(struct v1_group *group);

int tree_init(struct v2_tree *tree, unsigned int nr_hier);
void tree_release(struct v2_tree *tree);

/* A new child named @v2_name (already escaped); -ENOMEM. */
int tree_add_dir(struct v2_tree *tree, struct v2_dir *parent, const char *v2_name,
		 struct v2_dir **out);
/*
 * @dir is a new cgroup in v2 (made again after it was removed behind the
 * daemon's back): nothing the old one had is known of it, nor its fds.
 */
void tree_dir_renew(struct v2_tree *tree, struct v2_dir *dir);
/* Unlinks and frees @dir, which must have no children. */
void tree_remove_dir(struct v2_tree *tree, struct v2_dir *dir);
struct v2_dir *tree_child(const struct v2_tree *tree, const struct v2_dir *dir,
			  const char *v2_name);
/* The child whose v1 name is @v1_name (never a daemon leaf), or NULL. */
struct v2_dir *tree_child_named(const struct v2_tree *tree, const struct v2_dir *dir,
				const char *v1_name);
/* Records the v1 name of a directory whose v2 name is a hash (tree_escape_name() said 1). */
int tree_set_v1_name(struct v2_tree *tree, struct v2_dir *dir, const char *v1_name);
/*
 * Makes @group hierarchy @hier's group at @dir. A group with no id gets
 * next_id; one with an id (state_new_id, or loaded) is indexed under it.
 */
int tree_attach_group(struct v2_tree *tree, struct v2_dir *dir, unsigned int hier,
		      struct v1_group *group);
/* Takes the group of @hier off @dir, keeping its id (for a rename); returns it. */
struct v1_group *tree_detach_group(struct v2_dir *dir, unsigned int hier);
/* Detaches, forgets and frees the group of @hier at @dir. */
void tree_drop_group(struct v2_tree *tree, struct v2_dir *dir, unsigned int hier);
struct v1_group *tree_group_by_id(const struct v2_tree *tree, uint64_t id);
/* Gives the indexed @group the id @id. */
void tree_reindex_group(struct v2_tree *tree, struct v1_group *group, uint64_t id);

/* Ids fit below the view's inode flag bits, with 8 bits left for a file index. */
#define CGX_GROUP_ID_MASK ((1ULL << 54) - 1)

int tree_set_leaf(struct v2_tree *tree, struct v2_dir *dir, const struct tuple *tuple);
void tree_clear_leaf(struct v2_tree *tree, struct v2_dir *dir);

unsigned int tree_depth(const struct v2_dir *dir);
/*
 * Has @dir counted anything before @hier's group stood there (a group of
 * another hierarchy, a child, processes)? One just made has not.
 */
bool tree_dir_has_past(const struct v2_tree *tree, const struct v2_dir *dir, unsigned int hier);
/*
 * The directory after @dir in preorder (parents before children), its
 * subtree skipped unless @descend; NULL after the last. The base is never
 * returned.
 */
struct v2_dir *tree_preorder_next(const struct v2_dir *dir, bool descend);
/* The directory at @path (v2 names from the base, as tree_path() gives), or NULL. */
struct v2_dir *tree_dir_at(const struct v2_tree *tree, const char *path);
bool tree_is_ancestor(const struct v2_dir *ancestor, const struct v2_dir *dir);
/*
 * Does @leaf hold members of @group (or of a group below it) in hierarchy
 * @hier while lying outside @group's directory (a divergent fold)?
 */
bool tree_leaf_outside(const struct v2_dir *leaf, const struct v2_dir *group, unsigned int hier);
/* Every leaf of @tree for which tree_leaf_outside(leaf, @group, @hier) holds. */
#define tree_for_each_outside_leaf(leaf, tree, group, hier)                                        \
	for (struct v2_dir *leaf = (tree)->leaves; leaf; leaf = leaf->leaf_next)                   \
		if (!tree_leaf_outside(leaf, group, hier)) {                                       \
		} else

/*
 * Path of @dir relative to the base: v2 names ("a/@@x") or, with @v1, the
 * v1 path ("/a/@x"; "/" for the base). Returns -ENAMETOOLONG or 0.
 */
int tree_path(const struct v2_dir *dir, bool v1, char *buf, size_t size);

/*
 * v1 group names are free-form and kernfs takes them past NAME_MAX; v2 names
 * starting with '@' are the daemon's own leaves, and names a controller owns
 * ("memory.max", "cgroup.procs") cannot be directories in v2. Such v1 names
 * are stored as "@@" + name. A name that does not fit NAME_MAX so is stored
 * as "@@~" and a hash of it, its v1 name recorded on the directory: no name
 * escapes to "@@~", as '~' starts no reserved name. Returns 1 for a hashed
 * name, 0 for the others, which a restart reads back from the name alone.
 */
int tree_escape_name(const char *v1_name, char *v2_name, size_t size);
/*
 * The same, attempt @attempt: from 1 on, the next hashed name to try for a
 * name whose hashed name another directory holds.
 */
int tree_escape_name_attempt(const char *v1_name, unsigned int attempt, char *v2_name, size_t size);
/* The v1 name of a v2 name that is not hashed, or NULL for a daemon leaf ("@tasks"). */
const char *tree_unescape_name(const char *v2_name);
/* The v1 name of @dir (its recorded one when hashed), NULL for a daemon leaf. */
const char *tree_dir_v1_name(const struct v2_dir *dir);
bool tree_is_cgx_leaf_name(const char *v2_name);
bool tree_is_hashed_name(const char *v2_name);

/* The leaf that holds the processes of an inner group's own tasks (docs/design.md §3, rule 4). */
#define CGX_TASKS_LEAF "@tasks"

bool tuple_equal(const struct tuple *a, const struct tuple *b, unsigned int nr_hier);
bool tuple_is_root(const struct tuple *t, const struct v2_tree *tree);

/* The tree seen as the groups of one hierarchy (the queries cgx.h offers). */
bool cgx_is_group(const struct v2_dir *dir, unsigned int hier);
/* Next child group after @prev (NULL: the first) of @parent in @hier, NULL at the end. */
struct v2_dir *cgx_group_next_child(struct v2_dir *parent, unsigned int hier, struct v2_dir *prev);
unsigned int cgx_group_nr_children(const struct v2_dir *dir, unsigned int hier);

#endif
