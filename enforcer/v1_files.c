// SPDX-License-Identifier: GPL-2.0-or-later
#include "v1_files.h"

#include "hierarchy.h"

#include <string.h>

const char *v1_mapping_name(enum v1_mapping kind)
{
	static const char *const names[] = {
		[V1M_UNSET] = "unset",	      [V1M_CORE] = "core",
		[V1M_SAME] = "same",	      [V1M_CONVERTED] = "converted",
		[V1M_APPROX] = "approximate", [V1M_STATISTIC] = "statistic",
		[V1M_EMULATED] = "emulated",  [V1M_NONE] = "none",
		[V1M_RESET] = "reset",
	};

	return kind < ARRAY_SIZE(names) ? names[kind] : "unset";
}

int v1_write_accepted(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)fc, (void)buf, (void)len;
	return 0;
}

int v1_file_find(const struct cgx_hier *hier, const char *name)
{
	for (unsigned int i = 0; i < hier->nr_files; i++)
		if (!strcmp(hier->files[i]->name, name))
			return (int)i;
	return -ENOENT;
}

bool v1_file_present(const struct v1_file *file, bool is_root)
{
	if (is_root)
		return !(file->flags & V1F_NOT_ROOT);
	return !(file->flags & V1F_ROOT_ONLY);
}
