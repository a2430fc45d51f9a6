// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Severity and inhibitor follow what a cgroup2-only kernel does to each use:
 * a setting with no v2 equivalent, or a named hierarchy, stops working
 * (high, inhibitor); what cgxfs carries over only approximately works,
 * differently (medium); a tree that diverges is a shape to change (low); a
 * setting with an exact v2 equivalent is a line to write (info).
 */
#include "findings.h"

#include "out_common.h"
#include "procinfo.h"
#include "strmap.h"
#include "systemd_units.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const severity_names[FINDING_NR_SEVERITIES] = {"high", "medium", "low", "info"};

const char *finding_severity_name(enum finding_severity severity)
{
	return severity < FINDING_NR_SEVERITIES ? severity_names[severity] : "info";
}

static void finding_free(struct mig_finding *finding)
{
	free(finding->id);
	free(finding->title);
	free(finding->summary);
	free(finding->remediation);
}

void findings_release(struct mig_findings *findings)
{
	for (size_t i = 0; i < findings->nr; i++)
		finding_free(&findings->items[i]);
	free(findings->items);
	*findings = (struct mig_findings){0};
}

static char *vformat(const char *fmt, va_list ap)
{
	char *text;

	return vasprintf(&text, fmt, ap) < 0 ? NULL : text;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = vformat(fmt, ap);
	va_end(ap);
	return text;
}

/* Takes @id, @title, @summary and @remediation (any NULL: -ENOMEM, all freed). */
static int add(struct mig_findings *findings, const char *type, enum finding_severity severity,
	       bool inhibitor, char *id, char *title, char *summary, char *remediation)
{
	struct mig_finding finding = {id,    type,    severity,	   inhibitor,
				      title, summary, remediation, findings->nr};

	if (!id || !title || !summary || !remediation) {
		finding_free(&finding);
		return -ENOMEM;
	}
	if (findings->nr == findings->cap) {
		size_t cap = findings->cap ? findings->cap * 2 : 16;
		struct mig_finding *grown = realloc(findings->items, cap * sizeof(*grown));

		if (!grown) {
			finding_free(&finding);
			return -ENOMEM;
		}
		findings->items = grown;
		findings->cap = cap;
	}
	findings->items[findings->nr++] = finding;
	findings->by_severity[severity]++;
	findings->inhibitors += inhibitor;
	return 0;
}

/* What systemd says for @setting of @path: "MemoryMax=1G in students.slice.d/", or NULL. */
static char *systemd_lines(const char *path, const struct mig_setting *setting)
{
	const char *file = setting->row->v2.file;
	char *text = NULL, *copy, *line, *save = NULL;
	size_t len = 0;
	FILE *out;

	if (!file || !setting->v2_value || !(out = open_memstream(&text, &len)))
		return NULL;
	if (!(copy = strdup(setting->v2_value))) {
		fclose(out);
		free(text);
		return NULL;
	}
	fputs("with systemd, in a drop-in of ", out);
	systemd_unit_name(out, path);
	if (systemd_container_prefix(path))
		fprintf(out, " inside the container of %.*s", (int)systemd_container_prefix(path),
			path);
	fprintf(out, " ([%s]): ", systemd_unit_section(path));
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		systemd_property(out, file, line);
	free(copy);
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	/* One line: the properties' newlines become "; ". */
	for (size_t i = 0; len && i < len - 1; i++)
		if (text[i] == '\n')
			text[i] = ';';
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

static int setting_finding(struct mig_findings *findings, const char *hier,
			   const struct mig_group *group, const struct mig_setting *setting)
{
	char value[256], note[1024], v2[256];
	const char *file = setting->row->name;
	_cleanup_free_ char *systemd = NULL;

	v1_text_oneline(setting->value, value, sizeof(value));
	v1_text_oneline(setting_note(setting) ? setting_note(setting) : "", note, sizeof(note));
	switch (setting->fate) {
	case FATE_LOST:
		return add(findings, "setting-lost", FINDING_HIGH, true,
			   format("setting-lost:%s:%s:%s", hier, group->path, file),
			   format("%s of %s:%s has no cgroup2 equivalent", file, hier, group->path),
			   format("It is set to %s. On a cgroup2-only kernel %s.", value,
				  setting->row->flags & V1F_V2_LACKS
					  ? "only cgx's emulation does what it did"
					  : "nothing does what it did"),
			   format("%s", note[0] ? note : "Drop it, or do its job another way."));
	case FATE_APPROX:
		systemd = systemd_lines(group->path, setting);
		return add(findings, "setting-approximate", FINDING_MEDIUM, false,
			   format("setting-approximate:%s:%s:%s", hier, group->path, file),
			   format("%s of %s:%s carries over only in part", file, hier, group->path),
			   format("It is set to %s; cgroup2's %s does part of it.", value,
				  setting->row->v2.file ? setting->row->v2.file : "tree"),
			   format("%s%s%s", note, systemd && note[0] ? "; " : "",
				  systemd ? systemd : ""));
	case FATE_EXACT:
		break;
	}
	systemd = systemd_lines(group->path, setting);
	v1_text_oneline(setting->v2_value ? setting->v2_value : "", v2, sizeof(v2));
	return add(findings, "setting-converted", FINDING_INFO, false,
		   format("setting-converted:%s:%s:%s", hier, group->path, file),
		   format("%s of %s:%s becomes %s", file, hier, group->path,
			  setting->row->v2.file ? setting->row->v2.file : "a core file"),
		   format("It is set to %s; cgroup2 says the same with %s.", value,
			  v2[0] ? v2 : "its own file"),
		   format("Write %s to %s of the group's directory%s%s", v2[0] ? v2 : value,
			  setting->row->v2.file ? setting->row->v2.file : file, systemd ? "; " : "",
			  systemd ? systemd : ""));
}

static int settings_findings(const struct mig_report *report, struct mig_findings *findings)
{
	int r;

	for (unsigned int h = 0; h < report->hiers.nr; h++)
		for (unsigned int g = 0; g < report->hier[h].nr_groups; g++) {
			const struct mig_group *group = &report->hier[h].groups[g];

			for (unsigned int s = 0; s < group->nr_settings; s++)
				if ((r = setting_finding(findings, report_hier_name(report, h),
							 group, &group->settings[s])) < 0)
					return r;
		}
	return 0;
}

static int hierarchy_findings(const struct mig_report *report, struct mig_findings *findings)
{
	int r;

	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const char *name = report_hier_name(report, h);
		unsigned int groups = report->hier[h].nr_groups;

		if (report->hiers.hier[h].named[0] && groups > 1 &&
		    (r = add(findings, "named-hierarchy", FINDING_HIGH, true,
			     format("named-hierarchy:%s", name),
			     format("the named hierarchy %s is in use", name),
			     format("It has %u group%s. cgroup2 has one tree and no named "
				    "hierarchies: mount -t cgroup -o name=... fails.",
				    groups - 1, groups == 2 ? "" : "s"),
			     format("Keep its groups as directories of the one tree, and labels as "
				    "user.* xattrs on them; or run its users under cgx-exec"))) < 0)
			return r;
		if (report_hier_diverges(report, h) &&
		    (r = add(findings, "divergent-tree", FINDING_LOW, false,
			     format("divergent-tree:%s", name),
			     format("%s has groups other hierarchies in use have not", name),
			     format("cgroup2 has one tree: a group is a directory for every "
				    "controller at once."),
			     format("Make the same groups in every hierarchy"))) < 0)
			return r;
	}
	return 0;
}

/*
 * One finding per program with processes in groups on different paths:
 * counted through a map, a host may run 100,000 processes. The count
 * rides in the map's pointer, the first one's index in @first.
 */
static int process_findings(const struct mig_report *report, struct mig_findings *findings)
{
	struct strmap counts = STRMAP_INIT;
	int r = 0;

	for (unsigned int t = 0; t < report->nr_tasks && r == 0; t++) {
		const char *program = procinfo_program(&report->tasks[t]);
		uintptr_t count;

		if (report->tasks[t].multi_hierarchy) {
			count = (uintptr_t)strmap_get(&counts, program);
			r = strmap_put(&counts, program, (void *)(count + 1));
		}
	}
	for (unsigned int t = 0; t < report->nr_tasks && r == 0; t++) {
		const struct mig_task *task = &report->tasks[t];
		const char *program = procinfo_program(task);
		uintptr_t count;

		/* The first process of each program makes its finding, and takes it out. */
		if (!task->multi_hierarchy || !(count = (uintptr_t)strmap_get(&counts, program)))
			continue;
		if ((r = strmap_put(&counts, program, NULL)) < 0)
			break;
		r = add(findings, "multi-hierarchy-process", FINDING_MEDIUM, false,
			format("multi-hierarchy-process:%s", program),
			format("%s has processes in groups on different paths", program),
			format("%lu of its processes (pid %d first); in cgroup2 a process sits in "
			       "one directory, so cgxfs splits their groups' limits over leaves.",
			       (unsigned long)count, (int)task->pid),
			format("Put each of its processes in groups of one path in every "
			       "hierarchy"));
	}
	strmap_release(&counts, NULL);
	return r;
}

static const struct {
	const char *type;
	enum finding_severity severity;
	bool inhibitor;
	const char *remediation;
} log_kinds[LOG_NR_KINDS] = {
	[LOG_MULTI_HIERARCHY] = {"log-multi-hierarchy-process", FINDING_MEDIUM, false,
				 "Put its processes in groups of one path in every hierarchy"},
	[LOG_DIVERGENT_TREE] = {"log-divergent-tree", FINDING_LOW, false,
				"Make the same groups in every hierarchy it uses"},
	[LOG_NAMED_HIERARCHY] = {"log-named-hierarchy", FINDING_HIGH, true,
				 "Use directories of the one tree instead of a named hierarchy, "
				 "or keep it under cgx-exec"},
	[LOG_RUNTIME_HIERARCHY] = {"log-runtime-hierarchy", FINDING_MEDIUM, false,
				   "Use the cgroup2 mount: there is one hierarchy, always there"},
	[LOG_NO_V2] = {"log-no-v2-equivalent", FINDING_HIGH, true,
		       "Its writes have no effect on cgroup2: see each file's note in "
		       "'cgx-migrate table'"},
	[LOG_APPROXIMATE] = {"log-approximate", FINDING_MEDIUM, false,
			     "Check that the approximation (see 'cgx-migrate table') is enough"},
	[LOG_DELEGATION_REFUSED] = {"log-delegation-refused", FINDING_MEDIUM, false,
				    "Give the writer write access to the cgroup.procs named in "
				    "the record's detail (cgroup2's delegation rule)"},
	[LOG_OTHER] = {"log-other", FINDING_INFO, false, "Read the records of this kind"},
};

static int log_findings(const struct log_summary *log, struct mig_findings *findings)
{
	int r;

	for (size_t i = 0; log && i < log->nr_uses; i++) {
		const struct log_use *use = log->uses[i];
		const char *kind = log_kind_names[use->kind];
		bool unit = use->unit[0];

		if ((r = add(findings, log_kinds[use->kind].type, log_kinds[use->kind].severity,
			     log_kinds[use->kind].inhibitor,
			     format("log:%s:%s%s%s", kind, use->program, unit ? ":" : "",
				    use->unit),
			     format("%s%s%s: %s", use->program, unit ? " for " : "", use->unit,
				    kind),
			     format("%lu records in the deprecation log, from %s to %s.",
				    use->count, use->first_time ? use->first_time : "?",
				    use->last_time ? use->last_time : "?"),
			     format("%s", log_kinds[use->kind].remediation))) < 0)
			return r;
	}
	return 0;
}

/* Most severe first; within a severity, the order they were found in (@seq). */
static int by_severity(const void *a, const void *b)
{
	const struct mig_finding *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity < y->severity ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int findings_build(const struct mig_report *report, struct mig_findings *findings)
{
	int r;

	*findings = (struct mig_findings){0};
	if ((r = hierarchy_findings(report, findings)) < 0 ||
	    (r = settings_findings(report, findings)) < 0 ||
	    (r = process_findings(report, findings)) < 0 ||
	    (r = log_findings(report->log, findings)) < 0) {
		findings_release(findings);
		return r;
	}
	if (findings->nr)
		qsort(findings->items, findings->nr, sizeof(*findings->items), by_severity);
	return 0;
}
