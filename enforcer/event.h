/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the group layer's requests did, as events: the side effects
 * (release.c, deprecation.c, memevent.c) subscribe to them instead of being
 * called from inside cgx_group_mkdir() or cgx_tasks_attach(). The list of
 * subscribers is fixed, set on the context when it opens (ctx.c); they run
 * at once, in the emitter's thread and under its lock, as the direct calls
 * did.
 */
#ifndef CGX_EVENT_H
#define CGX_EVENT_H

#include <stdint.h>

struct cgx_caller;
struct cgx_ctx;
struct tuple;
struct v1_file_ctx;
struct v2_dir;

enum cgx_event_kind {
	/* Group @group of @hier was made under @parent by @caller. */
	CGX_EVENT_MKDIR,
	/* Group @group_id of @hier at @group is going: forgotten in v2, still in the mirror. */
	CGX_EVENT_RMDIR,
	/* A process of @caller's joined @group of @hier, and now has @tuple. */
	CGX_EVENT_ATTACH,
	/* @value was written to the file of @fc by @caller. */
	CGX_EVENT_WRITE,
};

struct cgx_event {
	enum cgx_event_kind kind;
	struct cgx_ctx *ctx;
	const struct cgx_caller *caller;
	unsigned int hier;
	struct v2_dir *parent, *group;
	uint64_t group_id;
	const struct tuple *tuple;
	const struct v1_file_ctx *fc;
	const char *value;
};

typedef void cgx_event_fn(const struct cgx_event *event);

/* Hands @event to every subscriber of its context, in the order they are listed. */
void cgx_event_emit(const struct cgx_event *event);

#endif
