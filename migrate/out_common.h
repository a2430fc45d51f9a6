/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the renderers of a report share (out_common.c, out_escape.c); below them and out.c. */
#ifndef CGX_MIGRATE_OUT_COMMON_H
#define CGX_MIGRATE_OUT_COMMON_H

#include "model.h"

#include <stdbool.h>
#include <stdio.h>

/*
 * Text the report did not write itself, for a human: a control character, a
 * C1 control, a bidirectional override or a byte that is no UTF-8 is shown as
 * \xHH per byte, a backslash as \\, so that nothing reaches a terminal as a
 * command and every name reads back unambiguously (out_escape.c).
 */
/* The length of the character at @text (1 for a stray byte) and whether it must be escaped. */
size_t out_char_next(const char *text, bool *unsafe);
/* @text escaped into @buf, cut at a character to fit. */
const char *out_text_safe(const char *text, char *buf, size_t size);
void out_put_safe(FILE *out, const char *text);
/* Serialised JSON with DEL, C1 and bidi controls as \u escapes and stray bytes as \udcXX. */
void out_put_json(FILE *out, const char *json);
/* @value without surrounding white space, cut to fit. */
const char *v1_text_trimmed(const char *value, char *buf, size_t size);
/* @value on one line: newlines become "; ". */
const char *v1_text_oneline(const char *value, char *buf, size_t size);
/* The note of a setting: the row's, or why there is no v2 value. */
const char *setting_note(const struct mig_setting *setting);
/* "cpu,cpuacct memory" for a mask of hierarchies. */
void hier_mask_names(const struct mig_report *report, uint32_t mask, char *buf, size_t size);
/* "/students" for hierarchy @h's coordinate of @task. */
const char *task_coord(const struct mig_report *report, const struct mig_task *task,
		       unsigned int h);

/* For each v2 node, whether it is its parent's last child; free() it. NULL on -ENOMEM. */
bool *layout_last_children(const struct mig_report *report);
/* The "│   ├── " a tree drawn in text puts before node @n. */
void layout_tree_prefix(const struct mig_report *report, const bool *last, unsigned int n,
			char *buf, size_t size);
/* "[cpu memory] 2 processes, approximate; approximate for cpu" after a node's name. */
void layout_node_notes(const struct mig_report *report, const struct mig_v2node *node, char *buf,
		       size_t size);

/* How much the human-readable formats list before they say "and N more". */
#define OUT_MAX_ROWS  200
#define OUT_MAX_NODES 2000

/*
 * The rows of the report's tables, built once here as data: each renderer
 * only formats their cells.
 */

/* A count of the verdict: its JSON key, its label in a table, whether it counts the log. */
struct out_count {
	const char *key, *label;
	size_t offset; /* of its unsigned long in struct mig_verdict */
	bool log;
};
extern const struct out_count out_verdict_counts[];
extern const size_t out_nr_verdict_counts;
unsigned long out_count_value(const struct mig_verdict *verdict, const struct out_count *count);

/* A process in groups on different paths, or whose leaf folds approximately. */
struct out_task_row {
	pid_t pid;
	const char *comm, *program; /* comm "" when unknown */
	unsigned int nr_groups;
	struct {
		const char *hier, *path;
	} groups[CGX_MAX_HIER]; /* its non-root groups, in hierarchy order */
	const char *leaf;	/* its v2 leaf's path */
	bool exact;
};
/* The first OUT_MAX_ROWS of them into *@rows (free() it); how many there are, or -ENOMEM. */
long out_task_rows(const struct mig_report *report, struct out_task_row **rows);

/* A path that has a group in some hierarchies and none in others. */
struct out_shape_row {
	const char *path;
	char present[1024], absent[1024]; /* hierarchy names */
};
void out_shape_row(const struct mig_report *report, unsigned int s, struct out_shape_row *row);

/* A setting not at its default. */
struct out_setting_row {
	const char *hier, *group;
	bool first_of_group;
	const char *file, *value;
	const char *v2_file, *v2_value; /* NULL when there is none */
	enum mig_fate fate;
	const char *note; /* setting_note() */
};
/* Every one, hierarchy by hierarchy and group by group, into *@rows (free() it); how many, or
 * -ENOMEM. */
long out_setting_rows(const struct mig_report *report, struct out_setting_row **rows);

#endif
