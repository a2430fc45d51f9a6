/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup namespaces of cgx-exec's callers, rooted as a v1 kernel roots
 * them. The kernel makes and joins them itself (unshare, clone, clone3 and
 * setns are never intercepted), so their identity, lifetime, per-thread
 * scope and errnos are its own; what it cannot tell a v1 reader is each
 * namespace's root group in each v1 hierarchy. copy_cgroup_ns() roots a
 * namespace at its creator's css_set, on a v2-only kernel the creator's v2
 * leaf, and cgxfs labels each leaf with its membership tuple
 * (trusted.cgx.tuple): that tuple is the namespace's v1 root.
 */
#ifndef CGX_EXEC_CGROUPNS_H
#define CGX_EXEC_CGROUPNS_H

#include <stddef.h>
#include <sys/types.h>

/* As cgroup_lines.c reads a process's tuple. */
#define CGROUPNS_TUPLE_MAX 8192
/* Namespaces remembered at once; the least recently used is forgotten first. */
#define CGROUPNS_MAX 128

/*
 * The root tuple of namespace @ns (a /proc/TID/ns/cgroup descriptor) in
 * @tuple: "" for cgx-exec's own namespace, which stands for the initial one
 * (every root "/"). -ENOENT when the namespace's root leaf was removed
 * before cgx-exec first saw the namespace.
 */
int cgroupns_root(int ns, char *tuple, size_t size);

/* Thread @tid's namespace (the reader of a /proc file, the caller of a mount). */
int cgroupns_open(pid_t tid);

#endif
