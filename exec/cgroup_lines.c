// SPDX-License-Identifier: GPL-2.0-or-later
#include "cgroup_lines.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#define TUPLE_XATTR "trusted.cgx.tuple"

/*
 * The cgroup2 path of the process of @proc_dir: its "0::" line, read here,
 * so that the path is absolute (the reader's cgroup namespace roots it).
 */
static int v2_path_of(int proc_dir, char *path, size_t size)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	int r;

	if ((r = read_file_at(proc_dir, "cgroup", &text)) < 0)
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

int cgroup_tuple_of(const char *cgroup2, int proc_dir, char *tuple, size_t size)
{
	char v2_path[PATH_MAX], leaf[PATH_MAX * 2];
	ssize_t len;
	int r;

	if ((r = v2_path_of(proc_dir, v2_path, sizeof(v2_path))) < 0)
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

const char *cgroup_group_of(const struct view_hier *hier, const char *tuple, char *path,
			    size_t size)
{
	const char *group = group_in_tuple(hier, tuple, path, size);

	return group ? group : "/";
}

/* The next component of a v1 path at *@cursor, its length in *@len; NULL at the end. */
static const char *next_component(const char **cursor, size_t *len)
{
	const char *at = *cursor + strspn(*cursor, "/");

	if (!*at)
		return NULL;
	*len = strcspn(at, "/");
	*cursor = at + *len;
	return at;
}

int cgroup_path_from(const char *group, const char *root, char *out, size_t size)
{
	const char *g = group, *r = root, *gc, *rc;
	size_t used = 0, glen = 0, rlen = 0;

	/* kernfs_common_ancestor(): the components both paths share. */
	for (;;) {
		const char *gsave = g, *rsave = r;

		gc = next_component(&g, &glen);
		rc = next_component(&r, &rlen);
		if (!gc || !rc || glen != rlen || memcmp(gc, rc, glen)) {
			g = gsave;
			r = rsave;
			break;
		}
	}
	/* "/.." for each level from the ancestor down to the root, then the names down to @group.
	 */
	while (next_component(&r, &rlen)) {
		if (used + 3 >= size)
			return -ENAMETOOLONG;
		memcpy(out + used, "/..", 3);
		used += 3;
	}
	while ((gc = next_component(&g, &glen))) {
		if (used + 1 + glen >= size)
			return -ENAMETOOLONG;
		out[used++] = '/';
		memcpy(out + used, gc, glen);
		used += glen;
	}
	if (!used) {
		if (size < 2)
			return -ENAMETOOLONG;
		out[used++] = '/';
	}
	out[used] = '\0';
	return 0;
}

int cgroup_lines(struct view *view, const char *cgroup2, int proc_dir, const char *root_tuple,
		 struct strbuf *out)
{
	char tuple[8192];
	int r;

	if ((r = cgroup_tuple_of(cgroup2, proc_dir, tuple, sizeof(tuple))) < 0)
		return r;
	/* cgroup_setup_root() puts a new root at the head of the list: the highest id first. */
	for (unsigned int printed = 0, last = ~0u; printed < view->nr; printed++) {
		const struct view_hier *next = NULL;
		char group[PATH_MAX], root[PATH_MAX], path[PATH_MAX];

		for (unsigned int i = 0; i < view->nr; i++)
			if (view->hier[i].id < last && (!next || view->hier[i].id > next->id))
				next = &view->hier[i];
		if (!next)
			break;
		last = next->id;
		/* cgroup_path_ns_locked(): relative to the reader's namespace root, raw. */
		if ((r = cgroup_path_from(cgroup_group_of(next, tuple, group, sizeof(group)),
					  cgroup_group_of(next, root_tuple, root, sizeof(root)),
					  path, sizeof(path))) < 0 ||
		    (r = strbuf_addf(out, "%u:%s:%s\n", next->id, next->options, path)) < 0)
			return r;
	}
	return 0;
}

int cpuset_line(struct view *view, const char *cgroup2, int proc_dir, const char *root_tuple,
		struct strbuf *out)
{
	int cpuset = hier_controller_index("cpuset", strlen("cpuset"));
	const char *group = "/", *root = "/";
	char tuple[8192], group_buf[PATH_MAX], root_buf[PATH_MAX], path[PATH_MAX];
	int r;

	if ((r = cgroup_tuple_of(cgroup2, proc_dir, tuple, sizeof(tuple))) < 0)
		return r;
	for (unsigned int i = 0; i < view->nr && cpuset >= 0; i++)
		if (view->hier[i].controllers & (1u << cpuset)) {
			group = cgroup_group_of(&view->hier[i], tuple, group_buf,
						sizeof(group_buf));
			root = cgroup_group_of(&view->hier[i], root_tuple, root_buf,
					       sizeof(root_buf));
		}
	if ((r = cgroup_path_from(group, root, path, sizeof(path))) < 0)
		return r;
	return strbuf_addf(out, "%s\n", path);
}
