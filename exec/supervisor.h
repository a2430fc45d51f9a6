/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seccomp user-notification supervisor: receives each call the filter
 * sends, answers it with the v1 host's view or lets the kernel run it
 * (SECCOMP_USER_NOTIF_FLAG_CONTINUE). Calls are served by a small pool of
 * worker threads, so that no caller's memory, files or signals can hold up
 * another's calls.
 */
#ifndef CGX_EXEC_SUPERVISOR_H
#define CGX_EXEC_SUPERVISOR_H

#include "notif.h"

/* Serves @sup->listener until no process is left under the filter. */
int supervisor_run(struct supervisor *sup);

#endif
