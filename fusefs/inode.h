/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inode numbers of the view. A group's number is derived from its id, which
 * lives as long as the group (a rename included: the kernel keeps the inode
 * of a renamed directory), and is never reused while the daemon runs:
 *   1                       the mount root
 *   COUNTERS_INO            cgx.deprecations, the deprecation counters
 *   LIMITS_INO              cgx.limits, how each aggregate limit is carried out
 *   ALIAS_INO_BIT | alias   a symlink such as cpu -> cpu,cpuacct
 *   group << 8              the directory of a group
 *   (group << 8) | file+1   one of its files
 */
#define ALIAS_INO_BIT (1ULL << 63)
#define COUNTERS_INO  (1ULL << 62)
#define COUNTERS_NAME "cgx.deprecations"
#define LIMITS_INO    (COUNTERS_INO + 1)
#define LIMITS_NAME   "cgx.limits"
#ifndef CGXFS_INODE_H
#define CGXFS_INODE_H

#include "cgx.h"

#include <fuse_lowlevel.h>

/* NODE_COUNTERS and NODE_LIMITS: read-only status files at the mount root. */
enum node_kind { NODE_ROOT, NODE_COUNTERS, NODE_LIMITS, NODE_ALIAS, NODE_GROUP, NODE_FILE };

struct node {
	enum node_kind kind;
	struct v2_dir *dir;
	unsigned int hier;
	unsigned int file;  /* NODE_FILE */
	unsigned int alias; /* NODE_ALIAS */
};

static inline fuse_ino_t node_ino(const struct node *node)
{
	switch (node->kind) {
	case NODE_ROOT:
		return FUSE_ROOT_ID;
	case NODE_COUNTERS:
		return COUNTERS_INO;
	case NODE_LIMITS:
		return LIMITS_INO;
	case NODE_ALIAS:
		return ALIAS_INO_BIT | node->alias;
	case NODE_GROUP:
		return node->dir->group[node->hier]->id << 8;
	case NODE_FILE:
		return (node->dir->group[node->hier]->id << 8) | (node->file + 1);
	}
	return 0;
}

#endif
