// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hugetlb (mm/hugetlb_cgroup.c, the legacy files) on cgroup2's
 * hugetlb.SIZE.max, .rsvd.max, .current, .rsvd.current and .events.
 *
 * The files exist per huge page size of the machine. The rows below cover
 * the sizes Linux offers on x86 (2MB, 1GB), arm64 (64KB, 2MB, 32MB, 512MB,
 * 1GB, 16GB) and powerpc (16MB, 16GB); a size shows only where
 * /sys/kernel/mm/hugepages has it.
 *
 * v1 and v2 round a limit down to whole huge pages alike, so the v1 value
 * stored is the rounded one the kernel would print. v2 keeps no high-water
 * mark: max_usage_in_bytes reads the current usage (lossy).
 */
#include "../knob.h"
#include "../cpulist.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define PAGE_SIZE_BYTES	 4096ULL
#define PAGE_COUNTER_MAX (0x7fffffffffffffffULL / PAGE_SIZE_BYTES)

enum hugetlb_attr { RES_USAGE, RES_LIMIT, RES_MAX_USAGE, RES_FAILCNT };

/* private: the huge page size in KiB, the attribute, and whether it is the reservation counter. */
#define HPRIV(kib, attr, rsvd) ((unsigned long)(kib) << 8 | (unsigned long)(attr) << 1 | (rsvd))

static unsigned long row_kib(const struct v1_file *row)
{
	return row->private >> 8;
}

static bool row_rsvd(const struct v1_file *row)
{
	return row->private & 1;
}

static const struct v1_file *row_of(const struct v1_file_ctx *fc)
{
	return fc->ctx->hiers.hier[fc->hier].files[fc->file];
}

static bool size_present(const struct v1_file *row)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%lukB", row_kib(row));
	return stat(path, &st) == 0;
}

/* mem_fmt(): "2MB", "1GB", "64KB", the size's name in the file names. */
static void size_name(unsigned long kib, char *buf, size_t size)
{
	if (kib >= 1024 * 1024)
		snprintf(buf, size, "%luGB", kib >> 20);
	else if (kib >= 1024)
		snprintf(buf, size, "%luMB", kib >> 10);
	else
		snprintf(buf, size, "%luKB", kib);
}

/* The v2 file standing for @row: hugetlb.2MB.max, hugetlb.2MB.rsvd.current ... */
static void v2_name(const struct v1_file *row, const char *what, char *buf, size_t size)
{
	char name[16];

	size_name(row_kib(row), name, sizeof(name));
	snprintf(buf, size, "hugetlb.%s.%s%s", name, row_rsvd(row) ? "rsvd." : "", what);
}

static unsigned long long pages_per_huge_page(const struct v1_file *row)
{
	return row_kib(row) * 1024 / PAGE_SIZE_BYTES;
}

static bool is_root(const struct v1_file_ctx *fc)
{
	return fc->dir == fc->ctx->tree.base;
}

/* A child's counters start at PAGE_COUNTER_MAX rounded down to whole huge pages. */
static int limit_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const struct v1_group *group = fc->dir->group[fc->hier];
	unsigned long long per = pages_per_huge_page(row_of(fc));

	if (group && fc->file < group->nr_values && group->values[fc->file])
		return strbuf_addf(out, "%s", group->values[fc->file]);
	if (is_root(fc))
		return strbuf_addf(out, "%llu\n", PAGE_COUNTER_MAX * PAGE_SIZE_BYTES);
	return strbuf_addf(out, "%llu\n", PAGE_COUNTER_MAX / per * per * PAGE_SIZE_BYTES);
}

/*
 * hugetlb_cgroup_write(): never on the root (EINVAL), strstrip,
 * page_counter_memparse() with "-1" for no limit, rounded down to whole huge
 * pages; v2 refuses a limit under the usage with EBUSY, as v1 does.
 */
static int limit_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	const struct v1_file *row = row_of(fc);
	unsigned long long per = pages_per_huge_page(row), pages, bytes;
	char *text = strstrip(buf), v1[32], v2[32], file[64];
	const char *end;

	(void)len;
	if (is_root(fc))
		return -EINVAL;
	if (!strcmp(text, "-1")) {
		pages = PAGE_COUNTER_MAX;
	} else {
		bytes = memparse(text, &end);
		if (*end)
			return -EINVAL;
		pages = bytes / PAGE_SIZE_BYTES < PAGE_COUNTER_MAX ? bytes / PAGE_SIZE_BYTES
								   : PAGE_COUNTER_MAX;
	}
	pages = pages / per * per;
	snprintf(v1, sizeof(v1), "%llu\n", pages * PAGE_SIZE_BYTES);
	if (pages >= PAGE_COUNTER_MAX / per * per)
		snprintf(v2, sizeof(v2), "max");
	else
		snprintf(v2, sizeof(v2), "%llu", pages * PAGE_SIZE_BYTES);
	v2_name(row, "max", file, sizeof(file));
	return knob_set(fc, "hugetlb", file, v2, v1);
}

/* The group's directory and its leaves outside it, where members of a divergent fold sit. */
static unsigned long long v2_number(const struct v1_file_ctx *fc, const char *what)
{
	char file[64];

	if (!cgx_has_controller(fc->ctx, "hugetlb"))
		return 0;
	v2_name(row_of(fc), what, file, sizeof(file));
	return group_stat(fc->ctx, fc->dir, fc->hier, "hugetlb", file, NULL, STAT_HIERARCHICAL);
}

static int usage_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", v2_number(fc, "current"));
}

static int failcnt_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	char file[64];

	/* hugetlb.SIZE.events counts "max" hits; the reservation counter has none in v2. */
	v2_name(row_of(fc), "events", file, sizeof(file));
	if (row_rsvd(row_of(fc)) || knob_read(fc->ctx, fc->dir, "hugetlb", file, &text) < 0)
		return strbuf_add(out, "0\n", 2);
	return strbuf_addf(out, "%llu\n", v2_stat_key(text.buf, "max"));
}

/* The legacy layout: "total=" and one "N<node>=" per node, then the hierarchical line. */
static int numa_stat_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf nodes = STRBUF_INIT, v2 = STRBUF_INIT, zeros = STRBUF_INIT;
	struct cpulist online;
	char file[64];
	int r;

	v2_name(row_of(fc), "numa_stat", file, sizeof(file));
	if (knob_read(fc->ctx, fc->dir, "hugetlb", file, &v2) == 0 && v2.len)
		return strbuf_addf(out, "%shierarchical_%s", v2.buf, v2.buf);
	if (read_file_at(AT_FDCWD, "/sys/devices/system/node/online", &nodes) < 0 ||
	    cpulist_parse(nodes.buf, CPULIST_MAX_BITS, &online) < 0)
		cpulist_parse("0", CPULIST_MAX_BITS, &online);
	if ((r = strbuf_add(&zeros, "total=0", 7)) < 0)
		return r;
	for (unsigned int node = 0; node < CPULIST_MAX_BITS; node++)
		if ((online.bits[node / 64] >> (node % 64) & 1) &&
		    (r = strbuf_addf(&zeros, " N%u=0", node)) < 0)
			return r;
	/* v2 counts hierarchically already: the same line serves both. */
	return strbuf_addf(out, "%s\nhierarchical_%s\n", zeros.buf, zeros.buf);
}

#define HUGETLB_ROWS(kib, sz)                                                                      \
	{.name = "hugetlb." sz ".failcnt",                                                         \
	 .mode = 0644,                                                                             \
	 .read = failcnt_read,                                                                     \
	 .write = v1_write_accepted,                                                               \
	 .private = HPRIV(kib, RES_FAILCNT, 0),                                                    \
	 .present = size_present,                                                                  \
	 .v2 = V2_STATISTIC("hugetlb." sz ".events")},                                             \
		{.name = "hugetlb." sz ".limit_in_bytes",                                          \
		 .mode = 0644,                                                                     \
		 .read = limit_read,                                                               \
		 .write = limit_write,                                                             \
		 .private = HPRIV(kib, RES_LIMIT, 0),                                              \
		 .present = size_present,                                                          \
		 .v2 = V2_CONVERTED("hugetlb." sz ".max", limit_convert,                           \
				    "bytes, whole huge pages; -1 becomes max")},                   \
		{.name = "hugetlb." sz ".max_usage_in_bytes",                                      \
		 .mode = 0644,                                                                     \
		 .read = usage_read,                                                               \
		 .write = v1_write_accepted,                                                       \
		 .private = HPRIV(kib, RES_MAX_USAGE, 0),                                          \
		 .present = size_present,                                                          \
		 .v2 = V2_APPROX("hugetlb." sz ".current", NULL,                                   \
				 "cgroup2 keeps no high-water mark: the current usage")},          \
		{.name = "hugetlb." sz ".numa_stat",                                               \
		 .mode = 0444,                                                                     \
		 .read = numa_stat_read,                                                           \
		 .private = HPRIV(kib, RES_USAGE, 0),                                              \
		 .present = size_present,                                                          \
		 .v2 = V2_STATISTIC("hugetlb." sz ".numa_stat")},                                  \
		{.name = "hugetlb." sz ".rsvd.failcnt",                                            \
		 .mode = 0644,                                                                     \
		 .read = failcnt_read,                                                             \
		 .write = v1_write_accepted,                                                       \
		 .private = HPRIV(kib, RES_FAILCNT, 1),                                            \
		 .present = size_present,                                                          \
		 .v2 = V2_NONE("cgroup2 counts no reservation failures")},                         \
		{.name = "hugetlb." sz ".rsvd.limit_in_bytes",                                     \
		 .mode = 0644,                                                                     \
		 .read = limit_read,                                                               \
		 .write = limit_write,                                                             \
		 .private = HPRIV(kib, RES_LIMIT, 1),                                              \
		 .present = size_present,                                                          \
		 .v2 = V2_CONVERTED("hugetlb." sz ".rsvd.max", limit_convert,                      \
				    "bytes, whole huge pages; -1 becomes max")},                   \
		{.name = "hugetlb." sz ".rsvd.max_usage_in_bytes",                                 \
		 .mode = 0644,                                                                     \
		 .read = usage_read,                                                               \
		 .write = v1_write_accepted,                                                       \
		 .private = HPRIV(kib, RES_MAX_USAGE, 1),                                          \
		 .present = size_present,                                                          \
		 .v2 = V2_APPROX("hugetlb." sz ".rsvd.current", NULL,                              \
				 "cgroup2 keeps no high-water mark: the current reservation")},    \
		{.name = "hugetlb." sz ".rsvd.usage_in_bytes",                                     \
		 .mode = 0444,                                                                     \
		 .read = usage_read,                                                               \
		 .private = HPRIV(kib, RES_USAGE, 1),                                              \
		 .present = size_present,                                                          \
		 .v2 = V2_STATISTIC("hugetlb." sz ".rsvd.current")},                               \
	{                                                                                          \
		.name = "hugetlb." sz ".usage_in_bytes", .mode = 0444, .read = usage_read,         \
		.private = HPRIV(kib, RES_USAGE, 0), .present = size_present,                      \
		.v2 = V2_STATISTIC("hugetlb." sz ".current")                                       \
	}

static int limit_convert(const struct v1_values *values, const char *value, struct strbuf *out)
{
	unsigned long long bytes = strtoull(value, NULL, 10);

	(void)values;
	/* Within a huge page of PAGE_COUNTER_MAX is the child's "no limit". */
	if (bytes / PAGE_SIZE_BYTES >= PAGE_COUNTER_MAX - (16ULL << 30) / PAGE_SIZE_BYTES)
		return strbuf_add(out, "max", 3);
	return strbuf_addf(out, "%llu", bytes);
}

static const struct v1_file hugetlb_files[] = {
	HUGETLB_ROWS(64, "64KB"),	HUGETLB_ROWS(2048, "2MB"),     HUGETLB_ROWS(16384, "16MB"),
	HUGETLB_ROWS(32768, "32MB"),	HUGETLB_ROWS(524288, "512MB"), HUGETLB_ROWS(1048576, "1GB"),
	HUGETLB_ROWS(16777216, "16GB"),
};

const struct v1_controller v1_hugetlb = {
	.name = "hugetlb",
	.files = hugetlb_files,
	.nr_files = ARRAY_SIZE(hugetlb_files),
};
