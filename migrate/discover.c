// SPDX-License-Identifier: GPL-2.0-or-later
#include "scan.h"

#include "fail.h"
#include "util.h"
#include "v1_files.h"

#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void cleanup_tablep(struct libmnt_table **table)
{
	mnt_unref_table(*table);
}

void v1_mounts_free(struct v1_mount *mounts, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		free(mounts[i].path);
		free(mounts[i].spec);
	}
	free(mounts);
}

/* The controllers and name= of a cgroup mount's options; "" when it binds none we know. */
static int spec_of_options(const char *options, struct strbuf *spec)
{
	char *optstr = (char *)options, *name, *value;
	size_t name_len, value_len;
	int r;

	while (optstr &&
	       mnt_optstr_next_option(&optstr, &name, &name_len, &value, &value_len) == 0) {
		char word[64];

		if (name_len >= sizeof(word))
			continue;
		memcpy(word, name, name_len);
		word[name_len] = '\0';
		if (!strcmp(word, "name") && value && value_len) {
			if ((r = strbuf_addf(spec, "%sname=%.*s", spec->len ? "," : "",
					     (int)value_len, value)) < 0)
				return r;
		} else if (!value && v1_controller_find(word)) {
			if ((r = strbuf_addf(spec, "%s%s", spec->len ? "," : "", word)) < 0)
				return r;
		}
	}
	return strbuf_add(spec, "", 0);
}

static int add_mount(struct v1_mount **mounts, unsigned int *nr, const char *path, const char *spec)
{
	struct v1_mount *grown;

	/* A hierarchy mounted twice (a bind mount) is one hierarchy: keep the first. */
	for (unsigned int i = 0; i < *nr; i++)
		if (!strcmp((*mounts)[i].spec, spec))
			return 0;
	if (!(grown = realloc(*mounts, (*nr + 1) * sizeof(**mounts))))
		return -ENOMEM;
	*mounts = grown;
	grown[*nr].path = strdup(path);
	grown[*nr].spec = strdup(spec);
	(*nr)++;
	if (!grown[*nr - 1].path || !grown[*nr - 1].spec)
		return -ENOMEM;
	return 0;
}

static int load_mount_table(struct libmnt_table **out)
{
	struct libmnt_table *table = mnt_new_table_from_file("/proc/self/mountinfo");

	if (!table)
		return mig_err(-ENOENT, "cannot read the mount table /proc/self/mountinfo");
	*out = table;
	return 0;
}

/* Calls @fn on each mount of type @fstype, in the table's order, until it fails. */
static int each_mount_of_type(const char *fstype, int (*fn)(struct libmnt_fs *fs, void *data),
			      void *data)
{
	_cleanup_(cleanup_tablep) struct libmnt_table *table = NULL;
	struct libmnt_iter *iter;
	struct libmnt_fs *fs;
	int r;

	if ((r = load_mount_table(&table)) < 0)
		return r;
	if (!(iter = mnt_new_iter(MNT_ITER_FORWARD)))
		return -ENOMEM;
	while (mnt_table_next_fs(table, iter, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs);

		if (type && !strcmp(type, fstype) && (r = fn(fs, data)) < 0)
			break;
	}
	mnt_free_iter(iter);
	return r < 0 ? r : 0;
}

struct found_mounts {
	struct v1_mount **mounts;
	unsigned int *nr;
};

static int add_cgroup_mount(struct libmnt_fs *fs, void *data)
{
	struct found_mounts *found = data;
	_cleanup_strbuf_ struct strbuf spec = STRBUF_INIT;
	int r;

	if ((r = spec_of_options(mnt_fs_get_options(fs), &spec)) < 0)
		return r;
	if (!spec.len) {
		mig_warn("%s: a cgroup mount with no controller this tool knows; skipped",
			 mnt_fs_get_target(fs));
		return 0;
	}
	return add_mount(found->mounts, found->nr, mnt_fs_get_target(fs), spec.buf);
}

int discover_mount_table(struct v1_mount **mounts, unsigned int *nr)
{
	*mounts = NULL;
	*nr = 0;
	return each_mount_of_type("cgroup", add_cgroup_mount,
				  &(struct found_mounts){.mounts = mounts, .nr = nr});
}

struct found_views {
	char ***mountpoints;
	unsigned int *nr;
};

static int add_view(struct libmnt_fs *fs, void *data)
{
	struct found_views *found = data;
	char **grown = realloc(*found->mountpoints, (*found->nr + 1) * sizeof(char *));

	if (!grown)
		return -ENOMEM;
	*found->mountpoints = grown;
	if (!(grown[*found->nr] = strdup(mnt_fs_get_target(fs))))
		return -ENOMEM;
	(*found->nr)++;
	return 0;
}

int discover_cgxfs_views(char ***mountpoints, unsigned int *nr)
{
	*mountpoints = NULL;
	*nr = 0;
	/* libfuse's type for subtype=cgxfs; the keeper mounts it as that too. */
	return each_mount_of_type("fuse.cgxfs", add_view,
				  &(struct found_views){.mountpoints = mountpoints, .nr = nr});
}

void cgxfs_views_free(char **mountpoints, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		free(mountpoints[i]);
	free(mountpoints);
}

/* "cpu,cpuacct" when every word of @name is a controller or name=X; "" otherwise. */
static bool spec_of_name(const char *name, struct strbuf *spec)
{
	_cleanup_free_ char *copy = strdup(name);
	char *save = NULL;

	if (!copy)
		return false;
	for (char *word = strtok_r(copy, ",", &save); word; word = strtok_r(NULL, ",", &save))
		if (!v1_controller_find(word) && strncmp(word, "name=", 5))
			return false;
	return strbuf_addf(spec, "%s", name) == 0;
}

static bool has_file(int dirfd, const char *name)
{
	return faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

/* What hierarchy the directory @path (open as @dirfd, named @name) is, if any. */
static int spec_of_dir(struct libmnt_table *table, const char *path, int dirfd, const char *name,
		       struct strbuf *spec)
{
	char real[PATH_MAX];
	struct libmnt_fs *fs;

	if (realpath(path, real) && (fs = mnt_table_find_target(table, real, MNT_ITER_BACKWARD))) {
		const char *type = mnt_fs_get_fstype(fs);

		if (type && !strcmp(type, "cgroup"))
			return spec_of_options(mnt_fs_get_options(fs), spec);
		if (type && !strcmp(type, "cgroup2"))
			return 0;
	}
	if (has_file(dirfd, "cgroup.controllers"))
		return 0; /* cgroup2 (a hybrid host's "unified") */
	if (!has_file(dirfd, "tasks") && !has_file(dirfd, "cgroup.procs"))
		return 0;
	if (spec_of_name(name, spec))
		return 0;
	/* The kernel takes [A-Za-z0-9_.-] in a hierarchy's name (cgroup1_parse_param). */
	if (strlen(name) >= 64 ||
	    name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789_.-")]) {
		mig_warn("%s: holds tasks but \"%s\" cannot name a hierarchy; skipped", path, name);
		return 0;
	}
	/* A hierarchy named for no controller is a named one, as cgxfs shows name=systemd. */
	return strbuf_addf(spec, "name=%s", name);
}

static int cmp_mount(const void *a, const void *b)
{
	return strcmp(((const struct v1_mount *)a)->path, ((const struct v1_mount *)b)->path);
}

int discover_dir(const char *dir, struct v1_mount **mounts, unsigned int *nr)
{
	_cleanup_(cleanup_tablep) struct libmnt_table *table = NULL;
	_cleanup_closedir_ DIR *listing = NULL;
	_cleanup_close_ int dirfd = -1;
	struct dirent *entry;
	int r;

	*mounts = NULL;
	*nr = 0;
	if ((r = load_mount_table(&table)) < 0)
		return r;
	if ((dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return mig_err(-errno, "cannot open %s", dir);

	/* The directory is a hierarchy itself (a single mount given). */
	if (has_file(dirfd, "tasks") || has_file(dirfd, "cgroup.procs")) {
		_cleanup_strbuf_ struct strbuf spec = STRBUF_INIT;
		const char *base = strrchr(dir, '/');

		base = base && base[1] ? base + 1 : dir;
		if ((r = spec_of_dir(table, dir, dirfd, base, &spec)) < 0)
			return r;
		if (!spec.len)
			return mig_err(-EINVAL, "%s is not a cgroup v1 hierarchy", dir);
		return add_mount(mounts, nr, dir, spec.buf);
	}

	if (!(listing = fdopendir(dup(dirfd))))
		return mig_err(-errno, "cannot list %s", dir);
	while ((entry = readdir(listing))) {
		_cleanup_strbuf_ struct strbuf spec = STRBUF_INIT;
		_cleanup_strbuf_ struct strbuf path = STRBUF_INIT;
		_cleanup_close_ int subfd = -1;

		if (entry->d_name[0] == '.')
			continue;
		/* O_NOFOLLOW: cgxfs's alias symlinks name a hierarchy already listed. */
		subfd = openat(dirfd, entry->d_name,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (subfd < 0)
			continue;
		if ((r = strbuf_addf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
				     entry->d_name)) < 0 ||
		    (r = spec_of_dir(table, path.buf, subfd, entry->d_name, &spec)) < 0)
			return r;
		if (spec.len && (r = add_mount(mounts, nr, path.buf, spec.buf)) < 0)
			return r;
	}
	if (*nr)
		qsort(*mounts, *nr, sizeof(**mounts), cmp_mount);
	return 0;
}
