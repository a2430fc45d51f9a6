// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgx-migrate: what a cgroup v1 setup becomes in cgroup2 (README.md).
 * Every source is read in full before any output is opened, so a bad
 * source never leaves a partial file behind.
 */
#include "fail.h"
#include "layout.h"
#include "merge.h"
#include "out.h"
#include "plan.h"
#include "scan.h"
#include "table.h"
#include "util.h"

#include "deprecation_log.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

static const char usage_text[] =
	"Usage:\n"
	"  cgx-migrate report [SOURCE...] [--format text|json|markdown|html] [-o FILE]\n"
	"                     [--color auto|always|never]\n"
	"  cgx-migrate plan   [SOURCE...] [--systemd] [--root DIR] [-o FILE]\n"
	"  cgx-migrate merge  [--format text|json|markdown] [-o FILE] REPORT.json...\n"
	"  cgx-migrate table  [--format text|json] [-o FILE]\n"
	"\n"
	"Sources (report and plan; default --scan):\n"
	"  --scan [DIR]        the v1 hierarchies of the mount table, or those under DIR\n"
	"                      (laid out like /sys/fs/cgroup)\n"
	"  --from MOUNTPOINT   a running cgxfs view\n"
	"  --log FILE          a cgxfs deprecation log (JSON Lines)\n";

struct options {
	const char *command; /* "report" or "plan", for the hints */
	const char *scan_dir;
	bool scan;
	const char *from;
	const char *log;
	const char *output;
	enum out_format format;
	bool format_given;
	int colour; /* -1 auto, 0 never, 1 always */
	bool systemd;
	const char *root;
	char **args;
	unsigned int nr_args;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("cgx-migrate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n\n", stderr);
	fputs(usage_text, stderr);
	return -EINVAL;
}

/* What each subcommand takes; anything else is refused by name. */
enum takes { TAKE_SOURCES = 1, TAKE_FORMAT = 2, TAKE_PLAN = 4, TAKE_FILES = 8 };

static int parse_options(int argc, char **argv, unsigned int takes, struct options *opts)
{
	int r;

	memset(opts, 0, sizeof(*opts));
	opts->colour = -1;
	opts->root = "/sys/fs/cgroup";
	if (!(opts->args = calloc(argc + 1, sizeof(*opts->args))))
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;

#define NEED_VALUE()                                                                               \
	do {                                                                                       \
		if (!next)                                                                         \
			return usage_error("%s needs a value", arg);                               \
		i++;                                                                               \
	} while (0)
		if ((takes & TAKE_SOURCES) && !strcmp(arg, "--scan")) {
			opts->scan = true;
			/* DIR is optional: a following word that is not an option is it. */
			if (next && next[0] != '-') {
				opts->scan_dir = next;
				i++;
			}
		} else if ((takes & TAKE_SOURCES) && !strncmp(arg, "--scan=", 7)) {
			opts->scan = true;
			opts->scan_dir = arg + 7;
		} else if ((takes & TAKE_SOURCES) && !strcmp(arg, "--from")) {
			NEED_VALUE();
			opts->from = next;
		} else if ((takes & TAKE_SOURCES) && !strcmp(arg, "--log")) {
			NEED_VALUE();
			opts->log = next;
		} else if ((takes & TAKE_FORMAT) &&
			   (!strcmp(arg, "--format") || !strcmp(arg, "-f"))) {
			NEED_VALUE();
			if ((r = out_format_parse(next, &opts->format)) < 0)
				return r;
			opts->format_given = true;
		} else if ((takes & TAKE_FORMAT) && !strcmp(arg, "--color")) {
			NEED_VALUE();
			if (!strcmp(next, "always"))
				opts->colour = 1;
			else if (!strcmp(next, "never"))
				opts->colour = 0;
			else if (!strcmp(next, "auto"))
				opts->colour = -1;
			else
				return usage_error("--color takes auto, always or never, not %s",
						   next);
		} else if (!strcmp(arg, "-o") || !strcmp(arg, "--output")) {
			NEED_VALUE();
			opts->output = next;
		} else if ((takes & TAKE_PLAN) && !strcmp(arg, "--systemd")) {
			opts->systemd = true;
		} else if ((takes & TAKE_PLAN) && !strcmp(arg, "--root")) {
			NEED_VALUE();
			opts->root = next;
		} else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			/* Asked for, as `cgx-migrate --help` is: to stdout, and no error. */
			fputs(usage_text, stdout);
			exit(0);
		} else if ((takes & TAKE_FILES) && (arg[0] != '-' || !strcmp(arg, "-"))) {
			opts->args[opts->nr_args++] = argv[i];
		} else if ((takes & TAKE_FORMAT) && !strncmp(arg, "--", 2) &&
			   out_format_lookup(arg + 2, &opts->format) == 0) {
			/* --json reads as a format; the tool has one way to choose it. */
			char hint[64];

			snprintf(hint, sizeof(hint), "%s: the format is chosen with --format %s",
				 arg, arg + 2);
			return usage_error("unknown option %s", hint);
		} else {
			return usage_error("unknown option %s", arg);
		}
#undef NEED_VALUE
	}
	if (opts->scan && opts->from)
		return usage_error("%s", "--scan and --from both name hierarchies: give one");
	if (!opts->scan && !opts->from && !opts->log)
		opts->scan = true; /* the host this runs on */
	return 0;
}

static void stamp(struct mig_report *report)
{
	struct timespec now;
	struct utsname uts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	char seconds[32];

	strftime(seconds, sizeof(seconds), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(report->generated, sizeof(report->generated), "%.24s.%03dZ", seconds,
		 (int)(now.tv_nsec / 1000000) % 1000);
	if (gethostname(report->host, sizeof(report->host) - 1) < 0)
		strcpy(report->host, "unknown");
	if (uname(&uts) == 0)
		snprintf(report->kernel, sizeof(report->kernel), "%s", uts.release);
}

static int read_counters(struct mig_report *report, const char *mountpoint)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	_cleanup_close_ int fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* Older cgxfs has no counters file: the report just lacks them. */
	if (fd < 0 || read_file_at(fd, "cgx.deprecations", &text) < 0)
		return 0;
	report->counters = steal_ptr(text.buf);
	return 0;
}

/*
 * A host with no v1 hierarchy left may still have v1 users: those of a
 * cgxfs view, which the mount table scan does not read (it is no cgroup
 * mount), and those the view's deprecation log recorded.
 */
static void hint_sources(const struct options *opts)
{
	char **views = NULL;
	unsigned int nr = 0;
	struct stat st;

	mig_warn("no cgroup v1 hierarchy is mounted: nothing to migrate in the mount table");
	if (discover_cgxfs_views(&views, &nr) == 0)
		for (unsigned int i = 0; i < nr; i++)
			mig_warn("a cgxfs view is mounted at %s, not scanned: cgx-migrate %s "
				 "--from %s",
				 views[i], opts->command, views[i]);
	cgxfs_views_free(views, nr);
	if (!strcmp(opts->command, "report") && !opts->log &&
	    stat(CGX_DEFAULT_DEPRECATION_LOG, &st) == 0 && st.st_size > 0)
		mig_warn("cgxfs's deprecation log %s has records: cgx-migrate report --log %s",
			 CGX_DEFAULT_DEPRECATION_LOG, CGX_DEFAULT_DEPRECATION_LOG);
}

static int scan_source(struct mig_report *report, const struct options *opts)
{
	struct v1_mount *mounts = NULL;
	unsigned int nr = 0;
	const char *dir = opts->from ? opts->from : opts->scan_dir;
	int r;

	if (dir)
		r = discover_dir(dir, &mounts, &nr);
	else
		r = discover_mount_table(&mounts, &nr);
	if (r < 0)
		goto out;
	if (!nr && dir) {
		r = mig_err(-ENOENT, "%s holds no cgroup v1 hierarchy", dir);
		goto out;
	}
	if (!nr)
		hint_sources(opts);
	if ((r = report_add_source(report, opts->from ? "cgxfs" : "scan",
				   dir ? dir : "mount table")) < 0 ||
	    (r = scan_mounts(report, mounts, nr)) < 0)
		goto out;
	if (opts->from)
		r = read_counters(report, opts->from);
out:
	v1_mounts_free(mounts, nr);
	return r;
}

static int gather(struct mig_report *report, const struct options *opts)
{
	int r;

	stamp(report);
	if ((opts->scan || opts->from) && (r = scan_source(report, opts)) < 0)
		return r;
	if (opts->log) {
		if (!(report->log = calloc(1, sizeof(*report->log))))
			return -ENOMEM;
		log_summary_init(report->log, opts->log);
		if ((r = log_read_file(report->log, opts->log)) < 0 ||
		    (r = report_add_source(report, "log", opts->log)) < 0)
			return r;
	}
	return layout_build(report);
}

static int cmd_report(int argc, char **argv, bool plan)
{
	_cleanup_(report_release) struct mig_report report;
	struct options opts;
	int r;

	report_init(&report);
	r = parse_options(argc, argv, TAKE_SOURCES | (plan ? TAKE_PLAN : TAKE_FORMAT), &opts);
	opts.command = plan ? "plan" : "report";
	if (r == 0 && plan && !opts.scan && !opts.from)
		r = usage_error("%s", "plan needs hierarchies: --scan [DIR] or --from MOUNTPOINT");
	if (r == 0)
		r = gather(&report, &opts);
	if (r == 0 && plan) {
		struct plan_args args = {&report, opts.systemd, opts.root};

		r = out_write(opts.output, render_plan, &args);
	} else if (r == 0) {
		struct render_args args = {
			.report = &report,
			.format = opts.format,
			.colour = opts.colour < 0 ? out_colour_auto(opts.output) : opts.colour,
		};

		r = out_write(opts.output, render_report, &args);
	}
	free(opts.args);
	return r;
}

static int cmd_merge(int argc, char **argv)
{
	struct fleet *fleet = NULL;
	struct options opts;
	int r;

	if ((r = parse_options(argc, argv, TAKE_FORMAT | TAKE_FILES, &opts)) == 0 && !opts.nr_args)
		r = usage_error("%s", "merge needs at least one REPORT.json");
	if (r == 0 && opts.format == FMT_HTML)
		r = usage_error("%s", "merge writes text, json or markdown");
	if (r == 0 && (r = fleet_load(&fleet, opts.args, opts.nr_args)) == 0) {
		struct fleet_args args = {fleet, opts.format};

		r = out_write(opts.output, render_fleet, &args);
	}
	fleet_free(fleet);
	free(opts.args);
	return r;
}

static int cmd_table(int argc, char **argv)
{
	struct options opts;
	int r;

	if ((r = parse_options(argc, argv, TAKE_FORMAT, &opts)) == 0) {
		struct table_args args = {opts.format};

		r = out_write(opts.output, render_table, &args);
	}
	free(opts.args);
	return r;
}

int main(int argc, char **argv)
{
	const char *command = argc > 1 ? argv[1] : NULL;
	int r;

	if (!command || !strcmp(command, "--help") || !strcmp(command, "-h") ||
	    !strcmp(command, "help")) {
		fputs(usage_text, command ? stdout : stderr);
		return command ? 0 : 2;
	}
	if (!strcmp(command, "report"))
		r = cmd_report(argc - 2, argv + 2, false);
	else if (!strcmp(command, "plan"))
		r = cmd_report(argc - 2, argv + 2, true);
	else if (!strcmp(command, "merge"))
		r = cmd_merge(argc - 2, argv + 2);
	else if (!strcmp(command, "table"))
		r = cmd_table(argc - 2, argv + 2);
	else
		r = usage_error("unknown command %s", command);
	return r < 0 ? 1 : 0;
}
