/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A FUSE connection that outlives its daemon. The kernel keeps a
 * connection while any process holds its /dev/fuse file open: a keeper
 * (cgxfs --supervise) or systemd's file descriptor store holds it, and each
 * daemon started on it is handed the file and the connection's FUSE_INIT
 * request, which it answers again to set up libfuse's session as the first
 * daemon did (the kernel drops the repeated reply: that request is done).
 */
#ifndef CGXFS_CONN_H
#define CGXFS_CONN_H

#include <fuse_lowlevel.h>
#include <stdbool.h>

/* The names the files carry in $LISTEN_FDNAMES and in the store. */
#define CONN_FUSE_NAME "fuse"
#define CONN_INIT_NAME "fuse-init"

struct conn {
	int fuse_fd; /* /dev/fuse, mounted */
	int init_fd; /* a memfd holding the connection's FUSE_INIT request */
};

#define CONN_INIT                                                                                  \
	{                                                                                          \
		-1, -1                                                                             \
	}

void conn_close(struct conn *conn);

/*
 * Opens /dev/fuse, mounts it on @mountpoint with the options a plain cgxfs
 * mounts with plus @extra_opts (-o), and reads the kernel's FUSE_INIT.
 */
int conn_mount(const char *mountpoint, const char *extra_opts, struct conn *conn);

/*
 * The connection handed down in $LISTEN_FDS by a keeper or systemd; 0 and
 * nothing set when there is none, 1 when @conn was filled. The variables are
 * taken out of the environment, the files made close-on-exec. Files that hold
 * no live connection are closed and @stale set: their names are to be taken
 * out of systemd's store.
 */
int conn_from_listen_fds(struct conn *conn, bool *stale);

/* True while the connection is up (not unmounted nor aborted). */
bool conn_alive(const struct conn *conn);

/*
 * Sets up @se on the connection: answers FUSE_INIT again and, on a connection
 * an earlier daemon served, has the kernel send anew the requests it read but
 * never answered (FUSE_NOTIFY_RESEND, Linux 6.9 and later; those wait for
 * ever before).
 */
int conn_attach(struct fuse_session *se, const struct conn *conn);

/*
 * In a child about to exec a daemon: @conn's files at 3 and 4, named in
 * $LISTEN_FDS as systemd would (sd_listen_fds(3)).
 */
int conn_hand_down(const struct conn *conn);

#endif
