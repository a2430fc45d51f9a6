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
};
void deprecation_record(struct cgx_ctx *ctx, const struct deprecation_event *event);
/* After a process joined @group of @hier and now has @tuple. */
void deprecation_check_attach(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			      unsigned int hier, struct v2_dir *group, const struct tuple *tuple);
void deprecation_check_mkdir(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			     unsigned int hier, struct v2_dir *group);
/* After a write of @value to the file of @fc succeeded. */
void deprecation_check_write(const struct v1_file_ctx *fc, const char *value);

#endif
