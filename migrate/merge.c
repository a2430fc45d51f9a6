// SPDX-License-Identifier: GPL-2.0-or-later
#include "merge.h"

#include "fail.h"
#include "json_field.h"
#include "model.h"
#include "out_common.h"
#include "util.h"

#include <json-c/json.h>
#include <string.h>

#define FLEET_SCHEMA "cgx-migrate-fleet/1"
#define MAX_PLACES   16

struct fleet_host {
	char *file, *host, *status;
	long long settings, lost, approx, processes, multi_hierarchy, log_multi_hierarchy;
	unsigned long inhibitors; /* its findings that inhibit the move */
};

/* A program seen in groups on different paths, or logged doing so. */
struct fleet_program {
	char *program;
	unsigned long processes, log_records;
	char *hosts[MAX_PLACES]; /* distinct, the first MAX_PLACES */
	unsigned int nr_hosts;
	unsigned long all_hosts;
	char *places[MAX_PLACES]; /* "host: cpu:/a memory:/b" */
	unsigned int nr_places;
};

/* A v1 file set somewhere with no v2 equivalent. */
struct fleet_lost {
	char *file, *note;
	unsigned long groups, hosts;
	const char *last_host; /* to count each host once */
};

/* A finding that inhibits the move, by its id, and the hosts that have it. */
struct fleet_inhibitor {
	char *id, *type, *title;
	unsigned long hosts;
	char *host_names[MAX_PLACES]; /* the first MAX_PLACES */
	unsigned int nr_host_names;
	const char *last_host; /* to count each host once */
};

struct fleet {
	struct fleet_host *hosts;
	unsigned int nr_hosts;
	struct strmap program_by_name, lost_by_file;
	struct fleet_program **programs;
	unsigned int nr_programs;
	struct fleet_lost **lost;
	unsigned int nr_lost;
	struct strmap inhibitor_by_id;
	struct fleet_inhibitor **inhibitors;
	unsigned int nr_inhibitors;
};

static int grow(void **array, unsigned int nr, size_t size)
{
	/* Doubling at powers of two: nr is the count before the add. */
	if (nr & (nr - 1) && nr)
		return 0;
	void *grown = realloc(*array, (nr ? nr * 2 : 1) * size);

	if (!grown)
		return -ENOMEM;
	*array = grown;
	return 0;
}

static int add_distinct(char **set, unsigned int *nr, const char *text)
{
	for (unsigned int i = 0; i < *nr; i++)
		if (!strcmp(set[i], text))
			return 0;
	if (*nr == MAX_PLACES)
		return 0;
	if (!(set[*nr] = strdup(text)))
		return -ENOMEM;
	(*nr)++;
	return 0;
}

static int program_of(struct fleet *fleet, const char *name, const char *host,
		      struct fleet_program **out)
{
	struct fleet_program *program = strmap_get(&fleet->program_by_name, name);
	unsigned int before;
	int r;

	if (!program) {
		if ((r = grow((void **)&fleet->programs, fleet->nr_programs,
			      sizeof(*fleet->programs))) < 0 ||
		    !(program = calloc(1, sizeof(*program))) || !(program->program = strdup(name)))
			goto oom;
		fleet->programs[fleet->nr_programs++] = program;
		if ((r = strmap_put(&fleet->program_by_name, name, program)) < 0)
			return r;
	}
	before = program->nr_hosts;
	if ((r = add_distinct(program->hosts, &program->nr_hosts, host)) < 0)
		return r;
	/* Past MAX_PLACES the list is full: count a host only when it is new to the last. */
	if (program->nr_hosts > before ||
	    (program->nr_hosts == MAX_PLACES && strcmp(program->hosts[MAX_PLACES - 1], host)))
		program->all_hosts++;
	*out = program;
	return 0;
oom:
	free(program);
	return -ENOMEM;
}

static int add_processes(struct fleet *fleet, struct json_object *report, const char *host)
{
	struct json_object *processes = json_field_array(report, "processes");
	int r;

	for (size_t i = 0; processes && i < json_object_array_length(processes); i++) {
		_cleanup_strbuf_ struct strbuf place = STRBUF_INIT;
		struct json_object *process = json_object_array_get_idx(processes, i);
		struct json_object *multi, *tuple;
		struct fleet_program *program;
		const char *name = json_field_string(process, "program");

		if (!name || !json_object_object_get_ex(process, "multi_hierarchy", &multi) ||
		    !json_object_get_boolean(multi))
			continue;
		if ((r = program_of(fleet, name, host, &program)) < 0 ||
		    (r = strbuf_addf(&place, "%s:", host)) < 0)
			return r;
		program->processes++;
		if ((tuple = json_field_object(process, "tuple"))) {
			json_object_object_foreach(tuple, h, path)
			{
				if ((r = strbuf_addf(&place, " %s:%s", h,
						     json_object_get_string(path))) < 0)
					return r;
			}
		}
		if ((r = add_distinct(program->places, &program->nr_places, place.buf)) < 0)
			return r;
	}
	return 0;
}

static int add_log(struct fleet *fleet, struct json_object *report, const char *host)
{
	struct json_object *log, *uses;
	int r;

	if (!json_object_object_get_ex(report, "log", &log) ||
	    !(uses = json_field_array(log, "uses")))
		return 0;
	for (size_t i = 0; i < json_object_array_length(uses); i++) {
		struct json_object *use = json_object_array_get_idx(uses, i);
		const char *name = json_field_string(use, "program"),
			   *kind = json_field_string(use, "kind");
		struct fleet_program *program;

		if (!name || !kind || strcmp(kind, "multi-hierarchy-process"))
			continue;
		if ((r = program_of(fleet, name, host, &program)) < 0)
			return r;
		program->log_records += json_field_int(use, "count");
	}
	return 0;
}

static int add_lost(struct fleet *fleet, struct json_object *report, const char *host)
{
	struct json_object *hierarchies = json_field_array(report, "hierarchies");

	for (size_t h = 0; hierarchies && h < json_object_array_length(hierarchies); h++) {
		struct json_object *groups =
			json_field_array(json_object_array_get_idx(hierarchies, h), "groups");

		for (size_t g = 0; groups && g < json_object_array_length(groups); g++) {
			struct json_object *settings =
				json_field_array(json_object_array_get_idx(groups, g), "settings");

			for (size_t s = 0; settings && s < json_object_array_length(settings);
			     s++) {
				struct json_object *setting =
					json_object_array_get_idx(settings, s);
				const char *file = json_field_string(setting, "file");
				const char *fate = json_field_string(setting, "fate");
				const char *note = json_field_string(setting, "note");
				struct fleet_lost *lost;

				if (!file || !fate || strcmp(fate, "lost"))
					continue;
				if (!(lost = strmap_get(&fleet->lost_by_file, file))) {
					if (grow((void **)&fleet->lost, fleet->nr_lost,
						 sizeof(*fleet->lost)) < 0 ||
					    !(lost = calloc(1, sizeof(*lost))))
						return -ENOMEM;
					fleet->lost[fleet->nr_lost++] = lost;
					if (!(lost->file = strdup(file)) ||
					    !(lost->note = strdup(note ? note : "")) ||
					    strmap_put(&fleet->lost_by_file, file, lost) < 0)
						return -ENOMEM;
				}
				lost->groups++;
				if (lost->last_host != host) {
					lost->hosts++;
					lost->last_host = host;
				}
			}
		}
	}
	return 0;
}

/* The report's inhibiting findings (a report without findings, of an older cgx-migrate, has none).
 */
static int add_inhibitors(struct fleet *fleet, struct json_object *report, struct fleet_host *host)
{
	struct json_object *findings = json_field_array(report, "findings");

	for (size_t i = 0; findings && i < json_object_array_length(findings); i++) {
		struct json_object *finding = json_object_array_get_idx(findings, i), *inhibitor;
		const char *id = json_field_string(finding, "id");
		const char *type = json_field_string(finding, "type");
		const char *title = json_field_string(finding, "title");
		struct fleet_inhibitor *entry;

		if (!id || !json_object_object_get_ex(finding, "inhibitor", &inhibitor) ||
		    !json_object_get_boolean(inhibitor))
			continue;
		host->inhibitors++;
		if (!(entry = strmap_get(&fleet->inhibitor_by_id, id))) {
			if (grow((void **)&fleet->inhibitors, fleet->nr_inhibitors,
				 sizeof(*fleet->inhibitors)) < 0 ||
			    !(entry = calloc(1, sizeof(*entry))))
				return -ENOMEM;
			fleet->inhibitors[fleet->nr_inhibitors++] = entry;
			if (!(entry->id = strdup(id)) ||
			    !(entry->type = strdup(type ? type : "")) ||
			    !(entry->title = strdup(title ? title : "")) ||
			    strmap_put(&fleet->inhibitor_by_id, id, entry) < 0)
				return -ENOMEM;
		}
		if (entry->last_host == host->host)
			continue;
		entry->last_host = host->host;
		entry->hosts++;
		if (entry->nr_host_names < MAX_PLACES &&
		    !(entry->host_names[entry->nr_host_names++] = strdup(host->host)))
			return -ENOMEM;
	}
	return 0;
}

static int load_one(struct fleet *fleet, const char *path)
{
	struct json_object *report = json_object_from_file(path), *verdict;
	struct fleet_host *host;
	const char *schema, *name;
	int r;

	if (!report) {
		if (access(path, R_OK) < 0)
			return mig_err(-errno, "cannot read the report %s", path);
		return mig_err(-EINVAL, "%s: not JSON: %s", path, json_util_get_last_err());
	}
	schema = json_field_string(report, "schema");
	if (!json_object_is_type(report, json_type_object) || !schema ||
	    strncmp(schema, "cgx-migrate/", 12)) {
		json_object_put(report);
		return mig_err(-EINVAL, "%s: not a cgx-migrate report (no \"schema\": \"%s\")",
			       path, MIG_SCHEMA);
	}
	if (strcmp(schema, MIG_SCHEMA) || json_field_int(report, "version") != MIG_VERSION) {
		r = mig_err(
			-EPROTONOSUPPORT,
			"%s: report schema %s version %lld is unknown (this cgx-migrate reads %s "
			"version %d)",
			path, schema, json_field_int(report, "version"), MIG_SCHEMA, MIG_VERSION);
		json_object_put(report);
		return r;
	}
	if ((r = grow((void **)&fleet->hosts, fleet->nr_hosts, sizeof(*fleet->hosts))) < 0) {
		json_object_put(report);
		return r;
	}
	host = &fleet->hosts[fleet->nr_hosts++];
	memset(host, 0, sizeof(*host));
	name = json_field_string(report, "host");
	json_object_object_get_ex(report, "verdict", &verdict);
	host->file = strdup(path);
	host->host = strdup(name ? name : path);
	host->status =
		strdup(json_field_string(verdict, "status") ? json_field_string(verdict, "status")
							    : "unknown");
	host->settings = json_field_int(verdict, "settings");
	host->lost = json_field_int(verdict, "settings_lost");
	host->approx = json_field_int(verdict, "settings_approximate");
	host->processes = json_field_int(verdict, "processes");
	host->multi_hierarchy = json_field_int(verdict, "processes_multi_hierarchy");
	host->log_multi_hierarchy = json_field_int(verdict, "log_multi_hierarchy");
	r = -ENOMEM;
	if (host->file && host->host && host->status &&
	    (r = add_processes(fleet, report, host->host)) == 0 &&
	    (r = add_log(fleet, report, host->host)) == 0 &&
	    (r = add_lost(fleet, report, host->host)) == 0)
		r = add_inhibitors(fleet, report, host);
	json_object_put(report);
	return r;
}

static int cmp_program(const void *a, const void *b)
{
	const struct fleet_program *x = *(struct fleet_program *const *)a;
	const struct fleet_program *y = *(struct fleet_program *const *)b;

	if (x->all_hosts != y->all_hosts)
		return x->all_hosts > y->all_hosts ? -1 : 1;
	return strcmp(x->program, y->program);
}

static int cmp_lost(const void *a, const void *b)
{
	const struct fleet_lost *x = *(struct fleet_lost *const *)a;
	const struct fleet_lost *y = *(struct fleet_lost *const *)b;

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	return strcmp(x->file, y->file);
}

static int cmp_inhibitor(const void *a, const void *b)
{
	const struct fleet_inhibitor *x = *(struct fleet_inhibitor *const *)a;
	const struct fleet_inhibitor *y = *(struct fleet_inhibitor *const *)b;

	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	return strcmp(x->id, y->id);
}

int fleet_load(struct fleet **out, char *const *paths, unsigned int nr)
{
	struct fleet *fleet = calloc(1, sizeof(*fleet));
	int r;

	*out = fleet;
	if (!fleet)
		return -ENOMEM;
	for (unsigned int i = 0; i < nr; i++)
		if ((r = load_one(fleet, paths[i])) < 0)
			return r;
	if (fleet->nr_programs)
		qsort(fleet->programs, fleet->nr_programs, sizeof(*fleet->programs), cmp_program);
	if (fleet->nr_lost)
		qsort(fleet->lost, fleet->nr_lost, sizeof(*fleet->lost), cmp_lost);
	if (fleet->nr_inhibitors)
		qsort(fleet->inhibitors, fleet->nr_inhibitors, sizeof(*fleet->inhibitors),
		      cmp_inhibitor);
	return 0;
}

void fleet_free(struct fleet *fleet)
{
	if (!fleet)
		return;
	for (unsigned int i = 0; i < fleet->nr_hosts; i++) {
		free(fleet->hosts[i].file);
		free(fleet->hosts[i].host);
		free(fleet->hosts[i].status);
	}
	free(fleet->hosts);
	for (unsigned int i = 0; i < fleet->nr_programs; i++) {
		struct fleet_program *program = fleet->programs[i];

		for (unsigned int j = 0; j < program->nr_hosts; j++)
			free(program->hosts[j]);
		for (unsigned int j = 0; j < program->nr_places; j++)
			free(program->places[j]);
		free(program->program);
		free(program);
	}
	free(fleet->programs);
	for (unsigned int i = 0; i < fleet->nr_lost; i++) {
		free(fleet->lost[i]->file);
		free(fleet->lost[i]->note);
		free(fleet->lost[i]);
	}
	free(fleet->lost);
	for (unsigned int i = 0; i < fleet->nr_inhibitors; i++) {
		struct fleet_inhibitor *entry = fleet->inhibitors[i];

		for (unsigned int j = 0; j < entry->nr_host_names; j++)
			free(entry->host_names[j]);
		free(entry->id);
		free(entry->type);
		free(entry->title);
		free(entry);
	}
	free(fleet->inhibitors);
	strmap_release(&fleet->inhibitor_by_id, NULL);
	strmap_release(&fleet->program_by_name, NULL);
	strmap_release(&fleet->lost_by_file, NULL);
	free(fleet);
}

static unsigned int count_inhibited(const struct fleet *fleet)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < fleet->nr_hosts; i++)
		n += fleet->hosts[i].inhibitors > 0;
	return n;
}

static unsigned int count_status(const struct fleet *fleet, const char *status)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < fleet->nr_hosts; i++)
		n += !strcmp(fleet->hosts[i].status, status);
	return n;
}

static int render_fleet_json(FILE *out, const struct fleet *fleet)
{
	struct json_object *root = json_object_new_object(), *hosts, *programs, *lost, *summary;
	struct json_object *inhibitors;
	int r = -ENOMEM;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "schema", json_object_new_string(FLEET_SCHEMA));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "summary", summary = json_object_new_object());
	json_object_object_add(root, "hosts", hosts = json_object_new_array());
	json_object_object_add(root, "multi_hierarchy_programs",
			       programs = json_object_new_array());
	json_object_object_add(root, "lost_settings", lost = json_object_new_array());
	json_object_object_add(root, "inhibitors", inhibitors = json_object_new_array());
	if (!summary || !hosts || !programs || !lost || !inhibitors)
		goto out;
	json_object_object_add(summary, "hosts", json_object_new_int(fleet->nr_hosts));
	json_object_object_add(summary, "ready", json_object_new_int(count_status(fleet, "ready")));
	json_object_object_add(
		summary, "ready_with_approximations",
		json_object_new_int(count_status(fleet, "ready-with-approximations")));
	json_object_object_add(summary, "needs_changes",
			       json_object_new_int(count_status(fleet, "needs-changes")));
	json_object_object_add(summary, "inhibited", json_object_new_int(count_inhibited(fleet)));
	for (unsigned int i = 0; i < fleet->nr_hosts; i++) {
		const struct fleet_host *h = &fleet->hosts[i];
		struct json_object *host = json_object_new_object();

		if (!host)
			goto out;
		json_object_object_add(host, "host", json_object_new_string(h->host));
		json_object_object_add(host, "report", json_object_new_string(h->file));
		json_object_object_add(host, "status", json_object_new_string(h->status));
		json_object_object_add(host, "settings", json_object_new_int64(h->settings));
		json_object_object_add(host, "settings_lost", json_object_new_int64(h->lost));
		json_object_object_add(host, "settings_approximate",
				       json_object_new_int64(h->approx));
		json_object_object_add(host, "processes", json_object_new_int64(h->processes));
		json_object_object_add(host, "processes_multi_hierarchy",
				       json_object_new_int64(h->multi_hierarchy));
		json_object_object_add(host, "log_multi_hierarchy",
				       json_object_new_int64(h->log_multi_hierarchy));
		json_object_object_add(host, "inhibitors", json_object_new_int64(h->inhibitors));
		json_object_array_add(hosts, host);
	}
	for (unsigned int i = 0; i < fleet->nr_inhibitors; i++) {
		const struct fleet_inhibitor *in = fleet->inhibitors[i];
		struct json_object *entry = json_object_new_object(), *names;

		if (!entry)
			goto out;
		json_object_object_add(entry, "id", json_object_new_string(in->id));
		json_object_object_add(entry, "type", json_object_new_string(in->type));
		json_object_object_add(entry, "title", json_object_new_string(in->title));
		json_object_object_add(entry, "nr_hosts", json_object_new_int64(in->hosts));
		json_object_object_add(entry, "hosts", names = json_object_new_array());
		for (unsigned int j = 0; names && j < in->nr_host_names; j++)
			json_object_array_add(names, json_object_new_string(in->host_names[j]));
		json_object_array_add(inhibitors, entry);
	}
	for (unsigned int i = 0; i < fleet->nr_programs; i++) {
		const struct fleet_program *p = fleet->programs[i];
		struct json_object *program = json_object_new_object();
		struct json_object *names = json_object_new_array(),
				   *places = json_object_new_array();

		if (!program || !names || !places) {
			json_object_put(program);
			json_object_put(names);
			json_object_put(places);
			goto out;
		}
		json_object_object_add(program, "program", json_object_new_string(p->program));
		json_object_object_add(program, "nr_hosts", json_object_new_int64(p->all_hosts));
		for (unsigned int j = 0; j < p->nr_hosts; j++)
			json_object_array_add(names, json_object_new_string(p->hosts[j]));
		json_object_object_add(program, "hosts", names);
		json_object_object_add(program, "processes", json_object_new_int64(p->processes));
		json_object_object_add(program, "log_records",
				       json_object_new_int64(p->log_records));
		for (unsigned int j = 0; j < p->nr_places; j++)
			json_object_array_add(places, json_object_new_string(p->places[j]));
		json_object_object_add(program, "places", places);
		json_object_array_add(programs, program);
	}
	for (unsigned int i = 0; i < fleet->nr_lost; i++) {
		struct json_object *entry = json_object_new_object();

		if (!entry)
			goto out;
		json_object_object_add(entry, "file", json_object_new_string(fleet->lost[i]->file));
		json_object_object_add(entry, "hosts",
				       json_object_new_int64(fleet->lost[i]->hosts));
		json_object_object_add(entry, "groups",
				       json_object_new_int64(fleet->lost[i]->groups));
		json_object_object_add(entry, "note", json_object_new_string(fleet->lost[i]->note));
		json_object_array_add(lost, entry);
	}
	r = render_json_object(out, root);
out:
	json_object_put(root);
	return r;
}

static void render_fleet_text(FILE *out, const struct fleet *fleet, bool markdown)
{
	const char *h2 = markdown ? "\n## " : "\n";

	fprintf(out, "%scgx-migrate fleet report: %u host%s\n\n", markdown ? "# " : "",
		fleet->nr_hosts, fleet->nr_hosts == 1 ? "" : "s");
	fprintf(out, "%sready: %u, ready with approximations: %u, needs changes: %u\n",
		markdown ? "" : "  ", count_status(fleet, "ready"),
		count_status(fleet, "ready-with-approximations"),
		count_status(fleet, "needs-changes"));
	fprintf(out, "%sinhibited (cannot move to a cgroup2-only kernel unchanged): %u\n",
		markdown ? "\n" : "  ", count_inhibited(fleet));
	fprintf(out, "%sHosts\n\n", h2);
	if (markdown)
		fprintf(out,
			"| host | status | settings | lost | approximate | processes on different "
			"paths | log multi-hierarchy |\n|---|---|---:|---:|---:|---:|---:|\n");
	for (unsigned int i = 0; i < fleet->nr_hosts; i++) {
		const struct fleet_host *h = &fleet->hosts[i];

		fprintf(out,
			markdown ? "| %s | %s | %lld | %lld | %lld | %lld | %lld |\n"
				 : "  %-24s %-26s settings %lld (lost %lld, approximate %lld), "
				   "processes on different paths %lld, log %lld\n",
			h->host, h->status, h->settings, h->lost, h->approx, h->multi_hierarchy,
			h->log_multi_hierarchy);
	}
	fprintf(out, "%sPrograms using several hierarchies\n\n", h2);
	if (!fleet->nr_programs)
		fprintf(out, "%snone\n", markdown ? "" : "  ");
	else if (markdown)
		fprintf(out, "| program | hosts | processes | log records | where |\n"
			     "|---|---:|---:|---:|---|\n");
	for (unsigned int i = 0; i < fleet->nr_programs; i++) {
		const struct fleet_program *p = fleet->programs[i];

		if (markdown)
			fprintf(out, "| %s | %lu | %lu | %lu | ", p->program, p->all_hosts,
				p->processes, p->log_records);
		else
			fprintf(out, "  %s: %lu host%s, %lu process%s seen, %lu log records\n",
				p->program, p->all_hosts, p->all_hosts == 1 ? "" : "s",
				p->processes, p->processes == 1 ? "" : "es", p->log_records);
		for (unsigned int j = 0; j < p->nr_places; j++)
			fprintf(out, markdown ? "%s`%s`" : "%s    %s\n",
				markdown && j ? "<br>" : "", p->places[j]);
		if (markdown)
			fputs(" |\n", out);
	}
	fprintf(out, "%sInhibitors\n\n", h2);
	if (!fleet->nr_inhibitors)
		fprintf(out, "%snone\n", markdown ? "" : "  ");
	else if (markdown)
		fprintf(out, "| finding | id | hosts |\n|---|---|---:|\n");
	for (unsigned int i = 0; i < fleet->nr_inhibitors; i++) {
		const struct fleet_inhibitor *in = fleet->inhibitors[i];

		fputs(markdown ? "| " : "  ", out);
		out_put_safe(out, in->title);
		fputs(markdown ? " | `" : " (", out);
		out_put_safe(out, in->id);
		fprintf(out, markdown ? "` | %lu |\n" : "): %lu host%s\n", in->hosts,
			in->hosts == 1 ? "" : "s");
	}
	fprintf(out, "%sSettings with no v2 equivalent\n\n", h2);
	if (!fleet->nr_lost)
		fprintf(out, "%snone\n", markdown ? "" : "  ");
	else if (markdown)
		fprintf(out, "| v1 file | hosts | groups | what instead |\n|---|---:|---:|---|\n");
	for (unsigned int i = 0; i < fleet->nr_lost; i++) {
		const struct fleet_lost *lost = fleet->lost[i];

		if (markdown)
			fprintf(out, "| `%s` | %lu | %lu | %s |\n", lost->file, lost->hosts,
				lost->groups, lost->note);
		else
			fprintf(out, "  %s: %lu host%s, %lu group%s: %s\n", lost->file, lost->hosts,
				lost->hosts == 1 ? "" : "s", lost->groups,
				lost->groups == 1 ? "" : "s", lost->note);
	}
}

int render_fleet(FILE *out, void *data)
{
	const struct fleet_args *args = data;

	if (args->format == FMT_JSON)
		return render_fleet_json(out, args->fleet);
	render_fleet_text(out, args->fleet, args->format == FMT_MARKDOWN);
	return 0;
}
