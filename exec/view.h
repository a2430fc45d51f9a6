/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hierarchies of a running cgxfs view, as cgx-exec shows them: each
 * top-level directory of the view is one hierarchy, each symlink an alias
 * ("cpu" -> "cpu,cpuacct"). Hierarchy ids are given in the view's order and
 * kept for the life of the process, as the kernel keeps a root's id.
 */
#ifndef CGX_EXEC_VIEW_H
#define CGX_EXEC_VIEW_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define VIEW_MAX_HIER	32
#define VIEW_MAX_ALIAS	64
#define VIEW_MAX_SOURCE 64
#include "hierarchy.h"

#define VIEW_NR_CONTROLLERS HIER_NR_CONTROLLERS

struct view_hier {
	char dir[128];		  /* directory in the view: "cpu,cpuacct", "systemd", "name=jobs" */
	char options[256];	  /* as the kernel shows it: "cpu,cpuacct", "name=systemd" */
	char name[64];		  /* name=X of a named hierarchy, "" otherwise */
	unsigned int controllers; /* bit i: hier_controller_name(i) */
	unsigned int id;
	bool seen; /* still in the view at the last reload */
};

struct view_alias {
	char name[64];
	char target[128];
};

/* The source a `mount -t cgroup SRC DIR` gave, shown back for that mount. */
struct view_source {
	unsigned long long mnt_id;
	char name[64];
};

struct view {
	char path[PATH_MAX];
	int fd;
	dev_t dev;
	struct view_hier hier[VIEW_MAX_HIER];
	unsigned int nr;
	struct view_alias alias[VIEW_MAX_ALIAS];
	unsigned int nr_alias;
	unsigned int next_id;
	struct view_source source[VIEW_MAX_SOURCE]; /* a ring: the oldest is forgotten first */
	unsigned int nr_source;
};

/*
 * Parses a hierarchy spec or a /proc/PID/cgroup name ("cpu,cpuacct",
 * "none,name=x", "name=systemd") into a controller mask and a name. A single
 * word naming no controller is a named hierarchy when @bare_name_ok (cgxfs
 * shows name=systemd as "systemd"). -EINVAL when it names nothing valid.
 */
int hier_spec_parse(const char *spec, bool bare_name_ok, unsigned int *controllers, char *name,
		    size_t name_size);

/* Opens the view at @path: -ENOTCONN when no cgxfs is mounted there. */
int view_open(struct view *view, const char *path);
void view_close(struct view *view);
/* Reads the hierarchies again (one was made); ids of the known ones stay. */
int view_reload(struct view *view);

/* The hierarchy with exactly these controllers and name ("" for any when @controllers != 0). */
struct view_hier *view_find(struct view *view, unsigned int controllers, const char *name);
/* The hierarchy of directory @dir (an alias is followed), or NULL. */
struct view_hier *view_find_dir(struct view *view, const char *dir);

/* Remembers @name as the source of mount @mnt_id; the source shown for it, or NULL. */
void view_set_source(struct view *view, unsigned long long mnt_id, const char *name);
const char *view_source_of(const struct view *view, unsigned long long mnt_id);

#endif
