/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How many FUSE requests of each kind cgxfs served and how long each took,
 * for --metrics: counts only, in fixed arrays, added to with relaxed
 * atomics from every FUSE thread, so a request pays two clock reads and
 * three additions, and no lock.
 */
#ifndef CGXFS_REQUEST_STATS_H
#define CGXFS_REQUEST_STATS_H

#define REQUEST_OPS(X)                                                                             \
	X(LOOKUP, "lookup")                                                                        \
	X(GETATTR, "getattr")                                                                      \
	X(SETATTR, "setattr")                                                                      \
	X(READLINK, "readlink")                                                                    \
	X(MKNOD, "mknod")                                                                          \
	X(MKDIR, "mkdir")                                                                          \
	X(UNLINK, "unlink")                                                                        \
	X(RMDIR, "rmdir")                                                                          \
	X(SYMLINK, "symlink")                                                                      \
	X(RENAME, "rename")                                                                        \
	X(LINK, "link")                                                                            \
	X(OPEN, "open")                                                                            \
	X(READ, "read")                                                                            \
	X(WRITE, "write")                                                                          \
	X(RELEASE, "release")                                                                      \
	X(READDIR, "readdir")                                                                      \
	X(STATFS, "statfs")                                                                        \
	X(SETXATTR, "setxattr")                                                                    \
	X(GETXATTR, "getxattr")                                                                    \
	X(LISTXATTR, "listxattr")                                                                  \
	X(REMOVEXATTR, "removexattr")                                                              \
	X(CREATE, "create")

#define REQUEST_OP_ENUMERATOR(op, name) REQUEST_##op,
enum request_op { REQUEST_OPS(REQUEST_OP_ENUMERATOR) REQUEST_NR_OPS };
#undef REQUEST_OP_ENUMERATOR

/* The upper bounds of the histogram's buckets, in nanoseconds; a last one takes the rest. */
#define REQUEST_BOUNDS_NS                                                                          \
	{                                                                                          \
		25000, 50000, 100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000,         \
			25000000, 100000000, 1000000000                                            \
	}
#define REQUEST_NR_BOUNDS 12

struct request_stats {
	/* Requests by the first bound they took no longer than; [REQUEST_NR_BOUNDS]: longer. */
	unsigned long long bucket[REQUEST_NR_OPS][REQUEST_NR_BOUNDS + 1];
	unsigned long long sum_ns[REQUEST_NR_OPS];
};

extern const char *const request_op_names[REQUEST_NR_OPS];
extern const long long request_bounds_ns[REQUEST_NR_BOUNDS];

void request_stats_add(enum request_op op, long long ns);
/* A copy of the counts so far (each count read at once; the copy as a whole is not). */
void request_stats_read(struct request_stats *out);

#endif
