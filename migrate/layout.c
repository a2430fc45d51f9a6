// SPDX-License-Identifier: GPL-2.0-or-later
#include "layout.h"

#include "fail.h"
#include "fold.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

struct group_ref {
	unsigned int h, g;
};

struct layout {
	struct mig_report *report;
	struct strmap dir_by_name; /* "directory pointer" -> its node index + 1 */
	struct group_ref *group_by_id;
	size_t nr_ids;
	struct v2_dir **task_leaf;
};

static int child_dir(struct layout *layout, struct v2_dir *parent, const char *v2_name,
		     struct v2_dir **out)
{
	if ((*out = tree_child(&layout->report->tree, parent, v2_name)))
		return 0;
	return tree_add_dir(&layout->report->tree, parent, v2_name, out);
}

static int attach(struct layout *layout, struct v2_dir *dir, unsigned int h, unsigned int g)
{
	struct v1_group *group = calloc(1, sizeof(*group));
	int r;

	if (!group)
		return -ENOMEM;
	if ((r = tree_attach_group(&layout->report->tree, dir, h, group)) < 0) {
		free(group);
		return r;
	}
	if (group->id >= layout->nr_ids) {
		size_t nr = layout->nr_ids ? layout->nr_ids * 2 : 1024;
		struct group_ref *grown;

		while (nr <= group->id)
			nr *= 2;
		if (!(grown = realloc(layout->group_by_id, nr * sizeof(*grown))))
			return -ENOMEM;
		layout->group_by_id = grown;
		layout->nr_ids = nr;
	}
	layout->group_by_id[group->id] = (struct group_ref){h, g};
	layout->report->hier[h].groups[g].dir = dir;
	return 0;
}

/* Every group of every hierarchy at its v1 path: one v2 directory per path (docs/design.md §3, rule
 * 2). */
static int build_group_dirs(struct layout *layout)
{
	struct mig_report *report = layout->report;
	int r;

	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		struct mig_hier *hier = &report->hier[h];

		if ((r = attach(layout, report->tree.base, h, 0)) < 0)
			return r;
		for (unsigned int g = 1; g < hier->nr_groups; g++) {
			const char *name = strrchr(hier->groups[g].path, '/') + 1;
			struct v2_dir *parent = hier->groups[hier->groups[g].parent].dir, *dir;
			char v2_name[NAME_MAX + 1];
			int hashed = tree_escape_name(name, v2_name, sizeof(v2_name));

			/* A name past NAME_MAX gets the hashed v2 name cgxfs would give it. */
			if (hashed < 0)
				return mig_err(hashed, "%s%s: no cgroup2 name", hier->mountpoint,
					       hier->groups[g].path);
			if ((r = child_dir(layout, parent, v2_name, &dir)) < 0 ||
			    (hashed && !dir->v1_name &&
			     (r = tree_set_v1_name(&layout->report->tree, dir, name)) < 0) ||
			    (r = attach(layout, dir, h, g)) < 0)
				return r;
		}
	}
	return 0;
}

static struct mig_group *group_at(struct layout *layout, const struct v2_dir *dir, unsigned int h)
{
	struct group_ref ref = layout->group_by_id[dir->group[h]->id];

	return &layout->report->hier[ref.h].groups[ref.g];
}

static uint32_t hiers_in_use(const struct mig_report *report)
{
	uint32_t mask = 0;

	for (unsigned int h = 0; h < report->hiers.nr; h++)
		if (report->hier[h].nr_groups > 1)
			mask |= 1u << h;
	return mask;
}

static int add_shape(struct mig_report *report, const struct v2_dir *dir, uint32_t present,
		     uint32_t absent)
{
	char path[4096];
	struct mig_shape *grown;
	int r;

	if ((r = tree_path(dir, true, path, sizeof(path))) < 0)
		return r;
	if (!(grown = realloc(report->shapes, (report->nr_shapes + 1) * sizeof(*grown))))
		return -ENOMEM;
	report->shapes = grown;
	grown[report->nr_shapes] = (struct mig_shape){strdup(path), present, absent};
	if (!grown[report->nr_shapes].path)
		return -ENOMEM;
	report->nr_shapes++;
	return 0;
}

static int cmp_dir_name(const void *a, const void *b)
{
	return strcmp((*(struct v2_dir *const *)a)->name, (*(struct v2_dir *const *)b)->name);
}

/* @dir's children sorted by name, as every list of the report is; NULL when it has none. */
static int sorted_children(const struct v2_dir *dir, struct v2_dir ***out)
{
	struct v2_dir **children;
	unsigned int n = 0;

	*out = NULL;
	if (!dir->nr_children)
		return 0;
	if (!(children = calloc(dir->nr_children, sizeof(*children))))
		return -ENOMEM;
	v2_dir_for_each_child (child, dir)
		children[n++] = child;
	qsort(children, n, sizeof(*children), cmp_dir_name);
	*out = children;
	return 0;
}

/* Paths where one hierarchy in use has a group and another has none. */
static int find_shapes(struct layout *layout, struct v2_dir *dir, uint32_t in_use)
{
	struct v2_dir **children;
	uint32_t present = 0, absent;
	int r;

	for (unsigned int h = 0; h < layout->report->hiers.nr; h++)
		if (dir->group[h])
			present |= 1u << h;
	absent = in_use & ~present;
	if (dir->parent && present && absent) {
		if ((r = add_shape(layout->report, dir, present, absent)) < 0)
			return r;
		for (unsigned int h = 0; h < layout->report->hiers.nr; h++)
			if (dir->group[h])
				group_at(layout, dir, h)->shape_divergent = true;
	}
	if ((r = sorted_children(dir, &children)) < 0)
		return r;
	for (unsigned int i = 0; i < dir->nr_children && r >= 0; i++)
		r = find_shapes(layout, children[i], in_use);
	free(children);
	return r;
}

static void tuple_of(struct layout *layout, const struct mig_task *task, struct tuple *tuple)
{
	memset(tuple, 0, sizeof(*tuple));
	for (unsigned int h = 0; h < layout->report->hiers.nr; h++)
		tuple->coord[h] = layout->report->hier[h].groups[task->coord[h]].dir;
}

static bool on_different_paths(const struct mig_report *report, const struct tuple *tuple)
{
	const struct v2_dir *seen = NULL;

	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		if (tuple->coord[h] == report->tree.base)
			continue;
		if (seen && seen != tuple->coord[h])
			return true;
		seen = tuple->coord[h];
	}
	return false;
}

static int leaf_of(struct layout *layout, const struct fold_target *target, struct v2_dir **leaf)
{
	if (!target->leaf_name[0]) {
		*leaf = target->dir;
		return 0;
	}
	return child_dir(layout, target->dir, target->leaf_name, leaf);
}

/*
 * Divergent leaves first: a directory that gets one becomes inner, and the
 * exact tuples folded after them then go to its @tasks leaf (docs/design.md §3, rule 4).
 */
static int fold_tasks(struct layout *layout)
{
	struct mig_report *report = layout->report;
	int r;

	if (!(layout->task_leaf = calloc(report->nr_tasks + 1, sizeof(*layout->task_leaf))))
		return -ENOMEM;
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned int t = 0; t < report->nr_tasks; t++) {
			struct mig_task *task = &report->tasks[t];
			struct fold_target target;
			struct tuple tuple;

			tuple_of(layout, task, &tuple);
			if ((r = fold_tuple(&report->tree, &report->hiers, &tuple, &target)) < 0)
				return mig_err(r, "cannot fold the groups of process %d",
					       task->pid);
			if (target.exact != (pass == 1))
				continue;
			task->exact = target.exact;
			task->multi_hierarchy = on_different_paths(report, &tuple);
			if ((r = leaf_of(layout, &target, &layout->task_leaf[t])) < 0)
				return r;
		}
	}
	/* A group whose processes live outside its directory has its limits on other leaves. */
	for (unsigned int t = 0; t < report->nr_tasks; t++) {
		struct tuple tuple;

		tuple_of(layout, &report->tasks[t], &tuple);
		for (unsigned int h = 0; h < report->hiers.nr; h++)
			if (tuple.coord[h] != report->tree.base &&
			    !tree_is_ancestor(tuple.coord[h], layout->task_leaf[t]))
				group_at(layout, tuple.coord[h], h)->fold_approx = true;
	}
	return 0;
}

static int add_node(struct layout *layout, struct v2_dir *dir, int parent, unsigned int depth,
		    unsigned int *cap)
{
	struct mig_report *report = layout->report;
	struct mig_v2node *node;
	char key[32], path[4096];
	struct v2_dir **children;
	unsigned int index = report->nr_nodes;
	int r;

	if (report->nr_nodes == *cap) {
		struct mig_v2node *grown;

		*cap = *cap ? *cap * 2 : 64;
		if (!(grown = realloc(report->nodes, *cap * sizeof(*grown))))
			return -ENOMEM;
		report->nodes = grown;
	}
	node = &report->nodes[report->nr_nodes++];
	memset(node, 0, sizeof(*node));
	if ((r = tree_path(dir, false, path + 1, sizeof(path) - 1)) < 0)
		return r;
	path[0] = '/';
	node->path = strdup(path);
	node->name = strdup(dir->name);
	if (!node->path || !node->name)
		return -ENOMEM;
	node->parent = parent;
	node->depth = depth;
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		struct mig_group *group;

		if (!dir->group[h])
			continue;
		node->hier_mask |= 1u << h;
		group = group_at(layout, dir, h);
		if (group->fold_approx)
			node->approx_mask |= 1u << h;
		node->shape_divergent |= group->shape_divergent;
	}
	snprintf(key, sizeof(key), "%p", (void *)dir);
	if ((r = strmap_put(&layout->dir_by_name, key, (void *)(uintptr_t)(index + 1))) < 0)
		return r;

	if ((r = sorted_children(dir, &children)) < 0)
		return r;
	for (unsigned int i = 0; i < dir->nr_children && r >= 0; i++)
		r = add_node(layout, children[i], (int)index, depth + 1, cap);
	free(children);
	return r;
}

/* The tree in preorder for the renderers, each task pointing at its leaf. */
static int flatten(struct layout *layout)
{
	struct mig_report *report = layout->report;
	unsigned int cap = 0;
	int r;

	if ((r = add_node(layout, report->tree.base, -1, 0, &cap)) < 0)
		return r;
	for (unsigned int t = 0; t < report->nr_tasks; t++) {
		struct mig_task *task = &report->tasks[t];
		struct mig_v2node *node;
		char key[32];

		snprintf(key, sizeof(key), "%p", (void *)layout->task_leaf[t]);
		task->leaf = (uintptr_t)strmap_get(&layout->dir_by_name, key) - 1;
		node = &report->nodes[task->leaf];
		node->exact = node->leaf ? node->exact && task->exact : task->exact;
		node->leaf = true;
		node->nr_tasks++;
	}
	return 0;
}

static void compute_verdict(struct mig_report *report)
{
	struct mig_verdict *v = &report->verdict;

	memset(v, 0, sizeof(*v));
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];

		for (unsigned int g = 0; g < hier->nr_groups; g++) {
			const struct mig_group *group = &hier->groups[g];

			v->groups += g > 0;
			v->groups_approx += group->fold_approx;
			v->groups_shape_divergent += group->shape_divergent;
			for (unsigned int s = 0; s < group->nr_settings; s++) {
				v->settings++;
				v->exact += group->settings[s].fate == FATE_EXACT;
				v->approx += group->settings[s].fate == FATE_APPROX;
				v->lost += group->settings[s].fate == FATE_LOST;
			}
		}
	}
	for (unsigned int t = 0; t < report->nr_tasks; t++) {
		v->processes++;
		v->multi_hierarchy += report->tasks[t].multi_hierarchy;
		v->processes_approx += !report->tasks[t].exact;
	}
	if (report->log) {
		v->log_multi_hierarchy = report->log->by_kind[LOG_MULTI_HIERARCHY];
		v->log_no_v2 = report->log->by_kind[LOG_NO_V2];
		v->log_approx = report->log->by_kind[LOG_APPROXIMATE] +
				report->log->by_kind[LOG_DIVERGENT_TREE] +
				report->log->by_kind[LOG_NAMED_HIERARCHY] +
				report->log->by_kind[LOG_RUNTIME_HIERARCHY];
	}
	if (v->lost || v->log_no_v2)
		v->status = "needs-changes";
	else if (v->approx || v->groups_approx || v->groups_shape_divergent ||
		 v->processes_approx || v->multi_hierarchy || v->log_multi_hierarchy ||
		 v->log_approx)
		v->status = "ready-with-approximations";
	else
		v->status = "ready";
}

int layout_build(struct mig_report *report)
{
	struct layout layout = {.report = report};
	int r;

	if ((r = tree_init(&report->tree, report->hiers.nr)) < 0)
		return r;
	report->have_tree = true;
	if ((r = build_group_dirs(&layout)) < 0 ||
	    (r = find_shapes(&layout, report->tree.base, hiers_in_use(report))) < 0 ||
	    (r = fold_tasks(&layout)) < 0 || (r = flatten(&layout)) < 0)
		goto out;
	compute_verdict(report);
out:
	strmap_release(&layout.dir_by_name, NULL);
	free(layout.group_by_id);
	free(layout.task_leaf);
	return r;
}
