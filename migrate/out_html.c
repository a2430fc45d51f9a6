// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as one self-contained HTML file: tables, and the v1
 * hierarchies and the proposed v2 tree drawn as inline SVG (no scripts, no
 * external files, so it opens anywhere and prints as seen).
 */
#include "out_formats.h"

#include "findings.h"
#include "out_common.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ROW_HEIGHT 22
#define INDENT	   22
#define MARGIN	   14
#define CHAR_WIDTH 7 /* of the 12px monospace labels, to size the drawing */
#define LABEL_MAX  160

/* One node of a drawn tree, in preorder. */
struct svg_node {
	int parent;
	unsigned int depth;
	char label[LABEL_MAX];
	const char *title; /* the hover text: a path */
	const char *class; /* "ok", "divergent", "approx" */
	bool leaf;	   /* drawn as a box: processes live here */
};

/* Labels are cut to fit: the whole path is in the node's title. */
static void __attribute__((format(printf, 2, 3)))
set_label(struct svg_node *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(node->label, LABEL_MAX, fmt, ap);
	va_end(ap);
}

/* Markup characters as entities; what out_put_safe() escapes shows as there ("\x1b"). */
static void escaped(FILE *out, const char *text)
{
	for (const char *c = text ? text : ""; *c;) {
		bool unsafe;
		size_t len = out_char_next(c, &unsafe);

		if (unsafe && *c != '\n') {
			for (size_t i = 0; i < len; i++)
				fprintf(out, "\\x%02x", (unsigned char)c[i]);
			c += len;
			continue;
		}
		switch (*c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		default:
			fwrite(c, 1, len, out);
		}
		c += len;
	}
}

static void draw_tree(FILE *out, const char *caption, const struct svg_node *nodes, unsigned int nr,
		      unsigned int total)
{
	unsigned int width = 200, height = nr * ROW_HEIGHT + 2 * MARGIN;

	for (unsigned int i = 0; i < nr; i++) {
		unsigned int right = MARGIN + nodes[i].depth * INDENT + 14 +
				     (unsigned int)strlen(nodes[i].label) * CHAR_WIDTH + MARGIN;

		width = right > width ? right : width;
	}
	fputs("<figure><figcaption>", out);
	escaped(out, caption);
	if (total > nr)
		fprintf(out, " (the first %u of %u directories; the JSON report has all)", nr,
			total);
	fputs("</figcaption>\n", out);
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tree\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\" role=\"img\" aria-label=\"",
		width, height, width, height);
	escaped(out, caption);
	fputs("\">\n", out);
	for (unsigned int i = 1; i < nr; i++) {
		unsigned int x = MARGIN + nodes[i].depth * INDENT, y = MARGIN + i * ROW_HEIGHT;
		unsigned int p = (unsigned int)nodes[i].parent;
		unsigned int px = MARGIN + nodes[p].depth * INDENT, py = MARGIN + p * ROW_HEIGHT;

		fprintf(out, "<path class=\"edge\" d=\"M%u %u V%u H%u\"/>\n", px, py, y, x - 6);
	}
	for (unsigned int i = 0; i < nr; i++) {
		unsigned int x = MARGIN + nodes[i].depth * INDENT, y = MARGIN + i * ROW_HEIGHT;

		fprintf(out, "<g class=\"node %s\"><title>", nodes[i].class);
		escaped(out, nodes[i].title);
		fputs("</title>", out);
		if (nodes[i].leaf)
			fprintf(out,
				"<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" rx=\"2\"/>",
				x - 6, y - 6);
		else
			fprintf(out, "<circle cx=\"%u\" cy=\"%u\" r=\"6\"/>", x, y);
		fprintf(out, "<text x=\"%u\" y=\"%u\">", x + 12, y + 4);
		escaped(out, nodes[i].label);
		fputs("</text></g>\n", out);
	}
	fputs("</svg></figure>\n", out);
}

static int draw_hierarchy(FILE *out, const struct mig_report *report, unsigned int h)
{
	const struct mig_hier *hier = &report->hier[h];
	unsigned int nr = hier->nr_groups < OUT_MAX_NODES ? hier->nr_groups : OUT_MAX_NODES;
	_cleanup_free_ struct svg_node *nodes = calloc(nr + 1, sizeof(*nodes));
	char caption[512];

	if (!nodes)
		return -ENOMEM;
	for (unsigned int g = 0; g < nr; g++) {
		const struct mig_group *group = &hier->groups[g];
		const char *name = g ? strrchr(group->path, '/') + 1 : "/";
		int w;

		nodes[g].parent = group->parent;
		nodes[g].depth = g ? nodes[group->parent].depth + 1 : 0;
		nodes[g].title = group->path;
		nodes[g].class = group->shape_divergent || group->fold_approx ? "divergent" : "ok";
		w = snprintf(nodes[g].label, LABEL_MAX, "%s", name);
		if (group->nr_tasks && w > 0 && w < LABEL_MAX)
			w += snprintf(nodes[g].label + w, LABEL_MAX - w, "  (%u process%s)",
				      group->nr_tasks, group->nr_tasks == 1 ? "" : "es");
		/* The first setting, so that the drawing says what the group is for. */
		if (group->nr_settings && w > 0 && w < LABEL_MAX)
			snprintf(nodes[g].label + w, LABEL_MAX - w, "  %s=%s%s",
				 group->settings[0].row->name, group->settings[0].value,
				 group->nr_settings > 1 ? " ..." : "");
	}
	snprintf(caption, sizeof(caption), "v1 hierarchy %s at %s", report_hier_name(report, h),
		 hier->mountpoint);
	draw_tree(out, caption, nodes, nr, hier->nr_groups);
	return 0;
}

static int draw_layout(FILE *out, const struct mig_report *report)
{
	unsigned int nr = report->nr_nodes < OUT_MAX_NODES ? report->nr_nodes : OUT_MAX_NODES;
	_cleanup_free_ struct svg_node *nodes = calloc(nr + 1, sizeof(*nodes));

	if (!nodes)
		return -ENOMEM;
	for (unsigned int n = 0; n < nr; n++) {
		const struct mig_v2node *node = &report->nodes[n];
		char names[1024];

		nodes[n].parent = node->parent;
		nodes[n].depth = node->depth;
		nodes[n].title = node->path;
		nodes[n].leaf = node->leaf;
		nodes[n].class = node->approx_mask || node->shape_divergent ? "divergent"
				 : node->leaf && !node->exact		    ? "approx"
									    : "ok";
		hier_mask_names(report, node->hier_mask, names, sizeof(names));
		if (node->leaf)
			set_label(&nodes[n], "%s  (%u process%s, %s)", n ? node->name : "/",
				  node->nr_tasks, node->nr_tasks == 1 ? "" : "es",
				  node->exact ? "exact" : "approximate");
		else
			set_label(&nodes[n], "%s  [%s]", n ? node->name : "/", names);
	}
	draw_tree(out, "proposed cgroup2 layout", nodes, nr, report->nr_nodes);
	return 0;
}

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1d1d1f;max-width:80em}"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ddd}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em "
	".6em;text-align:left;vertical-align:top}th{background:#f3f3f3}"
	"code{font:12px ui-monospace,monospace;background:#f5f5f5;padding:0 .2em}"
	".verdict{font-size:1.2em;font-weight:bold;padding:.5em 1em;display:inline-block;"
	"border-radius:4px}.ready{background:#d8f5d8}.ready-with-approximations{background:#fff1c2}"
	".needs-changes{background:#ffd6d6}"
	".exact{color:#17702b}.approximate{color:#9a6700}.lost{color:#b3261e;font-weight:bold}"
	"figure{margin:1em 0;overflow-x:auto}figcaption{color:#555;font-size:.9em}"
	"svg.tree text{font:12px ui-monospace,monospace;fill:#1d1d1f}"
	"svg.tree .edge{fill:none;stroke:#999;stroke-width:1.2}"
	"svg.tree .node circle,svg.tree .node rect{stroke:#333;stroke-width:1}"
	"svg.tree .ok circle,svg.tree .ok rect{fill:#6cc070}"
	"svg.tree .approx circle,svg.tree .approx rect{fill:#f2b83b}"
	"svg.tree .divergent circle,svg.tree .divergent rect{fill:#e5484d}"
	".legend span{margin-right:1.5em}";

static void verdict_table(FILE *out, const struct mig_report *report)
{
	const struct mig_verdict *v = &report->verdict;

	fprintf(out, "<p class=\"verdict %s\">Verdict: %s</p>\n<table>\n", v->status, v->status);
	fprintf(out, "<tr><th>settings not at their default</th><td>%lu</td></tr>\n", v->settings);
	fprintf(out, "<tr><th>converted exactly</th><td class=\"exact\">%lu</td></tr>\n", v->exact);
	fprintf(out, "<tr><th>approximate</th><td class=\"approximate\">%lu</td></tr>\n",
		v->approx);
	fprintf(out, "<tr><th>lost (no v2 equivalent)</th><td class=\"lost\">%lu</td></tr>\n",
		v->lost);
	fprintf(out,
		"<tr><th>groups (folding approximately / where trees differ)</th>"
		"<td>%lu (%lu / %lu)</td></tr>\n",
		v->groups, v->groups_approx, v->groups_shape_divergent);
	fprintf(out,
		"<tr><th>processes (on different paths / folding approximately)</th>"
		"<td>%lu (%lu / %lu)</td></tr>\n",
		v->processes, v->multi_hierarchy, v->processes_approx);
	if (report->log)
		fprintf(out,
			"<tr><th>log: multi-hierarchy / no v2 equivalent / approximate</th>"
			"<td>%lu / %lu / %lu</td></tr>\n",
			v->log_multi_hierarchy, v->log_no_v2, v->log_approx);
	fputs("</table>\n", out);
}

static int processes_table(FILE *out, const struct mig_report *report)
{
	_cleanup_free_ struct out_task_row *rows = NULL;
	long nr = out_task_rows(report, &rows);

	if (nr < 0)
		return (int)nr;
	fputs("<h2>Processes in groups on different paths</h2>\n", out);
	if (nr)
		fputs("<table><tr><th>pid</th><th>comm</th><th>program</th><th>groups</th>"
		      "<th>v2 leaf</th><th>fold</th></tr>\n",
		      out);
	for (long i = 0; i < nr && i < OUT_MAX_ROWS; i++) {
		const struct out_task_row *row = &rows[i];
		const char *fold = row->exact ? "exact" : "approximate";

		fprintf(out, "<tr><td>%d</td><td>", row->pid);
		escaped(out, row->comm);
		fputs("</td><td>", out);
		escaped(out, row->program);
		fputs("</td><td>", out);
		for (unsigned int g = 0; g < row->nr_groups; g++) {
			fputs(g ? "<br><code>" : "<code>", out);
			escaped(out, row->groups[g].hier);
			fputc(':', out);
			escaped(out, row->groups[g].path);
			fputs("</code>", out);
		}
		fputs("</td><td><code>", out);
		escaped(out, row->leaf);
		fprintf(out, "</code></td><td class=\"%s\">%s</td></tr>\n", fold, fold);
	}
	fputs(nr ? "</table>\n" : "<p>None.</p>\n", out);
	if (nr > OUT_MAX_ROWS)
		fprintf(out, "<p>... and %ld more (see the JSON report).</p>\n", nr - OUT_MAX_ROWS);

	fputs("<h2>Paths where the group trees differ</h2>\n", out);
	if (!report->nr_shapes) {
		fputs("<p>None.</p>\n", out);
		return 0;
	}
	fputs("<table><tr><th>path</th><th>has a group in</th><th>has none in</th></tr>\n", out);
	for (unsigned int s = 0; s < report->nr_shapes && s < OUT_MAX_ROWS; s++) {
		struct out_shape_row row;

		out_shape_row(report, s, &row);
		fputs("<tr><td><code>", out);
		escaped(out, row.path);
		fputs("</code></td><td>", out);
		escaped(out, row.present);
		fputs("</td><td>", out);
		escaped(out, row.absent);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	return 0;
}

static int settings_table(FILE *out, const struct mig_report *report)
{
	_cleanup_free_ struct out_setting_row *rows = NULL;
	long nr = out_setting_rows(report, &rows);

	if (nr < 0)
		return (int)nr;
	fputs("<h2>Settings that differ from the defaults</h2>\n", out);
	if (nr)
		fputs("<table><tr><th>hierarchy</th><th>group</th><th>v1 file</th><th>value</th>"
		      "<th>v2 file</th><th>v2 value</th><th>fate</th><th>what instead</th></tr>\n",
		      out);
	for (long i = 0; i < nr && i < OUT_MAX_ROWS; i++) {
		const struct out_setting_row *row = &rows[i];
		const char *fate = mig_fate_name(row->fate);

		fputs("<tr><td>", out);
		escaped(out, row->hier);
		fputs("</td><td><code>", out);
		escaped(out, row->group);
		fputs("</code></td><td><code>", out);
		escaped(out, row->file);
		fputs("</code></td><td><code>", out);
		escaped(out, row->value);
		fputs("</code></td><td><code>", out);
		escaped(out, row->v2_file ? row->v2_file : "-");
		fputs("</code></td><td><code>", out);
		escaped(out, row->v2_value ? row->v2_value : "-");
		fprintf(out, "</code></td><td class=\"%s\">%s</td><td>", fate, fate);
		escaped(out, row->note);
		fputs("</td></tr>\n", out);
	}
	fputs(nr ? "</table>\n" : "<p>None.</p>\n", out);
	if (nr > OUT_MAX_ROWS)
		fprintf(out, "<p>... and %ld more (see the JSON report).</p>\n", nr - OUT_MAX_ROWS);
	return 0;
}

static void log_section(FILE *out, const struct log_summary *log)
{
	fputs("<h2>Deprecation log</h2>\n<p><code>", out);
	escaped(out, log->path);
	fprintf(out,
		"</code>: %lu lines, %lu records, %lu corrupt or truncated lines skipped.</p>\n",
		log->lines, log->records, log->corrupt);
	if (log->folded)
		fprintf(out, "<p>%lu more records folded into counts by cgxfs's rate limit.</p>\n",
			log->folded);
	if (log->capped)
		fputs("<p><strong>The file reached its size cap</strong> (<code>--log-max</code>): "
		      "records past it were dropped (<code>log_dropped</code> in "
		      "<code>cgx.deprecations</code>).</p>\n",
		      out);
	fputs("<table><tr><th>program</th><th>kind</th><th>count</th><th>hierarchies</th>"
	      "<th>examples</th></tr>\n",
	      out);
	for (size_t i = 0; i < log->nr_uses && i < OUT_MAX_ROWS; i++) {
		const struct log_use *use = log->uses[i];

		fputs("<tr><td>", out);
		escaped(out, use->program);
		if (use->unit[0]) {
			fputs(" for ", out);
			escaped(out, use->unit);
		}
		fprintf(out, "</td><td>%s</td><td>%lu</td><td>", log_kind_names[use->kind],
			use->count);
		for (unsigned int j = 0; j < use->nr_hierarchies; j++) {
			fputs(j ? ", " : "", out);
			escaped(out, use->hierarchies[j]);
		}
		fputs("</td><td>", out);
		for (unsigned int e = 0; e < use->nr_examples && e < 3; e++) {
			fputs(e ? "<br><code>" : "<code>", out);
			escaped(out, use->examples[e]);
			fputs("</code>", out);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* Every finding but the info ones, as the text has them. */
static int findings_table(FILE *out, const struct mig_report *report)
{
	_cleanup_findings_ struct mig_findings findings = {0};
	size_t shown = 0;
	int r;

	if ((r = findings_build(report, &findings)) < 0)
		return r;
	fprintf(out,
		"<h2>Findings</h2>\n<p>%lu inhibitors; %lu high, %lu medium, %lu low, %lu "
		"info.</p>\n",
		findings.inhibitors, findings.by_severity[FINDING_HIGH],
		findings.by_severity[FINDING_MEDIUM], findings.by_severity[FINDING_LOW],
		findings.by_severity[FINDING_INFO]);
	if (findings.nr == findings.by_severity[FINDING_INFO])
		return 0;
	fputs("<table><tr><th>severity</th><th>inhibitor</th><th>finding</th>"
	      "<th>remediation</th></tr>\n",
	      out);
	for (size_t i = 0; i < findings.nr && shown < OUT_MAX_ROWS; i++) {
		const struct mig_finding *finding = &findings.items[i];

		if (finding->severity == FINDING_INFO)
			continue;
		fprintf(out, "<tr><td>%s</td><td>%s</td><td><strong>",
			finding_severity_name(finding->severity),
			finding->inhibitor ? "yes" : "no");
		escaped(out, finding->title);
		fputs("</strong><br>", out);
		escaped(out, finding->summary);
		fputs("</td><td>", out);
		escaped(out, finding->remediation);
		fputs("</td></tr>\n", out);
		shown++;
	}
	fputs("</table>\n", out);
	return 0;
}

int render_html(FILE *out, const struct mig_report *report)
{
	int r;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
	      "cgx-migrate report: ",
	      out);
	escaped(out, report->host);
	fprintf(out, "</title>\n<style>%s</style></head><body>\n<h1>cgx-migrate report: ", style);
	escaped(out, report->host);
	fprintf(out, "</h1>\n<p>Kernel ");
	escaped(out, report->kernel);
	fprintf(out, ", generated %s. Sources:", report->generated);
	for (unsigned int i = 0; i < report->nr_sources; i++) {
		fprintf(out, "%s %s <code>", i ? ";" : "", report->sources[i].kind);
		escaped(out, report->sources[i].path);
		fputs("</code>", out);
	}
	fputs(".</p>\n", out);
	verdict_table(out, report);
	if (report->have_hiers) {
		fputs("<h2>Trees</h2>\n<p class=\"legend\"><span>&#9679; group</span><span>&#9632; "
		      "v2 leaf holding processes</span><span style=\"color:#17702b\">green: "
		      "exact</span><span style=\"color:#9a6700\">amber: approximate "
		      "leaf</span><span style=\"color:#b3261e\">red: divergent (the trees differ, "
		      "or the group's processes live outside its directory)</span></p>\n",
		      out);
		for (unsigned int h = 0; h < report->hiers.nr; h++) {
			if (report->hier[h].nr_groups < 2)
				continue;
			if ((r = draw_hierarchy(out, report, h)) < 0)
				return r;
		}
		bool unused = false;

		for (unsigned int h = 0; h < report->hiers.nr; h++) {
			if (report->hier[h].nr_groups > 1)
				continue;
			fputs(unused ? ", <code>"
				     : "<p>Hierarchies with no group but the root: <code>",
			      out);
			escaped(out, report_hier_name(report, h));
			fputs("</code>", out);
			unused = true;
		}
		if (unused)
			fputs(".</p>\n", out);
		if (report->nr_nodes && (r = draw_layout(out, report)) < 0)
			return r;
		if ((r = processes_table(out, report)) < 0 || (r = settings_table(out, report)) < 0)
			return r;
	}
	/* After the trees: a reader sees the drawing first, as the verdict says. */
	if ((r = findings_table(out, report)) < 0)
		return r;
	if (report->log)
		log_section(out, report->log);
	fputs("</body></html>\n", out);
	return 0;
}
