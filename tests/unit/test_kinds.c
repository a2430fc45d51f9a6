// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deprecation kinds: the names the log carries, read back to the same
 * kind; their journal MESSAGE_IDs, each explained in dist/cgx.catalog.
 */
#include "check.h"
#include "kinds.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The "-- ID" lines of the catalog, each a MESSAGE_ID it explains. */
static int catalog_ids(char ids[][33], int max)
{
	FILE *catalog = fopen(CATALOG, "r");
	char line[256];
	int nr = 0;

	if (!catalog)
		return -errno;
	while (fgets(line, sizeof(line), catalog))
		if (!strncmp(line, "-- ", 3) && nr < max && sscanf(line + 3, "%32s", ids[nr]) == 1)
			nr++;
	fclose(catalog);
	return nr;
}

static bool is_id128(const char *id)
{
	size_t len = strlen(id);

	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)id[i]) || isupper((unsigned char)id[i]))
			return false;
	return len == 32;
}

static bool listed(char ids[][33], int nr, const char *id)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(ids[i], id))
			return true;
	return false;
}

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

	/* Every kind and the summary have an id of their own, which the catalog explains, and no
	 * other. */
	char ids[16][33];
	int nr = catalog_ids(ids, 16);

	CHECK_EQ_INT(nr, DEPRECATION_NR_KINDS + 1);
	CHECK(listed(ids, nr, DEPRECATION_FOLDED_MESSAGE_ID));
	CHECK(is_id128(DEPRECATION_FOLDED_MESSAGE_ID));
	CHECK(deprecation_kind_message_id(DEPRECATION_NR_KINDS) == NULL);
	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++) {
		const char *id = deprecation_kind_message_id(kind);

		CHECK(is_id128(id));
		CHECK(listed(ids, nr, id));
		CHECK(strcmp(id, DEPRECATION_FOLDED_MESSAGE_ID));
		for (unsigned int other = 0; other < kind; other++)
			CHECK(strcmp(id, deprecation_kind_message_id(other)));
	}
	return check_summary("kinds");
}
