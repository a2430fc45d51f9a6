// SPDX-License-Identifier: GPL-2.0-or-later
#include "model.h"

#include "util.h"

#include <stdio.h>
#include <string.h>

void report_init(struct mig_report *report)
{
	memset(report, 0, sizeof(*report));
}

static void task_release(struct mig_task *task)
{
	free(task->comm);
	free(task->exe);
	free(task->script);
	for (unsigned int i = 0; i < task->argc; i++)
		free(task->argv[i]);
	free(task->argv);
}

static void hier_release(struct mig_hier *hier)
{
	for (unsigned int g = 0; g < hier->nr_groups; g++) {
		struct mig_group *group = &hier->groups[g];

		for (unsigned int s = 0; s < group->nr_settings; s++) {
			free(group->settings[s].value);
			free(group->settings[s].v2_value);
		}
		free(group->settings);
		free(group->path);
	}
	free(hier->groups);
	for (unsigned int i = 0; i < hier->nr_unknown_files; i++)
		free(hier->unknown_files[i]);
	free(hier->unknown_files);
	free(hier->mountpoint);
}

void report_release(struct mig_report *report)
{
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		hier_release(&report->hier[h]);
	if (report->have_hiers)
		hier_set_release(&report->hiers);
	for (unsigned int t = 0; t < report->nr_tasks; t++)
		task_release(&report->tasks[t]);
	free(report->tasks);
	strmap_release(&report->task_by_pid, NULL);
	if (report->have_tree)
		tree_release(&report->tree);
	for (unsigned int n = 0; n < report->nr_nodes; n++) {
		free(report->nodes[n].name);
		free(report->nodes[n].path);
	}
	free(report->nodes);
	for (unsigned int s = 0; s < report->nr_shapes; s++)
		free(report->shapes[s].path);
	free(report->shapes);
	if (report->log) {
		log_summary_release(report->log);
		free(report->log);
	}
	free(report->counters);
	for (unsigned int i = 0; i < report->nr_sources; i++)
		free(report->sources[i].path);
	memset(report, 0, sizeof(*report));
}

int report_add_source(struct mig_report *report, const char *kind, const char *path)
{
	struct mig_source *source;

	if (report->nr_sources == ARRAY_SIZE(report->sources))
		return -E2BIG;
	source = &report->sources[report->nr_sources];
	if (!(source->path = strdup(path)))
		return -ENOMEM;
	source->kind = kind;
	report->nr_sources++;
	return 0;
}

int hier_add_group(struct mig_hier *hier, const char *path, int parent, struct mig_group **out)
{
	struct mig_group *group;

	if (hier->nr_groups == hier->cap_groups) {
		unsigned int cap = hier->cap_groups ? hier->cap_groups * 2 : 16;
		struct mig_group *groups = realloc(hier->groups, cap * sizeof(*groups));

		if (!groups)
			return -ENOMEM;
		hier->groups = groups;
		hier->cap_groups = cap;
	}
	group = &hier->groups[hier->nr_groups];
	memset(group, 0, sizeof(*group));
	if (!(group->path = strdup(path)))
		return -ENOMEM;
	group->parent = parent;
	hier->nr_groups++;
	*out = group;
	return 0;
}

int report_task(struct mig_report *report, pid_t pid, struct mig_task **out)
{
	char key[16];
	void *index;
	int r;

	snprintf(key, sizeof(key), "%d", (int)pid);
	/* Indexes are stored plus one: a NULL value means absent. */
	if ((index = strmap_get(&report->task_by_pid, key))) {
		*out = &report->tasks[(uintptr_t)index - 1];
		return 0;
	}
	if (report->nr_tasks == report->cap_tasks) {
		unsigned int cap = report->cap_tasks ? report->cap_tasks * 2 : 64;
		struct mig_task *tasks = realloc(report->tasks, cap * sizeof(*tasks));

		if (!tasks)
			return -ENOMEM;
		report->tasks = tasks;
		report->cap_tasks = cap;
	}
	if ((r = strmap_put(&report->task_by_pid, key, (void *)(uintptr_t)(report->nr_tasks + 1))) <
	    0)
		return r;
	*out = &report->tasks[report->nr_tasks++];
	memset(*out, 0, sizeof(**out));
	(*out)->pid = pid;
	return 0;
}

const char *report_hier_name(const struct mig_report *report, unsigned int h)
{
	return report->hiers.hier[h].proc_name;
}

bool report_hier_diverges(const struct mig_report *report, unsigned int h)
{
	const struct mig_hier *hier = &report->hier[h];

	for (unsigned int g = 1; g < hier->nr_groups; g++)
		if (hier->groups[g].fold_approx || hier->groups[g].shape_divergent)
			return true;
	return false;
}

const char *mig_fate_name(enum mig_fate fate)
{
	static const char *const names[] = {
		[FATE_EXACT] = "exact",
		[FATE_APPROX] = "approximate",
		[FATE_LOST] = "lost",
	};

	return names[fate];
}

enum mig_fate mig_fate_of(enum v1_mapping kind)
{
	switch (kind) {
	case V1M_CORE:
	case V1M_SAME:
	case V1M_CONVERTED:
	case V1M_STATISTIC:
		return FATE_EXACT;
	case V1M_APPROX:
	case V1M_EMULATED:
		return FATE_APPROX;
	default:
		return FATE_LOST;
	}
}
