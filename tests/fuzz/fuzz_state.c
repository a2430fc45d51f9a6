// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the state a daemon keeps in trusted.cgx.* xattrs on the
 * v2 base and its directories (enforcer/state.c), as a restart reads it
 * back, and as cgx-exec reads a leaf's tuple (exec/cgroup_lines.c). A daemon
 * killed mid-write, a disk error or another program may leave anything
 * there: the view either opens or fails with an errno, never with UB, and
 * what it opened serves every read and write.
 *
 * An input is up to eight records separated by NUL bytes: "WHERE KIND ..."
 * puts one xattr on one directory of a stand-in cgroup2 tree (fake_view.h):
 * a group record, a stored value or file attribute of some row, a leaf's
 * tuple, an origin, the hierarchy list, or a name of its own; or says which
 * controllers the base has (none, as on a hybrid host). Beyond "no
 * crash": the hierarchies and the leaves' tuples the view loaded format
 * into text that parses back to the same, and a mode read back is never
 * more than permission bits.
 */
#include "cgroup_lines.h"
#include "fake_view.h"
#include "group.h"
#include "fold.h"
#include "view.h"

#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_RECORDS 8
#define EXEC_TREE   "exec"

/* The directories records land on; the view may add leaves below them. */
static const char *const dirs[] = {FAKE_BASE, FAKE_BASE "/a", FAKE_BASE "/a/b", FAKE_BASE "/x"};

/* K_CONTROLLERS is no xattr: what the base's cgroup.controllers lists (a hybrid host: none). */
enum kind { K_GROUP, K_VALUE, K_ATTR, K_TUPLE, K_ORIGIN, K_HIERS, K_RAW, K_CONTROLLERS, NR_KINDS };

static struct fixture {
	struct fake_view view;
	struct cgx_hier_set hiers;   /* the default hierarchies, to name records after */
	char self_v2_path[PATH_MAX]; /* this process's cgroup2 path, for cgroup_lines() */
	bool named[CGX_MAX_HIER];    /* the hierarchies of @hiers a record of this input names */
} fx;

static bool kept_dir(const char *rel)
{
	if (!*rel || !strcmp(rel, EXEC_TREE))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strcmp(rel, dirs[i]))
			return true;
	return false;
}

/*
 * Everything the last input left below directory @fd (@rel from the mount):
 * its xattrs, and the directories the view made; only the stand-in mount,
 * the base and the record directories stay. cgx-exec's tree is left alone.
 */
static void scrub(int fd, const char *rel)
{
	char names[65536], child_rel[PATH_MAX];
	ssize_t len = flistxattr(fd, names, sizeof(names));
	bool keep = kept_dir(rel);
	struct dirent *e;
	DIR *d;

	for (ssize_t i = 0; i < len; i += strlen(names + i) + 1)
		if (!strncmp(names + i, "trusted.cgx", 11))
			fremovexattr(fd, names + i);
	if (!strcmp(rel, EXEC_TREE) || !(d = fdopendir(dup(fd))))
		return;
	while ((e = readdir(d))) {
		int child;

		if (e->d_name[0] == '.')
			continue;
		if (e->d_type != DT_DIR) {
			if (!keep)
				unlinkat(fd, e->d_name, 0);
			continue;
		}
		snprintf(child_rel, sizeof(child_rel), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		if ((child = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		scrub(child, child_rel);
		close(child);
		if (!kept_dir(child_rel))
			unlinkat(fd, e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

static int prepare_tree(void)
{
	char path[PATH_MAX];
	struct stat st;
	int r;

	int fd = open(fx.view.mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	scrub(fd, "");
	close(fd);
	if ((r = fake_set_controllers(&fx.view, NULL)) < 0)
		return r;
	for (size_t i = 1; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s/cgroup.procs", fx.view.mount, dirs[i]);
		if (stat(path, &st) < 0 && (r = fake_dir_populate(&fx.view, dirs[i])) < 0)
			return r;
	}
	return 0;
}

/* Text of the record after its @skip header bytes, NUL-terminated in @buf. */
static const char *record_text(const uint8_t *data, size_t size, size_t skip, char *buf,
			       size_t buf_size)
{
	size_t len = size > skip ? size - skip : 0;

	if (len >= buf_size)
		len = buf_size - 1;
	memcpy(buf, data + (size > skip ? skip : size), len);
	buf[len] = '\0';
	return buf;
}

/* WHERE KIND, then HIER for a group record, HIER FILE for a value or an attribute. */
static size_t header_len(const uint8_t *data, const uint8_t *end)
{
	if (end - data < 2)
		return end - data;
	switch (data[1] % NR_KINDS) {
	case K_GROUP:
		return 3;
	case K_VALUE:
	case K_ATTR:
		return 4;
	default:
		return 2;
	}
}

static void put_record(const uint8_t *data, size_t size)
{
	char path[PATH_MAX], name[1024], text[4096];
	const char *value = text;
	const struct cgx_hier *h;

	if (size < 2)
		return;
	snprintf(path, sizeof(path), "%s/%s", fx.view.mount, dirs[data[0] % ARRAY_SIZE(dirs)]);
	h = &fx.hiers.hier[(size > 2 ? data[2] : 0) % fx.hiers.nr];
	fx.named[h - fx.hiers.hier] = true;
	switch (data[1] % NR_KINDS) {
	case K_GROUP:
		snprintf(name, sizeof(name), "trusted.cgx.group/%s", h->proc_name);
		record_text(data, size, 3, text, sizeof(text));
		break;
	case K_VALUE:
	case K_ATTR:
		if (size < 4 || !h->nr_files)
			return;
		snprintf(name, sizeof(name), "trusted.cgx.%s/%s/%s",
			 data[1] % NR_KINDS == K_VALUE ? "val" : "attr", h->proc_name,
			 h->files[data[3] % h->nr_files]->name);
		record_text(data, size, 4, text, sizeof(text));
		break;
	case K_TUPLE:
		snprintf(name, sizeof(name), "trusted.cgx.tuple");
		record_text(data, size, 2, text, sizeof(text));
		break;
	case K_HIERS:
		snprintf(name, sizeof(name), "trusted.cgx.hierarchies");
		record_text(data, size, 2, text, sizeof(text));
		break;
	case K_CONTROLLERS:
		fake_set_controllers(&fx.view, record_text(data, size, 2, text, sizeof(text)));
		return;
	case K_ORIGIN:
	case K_RAW: {
		char *eq;

		record_text(data, size, 2, text, sizeof(text));
		if (!(eq = strchr(text, '=')))
			return;
		*eq = '\0';
		value = eq + 1;
		snprintf(name, sizeof(name), "trusted.cgx.%s%s",
			 data[1] % NR_KINDS == K_ORIGIN ? "origin/" : "", text);
		break;
	}
	}
	setxattr(path, name, value, strlen(value), 0);
}

/* The hierarchy list the view kept formats into text that reads back the same. */
static void check_hierarchies(struct cgx_ctx *ctx)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT, again = STRBUF_INIT;
	struct cgx_hier_set reread;

	if (hier_set_format(&ctx->hiers, &text) < 0)
		return;
	if (hier_set_parse_stored(&reread, text.buf) < 0) {
		fprintf(stderr, "stored hierarchies '%s' do not parse back\n", text.buf);
		abort();
	}
	if (hier_set_format(&reread, &again) < 0 || strcmp(text.buf, again.buf)) {
		fprintf(stderr, "hierarchies '%s' read back as '%s'\n", text.buf,
			again.buf ? again.buf : "");
		abort();
	}
	hier_set_release(&reread);
}

/* Each leaf's tuple formats into text that parses back to the same groups. */
static void check_tuples(struct cgx_ctx *ctx)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		char text[8192];
		struct tuple reread;

		if (fold_tuple_format(&ctx->tree, &ctx->hiers, leaf->leaf_tuple, text,
				      sizeof(text)) < 0)
			continue;
		if (fold_tuple_parse(&ctx->tree, &ctx->hiers, text, &reread) < 0 ||
		    !tuple_equal(&reread, leaf->leaf_tuple, ctx->hiers.nr)) {
			fprintf(stderr, "tuple of %s '%s' does not parse back\n", leaf->name, text);
			abort();
		}
	}
}

/* struct cgx_attr holds permission bits only: FUSE puts the file type above them. */
static void check_attr(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h, int file)
{
	struct cgx_attr attr;

	if (cgx_group_getattr(ctx, dir, h, file, &attr) == 0 && (attr.mode & ~07777)) {
		fprintf(stderr, "%s of %s: mode %o is more than permission bits\n",
			file < 0 ? "group" : ctx->hiers.hier[h].files[file]->name,
			ctx->hiers.hier[h].proc_name, (unsigned int)attr.mode);
		abort();
	}
}

/* Every file of every group read, and every stored value through its row's converter. */
static void read_group(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h)
{
	const struct cgx_hier *hier = &ctx->hiers.hier[h];
	struct stored_values values = STORED_VALUES(ctx, dir, h);

	check_attr(ctx, dir, h, -1);
	for (unsigned int i = 0; i < hier->nr_files; i++) {
		_cleanup_strbuf_ struct strbuf out = STRBUF_INIT, v2 = STRBUF_INIT;
		const struct v1_file *row = hier->files[i];
		const char *text;

		if (cgx_file_lookup(ctx, dir, h, row->name) < 0)
			continue;
		check_attr(ctx, dir, h, (int)i);
		if (strcmp(row->name, "tasks") && strcmp(row->name, "cgroup.procs"))
			cgx_file_read(ctx, dir, h, i, &fx.view.caller, &out);
		if (row->v2.convert && (text = cgx_value_get(ctx, dir, h, i)))
			row->v2.convert(&values.values, text, &v2);
	}
}

/* Whether the root group of @h may hold state of this input (reading all is slow). */
static bool named(const struct cgx_hier *hier)
{
	for (unsigned int i = 0; i < fx.hiers.nr; i++)
		if (!strcmp(fx.hiers.hier[i].proc_name, hier->proc_name))
			return fx.named[i];
	return true;
}

/*
 * Each file of the group written with its default: a write checks the new
 * value against what the group's parent and children hold (cpu bandwidth,
 * cpuset, memsw), so corrupt values elsewhere get read on the way.
 */
static void write_group(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h)
{
	const struct cgx_hier *hier = &ctx->hiers.hier[h];

	for (unsigned int i = 0; i < hier->nr_files; i++) {
		const struct v1_file *row = hier->files[i];

		if (!row->write || !row->default_value || !strcmp(row->name, "tasks") ||
		    !strcmp(row->name, "cgroup.procs") ||
		    cgx_file_lookup(ctx, dir, h, row->name) < 0)
			continue;
		cgx_file_write(ctx, dir, h, i, &fx.view.caller, row->default_value,
			       strlen(row->default_value));
	}
}

static void visit_tree(struct cgx_ctx *ctx, struct v2_dir *dir,
		       void (*fn)(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h))
{
	for (unsigned int h = 0; h < ctx->hiers.nr; h++)
		if (dir->group[h] && (dir->parent || named(&ctx->hiers.hier[h])))
			fn(ctx, dir, h);
	for (struct v2_dir *child = dir->first_child; child; child = child->next_sibling)
		visit_tree(ctx, child, fn);
}

/* cgx-exec's reading of a tuple: /proc/PID/cgroup lines for this process. */
static void exec_lines(struct cgx_ctx *ctx, const char *tuple)
{
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	char cgroup2[PATH_MAX], leaf[PATH_MAX * 2];
	int self;
	struct view view = {0};

	for (unsigned int i = 0; i < ctx->hiers.nr && view.nr < VIEW_MAX_HIER; i++) {
		struct view_hier *vh = &view.hier[view.nr];

		if (hier_spec_parse(ctx->hiers.hier[i].dir_name, true, &vh->controllers, vh->name,
				    sizeof(vh->name)) < 0)
			continue;
		snprintf(vh->options, sizeof(vh->options), "%s", ctx->hiers.hier[i].proc_name);
		vh->id = ++view.nr;
	}
	snprintf(cgroup2, sizeof(cgroup2), "%s/" EXEC_TREE, fx.view.mount);
	snprintf(leaf, sizeof(leaf), "%s%s", cgroup2, fx.self_v2_path);
	setxattr(leaf, "trusted.cgx.tuple", tuple, strlen(tuple), 0);
	if ((self = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return;
	/* Seen from the initial namespace, then from one rooted at the tuple itself. */
	cgroup_lines(&view, cgroup2, self, "", &out);
	cgroup_lines(&view, cgroup2, self, tuple, &out);
	close(self);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	_cleanup_strbuf_ struct strbuf self = STRBUF_INIT;
	char path[PATH_MAX * 2];
	int r;

	(void)argc, (void)argv;
	cgx_log_set_level(0);
	if ((r = hier_set_parse(&fx.hiers, CGX_DEFAULT_HIERARCHIES)) < 0 ||
	    (r = fake_mount_create(&fx.view)) < 0 ||
	    (r = read_file_at(AT_FDCWD, "/proc/self/cgroup", &self)) < 0) {
		fprintf(stderr, "cannot set up: %s\n", strerror(-r));
		exit(1);
	}
	/* Corrupt state may convert into values cgroup2 refuses: the kernel says EINVAL then. */
	fx.view.lenient = true;
	for (const char *line = self.buf; *line; line += strcspn(line, "\n") + 1) {
		if (!strncmp(line, "0::", 3))
			snprintf(fx.self_v2_path, sizeof(fx.self_v2_path), "%.*s",
				 (int)strcspn(line + 3, "\n"), line + 3);
		if (!line[strcspn(line, "\n")])
			break;
	}
	/* What HIER and FILE of a record stand for, for writing seeds (seed_corpora.py). */
	for (unsigned int h = 0; getenv("CGX_FUZZ_ROWS") && h < fx.hiers.nr; h++)
		for (unsigned int i = 0; i < fx.hiers.hier[h].nr_files; i++)
			printf("%u %u %s %s\n", h, i, fx.hiers.hier[h].proc_name,
			       fx.hiers.hier[h].files[i]->name);
	/* mkdir -p of the leaf cgx-exec looks at for this process. */
	snprintf(path, sizeof(path), "%s/" EXEC_TREE "%s/", fx.view.mount, fx.self_v2_path);
	for (char *slash = strchr(path + strlen(fx.view.mount) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size;
	char tuple[4096] = "";
	int r;

	if (prepare_tree() < 0)
		abort();
	memset(fx.named, 0, sizeof(fx.named));
	for (unsigned int n = 0; n < MAX_RECORDS && data < end; n++) {
		size_t len = fuzz_record_len(data, end, header_len(data, end));

		put_record(data, len);
		if (len >= 2 && data[1] % NR_KINDS == K_TUPLE)
			record_text(data, len, 2, tuple, sizeof(tuple));
		data += len + (data + len < end);
	}
	if ((r = fake_view_open(&fx.view)) < 0) {
		if (r < -4095) {
			fprintf(stderr, "the view failed with %d, not an errno\n", r);
			abort();
		}
		return 0;
	}
	check_hierarchies(fx.view.ctx);
	check_tuples(fx.view.ctx);
	visit_tree(fx.view.ctx, fx.view.ctx->tree.base, read_group);
	{
		_cleanup_strbuf_ struct strbuf limits = STRBUF_INIT;

		cgx_limits_report(fx.view.ctx, &limits);
		cgx_aggregate_rebalance(fx.view.ctx);
	}
	exec_lines(fx.view.ctx, tuple);
	visit_tree(fx.view.ctx, fx.view.ctx->tree.base, write_group);
	fake_view_close(&fx.view);
	return 0;
}
