// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The translation table against the kernel: every hierarchy's root and child
 * groups show exactly the files of tests/reference (the kernel 6.1 classic
 * layout), with its modes and defaults; every row says what it becomes in
 * cgroup2; the converters give the values docs/design.md §4 documents.
 */
#include "check.h"
#include "hierarchy.h"
#include "util.h"
#include "v1_files.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#ifndef REFERENCE
#error "REFERENCE must name the kernel's reference file"
#endif

/* A hugetlb size the reference kernel had but this machine lacks has no rows here. */
static bool size_missing_here(const char *name)
{
	static const struct {
		const char *prefix, *dir;
	} sizes[] = {
		{"hugetlb.2MB.", "hugepages-2048kB"},
		{"hugetlb.1GB.", "hugepages-1048576kB"},
	};
	char path[128];
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		if (strncmp(name, sizes[i].prefix, strlen(sizes[i].prefix)))
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s", sizes[i].dir);
		return stat(path, &st) != 0;
	}
	return false;
}

/* The reference's content column: '|' stands for a newline. */
static void unbar(const char *text, char *out, size_t size)
{
	size_t n = 0;

	for (; *text && n + 1 < size; text++)
		out[n++] = *text == '|' ? '\n' : *text;
	out[n] = '\0';
}

/* Values the machine decides, not the table: CPU lists, statistics, task lists. */
static bool value_is_machine_dependent(const struct v1_file *row)
{
	return row->read || !row->default_value || !strcmp(row->name, "release_agent");
}

static void check_section(const struct cgx_hier *hier, bool root, char lines[][512],
			  unsigned int nr_lines)
{
	unsigned int expected = 0, shown = 0;

	for (unsigned int i = 0; i < nr_lines; i++) {
		char name[128], content[256] = "", value[256];
		unsigned int mode;
		int file;

		if (sscanf(lines[i], "%127[^\t]\t%o\t%255[^\n]", name, &mode, content) < 2)
			continue;
		if (size_missing_here(name))
			continue;
		expected++;
		file = v1_file_find(hier, name);
		if (file < 0 || !v1_file_present(hier->files[file], root)) {
			fprintf(stderr, "%s %s: missing %s\n", hier->dir_name,
				root ? "root" : "child", name);
			CHECK(!"a file of the reference is missing");
			continue;
		}
		CHECK_EQ_INT(hier->files[file]->mode, mode);
		if (value_is_machine_dependent(hier->files[file]))
			continue;
		unbar(content, value, sizeof(value));
		if (strcmp(hier->files[file]->default_value, value)) {
			fprintf(stderr, "%s %s: %s defaults to \"%s\", the kernel's is \"%s\"\n",
				hier->dir_name, root ? "root" : "child", name,
				hier->files[file]->default_value, value);
			CHECK(!"a default differs from the kernel's");
		}
	}
	for (unsigned int f = 0; f < hier->nr_files; f++)
		shown += v1_file_present(hier->files[f], root);
	if (shown != expected)
		fprintf(stderr, "%s %s: %u files shown, the kernel has %u\n", hier->dir_name,
			root ? "root" : "child", shown, expected);
	CHECK_EQ_INT(shown, expected);
}

static void check_layout(const struct cgx_hier_set *set)
{
	static char lines[128][512];
	FILE *ref = fopen(REFERENCE, "re");
	char line[512], section[128] = "", where[16] = "";
	unsigned int nr_lines = 0, sections = 0;

	CHECK(ref != NULL);
	if (!ref)
		return;
	for (bool more = true; more;) {
		more = fgets(line, sizeof(line), ref) != NULL;
		if (more && strncmp(line, "## ", 3)) {
			if (section[0] && nr_lines < ARRAY_SIZE(lines))
				snprintf(lines[nr_lines++], sizeof(lines[0]), "%s", line);
			continue;
		}
		if (section[0]) {
			int h = hier_set_find(set, section);

			CHECK(h >= 0);
			if (h >= 0)
				check_section(&set->hier[h], !strcmp(where, "root"), lines,
					      nr_lines);
			sections++;
		}
		section[0] = '\0';
		nr_lines = 0;
		if (more)
			sscanf(line, "## hierarchy %127s %15s", section, where);
	}
	fclose(ref);
	CHECK_EQ_INT(sections, 26); /* 13 hierarchies, root and child */
}

static void check_every_row_is_mapped(const struct v1_file *rows, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		const struct v1_v2_map *map = &rows[i].v2;

		if (map->kind == V1M_UNSET)
			fprintf(stderr, "%s has no v2 mapping\n", rows[i].name);
		CHECK(map->kind != V1M_UNSET);
		if (map->kind == V1M_SAME || map->kind == V1M_CONVERTED || map->kind == V1M_CORE ||
		    map->kind == V1M_STATISTIC || map->kind == V1M_APPROX)
			CHECK(map->file != NULL);
		if (map->kind == V1M_NONE || map->kind == V1M_EMULATED || map->kind == V1M_APPROX)
			CHECK(map->note != NULL && map->note[0]);
		if (map->kind == V1M_CONVERTED && !map->convert)
			CHECK(!strcmp(rows[i].name, "memory.force_empty"));
	}
}

/* A group's values for the converters, from a NULL-terminated list of pairs. */
struct pairs {
	struct v1_values values;
	const char *const *kv;
};

static const char *pairs_get(const struct v1_values *values, const char *file)
{
	const struct pairs *p = (const struct pairs *)values;

	for (const char *const *kv = p->kv; kv && kv[0]; kv += 2)
		if (!strcmp(kv[0], file))
			return kv[1];
	return NULL;
}

static const struct v1_file *row_named(const char *name)
{
	for (unsigned int c = 0; v1_controllers[c]; c++)
		for (unsigned int i = 0; i < v1_controllers[c]->nr_files; i++)
			if (!strcmp(v1_controllers[c]->files[i].name, name))
				return &v1_controllers[c]->files[i];
	return NULL;
}

static void check_convert(const char *file, const char *value, const char *const *kv,
			  const char *expected)
{
	struct pairs p = {.values = {.get = pairs_get}, .kv = kv};
	const struct v1_file *row = row_named(file);
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;

	CHECK(row && row->v2.convert);
	if (!row || !row->v2.convert)
		return;
	CHECK_EQ_INT(row->v2.convert(&p.values, value, &out), 0);
	if (strcmp(out.buf ? out.buf : "", expected)) {
		fprintf(stderr, "%s %s -> \"%s\", expected \"%s\"\n", file, value,
			out.buf ? out.buf : "", expected);
		CHECK(!"conversion");
	}
}

int main(void)
{
	struct cgx_hier_set set;

	CHECK_EQ_INT(hier_set_parse(&set, CGX_DEFAULT_HIERARCHIES), 0);
	check_layout(&set);
	hier_set_release(&set);

	check_every_row_is_mapped(v1_core_files, v1_nr_core_files);
	for (unsigned int c = 0; v1_controllers[c]; c++)
		check_every_row_is_mapped(v1_controllers[c]->files, v1_controllers[c]->nr_files);
	CHECK(!strcmp(v1_mapping_name(V1M_NONE), "none"));

	check_convert("cpu.shares", "1024\n", NULL, "100");
	check_convert("cpu.shares", "2\n", NULL, "1");
	check_convert("cpu.shares", "262144\n", NULL, "10000");
	check_convert("cpu.shares", "1\n", NULL, "1");
	check_convert("cpu.cfs_quota_us", "50000\n",
		      (const char *const[]){"cpu.cfs_quota_us", "50000\n", NULL}, "50000 100000");
	check_convert("cpu.cfs_quota_us", "-1\n",
		      (const char *const[]){"cpu.cfs_quota_us", "-1\n", "cpu.cfs_period_us",
					    "20000\n", NULL},
		      "max 20000");
	check_convert("memory.limit_in_bytes", "104857600\n", NULL, "104857600");
	check_convert("memory.limit_in_bytes", "9223372036854771712\n", NULL, "max");
	check_convert("memory.memsw.limit_in_bytes", "209715200\n",
		      (const char *const[]){"memory.limit_in_bytes", "104857600\n", NULL},
		      "104857600");
	check_convert("memory.memsw.limit_in_bytes", "9223372036854771712\n", NULL, "max");
	check_convert("blkio.throttle.read_bps_device", "8:0 1048576\n8:16 0\n", NULL,
		      "8:0 rbps=1048576\n8:16 rbps=max");
	check_convert("freezer.state", "FROZEN\n", NULL, "1");
	check_convert("freezer.state", "THAWED\n", NULL, "0");
	return check_summary("table");
}
