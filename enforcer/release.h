/* SPDX-License-Identifier: GPL-2.0-or-later */
/* notify_on_release (release.c). */
#ifndef CGX_RELEASE_H
#define CGX_RELEASE_H

#include "knob.h"

/* Subscriber (event.h): the groups a mkdir or an attach filled are armed. */
void release_on_event(const struct cgx_event *event);
/*
 * At start: every flagged group that holds a task or a child now is armed,
 * as one a task joined since, so that its first emptying runs the agent even
 * when it comes before the watcher's first check.
 */
void release_arm_populated(struct cgx_ctx *ctx);

#endif
