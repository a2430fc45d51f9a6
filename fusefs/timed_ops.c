// SPDX-License-Identifier: GPL-2.0-or-later
#include "timed_ops.h"

#include "ops.h"
#include "request_stats.h"

#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * timed_OP: cgxfs_ops.OP, and its time from the request's arrival to the
 * return of its handler, which has replied by then (lock wait included:
 * what the caller waited for).
 */
#define TIMED(op, OP, params, args)                                                                \
	static void timed_##op params                                                              \
	{                                                                                          \
		long long start = now_ns();                                                        \
                                                                                                   \
		cgxfs_ops.op args;                                                                 \
		request_stats_add(REQUEST_##OP, now_ns() - start);                                 \
	}

TIMED(lookup, LOOKUP, (fuse_req_t req, fuse_ino_t parent, const char *name), (req, parent, name))
TIMED(getattr, GETATTR, (fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi), (req, ino, fi))
TIMED(setattr, SETATTR,
      (fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set, struct fuse_file_info *fi),
      (req, ino, attr, to_set, fi))
TIMED(readlink, READLINK, (fuse_req_t req, fuse_ino_t ino), (req, ino))
TIMED(mknod, MKNOD, (fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev),
      (req, parent, name, mode, rdev))
TIMED(mkdir, MKDIR, (fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode),
      (req, parent, name, mode))
TIMED(unlink, UNLINK, (fuse_req_t req, fuse_ino_t parent, const char *name), (req, parent, name))
TIMED(rmdir, RMDIR, (fuse_req_t req, fuse_ino_t parent, const char *name), (req, parent, name))
TIMED(symlink, SYMLINK, (fuse_req_t req, const char *link, fuse_ino_t parent, const char *name),
      (req, link, parent, name))
TIMED(rename, RENAME,
      (fuse_req_t req, fuse_ino_t parent, const char *name, fuse_ino_t newparent,
       const char *newname, unsigned int flags),
      (req, parent, name, newparent, newname, flags))
TIMED(link, LINK, (fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname),
      (req, ino, newparent, newname))
TIMED(open, OPEN, (fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi), (req, ino, fi))
TIMED(read, READ,
      (fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi),
      (req, ino, size, off, fi))
TIMED(write, WRITE,
      (fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
       struct fuse_file_info *fi),
      (req, ino, buf, size, off, fi))
TIMED(release, RELEASE, (fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi), (req, ino, fi))
TIMED(readdir, READDIR,
      (fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, struct fuse_file_info *fi),
      (req, ino, size, off, fi))
TIMED(statfs, STATFS, (fuse_req_t req, fuse_ino_t ino), (req, ino))
TIMED(setxattr, SETXATTR,
      (fuse_req_t req, fuse_ino_t ino, const char *name, const char *value, size_t size, int flags),
      (req, ino, name, value, size, flags))
TIMED(getxattr, GETXATTR, (fuse_req_t req, fuse_ino_t ino, const char *name, size_t size),
      (req, ino, name, size))
TIMED(listxattr, LISTXATTR, (fuse_req_t req, fuse_ino_t ino, size_t size), (req, ino, size))
TIMED(removexattr, REMOVEXATTR, (fuse_req_t req, fuse_ino_t ino, const char *name),
      (req, ino, name))
TIMED(create, CREATE,
      (fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, struct fuse_file_info *fi),
      (req, parent, name, mode, fi))

/* The session's start, once: no request to count. */
static void timed_init(void *userdata, struct fuse_conn_info *conn)
{
	cgxfs_ops.init(userdata, conn);
}

const struct fuse_lowlevel_ops cgxfs_timed_ops = {
	.init = timed_init,
	.lookup = timed_lookup,
	.getattr = timed_getattr,
	.setattr = timed_setattr,
	.readlink = timed_readlink,
	.mknod = timed_mknod,
	.mkdir = timed_mkdir,
	.unlink = timed_unlink,
	.rmdir = timed_rmdir,
	.symlink = timed_symlink,
	.rename = timed_rename,
	.link = timed_link,
	.open = timed_open,
	.read = timed_read,
	.write = timed_write,
	.release = timed_release,
	.readdir = timed_readdir,
	.statfs = timed_statfs,
	.setxattr = timed_setxattr,
	.getxattr = timed_getxattr,
	.listxattr = timed_listxattr,
	.removexattr = timed_removexattr,
	.create = timed_create,
};
