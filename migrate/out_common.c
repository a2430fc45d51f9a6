// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the renderers of a report share: text helpers, the names of masks and
 * coordinates, the tree drawn in text.
 */
#include "out_common.h"

#include "procinfo.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *v1_text_trimmed(const char *value, char *buf, size_t size)
{
	size_t len;

	while (*value == ' ' || *value == '\n' || *value == '\t')
		value++;
	len = strnlen(value, size - 1);
	while (len && (value[len - 1] == ' ' || value[len - 1] == '\n' || value[len - 1] == '\t'))
		len--;
	memcpy(buf, value, len);
	buf[len] = '\0';
	return buf;
}

const char *v1_text_oneline(const char *value, char *buf, size_t size)
{
	size_t used = 0;

	for (const char *c = value; *c && used + 3 < size; c++) {
		if (*c == '\n') {
			buf[used++] = ';';
			buf[used++] = ' ';
		} else {
			buf[used++] = (unsigned char)*c < ' ' ? '?' : *c;
		}
	}
	buf[used] = '\0';
	return buf;
}

const char *setting_note(const struct mig_setting *setting)
{
	const struct v1_v2_map *map = &setting->row->v2;

	if (setting->fate == FATE_LOST && map->kind != V1M_NONE && map->kind != V1M_RESET &&
	    !(setting->row->flags & V1F_V2_LACKS))
		return "the value does not convert: the kernel would not have taken it";
	return map->note ? map->note : "";
}

void hier_mask_names(const struct mig_report *report, uint32_t mask, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int h = 0; h < report->hiers.nr && used < size; h++) {
		int w;

		if (!(mask & (1u << h)))
			continue;
		w = snprintf(buf + used, size - used, "%s%s", used ? " " : "",
			     report_hier_name(report, h));
		if (w < 0)
			break;
		used += w;
	}
}

const char *task_coord(const struct mig_report *report, const struct mig_task *task, unsigned int h)
{
	return report->hier[h].groups[task->coord[h]].path;
}

bool *layout_last_children(const struct mig_report *report)
{
	bool *last = calloc(report->nr_nodes + 1, sizeof(*last));
	int *last_child = malloc((report->nr_nodes + 1) * sizeof(*last_child));

	if (!last || !last_child) {
		free(last);
		free(last_child);
		return NULL;
	}
	for (unsigned int n = 0; n < report->nr_nodes; n++)
		last_child[n] = -1;
	for (unsigned int n = 1; n < report->nr_nodes; n++)
		last_child[report->nodes[n].parent] = (int)n;
	for (unsigned int n = 1; n < report->nr_nodes; n++)
		last[n] = last_child[report->nodes[n].parent] == (int)n;
	free(last_child);
	return last;
}

void layout_tree_prefix(const struct mig_report *report, const bool *last, unsigned int n,
			char *buf, size_t size)
{
	const struct mig_v2node *node = &report->nodes[n];
	unsigned int depth = node->depth;
	/* Each level is at most "├── ": 10 bytes in UTF-8. */
	size_t need = (size_t)depth * 10 + 1;

	buf[0] = '\0';
	if (!depth || need > size)
		return;
	char *end = buf + need - 1;

	*end = '\0';
	for (unsigned int d = depth, i = n; d > 0; d--, i = (unsigned int)report->nodes[i].parent) {
		const char *piece = i == n    ? (last[i] ? "└── " : "├── ")
				    : last[i] ? "    "
					      : "│   ";
		size_t len = strlen(piece);

		end -= len;
		memcpy(end, piece, len);
	}
	memmove(buf, end, strlen(end) + 1);
}

void layout_node_notes(const struct mig_report *report, const struct mig_v2node *node, char *buf,
		       size_t size)
{
	char names[1024];
	size_t used = 0;
	int w;

	buf[0] = '\0';
	if (node->hier_mask) {
		hier_mask_names(report, node->hier_mask, names, sizeof(names));
		w = snprintf(buf + used, size - used, "[%s]", names);
		used += w > 0 && (size_t)w < size - used ? (size_t)w : 0;
	}
	if (node->leaf) {
		w = snprintf(buf + used, size - used, "%s%u process%s, %s", used ? " " : "",
			     node->nr_tasks, node->nr_tasks == 1 ? "" : "es",
			     node->exact ? "exact" : "approximate");
		used += w > 0 && (size_t)w < size - used ? (size_t)w : 0;
	}
	if (node->approx_mask) {
		hier_mask_names(report, node->approx_mask, names, sizeof(names));
		w = snprintf(buf + used, size - used, "%sgroup folds approximately in %s",
			     used ? "; " : "", names);
		used += w > 0 && (size_t)w < size - used ? (size_t)w : 0;
	}
	if (node->shape_divergent)
		snprintf(buf + used, size - used, "%stree shape differs", used ? "; " : "");
}

#define COUNT(key, label, field, log)                                                              \
	{                                                                                          \
		key, label, offsetof(struct mig_verdict, field), log                               \
	}
const struct out_count out_verdict_counts[] = {
	COUNT("settings", "settings not at their default", settings, false),
	COUNT("settings_exact", "... converted exactly", exact, false),
	COUNT("settings_approximate", "... approximate", approx, false),
	COUNT("settings_lost", "... lost (no v2 equivalent)", lost, false),
	COUNT("groups", "groups", groups, false),
	COUNT("groups_approximate", "... folding approximately", groups_approx, false),
	COUNT("groups_shape_divergent", "... where the trees differ", groups_shape_divergent,
	      false),
	COUNT("processes", "processes in groups", processes, false),
	COUNT("processes_multi_hierarchy", "... in groups on different paths", multi_hierarchy,
	      false),
	COUNT("processes_approximate", "... folding approximately", processes_approx, false),
	COUNT("log_multi_hierarchy", "log: multi-hierarchy uses", log_multi_hierarchy, true),
	COUNT("log_no_v2_equivalent", "log: writes with no v2 equivalent", log_no_v2, true),
	COUNT("log_approximate", "log: approximations", log_approx, true),
};
#undef COUNT
const size_t out_nr_verdict_counts = ARRAY_SIZE(out_verdict_counts);

unsigned long out_count_value(const struct mig_verdict *verdict, const struct out_count *count)
{
	return *(const unsigned long *)((const char *)verdict + count->offset);
}

long out_task_rows(const struct mig_report *report, struct out_task_row **rows)
{
	long nr = 0;

	if (!(*rows = calloc(OUT_MAX_ROWS, sizeof(**rows))))
		return -ENOMEM;
	for (unsigned int t = 0; t < report->nr_tasks; t++) {
		const struct mig_task *task = &report->tasks[t];
		struct out_task_row *row;

		if (!task->multi_hierarchy && task->exact)
			continue;
		if (nr++ >= OUT_MAX_ROWS)
			continue;
		row = &(*rows)[nr - 1];
		row->pid = task->pid;
		row->comm = task->comm;
		row->program = procinfo_program(task);
		for (unsigned int h = 0; h < report->hiers.nr; h++) {
			if (!task->coord[h])
				continue;
			row->groups[row->nr_groups].hier = report_hier_name(report, h);
			row->groups[row->nr_groups++].path = task_coord(report, task, h);
		}
		row->leaf = report->nodes[task->leaf].path;
		row->exact = task->exact;
	}
	return nr;
}

void out_shape_row(const struct mig_report *report, unsigned int s, struct out_shape_row *row)
{
	row->path = report->shapes[s].path;
	hier_mask_names(report, report->shapes[s].present_mask, row->present, sizeof(row->present));
	hier_mask_names(report, report->shapes[s].absent_mask, row->absent, sizeof(row->absent));
}

long out_setting_rows(const struct mig_report *report, struct out_setting_row **rows)
{
	long nr = 0;

	for (unsigned int h = 0; h < report->hiers.nr; h++)
		for (unsigned int g = 0; g < report->hier[h].nr_groups; g++)
			nr += report->hier[h].groups[g].nr_settings;
	if (!(*rows = calloc(nr + 1, sizeof(**rows))))
		return -ENOMEM;
	nr = 0;
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];

		for (unsigned int g = 0; g < hier->nr_groups; g++) {
			const struct mig_group *group = &hier->groups[g];

			for (unsigned int s = 0; s < group->nr_settings; s++) {
				const struct mig_setting *setting = &group->settings[s];
				struct out_setting_row *row = &(*rows)[nr++];

				row->hier = report_hier_name(report, h);
				row->group = group->path;
				row->first_of_group = !s;
				row->file = setting->row->name;
				row->value = setting->value;
				row->v2_file = setting->row->v2.file;
				row->v2_value = setting->v2_value;
				row->fate = setting->fate;
				row->note = setting_note(setting);
			}
		}
	}
	return nr;
}
