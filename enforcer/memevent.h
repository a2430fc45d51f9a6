/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The listeners cgroup.event_control took, kept by the daemon (memevent.c). */
#ifndef CGX_MEMEVENT_H
#define CGX_MEMEVENT_H

#include <stddef.h>
#include <stdint.h>

/*
 * How often usage and memory.events are read while a threshold or OOM
 * listener is registered: v2 has no threshold notification, so a crossing
 * is seen at most this late.
 */
#define CGX_MEMEVENT_TICK_MS 250

struct memevent;

struct memevent_state {
	struct memevent *events;
	/* Listeners of removed groups, signalled by the watcher once rmdir has returned. */
	struct memevent *removed;
	size_t nr_ticked;     /* listeners read every tick (threshold, OOM) */
	uint64_t next_serial; /* names the record of the next registration */
};

/* Closes every descriptor kept, waking nobody: the daemon is going away. */
void memevent_state_release(struct memevent_state *state);

#endif
