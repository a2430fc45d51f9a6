/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's one thread besides FUSE's: SIGHUP reopens the deprecation log,
 * changes of cgroup.events run release agents, --metrics are written, and
 * cgroup.event_control listeners are checked (every 250 ms while one watches usage or OOM, and
 * whenever a memory.events or PSI trigger they poll fires).
 */
#ifndef CGXFS_WATCHER_H
#define CGXFS_WATCHER_H

#include "cgx.h"

#include <pthread.h>

struct watcher {
	struct cgx_ctx *ctx;
	pthread_t thread;
	int signal_fd;	/* SIGHUP, blocked in every thread */
	int inotify_fd; /* cgroup.events of the leaves */
	int stop_fd;	/* an eventfd: the thread ends when it is written */
	bool running;
	const char *metrics_path; /* --metrics: written every METRICS_INTERVAL_MS, or NULL */
	int metrics_error;	  /* the last write's, said when it changes */
};

/*
 * Blocks SIGHUP in the calling thread (and so in the threads it starts
 * later) and starts watching. Call after daemonizing, before the FUSE loop.
 */
int watcher_start(struct watcher *watcher, struct cgx_ctx *ctx, const char *metrics_path);
void watcher_stop(struct watcher *watcher);

#endif
