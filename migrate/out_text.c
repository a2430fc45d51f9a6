// SPDX-License-Identifier: GPL-2.0-or-later
/* The report for a terminal: sections, a drawn tree, colour only on a tty. */
#include "out.h"

#include "procinfo.h"
#include "util.h"

#include <string.h>

struct style {
	const char *bold, *good, *warn, *bad, *dim, *off;
};

static const struct style colour_style = {"\033[1m",  "\033[32m", "\033[33m",
					  "\033[31m", "\033[2m",  "\033[0m"};
static const struct style plain_style = {"", "", "", "", "", ""};

static const char *fate_colour(const struct style *st, enum mig_fate fate)
{
	return fate == FATE_EXACT ? st->good : fate == FATE_APPROX ? st->warn : st->bad;
}

static const char *status_colour(const struct style *st, const char *status)
{
	if (!strcmp(status, "ready"))
		return st->good;
	return strcmp(status, "needs-changes") ? st->warn : st->bad;
}

static void heading(FILE *out, const struct style *st, const char *title)
{
	fprintf(out, "\n%s%s%s\n", st->bold, title, st->off);
}

static void print_verdict(FILE *out, const struct style *st, const struct mig_report *report)
{
	const struct mig_verdict *v = &report->verdict;

	fprintf(out, "Verdict: %s%s%s\n", status_colour(st, v->status), v->status, st->off);
	fprintf(out,
		"  settings not at their default: %lu (%s%lu converted%s, %s%lu approximate%s, "
		"%s%lu lost%s)\n",
		v->settings, st->good, v->exact, st->off, st->warn, v->approx, st->off, st->bad,
		v->lost, st->off);
	if (report->have_hiers) {
		fprintf(out, "  groups: %lu (%lu fold approximately, %lu where the trees differ)\n",
			v->groups, v->groups_approx, v->groups_shape_divergent);
		fprintf(out,
			"  processes in groups: %lu (%lu in groups on different paths, %lu "
			"fold approximately)\n",
			v->processes, v->multi_hierarchy, v->processes_approx);
	}
	if (report->log)
		fprintf(out,
			"  log: %lu multi-hierarchy uses, %lu writes with no v2 equivalent, %lu "
			"approximations\n",
			v->log_multi_hierarchy, v->log_no_v2, v->log_approx);
}

static void print_hierarchies(FILE *out, const struct style *st, const struct mig_report *report)
{
	heading(out, st, "Hierarchies");
	if (!report->have_hiers || !report->hiers.nr) {
		fprintf(out, "  none scanned\n");
		return;
	}
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];
		bool diverges = report_hier_diverges(report, h);

		fprintf(out, "  %-20s %-36s %6u group%s %6lu process%s  %s%s%s\n",
			report_hier_name(report, h), hier->mountpoint, hier->nr_groups - 1,
			hier->nr_groups == 2 ? " " : "s", hier->nr_tasks,
			hier->nr_tasks == 1 ? "  " : "es", diverges ? st->warn : st->dim,
			diverges	      ? "diverges"
			: hier->nr_groups > 1 ? "in use"
					      : "unused",
			st->off);
	}
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];

		if (!hier->nr_unknown_files)
			continue;
		fprintf(out, "  %sfiles of %s with no row in the table:", st->dim,
			report_hier_name(report, h));
		for (unsigned int i = 0; i < hier->nr_unknown_files; i++)
			fprintf(out, " %s", hier->unknown_files[i]);
		fprintf(out, "%s\n", st->off);
	}
}

static void print_tuple(FILE *out, const struct mig_report *report, const struct mig_task *task)
{
	bool first = true;

	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		if (!task->coord[h])
			continue;
		fprintf(out, "%s%s:%s", first ? "" : " ", report_hier_name(report, h),
			task_coord(report, task, h));
		first = false;
	}
}

static void print_divergence(FILE *out, const struct style *st, const struct mig_report *report)
{
	unsigned int shown = 0, nr = 0;

	heading(out, st, "Processes in groups on different paths");
	for (unsigned int t = 0; t < report->nr_tasks; t++) {
		const struct mig_task *task = &report->tasks[t];

		if (!task->multi_hierarchy && task->exact)
			continue;
		if (nr++ >= OUT_MAX_ROWS)
			continue;
		fprintf(out, "  %s%d%s %s (%s): ", st->bold, task->pid, st->off,
			task->comm[0] ? task->comm : "?", procinfo_program(task));
		print_tuple(out, report, task);
		fprintf(out, "\n      -> %s %s%s%s\n", report->nodes[task->leaf].path,
			task->exact ? st->good : st->warn, task->exact ? "exact" : "approximate",
			st->off);
		shown++;
	}
	if (!nr)
		fprintf(out, "  none\n");
	else if (nr > shown)
		fprintf(out, "  ... and %u more (see --format json)\n", nr - shown);

	heading(out, st, "Paths where the group trees differ");
	for (unsigned int s = 0; s < report->nr_shapes && s < OUT_MAX_ROWS; s++) {
		char present[1024], absent[1024];

		hier_mask_names(report, report->shapes[s].present_mask, present, sizeof(present));
		hier_mask_names(report, report->shapes[s].absent_mask, absent, sizeof(absent));
		fprintf(out, "  %s%s%s: in %s; not in %s\n", st->warn, report->shapes[s].path,
			st->off, present, absent);
	}
	if (!report->nr_shapes)
		fprintf(out, "  none\n");
	else if (report->nr_shapes > OUT_MAX_ROWS)
		fprintf(out, "  ... and %u more\n", report->nr_shapes - OUT_MAX_ROWS);
}

static void print_settings(FILE *out, const struct style *st, const struct mig_report *report)
{
	unsigned long shown = 0, nr = 0;

	heading(out, st, "Settings that differ from the defaults");
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];

		for (unsigned int g = 0; g < hier->nr_groups; g++) {
			const struct mig_group *group = &hier->groups[g];

			if (!group->nr_settings)
				continue;
			nr += group->nr_settings;
			if (shown >= OUT_MAX_ROWS)
				continue;
			fprintf(out, "  %s%s:%s%s\n", st->bold, report_hier_name(report, h),
				group->path, st->off);
			for (unsigned int s = 0; s < group->nr_settings; s++, shown++) {
				const struct mig_setting *setting = &group->settings[s];
				char value[512], v2[512];

				fprintf(out, "    %s = %s  ->  ", setting->row->name,
					v1_text_oneline(setting->value, value, sizeof(value)));
				if (setting->row->v2.file && setting->v2_value)
					fprintf(out, "%s = %s", setting->row->v2.file,
						v1_text_oneline(setting->v2_value, v2, sizeof(v2)));
				else if (setting->row->v2.file)
					fprintf(out, "%s", setting->row->v2.file);
				else
					fprintf(out, "no v2 file");
				fprintf(out, "  %s[%s]%s\n", fate_colour(st, setting->fate),
					mig_fate_name(setting->fate), st->off);
				if (*setting_note(setting))
					fprintf(out, "      %s%s%s\n", st->dim,
						setting_note(setting), st->off);
			}
		}
	}
	if (!nr)
		fprintf(out, "  none\n");
	else if (nr > shown)
		fprintf(out, "  ... and %lu more (see --format json)\n", nr - shown);
}

static int print_layout(FILE *out, const struct style *st, const struct mig_report *report)
{
	_cleanup_free_ bool *last = NULL;

	heading(out, st, "Proposed cgroup2 layout");
	if (!report->nr_nodes)
		return 0;
	if (!(last = layout_last_children(report)))
		return -ENOMEM;
	for (unsigned int n = 0; n < report->nr_nodes && n < OUT_MAX_NODES; n++) {
		const struct mig_v2node *node = &report->nodes[n];
		bool flagged =
			node->approx_mask || node->shape_divergent || (node->leaf && !node->exact);
		char prefix[2048], notes[2048];

		layout_tree_prefix(report, last, n, prefix, sizeof(prefix));
		layout_node_notes(report, node, notes, sizeof(notes));
		fprintf(out, "  %s%s%s%s  %s%s%s\n", prefix, flagged ? st->warn : "",
			n ? node->name : "/ (the cgroup2 root of the layout)",
			flagged ? st->off : "", st->dim, notes, st->off);
	}
	if (report->nr_nodes > OUT_MAX_NODES)
		fprintf(out, "  ... and %u more directories (see --format json)\n",
			report->nr_nodes - OUT_MAX_NODES);
	return 0;
}

static void print_log(FILE *out, const struct style *st, const struct log_summary *log)
{
	heading(out, st, "Deprecation log");
	fprintf(out, "  %s: %lu lines, %lu records, %lu corrupt or truncated lines skipped",
		log->path, log->lines, log->records, log->corrupt);
	if (log->corrupt)
		fprintf(out, " (first at line %lu)", log->first_corrupt_line);
	fprintf(out, "\n");
	if (log->folded)
		fprintf(out, "  %lu more records folded into counts by cgxfs's rate limit\n",
			log->folded);
	if (log->capped)
		fprintf(out,
			"  %sthe file reached its size cap%s (--log-max): records past it were "
			"dropped (log_dropped in cgx.deprecations)\n",
			st->warn, st->off);
	for (unsigned int k = 0; k < LOG_NR_KINDS; k++)
		if (log->by_kind[k])
			fprintf(out, "  %-26s %lu\n", log_kind_names[k], log->by_kind[k]);
	if (log->nr_uses)
		fprintf(out, "  by program:\n");
	for (size_t i = 0; i < log->nr_uses && i < OUT_MAX_ROWS; i++) {
		const struct log_use *use = log->uses[i];

		fprintf(out, "  %8lu  %s%-24s%s %s", use->count,
			use->kind == LOG_MULTI_HIERARCHY || use->kind == LOG_NO_V2 ? st->warn : "",
			log_kind_names[use->kind], st->off, use->program);
		for (unsigned int e = 0; e < use->nr_examples && e < 2; e++)
			fprintf(out, "%s%s", e ? "; " : "  e.g. ", use->examples[e]);
		fprintf(out, "\n");
	}
	if (log->nr_uses > OUT_MAX_ROWS)
		fprintf(out, "  ... and %zu more (see --format json)\n",
			log->nr_uses - OUT_MAX_ROWS);
}

int render_text(FILE *out, const struct mig_report *report, bool colour)
{
	const struct style *st = colour ? &colour_style : &plain_style;
	int r;

	fprintf(out, "%scgx-migrate report%s: %s, kernel %s, %s\n", st->bold, st->off, report->host,
		report->kernel, report->generated);
	for (unsigned int i = 0; i < report->nr_sources; i++)
		fprintf(out, "  source: %s %s\n", report->sources[i].kind, report->sources[i].path);
	fprintf(out, "\n");
	print_verdict(out, st, report);
	if (report->have_hiers) {
		print_hierarchies(out, st, report);
		print_divergence(out, st, report);
		print_settings(out, st, report);
		if ((r = print_layout(out, st, report)) < 0)
			return r;
	}
	if (report->log)
		print_log(out, st, report->log);
	if (report->counters)
		fprintf(out, "\n%scgxfs counters%s\n%s", st->bold, st->off, report->counters);
	return 0;
}
