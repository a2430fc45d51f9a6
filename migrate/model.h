/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a report says, gathered before anything is written: the v1
 * hierarchies with their groups, non-default settings and processes, the
 * proposed v2 tree, the deprecation log's summary and the verdict. Every
 * output format renders this one model.
 */
#ifndef CGX_MIGRATE_MODEL_H
#define CGX_MIGRATE_MODEL_H

#include "hierarchy.h"
#include "logread.h"
#include "strmap.h"
#include "tree.h"
#include "v1_files.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MIG_SCHEMA  "cgx-migrate/1"
#define MIG_VERSION 1

/* What becomes of a v1 setting in cgroup2. */
enum mig_fate {
	FATE_EXACT,  /* the same meaning in a v2 file (same, converted, core) */
	FATE_APPROX, /* part of the meaning, or carried out by other means (approximate, emulated)
		      */
	FATE_LOST,   /* no v2 equivalent: the note says what to use instead */
};

struct mig_setting {
	const struct v1_file *row;
	char *value;	/* the v1 text read, surrounding white space removed */
	char *v2_value; /* the value for row->v2.file; NULL when there is none */
	enum mig_fate fate;
};

struct mig_group {
	char *path; /* "/" for the root, "/students/alice" */
	int parent; /* index in the hierarchy's groups; -1 for the root */
	struct v2_dir *dir;
	struct mig_setting *settings;
	unsigned int nr_settings;
	unsigned int nr_tasks; /* processes in the group itself (the root's are not listed) */
	bool shape_divergent;  /* a hierarchy in use has no group at this path */
	bool fold_approx;      /* some of its processes live outside its v2 directory */
};

struct mig_hier {
	char *mountpoint;	  /* where it was scanned */
	struct mig_group *groups; /* in preorder, children sorted by name; [0] is the root */
	unsigned int nr_groups, cap_groups;
	char **unknown_files; /* files at its root that the table has no row for */
	unsigned int nr_unknown_files;
	unsigned long nr_tasks;
};

struct mig_task {
	pid_t pid;
	char *comm, *exe, *script; /* "" when unknown */
	char **argv;
	unsigned int argc;
	unsigned int coord[CGX_MAX_HIER]; /* group index in each hierarchy; 0 is the root */
	bool multi_hierarchy;		  /* non-root groups on different paths */
	bool exact;			  /* its v2 leaf carries exactly its groups' settings */
	unsigned int leaf;		  /* index of its leaf in the report's v2 nodes */
};

/* One directory of the proposed v2 tree, in preorder with children sorted by name. */
struct mig_v2node {
	char *name; /* the v2 name ("" for the root) */
	char *path; /* "/", "/students/@net_cls=browsers" */
	int parent;
	unsigned int depth;
	uint32_t hier_mask;   /* the hierarchies that have a group at this path */
	uint32_t approx_mask; /* those whose group here folds only approximately */
	bool shape_divergent;
	bool leaf;  /* processes live here */
	bool exact; /* for a leaf: every tuple it holds folds exactly */
	unsigned int nr_tasks;
};

/* A path where the group trees of the hierarchies in use differ. */
struct mig_shape {
	char *path;
	uint32_t present_mask, absent_mask;
};

struct mig_verdict {
	const char *status; /* "ready", "ready-with-approximations", "needs-changes" */
	unsigned long settings, exact, approx, lost;
	unsigned long groups, groups_approx, groups_shape_divergent;
	unsigned long processes, multi_hierarchy, processes_approx;
	unsigned long log_multi_hierarchy, log_no_v2, log_approx;
};

struct mig_source {
	const char *kind; /* "scan", "cgxfs", "log" */
	char *path;
};

struct mig_report {
	char host[256];
	char kernel[128];
	char generated[40]; /* RFC 3339 UTC */
	struct mig_source sources[8];
	unsigned int nr_sources;

	struct cgx_hier_set hiers;
	bool have_hiers;
	struct mig_hier hier[CGX_MAX_HIER];

	struct mig_task *tasks;
	unsigned int nr_tasks, cap_tasks;
	struct strmap task_by_pid;

	/* The proposed layout: enforcer/fold.c's own tree, then flattened for the renderers. */
	struct v2_tree tree;
	bool have_tree;
	struct mig_v2node *nodes;
	unsigned int nr_nodes;
	struct mig_shape *shapes;
	unsigned int nr_shapes;

	struct log_summary *log;
	char *counters; /* cgxfs's cgx.deprecations, when scanned from a mount */

	struct mig_verdict verdict;
};

void report_init(struct mig_report *report);
void report_release(struct mig_report *report);
int report_add_source(struct mig_report *report, const char *kind, const char *path);

/* A new group at the end of @hier's list; its pointer is valid until the next add. */
int hier_add_group(struct mig_hier *hier, const char *path, int parent, struct mig_group **out);
/* The task of @pid, added (info unread) when new. */
int report_task(struct mig_report *report, pid_t pid, struct mig_task **out);

/* "cpu,cpuacct", "name=systemd": how /proc/PID/cgroup and the log name hierarchy @h. */
const char *report_hier_name(const struct mig_report *report, unsigned int h);
/* Whether a group of hierarchy @h folds approximately or lies where another hierarchy has none. */
bool report_hier_diverges(const struct mig_report *report, unsigned int h);
const char *mig_fate_name(enum mig_fate fate);
enum mig_fate mig_fate_of(enum v1_mapping kind);

#endif
