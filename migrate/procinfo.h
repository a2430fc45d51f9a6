/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who a process is, as the deprecation log names it: comm, executable,
 * command line, and the script an interpreter runs.
 */
#ifndef CGX_MIGRATE_PROCINFO_H
#define CGX_MIGRATE_PROCINFO_H

#include "model.h"

/* Fills @task's comm, exe, argv and script; a process gone leaves them "" (not an error). */
int procinfo_fill(struct mig_task *task);
/* The program a report groups by: the script, else the executable, else comm. */
const char *procinfo_program(const struct mig_task *task);

#endif
