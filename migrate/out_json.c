// SPDX-License-Identifier: GPL-2.0-or-later
/* The report as JSON, schema cgx-migrate/1 (migrate/README.md). */
#include "out_formats.h"

#include "findings.h"
#include "out_common.h"
#include "procinfo.h"
#include "util.h"

#include <json-c/json.h>
#include <string.h>

/* json-c calls that can only fail on -ENOMEM: one flag, checked once at the end. */
struct builder {
	bool failed;
};

static struct json_object *checked(struct builder *b, struct json_object *object)
{
	if (!object)
		b->failed = true;
	return object;
}

/* malloc(0) may return NULL, which json-c takes for a failure. */
static struct json_object *sized_array(unsigned int nr)
{
	return json_object_new_array_ext(nr ? (int)nr : 1);
}

static void put(struct builder *b, struct json_object *parent, const char *key,
		struct json_object *value)
{
	/* A NULL value is JSON null, and a failed allocation is already recorded. */
	if (json_object_object_add(parent, key, value) < 0)
		b->failed = true;
}

static void put_string(struct builder *b, struct json_object *parent, const char *key,
		       const char *value)
{
	put(b, parent, key, value ? checked(b, json_object_new_string(value)) : NULL);
}

static void put_int(struct builder *b, struct json_object *parent, const char *key, int64_t value)
{
	put(b, parent, key, checked(b, json_object_new_int64(value)));
}

static void put_bool(struct builder *b, struct json_object *parent, const char *key, bool value)
{
	put(b, parent, key, checked(b, json_object_new_boolean(value)));
}

static void append(struct builder *b, struct json_object *array, struct json_object *value)
{
	if (!value || json_object_array_add(array, value) < 0) {
		json_object_put(value);
		b->failed = true;
	}
}

static struct json_object *string_array(struct builder *b, char *const *strings, unsigned int nr)
{
	struct json_object *array = checked(b, sized_array(nr));

	for (unsigned int i = 0; array && i < nr; i++)
		append(b, array, json_object_new_string(strings[i]));
	return array;
}

static struct json_object *hier_names(struct builder *b, const struct mig_report *report,
				      uint32_t mask)
{
	struct json_object *array = checked(b, json_object_new_array());

	for (unsigned int h = 0; array && h < report->hiers.nr; h++)
		if (mask & (1u << h))
			append(b, array, json_object_new_string(report_hier_name(report, h)));
	return array;
}

static struct json_object *setting_json(struct builder *b, const struct mig_setting *setting)
{
	struct json_object *object = checked(b, json_object_new_object());
	const struct v1_file *row = setting->row;
	char dflt[256];

	if (!object)
		return NULL;
	put_string(b, object, "file", row->name);
	put_string(b, object, "value", setting->value);
	put_string(b, object, "default",
		   row->default_value ? v1_text_trimmed(row->default_value, dflt, sizeof(dflt))
				      : NULL);
	put_string(b, object, "mapping", v1_mapping_name(row->v2.kind));
	put_string(b, object, "fate", mig_fate_name(setting->fate));
	put_string(b, object, "v2_file", row->v2.file);
	put_string(b, object, "v2_value", setting->v2_value);
	put_string(b, object, "note", setting_note(setting));
	return object;
}

static struct json_object *group_json(struct builder *b, const struct mig_report *report,
				      const struct mig_group *group)
{
	struct json_object *object = checked(b, json_object_new_object());
	/* Sized arrays: a report of 100,000 groups would otherwise hold room for 32 in each. */
	struct json_object *settings = checked(b, sized_array(group->nr_settings));
	char v2_path[4096] = "/";

	if (!object || !settings) {
		json_object_put(object);
		json_object_put(settings);
		return NULL;
	}
	if (group->dir && report->have_tree)
		tree_path(group->dir, false, v2_path + 1, sizeof(v2_path) - 1);
	put_string(b, object, "path", group->path);
	put_string(b, object, "v2_path", v2_path);
	put_string(b, object, "fold", group->fold_approx ? "approximate" : "exact");
	put_bool(b, object, "shape_divergent", group->shape_divergent);
	put_int(b, object, "nr_tasks", group->nr_tasks);
	put(b, object, "tasks", checked(b, sized_array(group->nr_tasks)));
	for (unsigned int s = 0; s < group->nr_settings; s++)
		append(b, settings, setting_json(b, &group->settings[s]));
	put(b, object, "settings", settings);
	return object;
}

static struct json_object *hierarchy_json(struct builder *b, const struct mig_report *report,
					  unsigned int h, struct json_object ***group_objects)
{
	const struct cgx_hier *hier = &report->hiers.hier[h];
	const struct mig_hier *mig = &report->hier[h];
	struct json_object *object = checked(b, json_object_new_object());
	struct json_object *controllers = checked(b, json_object_new_array());
	struct json_object *groups = checked(b, sized_array(mig->nr_groups));

	if (!object || !controllers || !groups ||
	    !(*group_objects = calloc(mig->nr_groups + 1, sizeof(**group_objects)))) {
		b->failed = true;
		json_object_put(object);
		json_object_put(controllers);
		json_object_put(groups);
		return NULL;
	}
	put_string(b, object, "name", hier->proc_name);
	put_string(b, object, "directory", hier->dir_name);
	for (unsigned int c = 0; c < hier->nr_controllers; c++)
		append(b, controllers, json_object_new_string(hier->controllers[c]));
	put(b, object, "controllers", controllers);
	put_string(b, object, "named", hier->named[0] ? hier->named : NULL);
	put_string(b, object, "mountpoint", mig->mountpoint);
	put_bool(b, object, "in_use", mig->nr_groups > 1);
	put_bool(b, object, "divergent", report_hier_diverges(report, h));
	put_int(b, object, "nr_groups", mig->nr_groups);
	put_int(b, object, "nr_tasks", (int64_t)mig->nr_tasks);
	put(b, object, "unknown_files", string_array(b, mig->unknown_files, mig->nr_unknown_files));
	for (unsigned int g = 0; g < mig->nr_groups; g++) {
		struct json_object *group = group_json(b, report, &mig->groups[g]);

		(*group_objects)[g] = group;
		append(b, groups, group);
	}
	put(b, object, "groups", groups);
	return object;
}

static struct json_object *process_json(struct builder *b, const struct mig_report *report,
					const struct mig_task *task)
{
	struct json_object *object = checked(b, json_object_new_object());
	struct json_object *tuple = checked(b, json_object_new_object());

	if (!object || !tuple) {
		json_object_put(object);
		json_object_put(tuple);
		return NULL;
	}
	put_int(b, object, "pid", task->pid);
	put_string(b, object, "comm", task->comm ? task->comm : "");
	put_string(b, object, "exe", task->exe ? task->exe : "");
	put_string(b, object, "script", task->script && task->script[0] ? task->script : NULL);
	put(b, object, "cmdline", string_array(b, task->argv, task->argc));
	put_string(b, object, "program", procinfo_program(task));
	for (unsigned int h = 0; h < report->hiers.nr; h++)
		if (task->coord[h])
			put_string(b, tuple, report_hier_name(report, h),
				   task_coord(report, task, h));
	put(b, object, "tuple", tuple);
	put_bool(b, object, "multi_hierarchy", task->multi_hierarchy);
	put_string(b, object, "fold", task->exact ? "exact" : "approximate");
	put_string(b, object, "v2_leaf", report->nodes ? report->nodes[task->leaf].path : NULL);
	return object;
}

static struct json_object *node_json(struct builder *b, const struct mig_report *report,
				     unsigned int *n)
{
	const struct mig_v2node *node = &report->nodes[*n];
	struct json_object *object = checked(b, json_object_new_object());
	struct json_object *children = checked(b, json_object_new_array());
	unsigned int self = *n;

	if (!object || !children) {
		json_object_put(object);
		json_object_put(children);
		return NULL;
	}
	put_string(b, object, "name", node->name);
	put_string(b, object, "path", node->path);
	put(b, object, "hierarchies", hier_names(b, report, node->hier_mask));
	put(b, object, "approximate_for", hier_names(b, report, node->approx_mask));
	put_bool(b, object, "shape_divergent", node->shape_divergent);
	put_bool(b, object, "leaf", node->leaf);
	put_int(b, object, "nr_tasks", node->nr_tasks);
	if (node->leaf)
		put_string(b, object, "fold", node->exact ? "exact" : "approximate");
	/* Preorder: the children follow their parent, each with its own subtree. */
	for (++*n; *n < report->nr_nodes && report->nodes[*n].parent == (int)self;)
		append(b, children, node_json(b, report, n));
	put(b, object, "children", children);
	return object;
}

static struct json_object *log_json(struct builder *b, const struct log_summary *log)
{
	struct json_object *object = checked(b, json_object_new_object());
	struct json_object *by_kind = checked(b, json_object_new_object());
	struct json_object *uses = checked(b, json_object_new_array());

	if (!object || !by_kind || !uses) {
		json_object_put(object);
		json_object_put(by_kind);
		json_object_put(uses);
		return NULL;
	}
	put_string(b, object, "path", log->path);
	put_int(b, object, "lines", (int64_t)log->lines);
	put_int(b, object, "records", (int64_t)log->records);
	put_int(b, object, "corrupt", (int64_t)log->corrupt);
	put_int(b, object, "blank", (int64_t)log->blank);
	put_int(b, object, "first_corrupt_line", (int64_t)log->first_corrupt_line);
	put_int(b, object, "folded", (int64_t)log->folded);
	put_int(b, object, "capped", (int64_t)log->capped);
	for (unsigned int k = 0; k < LOG_NR_KINDS; k++)
		put_int(b, by_kind, log_kind_names[k], (int64_t)log->by_kind[k]);
	put(b, object, "by_kind", by_kind);
	for (size_t i = 0; i < log->nr_uses; i++) {
		const struct log_use *use = log->uses[i];
		struct json_object *entry = checked(b, json_object_new_object());

		if (!entry)
			break;
		put_string(b, entry, "program", use->program);
		if (use->unit[0])
			put_string(b, entry, "unit", use->unit);
		put_string(b, entry, "comm", use->comm);
		put_string(b, entry, "kind", log_kind_names[use->kind]);
		put_int(b, entry, "count", (int64_t)use->count);
		put_string(b, entry, "first", use->first_time);
		put_string(b, entry, "last", use->last_time);
		put(b, entry, "hierarchies",
		    string_array(b, use->hierarchies, use->nr_hierarchies));
		put(b, entry, "examples", string_array(b, use->examples, use->nr_examples));
		append(b, uses, entry);
	}
	put(b, object, "uses", uses);
	return object;
}

/* cgxfs's cgx.deprecations: "kind count" lines. */
static struct json_object *counters_json(struct builder *b, const char *text)
{
	struct json_object *object = checked(b, json_object_new_object());
	_cleanup_free_ char *copy = strdup(text);
	char *save = NULL;

	if (!object || !copy) {
		b->failed = true;
		return object;
	}
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *space = strrchr(line, ' ');

		if (!space)
			continue;
		*space = '\0';
		put_int(b, object, line, strtoll(space + 1, NULL, 10));
	}
	return object;
}

static struct json_object *verdict_json(struct builder *b, const struct mig_verdict *v)
{
	struct json_object *object = checked(b, json_object_new_object());

	if (!object)
		return NULL;
	put_string(b, object, "status", v->status);
	for (size_t i = 0; i < out_nr_verdict_counts; i++)
		put_int(b, object, out_verdict_counts[i].key,
			(int64_t)out_count_value(v, &out_verdict_counts[i]));
	return object;
}

/* The findings (findings.h), and how many of each severity and inhibitors. */
static void findings_json(struct builder *b, struct json_object *root,
			  const struct mig_report *report)
{
	_cleanup_findings_ struct mig_findings findings = {0};
	struct json_object *list, *summary;

	if (findings_build(report, &findings) < 0) {
		b->failed = true;
		return;
	}
	put(b, root, "findings", list = checked(b, sized_array(findings.nr)));
	for (size_t i = 0; list && i < findings.nr; i++) {
		const struct mig_finding *finding = &findings.items[i];
		struct json_object *object = checked(b, json_object_new_object());

		if (!object)
			break;
		put_string(b, object, "id", finding->id);
		put_string(b, object, "type", finding->type);
		put_string(b, object, "severity", finding_severity_name(finding->severity));
		put_bool(b, object, "inhibitor", finding->inhibitor);
		put_string(b, object, "title", finding->title);
		put_string(b, object, "summary", finding->summary);
		put_string(b, object, "remediation", finding->remediation);
		append(b, list, object);
	}
	put(b, root, "findings_summary", summary = checked(b, json_object_new_object()));
	for (unsigned int s = 0; summary && s < FINDING_NR_SEVERITIES; s++)
		put_int(b, summary, finding_severity_name(s), (int64_t)findings.by_severity[s]);
	if (summary)
		put_int(b, summary, "inhibitors", (int64_t)findings.inhibitors);
}

struct json_object *report_to_json(const struct mig_report *report)
{
	struct builder b = {0};
	struct json_object *root = checked(&b, json_object_new_object());
	struct json_object *sources, *hierarchies, *shapes, *processes;
	struct json_object **group_objects[CGX_MAX_HIER] = {0};

	if (!root)
		return NULL;
	put_string(&b, root, "schema", MIG_SCHEMA);
	put_int(&b, root, "version", MIG_VERSION);
	put_string(&b, root, "generated", report->generated);
	put_string(&b, root, "host", report->host);
	put_string(&b, root, "kernel", report->kernel);

	put(&b, root, "sources", sources = checked(&b, json_object_new_array()));
	for (unsigned int i = 0; sources && i < report->nr_sources; i++) {
		struct json_object *source = checked(&b, json_object_new_object());

		if (!source)
			break;
		put_string(&b, source, "kind", report->sources[i].kind);
		put_string(&b, source, "path", report->sources[i].path);
		append(&b, sources, source);
	}

	put(&b, root, "hierarchies", hierarchies = checked(&b, json_object_new_array()));
	for (unsigned int h = 0; hierarchies && report->have_hiers && h < report->hiers.nr; h++)
		append(&b, hierarchies, hierarchy_json(&b, report, h, &group_objects[h]));

	put(&b, root, "divergent_trees", shapes = checked(&b, json_object_new_array()));
	for (unsigned int s = 0; shapes && s < report->nr_shapes; s++) {
		struct json_object *shape = checked(&b, json_object_new_object());

		if (!shape)
			break;
		put_string(&b, shape, "path", report->shapes[s].path);
		put(&b, shape, "present_in",
		    hier_names(&b, report, report->shapes[s].present_mask));
		put(&b, shape, "absent_from",
		    hier_names(&b, report, report->shapes[s].absent_mask));
		append(&b, shapes, shape);
	}

	put(&b, root, "processes", processes = checked(&b, json_object_new_array()));
	for (unsigned int t = 0; processes && t < report->nr_tasks; t++) {
		const struct mig_task *task = &report->tasks[t];

		append(&b, processes, process_json(&b, report, task));
		for (unsigned int h = 0; h < report->hiers.nr; h++) {
			struct json_object *group, *tasks;

			if (!task->coord[h] || !group_objects[h] ||
			    !(group = group_objects[h][task->coord[h]]) ||
			    !json_object_object_get_ex(group, "tasks", &tasks))
				continue;
			append(&b, tasks, json_object_new_int(task->pid));
		}
	}
	for (unsigned int h = 0; h < CGX_MAX_HIER; h++)
		free(group_objects[h]);

	if (report->nr_nodes) {
		unsigned int n = 0;

		put(&b, root, "v2_layout", node_json(&b, report, &n));
	} else {
		put(&b, root, "v2_layout", NULL);
	}
	put(&b, root, "log", report->log ? log_json(&b, report->log) : NULL);
	put(&b, root, "cgxfs_counters",
	    report->counters ? counters_json(&b, report->counters) : NULL);
	put(&b, root, "verdict", verdict_json(&b, &report->verdict));
	findings_json(&b, root, report);
	if (b.failed) {
		json_object_put(root);
		return NULL;
	}
	return root;
}
