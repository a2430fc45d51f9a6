/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The group layer: groups (group.c), tasks (tasks.c), reconcile.c, hierarchy_runtime.c. */
#ifndef CGX_GROUP_H
#define CGX_GROUP_H

#include "memevent.h"
#include "release.h"

/* group.c */
int dir_sync_controllers(struct cgx_ctx *ctx, struct v2_dir *dir);
bool dir_is_any_group(const struct v2_dir *dir);
/* The inode of @dir, open as @fd, known from now on (v2_dir.ino): the watcher's pass checks it. */
void dir_learn_ino(struct v2_dir *dir, int fd);
/* Writes each stored v1 value of @dir's group in @hier to its v2 files again (not reset points). */
void group_replay_values(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);
/*
 * Every count of group @dir of @hier that v1 resets on a write (V1F_RESET_POINT)
 * starts again from what its directories count now, as after such a write.
 */
void group_reset_counts(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);
/*
 * Removes the group of @hier at @dir from the v2 tree: its marker, then the
 * knobs it set on @dir (knob_offline()), then its records. The mirror is
 * left to the caller.
 */
int group_forget(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);

/* tasks.c */
/* The tuple of process @pid as the v2 tree holds it: from the leaf it sits in. */
int tasks_tuple_of(struct cgx_ctx *ctx, pid_t pid, struct tuple *tuple, char *v2_path, size_t size);

#endif
