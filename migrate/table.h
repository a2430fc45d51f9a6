/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The whole v1 file table (enforcer/controllers/NAME.c), machine-readable: the
 * list of what has a v2 equivalent and what does not, for other tools.
 */
#ifndef CGX_MIGRATE_TABLE_H
#define CGX_MIGRATE_TABLE_H

#include "out.h"

struct table_args {
	enum out_format format; /* FMT_JSON, or anything else for text */
};

int render_table(FILE *out, void *args);

#endif
