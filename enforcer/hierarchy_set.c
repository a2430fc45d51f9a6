// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building the set of hierarchies: parsed from a spec, added and removed at
 * run time, read back from the base. Each one gets its file table
 * (v1_files_build()), which is why this sits above the controllers' tables.
 */
#include "hierarchy.h"

#include "util.h"
#include "v1_files.h"

#include <stdio.h>
#include <string.h>

/*
 * Hierarchies whose groups carry aggregate limits go outermost in the v2
 * tree, because a limit set on a v2 directory covers exactly its subtree.
 */
static const char *const primary_rank[] = {
	"memory", "pids", "cpu", "blkio", "hugetlb", "rdma", "misc", "cpuset",
};

static const char *known_controller(const char *name, size_t len)
{
	int index = hier_controller_index(name, len);

	return index < 0 ? NULL : hier_controller_name(index);
}

static int hier_parse_one(struct cgx_hier *hier, const char *entry, size_t len)
{
	const char *end = entry + len;

	memset(hier, 0, sizeof(*hier));
	while (entry < end) {
		const char *comma = memchr(entry, ',', end - entry);
		size_t word_len = (comma ? comma : end) - entry;
		const char *controller;

		if (word_len == 4 && !strncmp(entry, "none", 4)) {
			/* "none,name=X": a hierarchy of no controller (cgroup1_parse_param). */
			if (hier->none)
				return -EINVAL;
			hier->none = true;
		} else if (word_len > 5 && !strncmp(entry, "name=", 5)) {
			if (hier->named[0] || !hier_name_valid(entry + 5, word_len - 5))
				return -EINVAL;
			memcpy(hier->named, entry + 5, word_len - 5);
		} else if ((controller = known_controller(entry, word_len))) {
			if (hier_has_controller(hier, controller))
				return -EINVAL;
			if (hier->nr_controllers == CGX_MAX_CONTROLLER)
				return -EINVAL;
			hier->controllers[hier->nr_controllers++] = controller;
		} else {
			return -EINVAL;
		}
		entry += word_len + (comma ? 1 : 0);
		if (comma && entry == end)
			return -EINVAL;
	}
	/* cgroup1_get_tree(): "none" takes no controller and needs a name, as does no controller.
	 */
	if ((hier->none && hier->nr_controllers) || (!hier->nr_controllers && !hier->named[0]))
		return -EINVAL;

	/* Built in locals: the names are fields of the same struct. */
	char controllers[128] = "", proc_name[256];
	size_t used = 0;

	for (unsigned int i = 0; i < hier->nr_controllers; i++)
		used += snprintf(controllers + used, sizeof(controllers) - used, "%s%s",
				 i ? "," : "", hier->controllers[i]);
	if (hier->named[0])
		snprintf(proc_name, sizeof(proc_name), "%s%sname=%s", controllers, used ? "," : "",
			 hier->named);
	else
		snprintf(proc_name, sizeof(proc_name), "%s", controllers);
	memcpy(hier->proc_name, proc_name, sizeof(proc_name));
	if (hier->nr_controllers)
		memcpy(hier->dir_name, controllers, sizeof(controllers));
	else
		memcpy(hier->dir_name, hier->named, sizeof(hier->named));
	snprintf(hier->short_name, sizeof(hier->short_name), "%.63s",
		 hier->nr_controllers ? hier->controllers[0] : hier->named);
	return 0;
}

static int hier_set_check_unique(const struct cgx_hier_set *set)
{
	for (unsigned int i = 0; i < set->nr; i++) {
		for (unsigned int j = 0; j < i; j++) {
			const struct cgx_hier *a = &set->hier[i], *b = &set->hier[j];

			if (!strcmp(a->dir_name, b->dir_name))
				return -EBUSY;
			/* A symlink of a co-mount would shadow a named hierarchy's directory. */
			for (unsigned int c = 0; c < a->nr_controllers && a->nr_controllers > 1;
			     c++)
				if (!strcmp(a->controllers[c], b->dir_name))
					return -EBUSY;
			for (unsigned int c = 0; c < b->nr_controllers && b->nr_controllers > 1;
			     c++)
				if (!strcmp(b->controllers[c], a->dir_name))
					return -EBUSY;
			if (a->named[0] && !strcmp(a->named, b->named))
				return -EBUSY;
			for (unsigned int c = 0; c < a->nr_controllers; c++)
				if (hier_has_controller(b, a->controllers[c]))
					return -EBUSY;
		}
	}
	return 0;
}

/*
 * The rank of a hierarchy: its best controller's place in the set's own
 * order (--primary-order) if it has one there, else after those by the
 * default order.
 */
static unsigned int hier_rank(const struct cgx_hier_set *set, const struct cgx_hier *hier)
{
	for (unsigned int r = 0; r < set->nr_primary; r++)
		if (hier_has_controller(hier, set->primary[r]))
			return r;
	for (unsigned int r = 0; r < ARRAY_SIZE(primary_rank); r++)
		if (hier_has_controller(hier, primary_rank[r]))
			return set->nr_primary + r;
	return set->nr_primary + ARRAY_SIZE(primary_rank);
}

static void hier_set_order(struct cgx_hier_set *set)
{
	unsigned int n = 0;

	for (unsigned int rank = 0; rank <= set->nr_primary + ARRAY_SIZE(primary_rank); rank++)
		for (unsigned int i = 0; i < set->nr; i++)
			if (hier_rank(set, &set->hier[i]) == rank)
				set->primary_order[n++] = i;
}

int hier_set_primary(struct cgx_hier_set *set, const char *controllers)
{
	const char *primary[ARRAY_SIZE(set->primary)];
	const char *word = controllers;
	unsigned int nr = 0;

	/* All or nothing: a bad list leaves the order as it was. */
	while (*word) {
		size_t len = strcspn(word, ",");
		const char *controller = known_controller(word, len);

		if (!controller || nr == ARRAY_SIZE(primary))
			return -EINVAL;
		primary[nr++] = controller;
		word += len + (word[len] == ',');
	}
	memcpy(set->primary, primary, nr * sizeof(primary[0]));
	set->nr_primary = nr;
	hier_set_order(set);
	return 0;
}

int hier_set_parse(struct cgx_hier_set *set, const char *spec)
{
	const char *entry = spec;
	int r;

	memset(set, 0, sizeof(*set));
	for (;;) {
		const char *semi = strchr(entry, ';');
		size_t len = semi ? (size_t)(semi - entry) : strlen(entry);

		if (set->nr == CGX_MAX_HIER)
			return -EINVAL;
		if ((r = hier_parse_one(&set->hier[set->nr], entry, len)) < 0)
			return r;
		set->nr++;
		if (!semi)
			break;
		entry = semi + 1;
	}
	if ((r = hier_set_check_unique(set)) < 0)
		return r;
	for (unsigned int i = 0; i < set->nr; i++)
		if ((r = v1_files_build(&set->hier[i])) < 0) {
			hier_set_release(set);
			return r;
		}
	hier_set_order(set);
	return 0;
}

/*
 * Parses one entry, @len bytes of @entry, into the free slot @set->hier[@set->nr],
 * checked against the others; the caller counts it in.
 */
static int hier_set_parse_slot(struct cgx_hier_set *set, const char *entry, size_t len)
{
	struct cgx_hier *hier = &set->hier[set->nr];
	int r;

	if (set->nr == CGX_MAX_HIER)
		return -EINVAL;
	if ((r = hier_parse_one(hier, entry, len)) < 0)
		return r;
	set->nr++;
	r = hier_set_check_unique(set);
	set->nr--;
	return r;
}

int hier_set_add(struct cgx_hier_set *set, const char *dir_name)
{
	struct cgx_hier *hier = &set->hier[set->nr];
	int r;

	if (strchr(dir_name, ';') || strlen(dir_name) >= sizeof(hier->dir_name))
		return -EINVAL;
	if ((r = hier_set_parse_slot(set, dir_name, strlen(dir_name))) < 0)
		return r;
	/*
	 * cgroup1_root_to_use(): a name alone finds a hierarchy (one of that
	 * name is bound already: EBUSY above), never makes one: "No subsys
	 * list or none specified". A new one takes controllers or "none".
	 */
	if (!hier->nr_controllers && !hier->none)
		return -EINVAL;
	/* The directory is named as it was made: "none,name=jobs" stays so. */
	snprintf(hier->dir_name, sizeof(hier->dir_name), "%s", dir_name);
	for (unsigned int i = 0; i < set->nr; i++)
		if (!strcmp(set->hier[i].dir_name, dir_name))
			return -EEXIST;
	if ((r = v1_files_build(hier)) < 0)
		return r;
	set->nr++;
	hier_set_order(set);
	return 0;
}

void hier_set_remove(struct cgx_hier_set *set, unsigned int index)
{
	free(set->hier[index].files);
	memmove(&set->hier[index], &set->hier[index + 1],
		(set->nr - index - 1) * sizeof(set->hier[0]));
	set->nr--;
	memset(&set->hier[set->nr], 0, sizeof(set->hier[0]));
	hier_set_order(set);
}

int hier_set_parse_stored(struct cgx_hier_set *set, const char *text)
{
	int r = 0;

	memset(set, 0, sizeof(*set));
	for (const char *line = text; *line && r == 0;) {
		size_t len = strcspn(line, "\n");
		const char *tab = memchr(line, '\t', len);
		struct cgx_hier *hier = &set->hier[set->nr];

		if (!tab || (size_t)(line + len - tab - 1) >= sizeof(hier->dir_name))
			r = -EINVAL;
		else if ((r = hier_set_parse_slot(set, line, tab - line)) == 0) {
			snprintf(hier->dir_name, sizeof(hier->dir_name), "%.*s",
				 (int)(line + len - tab - 1), tab + 1);
			set->nr++;
		}
		line += len + (line[len] == '\n');
	}
	if (r == 0 && !set->nr)
		r = -EINVAL;
	for (unsigned int i = 0; r == 0 && i < set->nr; i++)
		r = v1_files_build(&set->hier[i]);
	if (r < 0) {
		hier_set_release(set);
		return r;
	}
	hier_set_order(set);
	return 0;
}
