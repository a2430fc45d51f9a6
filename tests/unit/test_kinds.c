// SPDX-License-Identifier: GPL-2.0-or-later
/* The deprecation kinds: the names the log carries, read back to the same kind. */
#include "check.h"
#include "kinds.h"

#include <errno.h>
#include <string.h>

int main(void)
{
	/* On disk: these strings are what cgx-migrate and log readers match. */
	CHECK(!strcmp(deprecation_kind_name(DEPRECATION_MULTI_HIERARCHY_PROCESS),
		      "multi-hierarchy-process"));
	CHECK(!strcmp(deprecation_kind_name(DEPRECATION_NO_V2_EQUIVALENT), "no-v2-equivalent"));
	CHECK(!strcmp(deprecation_kind_name(DEPRECATION_DELEGATION_REFUSED), "delegation-refused"));
	CHECK(!strcmp(deprecation_kind_name(DEPRECATION_NR_KINDS), "?"));
	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++)
		CHECK_EQ_INT(deprecation_kind_find(deprecation_kind_name(kind)), (int)kind);
	CHECK_EQ_INT(deprecation_kind_find("other"), -ENOENT);
	CHECK_EQ_INT(deprecation_kind_find(""), -ENOENT);
	CHECK_EQ_INT(deprecation_kind_find("divergent-tre"), -ENOENT);
	return check_summary("kinds");
}
