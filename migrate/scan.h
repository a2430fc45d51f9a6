/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading v1 hierarchies into a report: where they are (the mount table or
 * a directory laid out like /sys/fs/cgroup), then each one's groups,
 * non-default settings and processes. Read-only: nothing is written.
 */
#ifndef CGX_MIGRATE_SCAN_H
#define CGX_MIGRATE_SCAN_H

#include "model.h"

/* A v1 hierarchy found: where it is and what it binds ("cpu,cpuacct", "name=systemd"). */
struct v1_mount {
	char *path;
	char *spec;
};

/* Every mount of type cgroup in this process's mount table, one per hierarchy. */
int discover_mount_table(struct v1_mount **mounts, unsigned int *nr);
/* The mount points of the cgxfs views (fuse.cgxfs) of this process's mount table. */
int discover_cgxfs_views(char ***mountpoints, unsigned int *nr);
void cgxfs_views_free(char **mountpoints, unsigned int nr);
/*
 * The hierarchies under @dir: each subdirectory that is a cgroup mount, or
 * is named for controllers ("cpu,cpuacct"), or holds a tasks file (a named
 * hierarchy); symlinks (cgxfs's "cpu" -> "cpu,cpuacct") and cgroup2 are
 * skipped. @dir may also be one hierarchy itself.
 */
int discover_dir(const char *dir, struct v1_mount **mounts, unsigned int *nr);
void v1_mounts_free(struct v1_mount *mounts, unsigned int nr);

/* Reads every hierarchy of @mounts into @report (which must have none yet). */
int scan_mounts(struct mig_report *report, const struct v1_mount *mounts, unsigned int nr);

#endif
