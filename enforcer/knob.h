/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The knob layer: v2 knobs behind v1 files (knob.c). */
#ifndef CGX_KNOB_H
#define CGX_KNOB_H

#include "relocate.h"

/* 0 when the base has @controller, else -EOPNOTSUPP and a log line naming @fc's file. */
int knob_require(const struct v1_file_ctx *fc, const char *controller);
/*
 * Writes @v2_value to @v2_file of the group's directory, then stores
 * @v1_text as what the v1 file reads; -EOPNOTSUPP (logged) without @controller.
 */
int knob_set(const struct v1_file_ctx *fc, const char *controller, const char *v2_file,
	     const char *v2_value, const char *v1_text);

#endif
