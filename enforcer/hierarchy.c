// SPDX-License-Identifier: GPL-2.0-or-later
#include "hierarchy.h"

#include "util.h"
#include "v1_files.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The v1 controllers of Linux, in the kernel's subsystem order. */
static const char *const known_controllers[HIER_NR_CONTROLLERS] = {
	"cpuset",  "cpu",	 "cpuacct",  "blkio",	"memory", "devices", "freezer",
	"net_cls", "perf_event", "net_prio", "hugetlb", "pids",	  "rdma",    "misc",
};

const char *hier_controller_name(unsigned int index)
{
	return index < ARRAY_SIZE(known_controllers) ? known_controllers[index] : NULL;
}

int hier_controller_index(const char *name, size_t len)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(known_controllers); i++)
		if (strlen(known_controllers[i]) == len &&
		    !strncmp(known_controllers[i], name, len))
			return (int)i;
	return -ENOENT;
}

/* The kernel allows [A-Za-z0-9_.-] in a hierarchy name (cgroup1_parse_param). */
bool hier_name_valid(const char *name, size_t len)
{
	if (len == 0 || len >= 64)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_.-", name[i]))
			return false;
	return true;
}

bool hier_has_controller(const struct cgx_hier *hier, const char *controller)
{
	for (unsigned int i = 0; i < hier->nr_controllers; i++)
		if (!strcmp(hier->controllers[i], controller))
			return true;
	return false;
}

int hier_set_format(const struct cgx_hier_set *set, struct strbuf *out)
{
	int r;

	for (unsigned int i = 0; i < set->nr; i++)
		if ((r = strbuf_addf(out, "%s\t%s\n", set->hier[i].proc_name,
				     set->hier[i].dir_name)) < 0)
			return r;
	return 0;
}

void hier_set_release(struct cgx_hier_set *set)
{
	for (unsigned int i = 0; i < set->nr; i++) {
		free(set->hier[i].files);
		set->hier[i].files = NULL;
	}
}

int hier_set_find(const struct cgx_hier_set *set, const char *name)
{
	for (unsigned int i = 0; i < set->nr; i++)
		if (!strcmp(set->hier[i].dir_name, name) || !strcmp(set->hier[i].proc_name, name))
			return (int)i;
	return -ENOENT;
}

unsigned int hier_set_aliases(const struct cgx_hier_set *set, struct hier_alias *aliases)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < set->nr; i++) {
		const struct cgx_hier *hier = &set->hier[i];

		if (hier->nr_controllers < 2)
			continue;
		for (unsigned int c = 0; c < hier->nr_controllers; c++)
			aliases[n++] = (struct hier_alias){hier->controllers[c], i};
	}
	return n;
}
