/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A descriptor handed over a unix socket (SCM_RIGHTS). */
#ifndef CGX_EXEC_FDPASS_H
#define CGX_EXEC_FDPASS_H

/* 0 or -errno; never SIGPIPE. */
int fd_send(int sock, int fd);
/* The descriptor received (close-on-exec); -EPIPE when the peer left without sending one. */
int fd_receive(int sock);

#endif
