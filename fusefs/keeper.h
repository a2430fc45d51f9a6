/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgxfs --supervise: a keeper process mounts the view and holds its FUSE
 * connection, and runs the daemon as its child on that connection. A daemon
 * that dies (crash, kill -9) is started again on the same connection, so
 * the mount never goes: requests made meanwhile wait in the kernel's queue
 * and are answered by the next daemon. SIGUSR2 replaces the daemon with the
 * binary now at its path (an upgrade); SIGHUP is passed on (log reopening);
 * SIGTERM and SIGINT unmount and end both.
 */
#ifndef CGXFS_KEEPER_H
#define CGXFS_KEEPER_H

#include <stdbool.h>

struct keeper_config {
	const char *mountpoint;
	const char *fuse_opts;
	bool foreground;
	/* The daemon's command line; argv[0] the binary's path, exec'd anew each start. */
	char **daemon_argv;
};

/* Returns when the view is unmounted: 0, or -errno when no daemon ever served it. */
int keeper_run(const struct keeper_config *config);

#endif
