// SPDX-License-Identifier: GPL-2.0-or-later
/* The report as Markdown: tables for lists, the layout as a drawn tree in a code block. */
#include "out_formats.h"

#include "findings.h"
#include "out_common.h"
#include "util.h"

#include <string.h>

/*
 * Text in a table cell: '|' would end the cell, a newline the row. What
 * out_put_safe() escapes is written so that it renders as there ("\x1b",
 * "\\"), each backslash escaped for Markdown.
 */
static void cell(FILE *out, const char *text)
{
	for (const char *c = text ? text : ""; *c;) {
		bool unsafe;
		size_t len = out_char_next(c, &unsafe);

		if (*c == '\n')
			fputs("<br>", out);
		else if (unsafe)
			for (size_t i = 0; i < len; i++)
				fprintf(out, "\\\\x%02x", (unsigned char)c[i]);
		else if (*c == '\\')
			fputs("\\\\\\\\", out);
		else if (strchr("|`*_<>[]", *c))
			fprintf(out, "\\%c", *c);
		else
			fwrite(c, 1, len, out);
		c += len;
	}
}

static void code_cell(FILE *out, const char *text)
{
	if (!text || !*text) {
		fputs("-", out);
		return;
	}
	/* A backtick inside would end the code span, a '|' the cell: such values are shown escaped.
	 */
	if (strpbrk(text, "`|")) {
		cell(out, text);
		return;
	}
	/* No escapes inside a code span: out_put_safe()'s show as written; lines join with "; ". */
	fputc('`', out);
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		_cleanup_free_ char *copy = strndup(line, len);

		out_put_safe(out, copy ? copy : "?");
		line += len;
		if (*line && *++line)
			fputs("; ", out);
	}
	fputc('`', out);
}

static void print_verdict(FILE *out, const struct mig_report *report)
{
	const struct mig_verdict *v = &report->verdict;

	fprintf(out, "**Verdict: %s**\n\n", v->status);
	fprintf(out, "| | count |\n|---|---:|\n");
	for (size_t i = 0; i < out_nr_verdict_counts; i++) {
		const struct out_count *count = &out_verdict_counts[i];

		if (!count->log || report->log)
			fprintf(out, "| %s | %lu |\n", count->label, out_count_value(v, count));
	}
}

static void print_hierarchies(FILE *out, const struct mig_report *report)
{
	fprintf(out, "\n## Hierarchies\n\n");
	fprintf(out, "| hierarchy | mounted at | groups | processes | state | files with no table "
		     "row |\n");
	fprintf(out, "|---|---|---:|---:|---|---|\n");
	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];
		bool diverges = report_hier_diverges(report, h);

		fputs("| ", out);
		code_cell(out, report_hier_name(report, h));
		fputs(" | ", out);
		cell(out, hier->mountpoint);
		fprintf(out, " | %u | %lu | %s | ", hier->nr_groups - 1, hier->nr_tasks,
			diverges	      ? "**diverges**"
			: hier->nr_groups > 1 ? "in use"
					      : "unused");
		for (unsigned int i = 0; i < hier->nr_unknown_files; i++) {
			fputs(i ? ", " : "", out);
			cell(out, hier->unknown_files[i]);
		}
		fprintf(out, " |\n");
	}
}

static int print_divergence(FILE *out, const struct mig_report *report)
{
	_cleanup_free_ struct out_task_row *rows = NULL;
	long nr = out_task_rows(report, &rows);

	if (nr < 0)
		return (int)nr;
	fprintf(out, "\n## Processes in groups on different paths\n\n");
	if (nr)
		fprintf(out, "| pid | comm | program | groups | v2 leaf | fold |\n"
			     "|---:|---|---|---|---|---|\n");
	for (long i = 0; i < nr && i < OUT_MAX_ROWS; i++) {
		const struct out_task_row *row = &rows[i];

		fprintf(out, "| %d | ", row->pid);
		cell(out, row->comm);
		fputs(" | ", out);
		cell(out, row->program);
		fputs(" | ", out);
		for (unsigned int g = 0; g < row->nr_groups; g++) {
			fputs(g ? "<br>" : "", out);
			cell(out, row->groups[g].hier);
			fputc(':', out);
			cell(out, row->groups[g].path);
		}
		fputs(" | ", out);
		code_cell(out, row->leaf);
		fprintf(out, " | %s |\n", row->exact ? "exact" : "approximate");
	}
	if (!nr)
		fprintf(out, "None.\n");
	else if (nr > OUT_MAX_ROWS)
		fprintf(out, "\n... and %ld more (see the JSON report).\n", nr - OUT_MAX_ROWS);

	fprintf(out, "\n## Paths where the group trees differ\n\n");
	if (!report->nr_shapes)
		fprintf(out, "None.\n");
	else
		fprintf(out, "| path | has a group in | has none in |\n|---|---|---|\n");
	for (unsigned int s = 0; s < report->nr_shapes && s < OUT_MAX_ROWS; s++) {
		struct out_shape_row row;

		out_shape_row(report, s, &row);
		fputs("| ", out);
		code_cell(out, row.path);
		fputs(" | ", out);
		cell(out, row.present);
		fputs(" | ", out);
		cell(out, row.absent);
		fputs(" |\n", out);
	}
	return 0;
}

static int print_settings(FILE *out, const struct mig_report *report)
{
	_cleanup_free_ struct out_setting_row *rows = NULL;
	long nr = out_setting_rows(report, &rows);

	if (nr < 0)
		return (int)nr;
	fprintf(out, "\n## Settings that differ from the defaults\n\n");
	if (nr)
		fprintf(out, "| hierarchy | group | v1 file | value | v2 file | v2 value | fate | "
			     "note |\n"
			     "|---|---|---|---|---|---|---|---|\n");
	for (long i = 0; i < nr && i < OUT_MAX_ROWS; i++) {
		const struct out_setting_row *row = &rows[i];

		fputs("| ", out);
		code_cell(out, row->hier);
		fputs(" | ", out);
		code_cell(out, row->group);
		fprintf(out, " | `%s` | ", row->file);
		code_cell(out, row->value);
		fputs(" | ", out);
		code_cell(out, row->v2_file);
		fputs(" | ", out);
		code_cell(out, row->v2_value);
		fprintf(out, " | %s | ", mig_fate_name(row->fate));
		cell(out, row->note);
		fputs(" |\n", out);
	}
	if (!nr)
		fprintf(out, "None.\n");
	else if (nr > OUT_MAX_ROWS)
		fprintf(out, "\n... and %ld more (see the JSON report).\n", nr - OUT_MAX_ROWS);
	return 0;
}

static int print_layout(FILE *out, const struct mig_report *report)
{
	_cleanup_free_ bool *last = NULL;

	fprintf(out, "\n## Proposed cgroup2 layout\n\n");
	if (!report->nr_nodes)
		return 0;
	if (!(last = layout_last_children(report)))
		return -ENOMEM;
	fprintf(out,
		"Groups marked *approximate* have processes whose leaf lies outside their "
		"directory; leaves are named `@hierarchy=group` after the groups that differ.\n\n");
	fprintf(out, "```text\n");
	for (unsigned int n = 0; n < report->nr_nodes && n < OUT_MAX_NODES; n++) {
		char prefix[2048], notes[2048];

		layout_tree_prefix(report, last, n, prefix, sizeof(prefix));
		layout_node_notes(report, &report->nodes[n], notes, sizeof(notes));
		/* A fence inside the block would end it; names cannot hold a newline. */
		fputs(prefix, out);
		out_put_safe(out, n ? report->nodes[n].name : "/");
		fputs("  ", out);
		out_put_safe(out, notes);
		fputc('\n', out);
	}
	if (report->nr_nodes > OUT_MAX_NODES)
		fprintf(out, "... and %u more directories\n", report->nr_nodes - OUT_MAX_NODES);
	fprintf(out, "```\n");
	return 0;
}

static void print_log(FILE *out, const struct log_summary *log)
{
	fprintf(out, "\n## Deprecation log\n\n");
	cell(out, log->path);
	fprintf(out, ": %lu lines, %lu records, %lu corrupt or truncated lines skipped.\n\n",
		log->lines, log->records, log->corrupt);
	if (log->folded)
		fprintf(out, "%lu more records folded into counts by cgxfs's rate limit.\n\n",
			log->folded);
	if (log->capped)
		fprintf(out,
			"**The file reached its size cap** (`--log-max`): records past it were "
			"dropped (`log_dropped` in `cgx.deprecations`).\n\n");
	fprintf(out, "| kind | records |\n|---|---:|\n");
	for (unsigned int k = 0; k < LOG_NR_KINDS; k++)
		fprintf(out, "| %s | %lu |\n", log_kind_names[k], log->by_kind[k]);
	if (!log->nr_uses)
		return;
	fprintf(out, "\n| program | kind | count | hierarchies | examples |\n"
		     "|---|---|---:|---|---|\n");
	for (size_t i = 0; i < log->nr_uses && i < OUT_MAX_ROWS; i++) {
		const struct log_use *use = log->uses[i];

		fputs("| ", out);
		cell(out, use->program);
		if (use->unit[0]) {
			fputs(" for ", out);
			cell(out, use->unit);
		}
		fprintf(out, " | %s | %lu | ", log_kind_names[use->kind], use->count);
		for (unsigned int j = 0; j < use->nr_hierarchies; j++) {
			fputs(j ? ", " : "", out);
			cell(out, use->hierarchies[j]);
		}
		fputs(" | ", out);
		for (unsigned int e = 0; e < use->nr_examples && e < 3; e++) {
			fputs(e ? "<br>" : "", out);
			cell(out, use->examples[e]);
		}
		fputs(" |\n", out);
	}
}

/* Every finding but the info ones, as the text has them; ids and all: --format json. */
static int print_findings(FILE *out, const struct mig_report *report)
{
	_cleanup_findings_ struct mig_findings findings = {0};
	size_t shown = 0;
	int r;

	if ((r = findings_build(report, &findings)) < 0)
		return r;
	fprintf(out, "\n## Findings\n\n%lu inhibitors; %lu high, %lu medium, %lu low, %lu info.\n",
		findings.inhibitors, findings.by_severity[FINDING_HIGH],
		findings.by_severity[FINDING_MEDIUM], findings.by_severity[FINDING_LOW],
		findings.by_severity[FINDING_INFO]);
	if (findings.nr == findings.by_severity[FINDING_INFO])
		return 0;
	fputs("\n| severity | inhibitor | finding | remediation |\n|---|---|---|---|\n", out);
	for (size_t i = 0; i < findings.nr && shown < OUT_MAX_ROWS; i++) {
		const struct mig_finding *finding = &findings.items[i];

		if (finding->severity == FINDING_INFO)
			continue;
		fprintf(out, "| %s | %s | **", finding_severity_name(finding->severity),
			finding->inhibitor ? "yes" : "no");
		cell(out, finding->title);
		fputs("**<br>", out);
		cell(out, finding->summary);
		fputs(" | ", out);
		cell(out, finding->remediation);
		fputs(" |\n", out);
		shown++;
	}
	return 0;
}

int render_markdown(FILE *out, const struct mig_report *report)
{
	int r;

	fprintf(out, "# cgx-migrate report: ");
	cell(out, report->host);
	fputs("\n\nKernel ", out);
	cell(out, report->kernel);
	fprintf(out, ", generated %s. Sources:", report->generated);
	for (unsigned int i = 0; i < report->nr_sources; i++) {
		fprintf(out, "%s %s ", i ? ";" : "", report->sources[i].kind);
		code_cell(out, report->sources[i].path);
	}
	fprintf(out, ".\n\n");
	print_verdict(out, report);
	if ((r = print_findings(out, report)) < 0)
		return r;
	if (report->have_hiers) {
		print_hierarchies(out, report);
		if ((r = print_divergence(out, report)) < 0 ||
		    (r = print_settings(out, report)) < 0 || (r = print_layout(out, report)) < 0)
			return r;
	}
	if (report->log)
		print_log(out, report->log);
	return 0;
}
