/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One seccomp notification being served: the supervisor's state every call
 * reaches, the replies, and the call's life around what may stall on its
 * caller (notif.c).
 */
#ifndef CGX_EXEC_NOTIF_H
#define CGX_EXEC_NOTIF_H

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

/* What a worker's call is at: CALL_IDLE when the worker has none. */
enum call_state { CALL_IDLE, CALL_RUNNING, CALL_BLOCKED, CALL_ABANDONED };

/* One notification being served by a worker. */
struct call {
	struct supervisor *sup;
	struct seccomp_notif req;
	_Atomic int state; /* enum call_state */
	_Atomic long long blocked_since_ms;
	_Atomic int giveup;
	pthread_mutex_t helper_lock;
	int helper_pidfd; /* under helper_lock */
};

/* Replies; each returns 0 or -errno (-ENOENT: the call is gone). */
/* @error 0: the kernel runs the call; -errno: it fails with that. */
int notif_reply(int listener, uint64_t id, int error);
int notif_continue(struct call *call);
int notif_return(struct call *call, int64_t value, int error);
/*
 * Our descriptor @srcfd put in the caller's table as its descriptor
 * @target_fd (SECCOMP_ADDFD_FLAG_SETFD: the one there is closed), the call
 * still to be answered; 0 or -errno (-ENOENT: the call is gone).
 */
int notif_set_fd(struct call *call, int srcfd, int target_fd, bool cloexec);
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

/* A worker's call slot: made once, then started for each notification and finished after. */
void call_init(struct call *call, struct supervisor *sup);
void call_start(struct call *call, const struct seccomp_notif *req);
/* Whether the call had been given up (its worker was counted stuck). */
bool call_finish(struct call *call);
/*
 * The watchdog: a call blocked on its caller for @blocked_ms or more is
 * answered with its giveup answer and its helper killed; true if so.
 */
bool call_give_up(struct call *call, long long blocked_ms);

/* The caller's memory, read or written inside call_block()/call_unblock(): -ECANCELED if given up.
 */
int call_read(struct call *call, uint64_t addr, void *buf, size_t len);
int call_read_string(struct call *call, uint64_t addr, char *buf, size_t size);
int call_write(struct call *call, uint64_t addr, const void *data, size_t len);

#endif
