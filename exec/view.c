// SPDX-License-Identifier: GPL-2.0-or-later
#include "view.h"

#include "hierarchy.h"
#include "util.h"

#include <ctype.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

int hier_spec_parse(const char *spec, bool bare_name_ok, unsigned int *mask, char *name,
		    size_t name_size)
{
	const char *word = spec;
	bool none = false;

	*mask = 0;
	name[0] = '\0';
	while (*word) {
		size_t len = strcspn(word, ",");
		int index;

		if (len == 4 && !strncmp(word, "none", 4)) {
			none = true;
		} else if (len > 5 && !strncmp(word, "name=", 5)) {
			if (name[0] || !hier_name_valid(word + 5, len - 5) || len - 5 >= name_size)
				return -EINVAL;
			snprintf(name, name_size, "%.*s", (int)(len - 5), word + 5);
		} else if ((index = hier_controller_index(word, len)) >= 0) {
			*mask |= 1u << index;
		} else if (bare_name_ok && word == spec && !word[len] &&
			   hier_name_valid(word, len) && len < name_size) {
			snprintf(name, name_size, "%s", word);
		} else {
			return -EINVAL;
		}
		word += len + (word[len] == ',');
	}
	if ((none && *mask) || (!*mask && !name[0]))
		return -EINVAL;
	return 0;
}

static void hier_options(struct view_hier *hier)
{
	/* Built in a local: the name is a field of the same struct. */
	char options[sizeof(hier->options)] = "";
	size_t used = 0;

	for (unsigned int i = 0; i < HIER_NR_CONTROLLERS; i++)
		if (hier->controllers & (1u << i))
			used += snprintf(options + used, sizeof(options) - used, "%s%s",
					 used ? "," : "", hier_controller_name(i));
	if (hier->name[0])
		snprintf(options + used, sizeof(options) - used, "%sname=%s", used ? "," : "",
			 hier->name);
	memcpy(hier->options, options, sizeof(options));
}

static struct view_hier *find_by_dir(struct view *view, const char *dir)
{
	for (unsigned int i = 0; i < view->nr; i++)
		if (!strcmp(view->hier[i].dir, dir))
			return &view->hier[i];
	return NULL;
}

static int add_entry(struct view *view, const char *entry)
{
	struct stat st;
	struct view_hier *hier;
	unsigned int mask;
	char name[64];

	if (fstatat(view->fd, entry, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* removed while listed */
	if (S_ISLNK(st.st_mode)) {
		struct view_alias *alias;
		ssize_t len;

		if (view->nr_alias == VIEW_MAX_ALIAS || strlen(entry) >= sizeof(alias->name))
			return 0;
		alias = &view->alias[view->nr_alias];
		len = readlinkat(view->fd, entry, alias->target, sizeof(alias->target) - 1);
		if (len <= 0)
			return 0;
		alias->target[len] = '\0';
		snprintf(alias->name, sizeof(alias->name), "%s", entry);
		view->nr_alias++;
		return 0;
	}
	if (!S_ISDIR(st.st_mode) || strlen(entry) >= sizeof(hier->dir) ||
	    hier_spec_parse(entry, true, &mask, name, sizeof(name)) < 0)
		return 0;
	if ((hier = find_by_dir(view, entry))) {
		hier->seen = true;
		return 0;
	}
	if (view->nr == VIEW_MAX_HIER)
		return -ENOSPC;
	hier = &view->hier[view->nr++];
	memset(hier, 0, sizeof(*hier));
	snprintf(hier->dir, sizeof(hier->dir), "%s", entry);
	snprintf(hier->name, sizeof(hier->name), "%s", name);
	hier->controllers = mask;
	hier->id = view->next_id++;
	hier->seen = true;
	hier_options(hier);
	return 0;
}

int view_reload(struct view *view)
{
	_cleanup_closedir_ DIR *listing = NULL;
	struct dirent *entry;
	unsigned int kept = 0;
	int fd, r;

	if ((fd = openat(view->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (!(listing = fdopendir(fd))) {
		r = -errno;
		close(fd);
		return r;
	}
	for (unsigned int i = 0; i < view->nr; i++)
		view->hier[i].seen = false;
	view->nr_alias = 0;
	while ((entry = readdir(listing)))
		if (entry->d_name[0] != '.' && (r = add_entry(view, entry->d_name)) < 0)
			return r;
	/* A hierarchy removed with rmdir takes its id along, as the kernel's root did. */
	for (unsigned int i = 0; i < view->nr; i++)
		if (view->hier[i].seen)
			view->hier[kept++] = view->hier[i];
	view->nr = kept;
	return 0;
}

int view_open(struct view *view, const char *path)
{
	struct statfs sfs;
	struct stat st;
	int r;

	memset(view, 0, sizeof(*view));
	view->fd = -1;
	view->next_id = 1;
	if (strlen(path) >= sizeof(view->path))
		return -ENAMETOOLONG;
	snprintf(view->path, sizeof(view->path), "%s", path);
	if ((view->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstatfs(view->fd, &sfs) < 0 || fstat(view->fd, &st) < 0) {
		r = -errno;
		goto fail;
	}
	/* cgxfs shows cgx.deprecations at its root; any other FUSE file system is not a view. */
	if (sfs.f_type != FUSE_SUPER_MAGIC || faccessat(view->fd, "cgx.deprecations", F_OK, 0)) {
		r = -ENOTCONN;
		goto fail;
	}
	view->dev = st.st_dev;
	if ((r = view_reload(view)) < 0)
		goto fail;
	if (!view->nr) {
		r = -ENOENT;
		goto fail;
	}
	return 0;
fail:
	view_close(view);
	return r;
}

void view_close(struct view *view)
{
	if (view->fd >= 0)
		close(view->fd);
	view->fd = -1;
}

struct view_hier *view_find(struct view *view, unsigned int mask, const char *name)
{
	for (unsigned int i = 0; i < view->nr; i++)
		if (view->hier[i].controllers == mask && !strcmp(view->hier[i].name, name))
			return &view->hier[i];
	return NULL;
}

struct view_hier *view_find_dir(struct view *view, const char *dir)
{
	for (unsigned int i = 0; i < view->nr_alias; i++)
		if (!strcmp(view->alias[i].name, dir))
			return find_by_dir(view, view->alias[i].target);
	return find_by_dir(view, dir);
}

void view_set_source(struct view *view, unsigned long long mnt_id, const char *name)
{
	struct view_source *slot = &view->source[view->nr_source++ % VIEW_MAX_SOURCE];

	slot->mnt_id = mnt_id;
	snprintf(slot->name, sizeof(slot->name), "%s", name);
}

const char *view_source_of(const struct view *view, unsigned long long mnt_id)
{
	unsigned int kept = view->nr_source < VIEW_MAX_SOURCE ? view->nr_source : VIEW_MAX_SOURCE;

	for (unsigned int i = 0; i < kept; i++)
		if (view->source[i].mnt_id == mnt_id)
			return view->source[i].name;
	return NULL;
}
