// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The registry of the controllers' tables and the file table each hierarchy
 * is built from: the one place that names every controller, above them all.
 */
#include "v1_files.h"

#include "hierarchy.h"

#include <string.h>

/* Every controller the classic layout mounts (perf_event has no files of its own). */
const struct v1_controller *const v1_controllers[] = {
	&v1_blkio,    &v1_cpu,	      &v1_cpuacct, &v1_cpuset, &v1_devices,
	&v1_freezer,  &v1_hugetlb,    &v1_memory,  &v1_misc,   &v1_net_cls,
	&v1_net_prio, &v1_perf_event, &v1_pids,	   &v1_rdma,   NULL,
};

static int cmp_file_name(const void *a, const void *b)
{
	const struct v1_file *x = *(const struct v1_file *const *)a;
	const struct v1_file *y = *(const struct v1_file *const *)b;

	return strcmp(x->name, y->name);
}

const struct v1_controller *v1_controller_find(const char *name)
{
	for (unsigned int i = 0; v1_controllers[i]; i++)
		if (!strcmp(v1_controllers[i]->name, name))
			return v1_controllers[i];
	return NULL;
}

int v1_files_build(struct cgx_hier *hier)
{
	unsigned int nr = v1_nr_core_files;
	const struct v1_file **files;

	for (unsigned int c = 0; c < hier->nr_controllers; c++) {
		const struct v1_controller *rows = v1_controller_find(hier->controllers[c]);

		hier->controller_rows[c] = rows;
		nr += rows ? rows->nr_files : 0;
	}
	if (!(files = calloc(nr, sizeof(*files))))
		return -ENOMEM;
	nr = 0;
	for (unsigned int i = 0; i < v1_nr_core_files; i++)
		files[nr++] = &v1_core_files[i];
	for (unsigned int c = 0; c < hier->nr_controllers; c++) {
		const struct v1_controller *rows = v1_controller_find(hier->controllers[c]);

		for (unsigned int i = 0; rows && i < rows->nr_files; i++)
			if (!rows->files[i].present || rows->files[i].present(&rows->files[i]))
				files[nr++] = &rows->files[i];
	}
	qsort(files, nr, sizeof(*files), cmp_file_name);
	hier->files = files;
	hier->nr_files = nr;
	return 0;
}
