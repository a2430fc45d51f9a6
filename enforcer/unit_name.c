// SPDX-License-Identifier: GPL-2.0-or-later
#include "unit_name.h"

#include <string.h>

static const struct {
	const char *suffix, *section;
} unit_types[] = {
	{".service", "Service"}, {".scope", "Scope"}, {".slice", "Slice"},
	{".socket", "Socket"},	 {".mount", "Mount"}, {".swap", "Swap"},
};

/* unit_name_is_valid(): the characters systemd allows, a prefix, a known type. */
static const char *section_of(const char *name, size_t len)
{
	static const char allowed[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789:-_.\\@";

	if (!len || len >= UNIT_NAME_SIZE || strspn(name, allowed) < len)
		return NULL;
	for (size_t i = 0; i < sizeof(unit_types) / sizeof(unit_types[0]); i++) {
		size_t suffix = strlen(unit_types[i].suffix);

		if (len > suffix && !strncmp(name + len - suffix, unit_types[i].suffix, suffix))
			return unit_types[i].section;
	}
	return NULL;
}

const char *unit_name_section(const char *unit)
{
	return section_of(unit, strlen(unit));
}

bool unit_name_of_path(const char *path, char *unit, size_t size)
{
	const char *end = path + strlen(path);

	if (size)
		unit[0] = '\0';
	while (end > path) {
		const char *start = end;
		size_t len;

		while (start > path && start[-1] != '/')
			start--;
		len = (size_t)(end - start);
		if (section_of(start, len) && len < size) {
			memcpy(unit, start, len);
			unit[len] = '\0';
			return true;
		}
		end = start > path ? start - 1 : path;
	}
	return false;
}
