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

#include "view.h"

#include <limits.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct supervisor {
	int listener;
	struct view view; /* under view_lock: a mount may make a hierarchy while others read */
	pthread_mutex_t view_lock;
	char cgroup2[PATH_MAX]; /* the cgroup2 mount the view's leaves live in */
};

/* One notification being served by a worker. */
struct call {
	struct supervisor *sup;
	struct seccomp_notif req;
	struct worker *worker;
};

/* Serves @sup->listener until no process is left under the filter. */
int supervisor_run(struct supervisor *sup);

/* Replies; each returns 0 or -errno (-ENOENT: the call is gone). */
int notif_continue(struct call *call);
int notif_return(struct call *call, int64_t value, int error);
/* After reading the target's memory or /proc files: is the caller still the one asking? */
bool notif_valid(struct call *call);

/*
 * Around anything the caller's state can stall (a read of its memory, a
 * walk of its paths, a wait on the mount helper): a call blocked longer
 * than the supervisor waits is answered by the watchdog with what
 * call_set_giveup() chose (SECCOMP_USER_NOTIF_FLAG_CONTINUE by default),
 * and call_unblock() then returns -ECANCELED: the worker must not answer
 * or act on it any more.
 */
void call_block(struct call *call);
int call_unblock(struct call *call);
/* The answer if the call is given up: 0 lets the kernel run it, -errno fails it. */
void call_set_giveup(struct call *call, int error);
/* A helper process (pidfd) killed if the call is given up; -1 when there is none any more. */
void call_watch_helper(struct call *call, int pidfd);

/* The caller's memory, read or written inside call_block()/call_unblock(): -ECANCELED if given up.
 */
int call_read(struct call *call, uint64_t addr, void *buf, size_t len);
int call_read_string(struct call *call, uint64_t addr, char *buf, size_t size);
int call_write(struct call *call, uint64_t addr, const void *data, size_t len);

/* The handlers: each replies exactly once, or returns -ECANCELED. */
int handle_open(struct call *call);
int handle_statfs(struct call *call);
int handle_mount(struct call *call);
int handle_fsopen(struct call *call);

#endif
