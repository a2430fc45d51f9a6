/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proposed v2 layout: the groups of every hierarchy as one tree, each
 * process's membership tuple folded into a leaf by enforcer/fold.c (the
 * same rules cgxfs applies, so the report proposes what cgxfs would do),
 * where the trees differ in shape, and the readiness verdict.
 */
#ifndef CGX_MIGRATE_LAYOUT_H
#define CGX_MIGRATE_LAYOUT_H

#include "model.h"

/* Computes report->tree, nodes, shapes, the tasks' leaves and the verdict. */
int layout_build(struct mig_report *report);

#endif
