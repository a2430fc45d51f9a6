/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fleet report: the JSON reports of many hosts combined into which
 * programs use several hierarchies where, what cannot come along, and how
 * many hosts are ready.
 */
#ifndef CGX_MIGRATE_MERGE_H
#define CGX_MIGRATE_MERGE_H

#include "out.h"

struct fleet;

/* Reads every report of @paths; -EINVAL (with a message) for a file that is not one. */
int fleet_load(struct fleet **fleet, char *const *paths, unsigned int nr);
void fleet_free(struct fleet *fleet);

struct fleet_args {
	const struct fleet *fleet;
	enum out_format format;
};
int render_fleet(FILE *out, void *args);

#endif
