// SPDX-License-Identifier: GPL-2.0-or-later
/* The fold of docs/design.md §3 on an in-memory mirror: no kernel needed. */
#include "check.h"
#include "fold.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct cgx_hier_set hiers;
static struct v2_tree tree;

enum { CPUSET, CPU, BLKIO, MEMORY };

/* Makes the v1 group @path in hierarchy @h, with its v2 directories. */
static struct v2_dir *group(unsigned int h, const char *path)
{
	struct v2_dir *dir = tree.base;
	char copy[4096], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", path);
	for (char *name = strtok_r(copy, "/", &save); name; name = strtok_r(NULL, "/", &save)) {
		char v2_name[300];
		struct v2_dir *child;

		if (!(child = tree_child_named(&tree, dir, name))) {
			int hashed = tree_escape_name(name, v2_name, sizeof(v2_name));

			tree_add_dir(&tree, dir, v2_name, &child);
			if (hashed)
				tree_set_v1_name(&tree, child, name);
		}
		dir = child;
	}
	if (!dir->group[h])
		tree_attach_group(&tree, dir, h, calloc(1, sizeof(struct v1_group)));
	return dir;
}

static void root_tuple(struct tuple *t)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		t->coord[h] = tree.base;
}

static void test_agreeing_paths_fold_to_the_v1_path(void)
{
	struct tuple t;
	struct fold_target target;
	struct v2_dir *a = group(CPU, "a");

	group(MEMORY, "a");
	root_tuple(&t);
	t.coord[CPU] = a;
	t.coord[MEMORY] = a;
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(target.exact);
	CHECK(target.dir == a);
	CHECK(!strcmp(target.leaf_name, ""));
}

static void test_deepest_group_per_hierarchy_is_exact(void)
{
	/* cpu:/a/b with memory:/a (memory has no /a/b): memory's limit of /a covers it. */
	struct tuple t;
	struct fold_target target;
	struct v2_dir *ab = group(CPU, "a/b");

	root_tuple(&t);
	t.coord[CPU] = ab;
	t.coord[MEMORY] = ab->parent;
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(target.exact);
	CHECK(target.dir == ab);
}

static void test_inner_group_tasks_go_to_a_leaf_child(void)
{
	/* /a now has a child: its own tasks go to /a/@tasks (v2's no-internal-process rule). */
	struct tuple t;
	struct fold_target target;
	struct v2_dir *a = group(CPU, "a");

	root_tuple(&t);
	t.coord[CPU] = a;
	t.coord[MEMORY] = a;
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(target.exact);
	CHECK(target.dir == a);
	CHECK(!strcmp(target.leaf_name, CGX_TASKS_LEAF));
}

static void test_divergent_tuple_nests_under_primary(void)
{
	struct tuple t;
	struct fold_target target;
	struct v2_dir *students = group(CPU, "students");
	struct v2_dir *b = group(MEMORY, "b");

	root_tuple(&t);
	t.coord[CPU] = students;
	t.coord[MEMORY] = b;
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(!target.exact);
	CHECK(target.dir == b); /* memory is the primary hierarchy */
	CHECK(!strcmp(target.leaf_name, "@cpu=students"));
}

static void test_missing_coordinate_in_shared_dir_diverges(void)
{
	/* cpu:/a but memory:/ while memory has /a: /a's memory limit must not apply. */
	struct tuple t;
	struct fold_target target;

	root_tuple(&t);
	t.coord[CPU] = group(CPU, "a");
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(!target.exact);
	CHECK(target.dir == tree.base);
	CHECK(!strcmp(target.leaf_name, "@cpu=a"));
}

static void test_first_group_that_can_hold_is_primary(void)
{
	/* memory:/, cpu:/students, cpuset:/browsers: under students, whose cpu settings cover it.
	 */
	struct tuple t;
	struct fold_target target;

	root_tuple(&t);
	t.coord[CPU] = group(CPU, "students");
	t.coord[CPUSET] = group(CPUSET, "browsers");
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(!target.exact);
	CHECK(target.dir == t.coord[CPU]);
	CHECK(!strcmp(target.leaf_name, "@cpuset=browsers"));
}

static void test_root_tuple_goes_to_base_tasks_leaf(void)
{
	struct tuple t;
	struct fold_target target;

	root_tuple(&t);
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(target.exact);
	CHECK(target.dir == tree.base);
	CHECK(!strcmp(target.leaf_name, CGX_TASKS_LEAF));
}

static void test_long_names_fall_back_to_a_hash(void)
{
	char path[200];
	struct tuple t;
	struct fold_target target;

	memset(path, 'x', 150);
	path[150] = '\0';
	root_tuple(&t);
	t.coord[CPU] = group(CPU, "y");
	/* cpu is primary: the two long coordinates name the leaf. */
	t.coord[CPUSET] = group(CPUSET, path);
	memcpy(path, "yy", 2);
	t.coord[BLKIO] = group(BLKIO, path);
	CHECK_EQ_INT(fold_tuple(&tree, &hiers, &t, &target), 0);
	CHECK(!target.exact);
	CHECK(!strncmp(target.leaf_name, "@~", 2));
	CHECK(strlen(target.leaf_name) < 255);
}

static void test_tuple_text_round_trips(void)
{
	struct tuple t, back;
	char text[1024];

	root_tuple(&t);
	t.coord[CPU] = group(CPU, "a/b");
	t.coord[MEMORY] = group(MEMORY, "b");
	CHECK_EQ_INT(fold_tuple_format(&tree, &hiers, &t, text, sizeof(text)), 0);
	CHECK(!strcmp(text, "cpu,cpuacct:/a/b\nmemory:/b\n"));
	CHECK_EQ_INT(fold_tuple_parse(&tree, &hiers, text, &back), 0);
	CHECK(tuple_equal(&t, &back, tree.nr_hier));
	CHECK_EQ_INT(fold_tuple_parse(&tree, &hiers, "memory:/nope\n", &back), -ENOENT);
	CHECK_EQ_INT(fold_tuple_parse(&tree, &hiers, "garbage\n", &back), -EINVAL);
}

static void test_names_are_escaped_both_ways(void)
{
	char v2[300];

	CHECK_EQ_INT(tree_escape_name("plain", v2, sizeof(v2)), 0);
	CHECK(!strcmp(v2, "plain"));
	CHECK_EQ_INT(tree_escape_name("@tasks", v2, sizeof(v2)), 0);
	CHECK(!strcmp(v2, "@@@tasks"));
	CHECK(!strcmp(tree_unescape_name(v2), "@tasks"));
	CHECK_EQ_INT(tree_escape_name("memory.max", v2, sizeof(v2)), 0);
	CHECK(!strcmp(v2, "@@memory.max"));
	CHECK(!strcmp(tree_unescape_name(v2), "memory.max"));
	CHECK(tree_unescape_name("@cpu=a") == NULL);
	CHECK(tree_is_cgx_leaf_name(CGX_TASKS_LEAF));
}

static void fill(char *buf, char c, size_t n)
{
	memset(buf, c, n);
	buf[n] = '\0';
}

/* Every name kernfs takes has a v2 name within NAME_MAX; only those that need it are hashed. */
static void test_names_past_name_max_are_hashed(void)
{
	char name[1100], v2[300], again[300];

	fill(name, 'n', 255);
	CHECK_EQ_INT(tree_escape_name(name, v2, sizeof(v2)), 0);
	CHECK(!strcmp(v2, name));
	fill(name, 'n', 256);
	CHECK_EQ_INT(tree_escape_name(name, v2, sizeof(v2)), 1);
	CHECK(tree_is_hashed_name(v2) && strlen(v2) == 19);
	CHECK(!tree_is_cgx_leaf_name(v2));
	/* "@@" + 253 bytes fits; one more does not. */
	fill(name, '@', 253);
	CHECK_EQ_INT(tree_escape_name(name, v2, sizeof(v2)), 0);
	CHECK(strlen(v2) == 255 && !strcmp(tree_unescape_name(v2), name));
	fill(name, '@', 254);
	CHECK_EQ_INT(tree_escape_name(name, v2, sizeof(v2)), 1);
	/* Each controller prefix, at 255 bytes. */
	memcpy(name, "memory.", 7);
	fill(name + 7, 'm', 248);
	CHECK_EQ_INT(tree_escape_name(name, v2, sizeof(v2)), 1);
	/* Stable (a restart and cgx-migrate name it alike), another name at each attempt. */
	CHECK_EQ_INT(tree_escape_name(name, again, sizeof(again)), 1);
	CHECK(!strcmp(v2, again));
	CHECK_EQ_INT(tree_escape_name_attempt(name, 1, again, sizeof(again)), 1);
	CHECK(strcmp(v2, again) && tree_is_hashed_name(again));
	/* No name of the old scheme is hashed, so old directories load by name. */
	CHECK(!tree_is_hashed_name("@@@~x") && !tree_is_hashed_name("~x"));
	CHECK_EQ_INT(tree_escape_name("~0123456789abcdef", v2, sizeof(v2)), 0);
	CHECK(!tree_is_hashed_name(v2));
}

/* A group path of long names: found by v1 name, and its tuple text reads back. */
static void test_long_names_round_trip_through_tuples(void)
{
	char a[1100], b[1100], path[2300], *text = malloc(FOLD_TUPLE_TEXT_MAX);
	struct tuple t, back;
	struct v2_dir *dir;

	fill(a, 'a', 1000);
	memcpy(b, "cpu.", 4);
	fill(b + 4, 'b', 996);
	snprintf(path, sizeof(path), "%s/%s", a, b);
	root_tuple(&t);
	group(CPU, a);
	group(MEMORY, a);
	t.coord[CPU] = dir = group(CPU, path);
	t.coord[MEMORY] = group(MEMORY, path);
	CHECK(tree_is_hashed_name(dir->name) && !strcmp(tree_dir_v1_name(dir), b));
	CHECK(fold_lookup_group(&tree, CPU, "/nope") == NULL);
	CHECK_EQ_INT(fold_tuple_format(&tree, &hiers, &t, text, FOLD_TUPLE_TEXT_MAX), 0);
	CHECK(strlen(text) > 2000);
	CHECK_EQ_INT(fold_tuple_parse(&tree, &hiers, text, &back), 0);
	CHECK(tuple_equal(&t, &back, tree.nr_hier));
	CHECK_EQ_INT(fold_tuple_format(&tree, &hiers, &t, text, 1024), -ENAMETOOLONG);
	free(text);
}

/* Ids survive a restart: a loaded id is indexed as stored and new ones come after it. */
static void test_group_ids_are_kept_and_never_reused(void)
{
	struct v2_tree ids;
	struct v2_dir *a, *b;
	struct v1_group *loaded = calloc(1, sizeof(*loaded)), *fresh = calloc(1, sizeof(*fresh));

	tree_init(&ids, 1);
	tree_add_dir(&ids, ids.base, "a", &a);
	tree_add_dir(&ids, ids.base, "b", &b);
	loaded->id = 700;
	CHECK_EQ_INT(tree_attach_group(&ids, a, 0, loaded), 0);
	CHECK(tree_group_by_id(&ids, 700) == loaded);
	CHECK_EQ_INT(tree_attach_group(&ids, b, 0, fresh), 0);
	CHECK_EQ_INT(fresh->id, 701);
	tree_reindex_group(&ids, fresh, 9000);
	CHECK(tree_group_by_id(&ids, 701) == NULL);
	CHECK(tree_group_by_id(&ids, 9000) == fresh);
	CHECK_EQ_INT(ids.next_id, 9001);
	tree_drop_group(&ids, a, 0);
	CHECK(tree_group_by_id(&ids, 700) == NULL);
	CHECK_EQ_INT(ids.nr_groups, 1);
	tree_release(&ids);
}

/* A leaf made under @parent for a tuple with @memory (MEMORY) and @cpu (CPU), the rest at the root.
 */
static struct v2_dir *leaf(struct v2_dir *parent, const char *name, struct v2_dir *memory,
			   struct v2_dir *cpu)
{
	struct v2_dir *dir;
	struct tuple t;

	root_tuple(&t);
	t.coord[MEMORY] = memory;
	t.coord[CPU] = cpu;
	tree_add_dir(&tree, parent, name, &dir);
	tree_set_leaf(&tree, dir, &t);
	return dir;
}

static unsigned int count_outside(struct v2_dir *group, unsigned int h, struct v2_dir *expect)
{
	unsigned int n = 0;

	tree_for_each_outside_leaf (l, &tree, group, h) {
		CHECK(l == expect);
		n++;
	}
	return n;
}

static void test_outside_leaves_hold_members_beyond_the_directory(void)
{
	struct v2_dir *m = group(MEMORY, "om"), *mc = group(MEMORY, "om/c"), *p = group(CPU, "op");
	struct v2_dir *outside = leaf(p, "@memory=om:c", mc, p);

	leaf(m, "@tasks", m, tree.base); /* inside its group's directory */
	leaf(p, "@tasks", tree.base, p); /* no member of the memory groups at all */
	struct v2_dir *in_mc = leaf(mc, "@cpu=op", mc, p);  /* inside om/c, outside op */
	CHECK_EQ_INT(count_outside(m, MEMORY, outside), 1); /* a member of a child group counts */
	CHECK_EQ_INT(count_outside(mc, MEMORY, outside), 1);
	CHECK_EQ_INT(count_outside(p, CPU, in_mc), 1); /* the member folded under om/c */
	CHECK_EQ_INT(count_outside(tree.base, MEMORY, NULL), 0);
}

/* The walk that gives the lock up between its steps (reconcile.c) and the removals meanwhile. */
static void test_cursor_moves_past_removed_directories(void)
{
	struct v2_dir *w, *wx, *wy, *z, *d;

	tree_add_dir(&tree, tree.base, "w", &w);
	tree_add_dir(&tree, w, "y", &wy);
	tree_add_dir(&tree, w, "x", &wx); /* children are listed newest first: x, y */
	tree_add_dir(&tree, tree.base, "z", &z);
	CHECK(tree_preorder_next(z, true) == w); /* z is the base's newest child */
	CHECK(tree_preorder_next(w, true) == wx);
	CHECK(tree_preorder_next(w, false) != wx && tree_preorder_next(w, false) != wy);
	CHECK(tree_preorder_next(wx, true) == wy);
	CHECK(tree_dir_at(&tree, "w/y") == wy);
	CHECK(tree_dir_at(&tree, "") == tree.base);
	CHECK(!tree_dir_at(&tree, "w/nothere"));

	tree.cursor = wx;
	tree_remove_dir(&tree, wx);
	CHECK(tree.cursor == wy);
	d = tree_preorder_next(w, false);
	tree_remove_dir(&tree, wy);
	CHECK(tree.cursor == d); /* the last child gone: on past its parent */
	tree.cursor = z;
	tree_remove_dir(&tree, w); /* not at the cursor: it stays */
	CHECK(tree.cursor == z);
	tree_remove_dir(&tree, z);
	CHECK(tree.cursor == d);
	tree.cursor = NULL;
}

int main(void)
{
	hier_set_parse(&hiers, "cpuset;cpu,cpuacct;blkio;memory");
	tree_init(&tree, hiers.nr);
	for (unsigned int h = 0; h < hiers.nr; h++)
		tree.base->group[h] = calloc(1, sizeof(struct v1_group));

	test_agreeing_paths_fold_to_the_v1_path();
	test_deepest_group_per_hierarchy_is_exact();
	test_inner_group_tasks_go_to_a_leaf_child();
	test_divergent_tuple_nests_under_primary();
	test_missing_coordinate_in_shared_dir_diverges();
	test_first_group_that_can_hold_is_primary();
	test_root_tuple_goes_to_base_tasks_leaf();
	test_long_names_fall_back_to_a_hash();
	test_tuple_text_round_trips();
	test_names_are_escaped_both_ways();
	test_names_past_name_max_are_hashed();
	test_long_names_round_trip_through_tuples();
	test_group_ids_are_kept_and_never_reused();
	test_outside_leaves_hold_members_beyond_the_directory();
	test_cursor_moves_past_removed_directories();

	tree_release(&tree);
	hier_set_release(&hiers);
	return check_summary("fold");
}
