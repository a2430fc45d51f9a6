/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seccomp filter of the command: the calls that could reveal cgroup2 or
 * FUSE go to the supervisor, everything else runs untouched.
 */
#ifndef CGX_EXEC_FILTER_H
#define CGX_EXEC_FILTER_H

/* Installs the filter in the calling process; returns the listener fd or -errno. */
int filter_install(void);

#endif
