/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The calls the supervisor hands to a handler (handle_*.c). */
#ifndef CGX_EXEC_HANDLE_H
#define CGX_EXEC_HANDLE_H

#include "notif.h"

/* The handlers: each replies exactly once, or returns -ECANCELED. */
int handle_open(struct call *call);
int handle_statfs(struct call *call);
int handle_mount(struct call *call);
int handle_fsopen(struct call *call);
int handle_epoll_ctl(struct call *call);
int handle_rewind(struct call *call);

#endif
