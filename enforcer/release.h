/* SPDX-License-Identifier: GPL-2.0-or-later */
/* notify_on_release (release.c). */
#ifndef CGX_RELEASE_H
#define CGX_RELEASE_H

#include "knob.h"

/* Subscriber (event.h): the groups a mkdir or an attach filled are armed. */
void release_on_event(const struct cgx_event *event);

#endif
