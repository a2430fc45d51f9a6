/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * net_cls.classid and net_prio.ifpriomap made real (bpf_netclass.h): each
 * leaf whose net_cls or net_prio group has a value gets the egress program,
 * its map filled from the groups the leaf's tuple names. Shared by the two
 * controllers' tables, which may sit in one hierarchy or in two.
 */
#ifndef CGX_NETCLASS_H
#define CGX_NETCLASS_H

#include "relocate.h"

/*
 * The apply_leaf hook of net_cls and net_prio: the whole map of @leaf,
 * whatever @hier. No reset_leaf: a directory that is no leaf any more keeps
 * its program for the sockets made in it (bpf_netclass.h), and it goes
 * with the directory once they are closed.
 */
int netclass_apply_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier);

/*
 * A write of @fc's classid or ifpriomap: @text is stored and the leaves of
 * the group's own members take it (v1 retags only the group's own tasks'
 * sockets; a child group keeps the copy it took when made). On a failure
 * the old value and the leaves' maps are put back.
 */
int netclass_value_set(const struct v1_file_ctx *fc, const char *text);

#endif
