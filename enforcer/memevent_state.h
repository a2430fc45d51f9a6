/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The listeners cgroup.event_control took, kept by the daemon (memevent.c). */
#ifndef CGX_MEMEVENT_STATE_H
#define CGX_MEMEVENT_STATE_H

#include "proc_account.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How often usage and memory.events are read while a threshold or OOM
 * listener is registered: v2 has no threshold notification, so a crossing
 * is seen at most this late.
 */
#define CGX_MEMEVENT_TICK_MS 250

/*
 * Registrations a user other than root may hold at once (--listeners-per-uid):
 * as many eventfds as one process can open under the usual soft limit.
 * Duplicates count; past it a registration gets ENOMEM, as v1's when the
 * kernel runs out. A user is an account (proc_account.h): the uids of a
 * user namespace count as its owner.
 */
#define CGX_LISTENERS_PER_UID_DEFAULT 1024

/*
 * The share of the descriptors that listeners of users other than root may
 * hold that one user's listeners may take: at a soft limit of 1024 open
 * files, 48 descriptors (24 registrations), so that one user alone never
 * leaves the others none.
 */
#define CGX_LISTENER_SHARE 8

/*
 * Descriptors no listener may take: what the daemon needs to serve requests
 * (16 FUSE threads and the watcher, each with a few descriptors open at a
 * time for a mkdir, a move or a read, and the daemon's own dozen).
 * Listeners of uids other than root may hold at most half of the rest, so
 * that root's still register when many uids flood.
 */
#define CGX_FD_RESERVE 256

struct memevent;

/* At most this many log lines a minute, then one line saying how many were left out. */
struct memevent_log_limit {
	long long window_ms;
	unsigned int lines;
	unsigned long long suppressed;
};

/* The refusal lines of one user in a minute (memevent.c, refused()). */
struct memevent_refusals {
	bool used;
	struct proc_account account;
	long long window_ms;
	unsigned int lines;
	unsigned long long suppressed;
};

/* Users whose refusals are counted apart at once; one more takes the slot used longest ago. */
#define CGX_REFUSAL_SLOTS 16

struct memevent_state {
	struct memevent *events;
	/* Listeners of removed groups, signalled by the watcher once rmdir has returned. */
	struct memevent *removed;
	size_t nr_ticked;     /* listeners read every tick (threshold, OOM) */
	uint64_t next_serial; /* names the record of the next registration */
	unsigned int per_uid_limit;
	void *uid_counts; /* tsearch(3) tree: registrations and descriptors held per user */
	/* Descriptors the listeners may hold open (all, those of uids other than root). */
	size_t nr_fds, nr_fds_unprivileged;
	struct memevent_log_limit log_limit;
	struct memevent_refusals refusals[CGX_REFUSAL_SLOTS];
	long long refusal_window_ms;
	unsigned int refusal_lines; /* in this window, every user together */
	bool warned_no_memory;
};

/* Closes every descriptor kept, waking nobody: the daemon is going away. */
void memevent_state_release(struct memevent_state *state);

#endif
