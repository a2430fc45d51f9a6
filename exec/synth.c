// SPDX-License-Identifier: GPL-2.0-or-later
#include "synth.h"

#include "cgroup_lines.h"
#include "ns.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The fields of one mountinfo line (proc_pid_mountinfo(5)), each NUL-terminated in place. */
struct mountinfo_line {
	char *id, *parent, *dev, *root, *mount_point, *mount_options, *optional;
	char *fstype, *source, *super_options;
};

static char *next_field(char **cursor)
{
	char *field = *cursor, *space;

	if (!field)
		return NULL;
	space = strchr(field, ' ');
	if (space) {
		*space = '\0';
		*cursor = space + 1;
	} else {
		*cursor = NULL;
	}
	return field;
}

static int parse_mountinfo_line(char *line, struct mountinfo_line *mi)
{
	char *cursor = line;

	mi->id = next_field(&cursor);
	mi->parent = next_field(&cursor);
	mi->dev = next_field(&cursor);
	mi->root = next_field(&cursor);
	mi->mount_point = next_field(&cursor);
	mi->mount_options = next_field(&cursor);
	/* Zero or more optional fields ("shared:1 master:2"), ended by "-". */
	if (!cursor)
		return -EINVAL;
	if (!strncmp(cursor, "- ", 2)) {
		mi->optional = "";
		cursor += 2;
	} else {
		char *dash = strstr(cursor, " - ");

		if (!dash)
			return -EINVAL;
		*dash = '\0';
		mi->optional = cursor;
		cursor = dash + 3;
	}
	mi->fstype = next_field(&cursor);
	mi->source = next_field(&cursor);
	mi->super_options = next_field(&cursor);
	if (!mi->super_options)
		return -EINVAL;
	return 0;
}

/*
 * The hierarchy a mount of the view shows, and its root inside that
 * hierarchy: root "/cpu,cpuacct/a" of the view is "/a" of cpu,cpuacct. NULL
 * for the view's own root and anything else.
 */
static struct view_hier *hier_of_root(struct view *view, const char *root, const char **v1_root)
{
	const char *slash;
	char dir[128];
	size_t len;

	if (root[0] != '/')
		return NULL;
	slash = strchr(root + 1, '/');
	len = slash ? (size_t)(slash - root - 1) : strlen(root + 1);
	if (!len || len >= sizeof(dir))
		return NULL;
	memcpy(dir, root + 1, len);
	dir[len] = '\0';
	*v1_root = slash ? slash : "/";
	/* A mount's root is a resolved path: it never names an alias. */
	return view_find_dir(view, dir);
}

/* show_sb_opts() of the kernel: superblock flags /proc/mounts prints before the mount's. */
static bool is_sb_flag(const char *option, size_t len)
{
	static const char *const flags[] = {"sync", "dirsync", "mand", "lazytime"};

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (strlen(flags[i]) == len && !strncmp(flags[i], option, len))
			return true;
	return false;
}

/*
 * A /proc/mounts line from a mountinfo one, as show_vfsmnt() prints it: the
 * mount's rw/ro, the superblock flags, the mount's flags, the file system's
 * options.
 */
static int mounts_line(const struct mountinfo_line *mi, struct strbuf *out)
{
	const char *mount_rest = mi->mount_options + strcspn(mi->mount_options, ",");
	const char *super_rest = mi->super_options + strcspn(mi->super_options, ",");
	_cleanup_strbuf_ struct strbuf sb_flags = STRBUF_INIT;
	_cleanup_strbuf_ struct strbuf fs_options = STRBUF_INIT;
	int r;

	while (*super_rest == ',') {
		size_t len = strcspn(super_rest + 1, ",");
		struct strbuf *to = is_sb_flag(super_rest + 1, len) && !fs_options.len
					    ? &sb_flags
					    : &fs_options;

		if ((r = strbuf_add(to, super_rest, len + 1)) < 0)
			return r;
		super_rest += len + 1;
	}
	return strbuf_addf(out, "%s %s %s %.*s%s%s%s 0 0\n", mi->source, mi->mount_point,
			   mi->fstype, (int)strcspn(mi->mount_options, ","), mi->mount_options,
			   sb_flags.len ? sb_flags.buf : "", mount_rest,
			   fs_options.len ? fs_options.buf : "");
}

static int mountinfo_line(const struct mountinfo_line *mi, struct strbuf *out)
{
	return strbuf_addf(out, "%s %s %s %s %s %s %s%s- %s %s %s\n", mi->id, mi->parent, mi->dev,
			   mi->root, mi->mount_point, mi->mount_options, mi->optional,
			   mi->optional[0] ? " " : "", mi->fstype, mi->source, mi->super_options);
}

/* @prefix is @path or one of its parent directories. */
static bool path_covers(const char *prefix, const char *path)
{
	size_t len = strlen(prefix);

	if (!strcmp(prefix, "/"))
		return true;
	return !strncmp(prefix, path, len) && (path[len] == '\0' || path[len] == '/');
}

/*
 * Whether mount @i is out of reach: a later mount on the same parent sits on
 * its mount point or on a directory above it, or its parent is out of reach.
 * The kernel still lists such mounts.
 */
static bool is_overmounted(const struct mountinfo_line *mi, size_t nr, size_t i, unsigned int depth)
{
	if (depth > 64)
		return false;
	for (size_t j = i + 1; j < nr; j++)
		if (!strcmp(mi[j].parent, mi[i].parent) &&
		    path_covers(mi[j].mount_point, mi[i].mount_point))
			return true;
	for (size_t p = 0; p < nr; p++)
		if (p != i && !strcmp(mi[p].id, mi[i].parent))
			return is_overmounted(mi, nr, p, depth + 1);
	return false;
}

/*
 * A view under /sys/fs (cgxfs's default /sys/fs/cgroup-compat) lies on a
 * tmpfs laid over /sys/fs, beneath which the host's own /sys/fs/cgroup
 * mounts stay: out of reach, but listed. A v1 host has no cgroup2 mount
 * and no second set of hierarchies there, so they are left out.
 */
static bool is_hidden_host_cgroup(const struct mountinfo_line *mi, size_t nr, size_t i)
{
	return path_covers(CGROUP_ROOT, mi[i].mount_point) && is_overmounted(mi, nr, i, 0);
}

/* Undoes mangle()'s octal escapes of a mountinfo field ("\\040" for a space). */
static void unescape_field(const char *field, char *out, size_t size)
{
	size_t used = 0;

	while (*field && used + 1 < size) {
		if (field[0] == '\\' && field[1] >= '0' && field[1] <= '3' && field[2] >= '0' &&
		    field[2] <= '7' && field[3] >= '0' && field[3] <= '7') {
			out[used++] = (char)((field[1] - '0') << 6 | (field[2] - '0') << 3 |
					     (field[3] - '0'));
			field += 4;
		} else {
			out[used++] = *field++;
		}
	}
	out[used] = '\0';
}

/* seq_escape(" \t\n\\") as show_mountinfo() escapes a mount's root. */
static void escape_field(const char *raw, char *out, size_t size)
{
	size_t used = 0;

	for (; *raw && used + 4 < size; raw++) {
		if (strchr(" \t\n\\", *raw))
			used += snprintf(out + used, size - used, "\\%03o", (unsigned char)*raw);
		else
			out[used++] = *raw;
	}
	out[used] = '\0';
}

/*
 * The root of a bind of hierarchy @hier's group @v1_root (escaped), as
 * cgroup_show_path() prints it to a reader whose namespace is rooted at
 * @root_tuple: relative to the reader's root in that hierarchy.
 */
static int reader_root(const struct view_hier *hier, const char *v1_root, const char *root_tuple,
		       char *out, size_t size)
{
	char group[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
	int r;

	unescape_field(v1_root, group, sizeof(group));
	if ((r = cgroup_path_from(group, cgroup_group_of(hier, root_tuple, root, sizeof(root)),
				  path, sizeof(path))) < 0)
		return r;
	escape_field(path, out, size);
	return 0;
}

int synth_mount_table(struct view *view, int proc_dir, enum synth_table format,
		      const char *root_tuple, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	_cleanup_free_ struct mountinfo_line *mi = NULL;
	char view_dev[32];
	size_t nr = 0, size = 0;
	char *line, *next;
	int r;

	if ((r = read_file_at(proc_dir, "mountinfo", &text)) < 0)
		return r;
	for (line = text.buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (nr == size) {
			struct mountinfo_line *grown;

			size = size ? size * 2 : 64;
			if (!(grown = reallocarray(mi, size, sizeof(*mi))))
				return -ENOMEM;
			mi = grown;
		}
		if (parse_mountinfo_line(line, &mi[nr]) == 0)
			nr++;
	}
	snprintf(view_dev, sizeof(view_dev), "%u:%u", major(view->dev), minor(view->dev));
	for (size_t i = 0; i < nr; i++) {
		struct mountinfo_line row = mi[i];
		struct view_hier *hier = NULL;
		const char *v1_root = "/";
		char super_options[300], root[PATH_MAX * 4];

		if (!strcmp(row.dev, view_dev))
			hier = hier_of_root(view, row.root, &v1_root);
		if (hier) {
			/* cgroup1_show_options(): the controllers, then name=. */
			snprintf(super_options, sizeof(super_options), "%.*s,%s",
				 (int)strcspn(row.super_options, ","), row.super_options,
				 hier->options);
			if ((r = reader_root(hier, v1_root, root_tuple, root, sizeof(root))) < 0)
				return r;
			row.root = root;
			row.fstype = "cgroup";
			row.source = (char *)view_source_of(view, strtoull(row.id, NULL, 10));
			if (!row.source)
				row.source = "cgroup"; /* as systemd and cgroupfs-mount name it */
			row.super_options = super_options;
		} else if (is_hidden_host_cgroup(mi, nr, i)) {
			continue;
		}
		r = format == SYNTH_MOUNTS ? mounts_line(&row, out) : mountinfo_line(&row, out);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Groups of a hierarchy, as num_cgroups counts them: the root and every directory below. */
static unsigned int count_groups(int dirfd, unsigned int depth)
{
	_cleanup_closedir_ DIR *listing = NULL;
	struct dirent *entry;
	unsigned int count = 1;
	int fd;

	if (depth > 64 || (fd = dup(dirfd)) < 0)
		return count;
	if (!(listing = fdopendir(fd))) {
		close(fd);
		return count;
	}
	while ((entry = readdir(listing))) {
		_cleanup_close_ int child = -1;

		if (entry->d_type != DT_DIR || entry->d_name[0] == '.')
			continue;
		child = openat(dirfd, entry->d_name,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (child >= 0)
			count += count_groups(child, depth + 1);
	}
	return count;
}

int synth_proc_cgroups(struct view *view, struct strbuf *out)
{
	int r;

	if ((r = strbuf_addf(out, "#subsys_name\thierarchy\tnum_cgroups\tenabled\n")) < 0)
		return r;
	for (unsigned int c = 0; c < VIEW_NR_CONTROLLERS; c++) {
		unsigned int id = 0, groups = 1;

		for (unsigned int i = 0; i < view->nr; i++) {
			_cleanup_close_ int fd = -1;

			if (!(view->hier[i].controllers & (1u << c)))
				continue;
			id = view->hier[i].id;
			fd = openat(view->fd, view->hier[i].dir,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				groups = count_groups(fd, 0);
		}
		if ((r = strbuf_addf(out, "%s\t%u\t%u\t1\n", hier_controller_name(c), id, groups)) <
		    0)
			return r;
	}
	return 0;
}
