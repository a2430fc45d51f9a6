/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inode numbers of the view. A group's number is derived from its v2
 * directory's id, which lives as long as the group, so numbers stay stable
 * and are never reused while the daemon runs:
 *   1                          the mount root
 *   (alias << 8) | 2           a symlink such as cpu -> cpu,cpuacct
 *   (dir << 16) | (hier << 8)  the directory of group (dir, hier)
 *   ... | (file + 1)           one of its files
 */
#ifndef CGXFS_INODE_H
#define CGXFS_INODE_H

#include "cgx.h"

#include <fuse_lowlevel.h>

enum node_kind { NODE_ROOT, NODE_ALIAS, NODE_GROUP, NODE_FILE };

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
	case NODE_ALIAS:
		return ((fuse_ino_t)node->alias << 8) | 2;
	case NODE_GROUP:
		return (node->dir->id << 16) | ((fuse_ino_t)node->hier << 8);
	case NODE_FILE:
		return (node->dir->id << 16) | ((fuse_ino_t)node->hier << 8) | (node->file + 1);
	}
	return 0;
}

#endif
