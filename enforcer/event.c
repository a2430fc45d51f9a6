// SPDX-License-Identifier: GPL-2.0-or-later
#include "event.h"

#include "cgx.h"

void cgx_event_emit(const struct cgx_event *event)
{
	for (cgx_event_fn *const *fn = event->ctx->subscribers; fn && *fn; fn++)
		(*fn)(event);
}
