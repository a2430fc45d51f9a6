// SPDX-License-Identifier: GPL-2.0-or-later
#include "cgroup_lines.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#define TUPLE_XATTR "trusted.cgx.tuple"

/* The cgroup2 path of @pid: its "0::" line. */
static int v2_path_of(pid_t pid, char *path, size_t size)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	char file[64];
	int r;

	snprintf(file, sizeof(file), "/proc/%d/cgroup", pid);
	if ((r = read_file_at(AT_FDCWD, file, &text)) < 0)
		return r;
	for (const char *line = text.buf; line && *line;) {
		size_t len = strcspn(line, "\n");

		if (!strncmp(line, "0::", 3)) {
			if (len - 3 >= size)
				return -ENAMETOOLONG;
			memcpy(path, line + 3, len - 3);
			path[len - 3] = '\0';
			return 0;
		}
		line += len + (line[len] == '\n');
	}
	return -ENOENT;
}

int cgroup_tuple_of(const char *cgroup2, pid_t pid, char *tuple, size_t size)
{
	char v2_path[PATH_MAX], leaf[PATH_MAX * 2];
	ssize_t len;
	int r;

	if ((r = v2_path_of(pid, v2_path, sizeof(v2_path))) < 0)
		return r;
	/* " (deleted)" and the like never name a leaf cgxfs keeps. */
	snprintf(leaf, sizeof(leaf), "%s%s", cgroup2, v2_path);
	len = getxattr(leaf, TUPLE_XATTR, tuple, size - 1);
	if (len < 0) {
		if (errno != ENODATA && errno != ENOENT)
			return -errno;
		len = 0;
	}
	tuple[len] = '\0';
	return 0;
}

/* The group of @hier in @tuple ("name:/path" lines), or NULL for its root. */
static const char *group_in_tuple(const struct view_hier *hier, const char *tuple, char *path,
				  size_t size)
{
	for (const char *line = tuple; *line;) {
		size_t len = strcspn(line, "\n");
		const char *colon = memchr(line, ':', len);

		if (colon && (size_t)(line + len - colon) <= size) {
			char spec[256], name[64];
			unsigned int mask;

			snprintf(spec, sizeof(spec), "%.*s", (int)(colon - line), line);
			if (hier_spec_parse(spec, false, &mask, name, sizeof(name)) == 0 &&
			    mask == hier->controllers && !strcmp(name, hier->name)) {
				snprintf(path, size, "%.*s", (int)(line + len - colon - 1),
					 colon + 1);
				return path;
			}
		}
		line += len + (line[len] == '\n');
	}
	return NULL;
}

int cgroup_lines(struct view *view, const char *cgroup2, pid_t pid, struct strbuf *out)
{
	char tuple[8192];
	int r;

	if ((r = cgroup_tuple_of(cgroup2, pid, tuple, sizeof(tuple))) < 0)
		return r;
	/* cgroup_setup_root() puts a new root at the head of the list: the highest id first. */
	for (unsigned int printed = 0, last = ~0u; printed < view->nr; printed++) {
		const struct view_hier *next = NULL;
		char path[PATH_MAX];
		const char *group;

		for (unsigned int i = 0; i < view->nr; i++)
			if (view->hier[i].id < last && (!next || view->hier[i].id > next->id))
				next = &view->hier[i];
		if (!next)
			break;
		last = next->id;
		group = group_in_tuple(next, tuple, path, sizeof(path));
		if ((r = strbuf_addf(out, "%u:%s:%s\n", next->id, next->options,
				     group ? group : "/")) < 0)
			return r;
	}
	return 0;
}

int cpuset_line(struct view *view, const char *cgroup2, pid_t pid, struct strbuf *out)
{
	int cpuset = hier_controller_index("cpuset", strlen("cpuset"));
	const char *group = NULL;
	char tuple[8192], path[PATH_MAX];
	int r;

	if ((r = cgroup_tuple_of(cgroup2, pid, tuple, sizeof(tuple))) < 0)
		return r;
	for (unsigned int i = 0; i < view->nr && cpuset >= 0; i++)
		if (view->hier[i].controllers & (1u << cpuset))
			group = group_in_tuple(&view->hier[i], tuple, path, sizeof(path));
	return strbuf_addf(out, "%s\n", group ? group : "/");
}
