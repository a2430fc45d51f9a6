/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seccomp user-notification supervisor: receives each call the filter
 * sends, answers it with the v1 host's view or lets the kernel run it
 * (SECCOMP_USER_NOTIF_FLAG_CONTINUE).
 */
#ifndef CGX_EXEC_SUPERVISOR_H
#define CGX_EXEC_SUPERVISOR_H

#include "view.h"

#include <limits.h>
#include <linux/seccomp.h>
#include <stdint.h>

struct supervisor {
	int listener;
	struct view view;
	char cgroup2[PATH_MAX]; /* the cgroup2 mount the view's leaves live in */
};

/* Serves @sup->listener until no process is left under the filter. */
int supervisor_run(struct supervisor *sup);

/* Replies; each returns 0 or -errno (-ENOENT: the call is gone). */
int notif_continue(struct supervisor *sup, uint64_t id);
int notif_return(struct supervisor *sup, uint64_t id, int64_t value, int error);
/* After reading the target's memory or /proc files: is the caller still the one asking? */
bool notif_valid(struct supervisor *sup, uint64_t id);

/* The handlers: each replies exactly once. */
int handle_open(struct supervisor *sup, const struct seccomp_notif *req);
int handle_statfs(struct supervisor *sup, const struct seccomp_notif *req);
int handle_mount(struct supervisor *sup, const struct seccomp_notif *req);
int handle_fsopen(struct supervisor *sup, const struct seccomp_notif *req);

#endif
