/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proposed layout as something to apply: a shell script of mkdir and
 * echo into cgroup2, or systemd slice drop-ins with the same limits.
 */
#ifndef CGX_MIGRATE_PLAN_H
#define CGX_MIGRATE_PLAN_H

#include "model.h"

#include <stdio.h>

struct plan_args {
	const struct mig_report *report;
	bool systemd;
	const char *root; /* the cgroup2 directory the script builds under */
};

int render_plan(FILE *out, void *args);

#endif
