/* SPDX-License-Identifier: GPL-2.0-or-later */
/* notify_on_release (release.c). */
#ifndef CGX_RELEASE_H
#define CGX_RELEASE_H

#include "knob.h"

/* The group of @h at @dir now holds a task or a child. */
void release_arm(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h);

#endif
