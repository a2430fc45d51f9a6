/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * net_cls.classid and net_prio.ifpriomap in cgroup2: a
 * BPF_PROG_TYPE_CGROUP_SKB program at BPF_CGROUP_INET_EGRESS (IPv4 and
 * IPv6) on a leaf, which gives each packet its sockets send the priority v1
 * would have given it, unless the packet has one already (SO_PRIORITY wins,
 * as in v1).
 *
 * A socket stays in the cgroup that made it. The program classifies the
 * sockets of its own directory only (bpf_skb_cgroup_id), so it can stay
 * when the directory stops being a leaf, its processes moved on: their
 * open sockets keep the class they had, and the leaves below it, with
 * programs of their own or none, are not touched.
 *
 * The values live in the program's own map, so a write changes the map and
 * not the program: ifindex -> priority for the devices of an ifpriomap,
 * and key 0 -> the classid, for every other device. HTB and PRIO take a
 * priority that names one of their classes (major:minor, as a classid is)
 * as the packet's class before any filter runs; v1's net_prio set the same
 * field at the device when it was still 0.
 */
#ifndef CGX_BPF_NETCLASS_H
#define CGX_BPF_NETCLASS_H

#include "util.h"

#include <stdint.h>

#define NETCLASS_PROG_NAME "cgx_netclass"
/* Devices with an ifpriomap entry, plus the classid: more than a namespace has, in practice. */
#define NETCLASS_MAX_ENTRIES 256
/* The key of the classid: no device has ifindex 0. */
#define NETCLASS_ANY_DEVICE 0

struct netclass_entry {
	uint32_t ifindex; /* NETCLASS_ANY_DEVICE for the classid */
	uint32_t priority;
};

/*
 * The instructions for the directory of cgroup id @cgroup_id, reading the map @map_fd; the
 * caller frees *@insns.
 */
int netclass_prog_build(int map_fd, uint64_t cgroup_id, void **insns, unsigned int *nr_insns);

/*
 * Makes @entries (at most NETCLASS_MAX_ENTRIES, no zero priority) what the
 * program on @cgroup_fd gives: the map of the program already there is
 * rewritten (a restarted daemon finds it by the program's name), else a
 * new program is attached beside whatever else is there. No entries:
 * detaches ours. -errno from bpf(2); -E2BIG for too many entries.
 */
int netclass_cgroup_apply(int cgroup_fd, const struct netclass_entry *entries, unsigned int nr);
/* Detaches every program of ours from @cgroup_fd; 0 when there was none. */
int netclass_cgroup_clear(int cgroup_fd);
/* The entries the program on @cgroup_fd gives, sorted by ifindex; 0 and none without one. */
int netclass_cgroup_read(int cgroup_fd, struct netclass_entry *entries, unsigned int max,
			 unsigned int *nr);

#endif
