// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: every writable row of the v1 table, through
 * cgx_file_write() as the FUSE write handler calls it, on a view over a
 * stand-in cgroup2 mount (fake_view.h). An input is up to four writes, each
 * "ROW DIR TEXT" separated by NUL bytes: ROW picks the row, DIR the group
 * (the root, g, or g/c), TEXT is what is written. Beyond "no crash":
 *  - every value cgx writes to a v2 file is one cgroup2 takes there (the
 *    write_file_at wrapper of fake_view.c checks each);
 *  - a refused write fails with an errno the kernel gives for that file;
 *  - an accepted one leaves a stored value the row's converter turns into
 *    a valid v2 value (what cgx-migrate and the aggregate limits do);
 *  - where the kernel's file round-trips, what a read returns, written
 *    back, is accepted and reads the same.
 */
#include "fake_view.h"
#include "group.h"
#include "v2_syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS   512
#define MAX_WRITES 4
#define NR_DIRS	   3

struct row_ref {
	unsigned int hier, file;
};

/* The one view all inputs write to; only the stored values are reset between inputs. */
static struct fixture {
	struct fake_view view;
	struct v2_dir *dirs[NR_DIRS];
	struct row_ref rows[MAX_ROWS];
	unsigned int nr_rows;
} fx;

/*
 * The errnos the kernel's write handler of a file can give (6.1; cgx's own
 * additions in docs/design.md §4: EOPNOTSUPP where a v2 feature is missing). A number
 * parsed with kstrtoull/kstrtoll gives ERANGE on overflow, as in the kernel;
 * a CPU list bitmap_parselist()'s EOVERFLOW for a number past u32.
 */
static const struct {
	const char *prefix;
	int errnos[6]; /* 0-terminated */
} errno_table[] = {
	{"cgroup.event_control", {EINVAL, EBADF, EOPNOTSUPP}},
	{"release_agent", {EPERM, EINVAL}},
	{"blkio.throttle.", {EINVAL, ENODEV, ERANGE}},
	{"cpuset.cpus", {EINVAL, ERANGE, EOVERFLOW, EBUSY, EACCES, ENOSPC}},
	{"cpuset.mems", {EINVAL, ERANGE, EOVERFLOW, EBUSY, EACCES, ENOSPC}},
	{"cpuset.", {EINVAL, ERANGE, EBUSY, EACCES}},
	{"devices.", {EINVAL, EPERM}},
	{"hugetlb.", {EINVAL, EBUSY, ERANGE}},
	{"memory.", {EINVAL, ERANGE, EBUSY}},
	{"net_prio.", {EINVAL, ENODEV}},
	{"rdma.", {EINVAL, ENODEV}},
	{"", {EINVAL, ERANGE}},
};

static bool errno_allowed(const char *file, int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_table); i++)
		if (!strncmp(file, errno_table[i].prefix, strlen(errno_table[i].prefix))) {
			for (const int *e = errno_table[i].errnos; *e; e++)
				if (*e == err)
					return true;
			return false;
		}
	return false;
}

/*
 * Rows whose read is not something a write takes, in the kernel too: a list
 * of every device or resource (a write sets one), or a table of keys.
 */
static bool round_trips(const char *file)
{
	static const char *const not [] = {
		"cpuacct.usage", /* reads the usage; only 0 is written */
		"memory.oom_control",
		"net_prio.ifpriomap",
		"rdma.max",
		"misc.max",
		"blkio.throttle.read_bps_device",
		"blkio.throttle.read_iops_device",
		"blkio.throttle.write_bps_device",
		"blkio.throttle.write_iops_device",
	};

	for (size_t i = 0; i < ARRAY_SIZE(not ); i++)
		if (!strcmp(file, not [i]))
			return false;
	return true;
}

static void fail(const char *what, const struct v1_file *row, const char *detail)
{
	fprintf(stderr, "%s: %s: %s\n", row->name, what, detail);
	abort();
}

/* Each line of @text must be a value cgroup2 takes in @file. */
static void check_v2_lines(const struct v1_file *row, const char *file, const char *text)
{
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		const char *why = v2_syntax_check(file, line, len);

		if (why)
			fail("stored value does not convert to a valid v2 value", row, why);
		line += len + (line[len] == '\n');
	}
}

/* What cgx-migrate and the aggregate limits make of the value the write stored. */
static void check_converted(unsigned int hier, unsigned int file, struct v2_dir *dir)
{
	struct cgx_ctx *ctx = fx.view.ctx;
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];
	struct stored_values values = STORED_VALUES(ctx, dir, hier);
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	const char *text = cgx_value_get(ctx, dir, hier, file);

	if (!text || !row->v2.file)
		return;
	if (row->v2.convert) {
		if (row->v2.kind != V1M_CONVERTED && row->v2.kind != V1M_APPROX)
			return;
		if (row->v2.convert(&values.values, text, &out) < 0)
			fail("converter refuses a value the write stored", row, text);
		check_v2_lines(row, row->v2.file, out.buf ? out.buf : "");
	} else if (row->v2.kind == V1M_SAME && !row->read) {
		check_v2_lines(row, row->v2.file, text);
	}
}

static void check_round_trip(unsigned int hier, unsigned int file, struct v2_dir *dir)
{
	struct cgx_ctx *ctx = fx.view.ctx;
	const struct v1_file *row = ctx->hiers.hier[hier].files[file];
	_cleanup_strbuf_ struct strbuf first = STRBUF_INIT, again = STRBUF_INIT;
	ssize_t r;

	if (!(row->mode & 0444) || !round_trips(row->name))
		return;
	if (cgx_file_read(ctx, dir, hier, file, &fx.view.caller, &first) < 0 || !first.buf)
		return;
	if ((r = cgx_file_write(ctx, dir, hier, file, &fx.view.caller, first.buf, first.len)) < 0)
		fail("its own read-back is refused", row, first.buf);
	if (cgx_file_read(ctx, dir, hier, file, &fx.view.caller, &again) < 0 || !again.buf ||
	    strcmp(first.buf, again.buf)) {
		fprintf(stderr, "read '%s', wrote it back, read '%s'\n", first.buf,
			again.buf ? again.buf : "(error)");
		fail("read-back does not round-trip", row, first.buf);
	}
}

static void one_write(const uint8_t *data, size_t size)
{
	struct cgx_ctx *ctx = fx.view.ctx;
	const struct row_ref *ref;
	const struct v1_file *row;
	struct v2_dir *dir;
	ssize_t r;

	if (size < 2)
		return;
	ref = &fx.rows[data[0] % fx.nr_rows];
	dir = fx.dirs[data[1] % NR_DIRS];
	row = ctx->hiers.hier[ref->hier].files[ref->file];
	/* The FUSE side never offers a file the group does not have. */
	if (!v1_file_present(row, dir == ctx->tree.base))
		return;
	r = cgx_file_write(ctx, dir, ref->hier, ref->file, &fx.view.caller, (const char *)data + 2,
			   size - 2);
	/* What cgx_unlock() does as the FUSE handler returns: the split a limit asked for. */
	cgx_aggregate_settle(ctx);
	if (r < 0) {
		if (!errno_allowed(row->name, (int)-r)) {
			fprintf(stderr, "%s: write '%.*s' failed with %s\n", row->name,
				(int)(size - 2), (const char *)data + 2, strerror((int)-r));
			abort();
		}
		return;
	}
	check_converted(ref->hier, ref->file, dir);
	check_round_trip(ref->hier, ref->file, dir);
}

/* Every group back to its defaults: each input starts from the same view. */
static void reset_values(void)
{
	for (unsigned int d = 0; d < NR_DIRS; d++)
		for (unsigned int h = 0; h < fx.view.ctx->hiers.nr; h++) {
			struct v1_group *group = fx.dirs[d]->group[h];

			for (unsigned int i = 0; group && i < group->nr_values; i++) {
				free(group->values[i]);
				group->values[i] = NULL;
			}
		}
}

static int make_groups(void)
{
	struct cgx_ctx *ctx = fx.view.ctx;
	char relpath[PATH_MAX];
	int r;

	fx.dirs[0] = ctx->tree.base;
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		if ((r = cgx_group_mkdir(ctx, ctx->tree.base, h, "g", &fx.view.caller, 0755,
					 &fx.dirs[1])) < 0 ||
		    (r = fake_dir_relpath(fx.dirs[1], relpath, sizeof(relpath))) < 0 ||
		    (r = fake_dir_populate(&fx.view, relpath)) < 0 ||
		    (r = cgx_group_mkdir(ctx, fx.dirs[1], h, "c", &fx.view.caller, 0755,
					 &fx.dirs[2])) < 0 ||
		    (r = fake_dir_relpath(fx.dirs[2], relpath, sizeof(relpath))) < 0 ||
		    (r = fake_dir_populate(&fx.view, relpath)) < 0)
			return r;
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct cgx_ctx *ctx;
	int r;

	(void)argc, (void)argv;
	cgx_log_set_level(0);
	if ((r = fake_mount_create(&fx.view)) < 0 || (r = fake_view_open(&fx.view)) < 0 ||
	    (r = make_groups()) < 0) {
		fprintf(stderr, "cannot set up the view: %s\n", strerror(-r));
		exit(1);
	}
	ctx = fx.view.ctx;
	/* tasks and cgroup.procs move processes: their parser is fuzz_parsers' pid case. */
	for (unsigned int h = 0; h < ctx->hiers.nr; h++)
		for (unsigned int i = 0; i < ctx->hiers.hier[h].nr_files; i++) {
			const struct v1_file *row = ctx->hiers.hier[h].files[i];

			if (!row->write || !strcmp(row->name, "tasks") ||
			    !strcmp(row->name, "cgroup.procs") || fx.nr_rows == MAX_ROWS)
				continue;
			fx.rows[fx.nr_rows++] = (struct row_ref){h, i};
		}
	/* What ROW stands for, for writing seeds (seed_corpora.py). */
	for (unsigned int i = 0; getenv("CGX_FUZZ_ROWS") && i < fx.nr_rows; i++)
		printf("%u %s %s\n", i, ctx->hiers.hier[fx.rows[i].hier].proc_name,
		       ctx->hiers.hier[fx.rows[i].hier].files[fx.rows[i].file]->name);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size;

	reset_values();
	for (unsigned int n = 0; n < MAX_WRITES && data < end; n++) {
		size_t len = fuzz_record_len(data, end, 2);

		one_write(data, len);
		data += len + (data + len < end);
	}
	return 0;
}
