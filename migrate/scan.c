// SPDX-License-Identifier: GPL-2.0-or-later
#include "scan.h"

#include "fail.h"
#include "parse.h"
#include "procinfo.h"
#include "util.h"
#include "values.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Deeper trees exist only by mistake; the fd per level stays well under the limit. */
#define SCAN_MAX_DEPTH 200

struct scan {
	struct mig_report *report;
	unsigned int h;
	const struct cgx_hier *hier;
	struct mig_hier *mig;
	bool depth_warned;
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

/* The subdirectories of @dirfd, sorted (a report is stable run to run); symlinks are not groups. */
static int list_children(int dirfd, char ***out, unsigned int *nr_out)
{
	_cleanup_closedir_ DIR *listing = NULL;
	struct dirent *entry;
	char **names = NULL;
	unsigned int nr = 0, cap = 0;
	int fd = dup(dirfd);

	*out = NULL;
	*nr_out = 0;
	if (fd < 0)
		return -errno;
	if (!(listing = fdopendir(fd))) {
		close(fd);
		return -errno;
	}
	/* A dup shares the offset of the fd it copies: start from the top. */
	rewinddir(listing);
	while ((entry = readdir(listing))) {
		struct stat st;

		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if (entry->d_type == DT_UNKNOWN) {
			if (fstatat(dirfd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISDIR(st.st_mode))
				continue;
		} else if (entry->d_type != DT_DIR) {
			continue;
		}
		if (nr == cap) {
			char **grown = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof(*names));

			if (!grown) {
				free_names(names, nr);
				return -ENOMEM;
			}
			names = grown;
		}
		if (!(names[nr] = strdup(entry->d_name))) {
			free_names(names, nr);
			return -ENOMEM;
		}
		nr++;
	}
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	*out = names;
	*nr_out = nr;
	return 0;
}

/* The processes of a group: cgroup.procs, or tasks in a copy that has only that. */
static int read_members(struct scan *scan, int dirfd, unsigned int group)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	char *save = NULL;
	int r;

	if ((r = read_file_at(dirfd, "cgroup.procs", &text)) < 0 &&
	    (r = read_file_at(dirfd, "tasks", &text)) < 0)
		return r == -ENOMEM ? r : 0;
	for (char *word = strtok_r(text.buf, " \t\n", &save); word;
	     word = strtok_r(NULL, " \t\n", &save)) {
		struct mig_task *task;
		int pid;

		if (kstrtoint(word, 10, &pid) < 0 || pid <= 0)
			continue;
		if ((r = report_task(scan->report, pid, &task)) < 0)
			return r;
		/* Listed twice in one hierarchy (it moved while we read): the first place stands.
		 */
		if (task->coord[scan->h])
			continue;
		task->coord[scan->h] = group;
		scan->mig->groups[group].nr_tasks++;
		scan->mig->nr_tasks++;
	}
	return 0;
}

static int scan_group(struct scan *scan, int dirfd, unsigned int group,
		      const struct group_values *parent, unsigned int depth)
{
	_cleanup_(group_values_release) struct group_values values = {0};
	_cleanup_free_ char *path = NULL;
	char **children;
	unsigned int nr_children;
	bool is_root = group == 0;
	int r;

	if ((r = group_values_read(&values, scan->hier, dirfd, is_root)) < 0 ||
	    (r = group_settings(&values, parent, is_root, &scan->mig->groups[group])) < 0)
		return r;
	/* The root holds every process no group holds: the fold needs none of them. */
	if (!is_root && (r = read_members(scan, dirfd, group)) < 0)
		return r;
	if (depth >= SCAN_MAX_DEPTH) {
		if (!scan->depth_warned)
			mig_warn("%s: groups deeper than %d levels are not read",
				 scan->mig->mountpoint, SCAN_MAX_DEPTH);
		scan->depth_warned = true;
		return 0;
	}
	if ((r = list_children(dirfd, &children, &nr_children)) < 0)
		return mig_err(r, "cannot list %s%s", scan->mig->mountpoint,
			       scan->mig->groups[group].path);
	if (!(path = strdup(scan->mig->groups[group].path))) {
		free_names(children, nr_children);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < nr_children && r >= 0; i++) {
		_cleanup_strbuf_ struct strbuf child_path = STRBUF_INIT;
		_cleanup_close_ int childfd = -1;
		struct mig_group *child;

		childfd =
			openat(dirfd, children[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* Removed since it was listed: a live system changes under a scan. */
		if (childfd < 0)
			continue;
		if ((r = strbuf_addf(&child_path, "%s/%s", is_root ? "" : path, children[i])) < 0 ||
		    (r = hier_add_group(scan->mig, child_path.buf, (int)group, &child)) < 0)
			break;
		r = scan_group(scan, childfd, scan->mig->nr_groups - 1, &values, depth + 1);
	}
	free_names(children, nr_children);
	return r;
}

/* Files at the root that the table does not know: a newer kernel, or a controller it lacks. */
static int note_unknown_files(struct scan *scan, int dirfd)
{
	_cleanup_closedir_ DIR *listing = NULL;
	struct dirent *entry;
	int fd = dup(dirfd);

	if (fd < 0 || !(listing = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	rewinddir(listing);
	while ((entry = readdir(listing))) {
		char **grown;

		if (entry->d_type != DT_REG || v1_file_find(scan->hier, entry->d_name) >= 0)
			continue;
		grown = realloc(scan->mig->unknown_files,
				(scan->mig->nr_unknown_files + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		scan->mig->unknown_files = grown;
		if (!(grown[scan->mig->nr_unknown_files] = strdup(entry->d_name)))
			return -ENOMEM;
		scan->mig->nr_unknown_files++;
	}
	if (scan->mig->nr_unknown_files)
		qsort(scan->mig->unknown_files, scan->mig->nr_unknown_files, sizeof(char *),
		      cmp_name);
	return 0;
}

static int scan_hierarchy(struct mig_report *report, unsigned int h, const char *path)
{
	struct scan scan = {
		.report = report,
		.h = h,
		.hier = &report->hiers.hier[h],
		.mig = &report->hier[h],
	};
	_cleanup_close_ int rootfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct mig_group *root;
	int r;

	if (!(scan.mig->mountpoint = strdup(path)))
		return -ENOMEM;
	if (rootfd < 0)
		return mig_err(-errno, "cannot open the hierarchy %s", path);
	if ((r = hier_add_group(scan.mig, "/", -1, &root)) < 0 ||
	    (r = note_unknown_files(&scan, rootfd)) < 0)
		return r;
	return scan_group(&scan, rootfd, 0, NULL, 0);
}

int scan_mounts(struct mig_report *report, const struct v1_mount *mounts, unsigned int nr)
{
	_cleanup_strbuf_ struct strbuf spec = STRBUF_INIT;
	int r;

	if (report->have_hiers)
		return mig_err(-EINVAL, "one report reads one set of hierarchies");
	if (nr > CGX_MAX_HIER)
		return mig_err(-E2BIG, "%u hierarchies: at most %d are read", nr, CGX_MAX_HIER);
	/* An empty set (a pure cgroup2 host) is a report too: nothing to migrate. */
	if (!nr)
		return 0;
	for (unsigned int i = 0; i < nr; i++)
		if ((r = strbuf_addf(&spec, "%s%s", i ? ";" : "", mounts[i].spec)) < 0)
			return r;
	if ((r = hier_set_parse(&report->hiers, spec.buf)) < 0)
		return mig_err(r, "the hierarchies found (%s) are not a valid set%s", spec.buf,
			       r == -EBUSY ? " (a controller bound twice)" : "");
	report->have_hiers = true;
	for (unsigned int h = 0; h < nr; h++)
		if ((r = scan_hierarchy(report, h, mounts[h].path)) < 0)
			return r;
	for (unsigned int t = 0; t < report->nr_tasks; t++)
		if ((r = procinfo_fill(&report->tasks[t])) < 0)
			return r;
	return 0;
}
