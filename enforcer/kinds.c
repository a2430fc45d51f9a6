// SPDX-License-Identifier: GPL-2.0-or-later
#include "kinds.h"

#include <errno.h>
#include <string.h>

#define DEPRECATION_KIND_NAME(kind, name, message_id) [kind] = name,
static const char *const kind_names[DEPRECATION_NR_KINDS] = {
	DEPRECATION_KINDS(DEPRECATION_KIND_NAME)};

#define DEPRECATION_KIND_MESSAGE_ID(kind, name, message_id) [kind] = message_id,
static const char *const kind_message_ids[DEPRECATION_NR_KINDS] = {
	DEPRECATION_KINDS(DEPRECATION_KIND_MESSAGE_ID)};

const char *deprecation_kind_name(enum deprecation_kind kind)
{
	return kind < DEPRECATION_NR_KINDS ? kind_names[kind] : "?";
}

const char *deprecation_kind_message_id(enum deprecation_kind kind)
{
	return kind < DEPRECATION_NR_KINDS ? kind_message_ids[kind] : NULL;
}

int deprecation_kind_find(const char *name)
{
	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++)
		if (!strcmp(kind_names[kind], name))
			return (int)kind;
	return -ENOENT;
}
