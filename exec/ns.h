/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The private mount namespace of cgx-exec: /sys/fs/cgroup laid out as a
 * classic v1 host, each hierarchy a bind of the cgxfs view.
 */
#ifndef CGX_EXEC_NS_H
#define CGX_EXEC_NS_H

#include "view.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

/*
 * Called in the child before exec: unshares the mount namespace, makes every
 * mount private, takes away what was at /sys/fs/cgroup (in this namespace
 * only) and lays a read-only tmpfs there with one bind per hierarchy of
 * @view and its aliases as symlinks. Negative errno, logged.
 */
int ns_setup(const struct view *view);

#endif
