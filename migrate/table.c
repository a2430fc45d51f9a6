// SPDX-License-Identifier: GPL-2.0-or-later
#include "table.h"

#include "out_common.h"
#include "v1_files.h"

#include <json-c/json.h>
#include <string.h>

#define TABLE_SCHEMA "cgx-migrate-table/1"

static const char *where_of(const struct v1_file *row)
{
	if (row->flags & V1F_ROOT_ONLY)
		return "root";
	if (row->flags & V1F_NOT_ROOT)
		return "child";
	return "all";
}

static struct json_object *row_json(const char *controller, const struct v1_file *row)
{
	struct json_object *object = json_object_new_object();
	char mode[8], dflt[256];

	if (!object)
		return NULL;
	snprintf(mode, sizeof(mode), "%04o", (unsigned int)row->mode & 07777);
	/* Each add takes ownership; a NULL (out of memory) is caught by the caller's check. */
	json_object_object_add(object, "controller", json_object_new_string(controller));
	json_object_object_add(object, "file", json_object_new_string(row->name));
	json_object_object_add(object, "mode", json_object_new_string(mode));
	json_object_object_add(object, "where", json_object_new_string(where_of(row)));
	json_object_object_add(object, "inherited",
			       json_object_new_boolean(row->flags & V1F_INHERIT));
	json_object_object_add(object, "default",
			       row->default_value ? json_object_new_string(v1_text_trimmed(
							    row->default_value, dflt, sizeof(dflt)))
						  : NULL);
	json_object_object_add(object, "mapping",
			       json_object_new_string(v1_mapping_name(row->v2.kind)));
	json_object_object_add(object, "fate",
			       json_object_new_string(mig_fate_name(mig_fate_of(row->v2.kind))));
	json_object_object_add(object, "v2_file",
			       row->v2.file ? json_object_new_string(row->v2.file) : NULL);
	json_object_object_add(object, "converts",
			       json_object_new_boolean(row->v2.convert != NULL));
	json_object_object_add(object, "note",
			       row->v2.note ? json_object_new_string(row->v2.note) : NULL);
	return object;
}

/* Calls @fn for every row: the core files ("cgroup"), then each controller's. */
static int for_each_row(int (*fn)(void *data, const char *controller, const struct v1_file *row),
			void *data)
{
	int r;

	for (unsigned int i = 0; i < v1_nr_core_files; i++)
		if ((r = fn(data, "cgroup", &v1_core_files[i])) < 0)
			return r;
	for (unsigned int c = 0; v1_controllers[c]; c++)
		for (unsigned int i = 0; i < v1_controllers[c]->nr_files; i++)
			if ((r = fn(data, v1_controllers[c]->name, &v1_controllers[c]->files[i])) <
			    0)
				return r;
	return 0;
}

static int add_json_row(void *data, const char *controller, const struct v1_file *row)
{
	struct json_object *object = row_json(controller, row);

	if (!object || json_object_array_add(data, object) < 0) {
		json_object_put(object);
		return -ENOMEM;
	}
	return 0;
}

static int print_text_row(void *data, const char *controller, const struct v1_file *row)
{
	char trimmed[64], dflt[80];

	fprintf(data, "%-9s %-40s %04o %-5s %-12s %-11s %-24s %s\n", controller, row->name,
		(unsigned int)row->mode & 07777, where_of(row),
		row->default_value ? v1_text_oneline(v1_text_trimmed(row->default_value, trimmed,
								     sizeof(trimmed)),
						     dflt, sizeof(dflt))
				   : "-",
		v1_mapping_name(row->v2.kind), row->v2.file ? row->v2.file : "-",
		row->v2.note ? row->v2.note : "");
	return 0;
}

int render_table(FILE *out, void *data)
{
	const struct table_args *args = data;
	struct json_object *root, *rows;
	int r;

	if (args->format != FMT_JSON) {
		fprintf(out, "%-9s %-40s %-4s %-5s %-12s %-11s %-24s %s\n", "CONTROLLER", "FILE",
			"MODE", "WHERE", "DEFAULT", "MAPPING", "V2 FILE", "NOTE");
		return for_each_row(print_text_row, out);
	}
	if (!(root = json_object_new_object()) || !(rows = json_object_new_array())) {
		json_object_put(root);
		return -ENOMEM;
	}
	json_object_object_add(root, "schema", json_object_new_string(TABLE_SCHEMA));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "files", rows);
	if ((r = for_each_row(add_json_row, rows)) == 0)
		r = render_json_object(out, root);
	json_object_put(root);
	return r;
}
