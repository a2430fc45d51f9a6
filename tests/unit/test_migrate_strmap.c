// SPDX-License-Identifier: GPL-2.0-or-later
/* The hash map the scan and the log reader look paths, pids and programs up in. */
#include "check.h"
#include "strmap.h"

#include <stdint.h>
#include <stdio.h>

int main(void)
{
	struct strmap map = STRMAP_INIT;
	char key[32];
	int ok = 1;

	CHECK(strmap_get(&map, "absent") == NULL);
	for (uintptr_t i = 1; i <= 100000; i++) {
		snprintf(key, sizeof(key), "/g/%lu", (unsigned long)i);
		ok &= strmap_put(&map, key, (void *)i) == 0;
	}
	CHECK(ok);
	CHECK_EQ_INT(map.nr, 100000);
	for (uintptr_t i = 1; i <= 100000; i += 7) {
		snprintf(key, sizeof(key), "/g/%lu", (unsigned long)i);
		ok &= (uintptr_t)strmap_get(&map, key) == i;
	}
	CHECK(ok);
	CHECK(strmap_put(&map, "/g/5", (void *)7) == 0);
	CHECK_EQ_INT((uintptr_t)strmap_get(&map, "/g/5"), 7);
	CHECK_EQ_INT(map.nr, 100000);
	CHECK(strmap_get(&map, "/g/0") == NULL);
	strmap_release(&map, NULL);
	return check_summary("migrate_strmap");
}
