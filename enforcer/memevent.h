/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The listeners cgroup.event_control takes (memevent.c; controllers/memory.c parses). */
#ifndef CGX_MEMEVENT_H
#define CGX_MEMEVENT_H

#include "knob.h"

enum memevent_kind { MEMEVENT_USAGE, MEMEVENT_MEMSW, MEMEVENT_OOM, MEMEVENT_PRESSURE };
struct memevent_request {
	enum memevent_kind kind;
	unsigned long long threshold; /* bytes (usage, memsw) */
	const char *psi_trigger;      /* pressure: what memory.pressure is given */
	int writer_efd; /* the eventfd's number in the writer's table, for a restart */
};
/* The LEVEL[,MODE] of a memory.pressure_level listener; -EINVAL as vmpressure. */
int memevent_parse_pressure(const char *args, struct memevent_request *request);
/*
 * Takes the writer's eventfd @request->writer_efd (checked to be one) as a
 * listener of @fc's group, or folds it into the same one the writer's uid
 * holds; -ENOMEM past the limits (memevent.c).
 */
int memevent_register(const struct v1_file_ctx *fc, const struct memevent_request *request);
/* Subscriber (event.h): at rmdir, the group's listeners go. */
void memevent_on_event(const struct cgx_event *event);
/*
 * At start: the registrations an earlier daemon recorded whose eventfd is
 * still held, within @per_uid_limit (0: CGX_LISTENERS_PER_UID_DEFAULT).
 */
void memevent_restore(struct cgx_ctx *ctx, unsigned int per_uid_limit);

#endif
