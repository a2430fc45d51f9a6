/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of v1 files, in the manner of the kernel's struct cftype: each
 * row is one file with its mode, where it exists, and how it reads and
 * writes. A hierarchy's groups show the core rows plus the rows of each of
 * its controllers; adding a file is adding a row.
 */
#ifndef CGX_V1_FILES_H
#define CGX_V1_FILES_H

#include "util.h"

#include <sys/types.h>

struct cgx_ctx;
struct cgx_hier;
struct v2_dir;

/* Who is reading or writing, as FUSE reports it (credentials of the opener). */
struct cgx_caller {
	pid_t tid;
	uid_t uid;
	gid_t gid;
};

struct v1_file_ctx {
	struct cgx_ctx *ctx;
	struct v2_dir *dir;
	unsigned int hier;
	unsigned int file;
	const struct cgx_caller *caller;
};

enum v1_file_flags {
	V1F_ROOT_ONLY = 1 << 0, /* only in a hierarchy's root group */
	V1F_NOT_ROOT = 1 << 1,	/* in every group but the root */
	V1F_INHERIT = 1 << 2,	/* a new group starts with its parent's value (cgroup_create) */
};

struct v1_file {
	const char *name;
	mode_t mode;
	unsigned int flags;
	/* What a read returns until something is written, for files that store their value. */
	const char *default_value;
	/* Fills @out; NULL: the stored value or default_value. */
	int (*read)(const struct v1_file_ctx *fc, struct strbuf *out);
	/* @buf is NUL-terminated, at most a page, as the kernel hands it; NULL: -EINVAL. */
	int (*write)(const struct v1_file_ctx *fc, char *buf, size_t len);
};

/* A controller's rows (enforcer/controllers/NAME.c). */
struct v1_controller {
	const char *name;
	const struct v1_file *files;
	unsigned int nr_files;
	/*
	 * Per-set settings (DESIGN 3, rule 5) applied to a new leaf of hierarchy
	 * @hier, from the groups its tuple names; NULL when there are none.
	 */
	int (*apply_leaf)(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier);
};

const struct v1_controller *v1_controller_find(const char *name);

/* cpu.shares -> cpu.weight (controllers/cpu.c). */
unsigned long long cpu_shares_to_weight(unsigned long long shares);

extern const struct v1_controller v1_blkio;
extern const struct v1_controller v1_cpu;
extern const struct v1_controller v1_cpuacct;
extern const struct v1_controller v1_freezer;
extern const struct v1_controller v1_memory;
extern const struct v1_controller v1_pids;

/*
 * A write v1 takes and v2 cannot carry out (a counter reset): accepted,
 * changing nothing, so the next read returns what it did.
 */
int v1_write_accepted(const struct v1_file_ctx *fc, char *buf, size_t len);

/* Builds @hier->files: core rows and those of its controllers, sorted by name. */
int v1_files_build(struct cgx_hier *hier);
/* Index of @name in @hier->files, or -ENOENT. */
int v1_file_find(const struct cgx_hier *hier, const char *name);
/* Whether the file exists in a root (@is_root) or a child group. */
bool v1_file_present(const struct v1_file *file, bool is_root);

extern const struct v1_file v1_core_files[];
extern const unsigned int v1_nr_core_files;

#endif
