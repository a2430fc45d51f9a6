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
 * Where a map's entries come from: the classid's (key 0) or the
 * ifpriomap's (ifindex keys). Keys above any ifindex, which the program
 * never looks up, name the group each came from (its directory's cgroup
 * id, in two halves), so that a directory that is no leaf any more, kept
 * for the sockets made in it, follows what its groups are given
 * (netclass_cgroup_follow()), as v1 retags the sockets of a group's tasks.
 */
enum netclass_source { NETCLASS_CLS, NETCLASS_PRIO, NETCLASS_NR_SOURCES };
#define NETCLASS_SOURCE_KEYS 0xffffff00u

/* Adds the two keys that say @source's entries come from the group of cgroup id @group_id. */
int netclass_entries_add_source(struct netclass_entry *entries, unsigned int *nr,
				enum netclass_source source, uint64_t group_id);

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
/*
 * On @cgroup_fd, whose program's entries of @source came from the group of
 * cgroup id @group_id: those entries replaced by @entries (of @source
 * alone; none detaches the program once no other class is left). 1 when it
 * did, 0 where the program follows another group, -ENOENT where there is
 * none.
 */
int netclass_cgroup_follow(int cgroup_fd, enum netclass_source source, uint64_t group_id,
			   const struct netclass_entry *entries, unsigned int nr);
#endif
