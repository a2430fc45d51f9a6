/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The set of v1 hierarchies a view shows: which controllers are co-mounted,
 * which hierarchies are named, and the directory each one appears as.
 */
#ifndef CGX_HIERARCHY_H
#define CGX_HIERARCHY_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>

#define CGX_MAX_HIER	   32
#define CGX_MAX_CONTROLLER 16

/* The classic layout of a v1 distribution (reference/kernel-6.1-v1-classic-layout.txt). */
#define CGX_DEFAULT_HIERARCHIES                                                                    \
	"cpuset;cpu,cpuacct;blkio;memory;devices;freezer;net_cls,net_prio;perf_event;hugetlb;"     \
	"pids;rdma;misc;name=systemd"

struct v1_controller;
struct v1_file;

struct cgx_hier {
	/* Directory name in the view: "cpu,cpuacct", or "systemd" for name=systemd. */
	char dir_name[128];
	/* As /proc/PID/cgroup prints it: "cpu,cpuacct", "name=systemd". */
	char proc_name[256];
	/* One word for legible leaf names: "cpu", "systemd". */
	char short_name[64];
	/* name=X of a named hierarchy, "" otherwise. */
	char named[64];
	/* Made with "none": no controller, only a name. */
	bool none;
	const char *controllers[CGX_MAX_CONTROLLER];
	unsigned int nr_controllers;
	/*
	 * The rows of each of @controllers (NULL for one without files), kept by
	 * v1_files_build() so that the layers below the controllers' tables
	 * reach them without the registry.
	 */
	const struct v1_controller *controller_rows[CGX_MAX_CONTROLLER];
	/* Every file of a group of this hierarchy, sorted by name. */
	const struct v1_file **files;
	unsigned int nr_files;
};

struct cgx_hier_set {
	struct cgx_hier hier[CGX_MAX_HIER];
	unsigned int nr;
	/* Hierarchy indexes, aggregate-limit hierarchies first (docs/design.md §3, rule 3). */
	unsigned int primary_order[CGX_MAX_HIER];
	/* Controllers put first by hier_set_primary(), in that order. */
	const char *primary[CGX_MAX_CONTROLLER];
	unsigned int nr_primary;
};

/*
 * The builders of a set (hierarchy_set.c): each builds the file tables from
 * the registry, so that only the layers above the controllers call them.
 *
 * Parse "cpu,cpuacct;memory;name=systemd". -EINVAL for an unknown controller,
 * an empty or malformed entry or a bad name; -EBUSY for a controller or name
 * given twice (the kernel refuses to bind a controller to two hierarchies).
 */
int hier_set_parse(struct cgx_hier_set *set, const char *spec);
void hier_set_release(struct cgx_hier_set *set);
/*
 * Puts the hierarchies of @controllers ("cpu,memory") first in the order in
 * which a divergent tuple's leaf looks for its primary group; the others
 * follow in the default order (memory, pids, cpu, blkio, ...). -EINVAL for
 * an unknown controller.
 */
int hier_set_primary(struct cgx_hier_set *set, const char *controllers);

/*
 * A hierarchy made while mounted, as `mount -t cgroup -o SPEC` made one: its
 * directory is @dir_name, which is also its spec ("cpu,memory",
 * "cpu,name=jobs", "none,name=jobs"). Appended, so no other index changes.
 * -EINVAL for a bad spec or a name alone ("name=jobs" finds a hierarchy in
 * v1, never makes one), -EBUSY for a controller or name bound elsewhere,
 * -EEXIST for a directory of that name.
 */
int hier_set_add(struct cgx_hier_set *set, const char *dir_name);
void hier_set_remove(struct cgx_hier_set *set, unsigned int index);
/* "PROC_NAME<TAB>DIR_NAME" lines: what the base keeps across restarts. */
int hier_set_format(const struct cgx_hier_set *set, struct strbuf *out);
int hier_set_parse_stored(struct cgx_hier_set *set, const char *text);

/* Index of the hierarchy whose directory or /proc name is @name, or -ENOENT. */
int hier_set_find(const struct cgx_hier_set *set, const char *name);

bool hier_has_controller(const struct cgx_hier *hier, const char *controller);

/* The v1 controllers in the kernel's subsystem order (HIER_NR_CONTROLLERS of them). */
#define HIER_NR_CONTROLLERS 14
const char *hier_controller_name(unsigned int index);
/* Index of the controller spelt by @len bytes of @name, or -ENOENT. */
int hier_controller_index(const char *name, size_t len);
/* Whether @len bytes of @name make a hierarchy name the kernel takes (name=X). */
bool hier_name_valid(const char *name, size_t len);

/* The controller aliases shown as symlinks: "cpu" -> "cpu,cpuacct". */
struct hier_alias {
	const char *name;
	unsigned int hier;
};
/* Fills @aliases (room for CGX_MAX_HIER * CGX_MAX_CONTROLLER), returns the count. */
unsigned int hier_set_aliases(const struct cgx_hier_set *set, struct hier_alias *aliases);

#endif
