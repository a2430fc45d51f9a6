// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plan: the proposed layout as a shell script that a person reads and
 * then runs on the cgroup2 host, or as systemd slice drop-ins. Values come
 * from the report (the table's converters); what has no v2 equivalent is
 * written as a comment saying what to use instead.
 */
#include "plan.h"

#include "out_common.h"
#include "systemd_units.h"
#include "util.h"

#include <string.h>

/* The v2 controllers a file needs enabled in every ancestor's cgroup.subtree_control. */
static const char *const v2_controllers[] = {
	"cpu", "cpuset", "io", "memory", "pids", "hugetlb", "rdma", "misc",
};

static unsigned int controller_bit(const char *v2_file)
{
	size_t len = strcspn(v2_file, ".");

	for (size_t i = 0; i < ARRAY_SIZE(v2_controllers); i++)
		if (strlen(v2_controllers[i]) == len && !strncmp(v2_controllers[i], v2_file, len))
			return 1u << i;
	return 0; /* cgroup.* core files need no controller */
}

/* 'text' for sh: everything literal, a ' as '\''. */
static void sh_quote(FILE *out, const char *text)
{
	fputc('\'', out);
	for (; *text; text++) {
		if (*text == '\'')
			fputs("'\\''", out);
		else
			fputc(*text, out);
	}
	fputc('\'', out);
}

/* A comment line: a newline in a value must not end it. */
static void comment(FILE *out, const char *text)
{
	char line[1024];

	fprintf(out, "%s", v1_text_oneline(text, line, sizeof(line)));
}

/* "$root"/'a/b' for node @n; the root itself is "$root". */
static void node_dir(FILE *out, const struct mig_v2node *node)
{
	fputs("\"$root\"", out);
	if (node->path[1]) {
		fputc('/', out);
		sh_quote(out, node->path + 1);
	}
}

struct plan {
	const struct mig_report *report;
	struct strmap node_by_path;
	struct strmap written;	   /* "node\tfile\tline" already echoed */
	unsigned int *controllers; /* per node: what its children need */
};

static int node_of_group(struct plan *plan, const struct mig_group *group, unsigned int *node)
{
	char path[4096] = "/";
	void *index;
	int r;

	if ((r = tree_path(group->dir, false, path + 1, sizeof(path) - 1)) < 0)
		return r;
	if (!(index = strmap_get(&plan->node_by_path, path)))
		return -ENOENT;
	*node = (uintptr_t)index - 1;
	return 0;
}

/* Called for each setting of a group the plan has a directory for, in report order. */
typedef int setting_fn(struct plan *plan, unsigned int hier, const struct mig_group *group,
		       unsigned int node, const struct mig_setting *setting, void *data);

static int for_each_setting(struct plan *plan, setting_fn *fn, void *data)
{
	const struct mig_report *report = plan->report;

	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		const struct mig_hier *hier = &report->hier[h];

		for (unsigned int g = 0; g < hier->nr_groups; g++) {
			const struct mig_group *group = &hier->groups[g];
			unsigned int node;

			if (!group->nr_settings || node_of_group(plan, group, &node) < 0)
				continue;
			for (unsigned int s = 0; s < group->nr_settings; s++) {
				int r = fn(plan, h, group, node, &group->settings[s], data);

				if (r < 0)
					return r;
			}
		}
	}
	return 0;
}

/* The controller a setting needs, in every directory above it (cgroup2's top-down rule). */
static int need_controller(struct plan *plan, unsigned int hier, const struct mig_group *group,
			   unsigned int node, const struct mig_setting *setting, void *data)
{
	const struct mig_report *report = plan->report;
	unsigned int bit;

	(void)hier;
	(void)group;
	(void)data;
	if (!setting->v2_value || !setting->row->v2.file)
		return 0;
	bit = controller_bit(setting->row->v2.file);
	for (int p = report->nodes[node].parent; p >= 0 && bit; p = report->nodes[p].parent)
		plan->controllers[p] |= bit;
	return 0;
}

static int plan_init(struct plan *plan, const struct mig_report *report)
{
	int r;

	memset(plan, 0, sizeof(*plan));
	plan->report = report;
	if (!(plan->controllers = calloc(report->nr_nodes + 1, sizeof(*plan->controllers))))
		return -ENOMEM;
	for (unsigned int n = 0; n < report->nr_nodes; n++)
		if ((r = strmap_put(&plan->node_by_path, report->nodes[n].path,
				    (void *)(uintptr_t)(n + 1))) < 0)
			return r;
	return for_each_setting(plan, need_controller, NULL);
}

static void plan_release(struct plan *plan)
{
	strmap_release(&plan->node_by_path, NULL);
	strmap_release(&plan->written, NULL);
	free(plan->controllers);
}

static void header(FILE *out, const struct mig_report *report, const char *what)
{
	fprintf(out, "#!/bin/sh\n# cgx-migrate plan (%s) for %s, generated %s from", what,
		report->host, report->generated);
	for (unsigned int i = 0; i < report->nr_sources; i++) {
		fprintf(out, "%s %s ", i ? ";" : "", report->sources[i].kind);
		comment(out, report->sources[i].path);
	}
	fprintf(out, ".\n# Verdict: %s. Read it before running it as root.\nset -eu\n",
		report->verdict.status);
}

/* One echo per line of a v2 value (io.max takes one device per write); each written once. */
static int echo_value(FILE *out, struct plan *plan, unsigned int node, const char *file,
		      const char *value)
{
	_cleanup_free_ char *copy = strdup(value);
	char *save = NULL;
	int r;

	if (!copy)
		return -ENOMEM;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		_cleanup_strbuf_ struct strbuf key = STRBUF_INIT;

		if ((r = strbuf_addf(&key, "%u\t%s\t%s", node, file, line)) < 0)
			return r;
		if (strmap_get(&plan->written, key.buf))
			continue;
		if ((r = strmap_put(&plan->written, key.buf, (void *)1)) < 0)
			return r;
		fputs("echo ", out);
		sh_quote(out, line);
		fputs(" > ", out);
		node_dir(out, &plan->report->nodes[node]);
		fprintf(out, "/%s\n", file);
	}
	return 0;
}

/* A setting as a comment saying what it was, and the echo of its v2 value. */
static int shell_setting(struct plan *plan, unsigned int hier, const struct mig_group *group,
			 unsigned int node, const struct mig_setting *setting, void *data)
{
	const char *v2_file = setting->row->v2.file;
	FILE *out = data;

	fprintf(out, "# %s:%s %s=", report_hier_name(plan->report, hier), group->path,
		setting->row->name);
	comment(out, setting->value);
	if (setting->fate != FATE_EXACT || !setting->v2_value || !v2_file) {
		fprintf(out, ": %s; ", mig_fate_name(setting->fate));
		comment(out, setting_note(setting));
	}
	fputc('\n', out);
	if (!setting->v2_value || !v2_file)
		return 0;
	return echo_value(out, plan, node, v2_file, setting->v2_value);
}

static int shell_settings(FILE *out, struct plan *plan)
{
	fputs("\n# The settings, converted by the table cgxfs uses.\n", out);
	return for_each_setting(plan, shell_setting, out);
}

static void shell_moves(FILE *out, const struct mig_report *report)
{
	if (!report->nr_tasks)
		return;
	fputs("\n# The processes seen when the report was made, each to its leaf. Pids are\n"
	      "# reused: this runs only with CGX_MOVE=1, and a process gone is skipped.\n"
	      "if [ \"${CGX_MOVE:-0}\" = 1 ]; then\n",
	      out);
	for (unsigned int t = 0; t < report->nr_tasks; t++) {
		const struct mig_task *task = &report->tasks[t];

		fprintf(out, "\techo %d > ", task->pid);
		node_dir(out, &report->nodes[task->leaf]);
		fprintf(out, "/cgroup.procs 2>/dev/null || echo 'process %d (", task->pid);
		for (const char *c = task->comm; *c; c++)
			if (*c != '\'' && *c != '\n')
				fputc(*c, out);
		fputs(") is gone' >&2\n", out);
	}
	fputs("fi\n", out);
}

static int render_shell(FILE *out, struct plan *plan, const char *root)
{
	const struct mig_report *report = plan->report;

	header(out, report, "cgroup2 shell script");
	fputs("# CGX_ROOT: the cgroup2 directory to build the layout under.\nroot=${CGX_ROOT:-",
	      out);
	sh_quote(out, root);
	fputs("}\n\n# The directories: groups, and the leaves processes live in.\n", out);
	for (unsigned int n = 1; n < report->nr_nodes; n++) {
		fputs("mkdir -p ", out);
		node_dir(out, &report->nodes[n]);
		fputc('\n', out);
	}
	fputs("\n# The controllers each directory hands down to the ones below it.\n", out);
	for (unsigned int n = 0; n < report->nr_nodes; n++) {
		if (!plan->controllers[n])
			continue;
		fputs("echo '", out);
		for (size_t i = 0, first = 1; i < ARRAY_SIZE(v2_controllers); i++)
			if (plan->controllers[n] & (1u << i)) {
				fprintf(out, "%s+%s", first ? "" : " ", v2_controllers[i]);
				first = 0;
			}
		fputs("' > ", out);
		node_dir(out, &report->nodes[n]);
		fputs("/cgroup.subtree_control\n", out);
	}
	if (shell_settings(out, plan) < 0)
		return -ENOMEM;
	shell_moves(out, report);
	return 0;
}

static void systemd_setting(FILE *out, const struct mig_report *report, unsigned int h,
			    const struct mig_group *group, const struct mig_setting *setting)
{
	_cleanup_free_ char *copy = NULL;
	char *save = NULL;

	fprintf(out, "# %s:%s %s=", report_hier_name(report, h), group->path, setting->row->name);
	comment(out, setting->value);
	if (setting->fate != FATE_EXACT || !setting->v2_value || !setting->row->v2.file) {
		fprintf(out, ": %s; ", mig_fate_name(setting->fate));
		comment(out, setting_note(setting));
	}
	fputc('\n', out);
	if (!setting->v2_value || !setting->row->v2.file || !(copy = strdup(setting->v2_value)))
		return;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		systemd_property(out, setting->row->v2.file, line);
}

struct placed_group {
	unsigned int node, h, g;
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed_group *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->h < y->h ? -1 : x->h > y->h;
}

/* The groups with settings, by the v2 directory they go to: one drop-in per slice. */
static int placed_groups(struct plan *plan, struct placed_group **out, unsigned int *nr)
{
	const struct mig_report *report = plan->report;
	struct placed_group *placed = NULL;
	unsigned int n = 0, cap = 0;

	for (unsigned int h = 0; h < report->hiers.nr; h++) {
		for (unsigned int g = 1; g < report->hier[h].nr_groups; g++) {
			unsigned int node;

			if (!report->hier[h].groups[g].nr_settings ||
			    node_of_group(plan, &report->hier[h].groups[g], &node) < 0)
				continue;
			if (n == cap) {
				struct placed_group *grown;

				cap = cap ? cap * 2 : 16;
				if (!(grown = realloc(placed, cap * sizeof(*grown)))) {
					free(placed);
					return -ENOMEM;
				}
				placed = grown;
			}
			placed[n++] = (struct placed_group){node, h, g};
		}
	}
	if (n)
		qsort(placed, n, sizeof(*placed), cmp_placed);
	*out = placed;
	*nr = n;
	return 0;
}

static int render_systemd(FILE *out, struct plan *plan)
{
	const struct mig_report *report = plan->report;
	_cleanup_free_ struct placed_group *placed = NULL;
	unsigned int nr;
	int r;

	if ((r = placed_groups(plan, &placed, &nr)) < 0)
		return r;
	header(out, report, "systemd slice drop-ins");
	fputs("# CGX_UNIT_DIR: where the host's drop-ins go. CGX_CONTAINER_UNIT_DIR: where those\n"
	      "# of the units a container's systemd made groups for go, one directory per\n"
	      "# container (its group on the host): copy each into that container's\n"
	      "# /etc/systemd/system, never the host's, whose units of the same name they\n"
	      "# would change.\n"
	      "dir=${CGX_UNIT_DIR:-/etc/systemd/system}\n"
	      "containers=${CGX_CONTAINER_UNIT_DIR:-./cgx-containers}\n",
	      out);
	for (unsigned int i = 0; i < nr; i++) {
		const char *path = report->nodes[placed[i].node].path;

		if (!i || placed[i - 1].node != placed[i].node) {
			fputs("\nmkdir -p ", out);
			systemd_unit_dir(out, path);
			fputs("/'", out);
			systemd_unit_name(out, path);
			fputs(".d'\ncat > ", out);
			systemd_unit_dir(out, path);
			fputs("/'", out);
			systemd_unit_name(out, path);
			fprintf(out, ".d/50-cgx-migrate.conf' <<'CGX_EOF'\n[%s]\n",
				systemd_unit_section(path));
		}
		const struct mig_group *group = &report->hier[placed[i].h].groups[placed[i].g];

		for (unsigned int s = 0; s < group->nr_settings; s++)
			systemd_setting(out, report, placed[i].h, group, &group->settings[s]);
		if (i + 1 == nr || placed[i + 1].node != placed[i].node)
			fputs("CGX_EOF\n", out);
	}
	/* Only where systemd runs: a chroot or a container may have systemctl but no manager. */
	fputs("\nif [ -d /run/systemd/system ]; then systemctl daemon-reload; fi\n", out);
	if (report->nr_tasks)
		fputs("# Start each program in its slice: systemd-run --slice=NAME.slice COMMAND\n",
		      out);
	for (unsigned int t = 0; t < report->nr_tasks && t < OUT_MAX_ROWS; t++) {
		const struct mig_task *task = &report->tasks[t];

		fprintf(out, "#   pid %d (", task->pid);
		comment(out, task->comm);
		fputs(") -> ", out);
		systemd_unit_name(out, report->nodes[task->leaf].path);
		fputc('\n', out);
	}
	return 0;
}

int render_plan(FILE *out, void *data)
{
	const struct plan_args *args = data;
	struct plan plan;
	int r;

	if ((r = plan_init(&plan, args->report)) == 0)
		r = args->systemd ? render_systemd(out, &plan)
				  : render_shell(out, &plan, args->root);
	plan_release(&plan);
	return r;
}
