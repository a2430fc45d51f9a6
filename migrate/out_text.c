// SPDX-License-Identifier: GPL-2.0-or-later
/* The report for a terminal: sections, a drawn tree, colour only on a tty. */
#include "out_formats.h"

#include "findings.h"
#include "out_common.h"
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

		char name[64], mountpoint[256];

		fprintf(out, "  %-20s %-36s %6u group%s %6lu process%s  %s%s%s\n",
			out_text_safe(report_hier_name(report, h), name, sizeof(name)),
			out_text_safe(hier->mountpoint, mountpoint, sizeof(mountpoint)),
			hier->nr_groups - 1, hier->nr_groups == 2 ? " " : "s", hier->nr_tasks,
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
		fprintf(out, "  %sfiles of ", st->dim);
		out_put_safe(out, report_hier_name(report, h));
		fprintf(out, " with no row in the table:");
		for (unsigned int i = 0; i < hier->nr_unknown_files; i++) {
			fputc(' ', out);
			out_put_safe(out, hier->unknown_files[i]);
		}
		fprintf(out, "%s\n", st->off);
	}
}

static int print_divergence(FILE *out, const struct style *st, const struct mig_report *report)
{
	_cleanup_free_ struct out_task_row *rows = NULL;
	long nr = out_task_rows(report, &rows);

	if (nr < 0)
		return (int)nr;
	heading(out, st, "Processes in groups on different paths");
	for (long i = 0; i < nr && i < OUT_MAX_ROWS; i++) {
		const struct out_task_row *row = &rows[i];

		fprintf(out, "  %s%d%s ", st->bold, row->pid, st->off);
		out_put_safe(out, row->comm[0] ? row->comm : "?");
		fputs(" (", out);
		out_put_safe(out, row->program);
		fputs("): ", out);
		for (unsigned int g = 0; g < row->nr_groups; g++) {
			fputs(g ? " " : "", out);
			out_put_safe(out, row->groups[g].hier);
			fputc(':', out);
			out_put_safe(out, row->groups[g].path);
		}
		fputs("\n      -> ", out);
		out_put_safe(out, row->leaf);
		fprintf(out, " %s%s%s\n", row->exact ? st->good : st->warn,
			row->exact ? "exact" : "approximate", st->off);
	}
	if (!nr)
		fprintf(out, "  none\n");
	else if (nr > OUT_MAX_ROWS)
		fprintf(out, "  ... and %ld more (see --format json)\n", nr - OUT_MAX_ROWS);

	heading(out, st, "Paths where the group trees differ");
	for (unsigned int s = 0; s < report->nr_shapes && s < OUT_MAX_ROWS; s++) {
		struct out_shape_row row;

		out_shape_row(report, s, &row);
		fputs("  ", out);
		fputs(st->warn, out);
		out_put_safe(out, row.path);
		fprintf(out, "%s: in ", st->off);
		out_put_safe(out, row.present);
		fputs("; not in ", out);
		out_put_safe(out, row.absent);
		fputc('\n', out);
	}
	if (!report->nr_shapes)
		fprintf(out, "  none\n");
	else if (report->nr_shapes > OUT_MAX_ROWS)
		fprintf(out, "  ... and %u more\n", report->nr_shapes - OUT_MAX_ROWS);
	return 0;
}

static int print_settings(FILE *out, const struct style *st, const struct mig_report *report)
{
	_cleanup_free_ struct out_setting_row *rows = NULL;
	long nr = out_setting_rows(report, &rows), shown;

	if (nr < 0)
		return (int)nr;
	heading(out, st, "Settings that differ from the defaults");
	for (shown = 0; shown < nr; shown++) {
		const struct out_setting_row *row = &rows[shown];
		char value[512], v2[512];

		/* A group is listed whole or not at all. */
		if (row->first_of_group) {
			if (shown >= OUT_MAX_ROWS)
				break;
			fputs("  ", out);
			fputs(st->bold, out);
			out_put_safe(out, row->hier);
			fputc(':', out);
			out_put_safe(out, row->group);
			fprintf(out, "%s\n", st->off);
		}
		fprintf(out, "    %s = ", row->file);
		out_put_safe(out, v1_text_oneline(row->value, value, sizeof(value)));
		fputs("  ->  ", out);
		if (row->v2_file && row->v2_value) {
			fprintf(out, "%s = ", row->v2_file);
			out_put_safe(out, v1_text_oneline(row->v2_value, v2, sizeof(v2)));
		} else if (row->v2_file)
			fprintf(out, "%s", row->v2_file);
		else
			fprintf(out, "no v2 file");
		fprintf(out, "  %s[%s]%s\n", fate_colour(st, row->fate), mig_fate_name(row->fate),
			st->off);
		if (*row->note)
			fprintf(out, "      %s%s%s\n", st->dim, row->note, st->off);
	}
	if (!nr)
		fprintf(out, "  none\n");
	else if (nr > shown)
		fprintf(out, "  ... and %ld more (see --format json)\n", nr - shown);
	return 0;
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
		fprintf(out, "  %s%s", prefix, flagged ? st->warn : "");
		out_put_safe(out, n ? node->name : "/ (the cgroup2 root of the layout)");
		fprintf(out, "%s  %s", flagged ? st->off : "", st->dim);
		out_put_safe(out, notes);
		fprintf(out, "%s\n", st->off);
	}
	if (report->nr_nodes > OUT_MAX_NODES)
		fprintf(out, "  ... and %u more directories (see --format json)\n",
			report->nr_nodes - OUT_MAX_NODES);
	return 0;
}

static void print_log(FILE *out, const struct style *st, const struct log_summary *log)
{
	heading(out, st, "Deprecation log");
	fputs("  ", out);
	out_put_safe(out, log->path);
	fprintf(out, ": %lu lines, %lu records, %lu corrupt or truncated lines skipped", log->lines,
		log->records, log->corrupt);
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

		fprintf(out, "  %8lu  %s%-24s%s ", use->count,
			use->kind == LOG_MULTI_HIERARCHY || use->kind == LOG_NO_V2 ? st->warn : "",
			log_kind_names[use->kind], st->off);
		out_put_safe(out, use->program);
		if (use->unit[0]) {
			fputs(" for ", out);
			out_put_safe(out, use->unit);
		}
		for (unsigned int e = 0; e < use->nr_examples && e < 2; e++) {
			fputs(e ? "; " : "  e.g. ", out);
			out_put_safe(out, use->examples[e]);
		}
		fprintf(out, "\n");
	}
	if (log->nr_uses > OUT_MAX_ROWS)
		fprintf(out, "  ... and %zu more (see --format json)\n",
			log->nr_uses - OUT_MAX_ROWS);
}

/* The findings above info, most severe first: what blocks the move, then what changes. */
static int print_findings(FILE *out, const struct style *st, const struct mig_report *report)
{
	_cleanup_findings_ struct mig_findings findings = {0};
	size_t shown = 0;
	int r;

	if ((r = findings_build(report, &findings)) < 0)
		return r;
	fprintf(out, "\n%sFindings%s: %lu inhibitors; %lu high, %lu medium, %lu low, %lu info\n",
		st->bold, st->off, findings.inhibitors, findings.by_severity[FINDING_HIGH],
		findings.by_severity[FINDING_MEDIUM], findings.by_severity[FINDING_LOW],
		findings.by_severity[FINDING_INFO]);
	for (size_t i = 0; i < findings.nr && shown < OUT_MAX_ROWS; i++) {
		const struct mig_finding *finding = &findings.items[i];

		if (finding->severity == FINDING_INFO)
			continue;
		fprintf(out, "  %s[%s%s]%s ", finding->inhibitor ? st->warn : "",
			finding_severity_name(finding->severity),
			finding->inhibitor ? ", inhibitor" : "", st->off);
		out_put_safe(out, finding->title);
		fputs("\n      ", out);
		out_put_safe(out, finding->summary);
		fputs("\n      remediation: ", out);
		out_put_safe(out, finding->remediation);
		fputc('\n', out);
		shown++;
	}
	if (findings.by_severity[FINDING_INFO])
		fprintf(out,
			"  (%lu info: settings that convert exactly; every finding with its id: "
			"--format json)\n",
			findings.by_severity[FINDING_INFO]);
	return 0;
}

int render_text(FILE *out, const struct mig_report *report, bool colour)
{
	const struct style *st = colour ? &colour_style : &plain_style;
	int r;

	fprintf(out, "%scgx-migrate report%s: ", st->bold, st->off);
	out_put_safe(out, report->host);
	fputs(", kernel ", out);
	out_put_safe(out, report->kernel);
	fprintf(out, ", %s\n", report->generated);
	for (unsigned int i = 0; i < report->nr_sources; i++) {
		fprintf(out, "  source: %s ", report->sources[i].kind);
		out_put_safe(out, report->sources[i].path);
		fputc('\n', out);
	}
	fprintf(out, "\n");
	print_verdict(out, st, report);
	if ((r = print_findings(out, st, report)) < 0)
		return r;
	if (report->have_hiers) {
		print_hierarchies(out, st, report);
		if ((r = print_divergence(out, st, report)) < 0 ||
		    (r = print_settings(out, st, report)) < 0 ||
		    (r = print_layout(out, st, report)) < 0)
			return r;
	}
	if (report->log)
		print_log(out, st, report->log);
	if (report->counters) {
		fprintf(out, "\n%scgxfs counters%s\n", st->bold, st->off);
		/* Line by line: the file's newlines are its own, anything else is escaped. */
		for (const char *line = report->counters; *line;) {
			size_t len = strcspn(line, "\n");
			_cleanup_free_ char *copy = strndup(line, len);

			if (!copy)
				return -ENOMEM;
			out_put_safe(out, copy);
			fputc('\n', out);
			line += len + (line[len] == '\n');
		}
	}
	return 0;
}
