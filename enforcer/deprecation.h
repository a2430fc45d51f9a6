/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The deprecation layer: what is recorded, and the checks that find it (deprecation.c). */
#ifndef CGX_DEPRECATION_H
#define CGX_DEPRECATION_H

#include "cgx.h"
#include "fold.h"
#include "parse.h"
#include "proc.h"
#include "stat_sum.h"
#include "v2io.h"

struct deprecation_event {
	enum deprecation_kind kind;
	const struct cgx_caller *caller; /* who made the request */
	int hier;			 /* the hierarchy concerned, -1 for none */
	const struct v2_dir *group;	 /* its group */
	const char *file, *value;	 /* the v1 file written and what */
	const struct v2_dir *v2_dir;	 /* the v2 directory affected */
	const struct tuple *tuple;	 /* a process's groups, for multi-hierarchy-process */
	const char *detail;		 /* why, and what to use instead */
	const char *once;		 /* recorded only the first time this key comes, if set */
};
void deprecation_record(struct cgx_ctx *ctx, const struct deprecation_event *event);
/* Subscriber (event.h): the checks after a mkdir, an attach, a write. */
void deprecation_on_event(const struct cgx_event *event);

#endif
