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
struct proc_fs_creds;
struct v2_dir;

/* Who is reading or writing, as FUSE reports it (credentials of the opener). */
struct cgx_caller {
	pid_t tid;
	uid_t uid;
	gid_t gid;
	/*
	 * CAP_SYS_ADMIN in the initial user namespace when the file was opened
	 * for writing, what file_ns_capable() asks of a V1F_OPENER_ADMIN file;
	 * only taken (cgx_file_note_opener()) for those files, and as the
	 * override of cgroup2's delegation rule for V1F_OPENER_CREDS files.
	 */
	bool admin_at_open;
	/*
	 * The opener's supplementary groups and capabilities, taken for
	 * V1F_OPENER_CREDS files (cgx_tasks_note_opener()); NULL otherwise and
	 * for a handle of an earlier daemon, which then counts neither.
	 */
	const struct proc_fs_creds *creds;
};

struct v1_file_ctx {
	struct cgx_ctx *ctx;
	struct v2_dir *dir;
	unsigned int hier;
	unsigned int file;
	const struct cgx_caller *caller;
};

enum v1_file_flags {
	V1F_ROOT_ONLY = 1 << 0,	   /* only in a hierarchy's root group */
	V1F_NOT_ROOT = 1 << 1,	   /* in every group but the root */
	V1F_INHERIT = 1 << 2,	   /* a new group starts with its parent's value (cgroup_create) */
	V1F_OPENER_ADMIN = 1 << 3, /* a write needs the opener's CAP_SYS_ADMIN, not the writer's */
	V1F_OPENER_CREDS = 1 << 4, /* a write checks the opener's groups and capabilities */
	V1F_ROOT_KNOB = 1 << 5,	   /* written at the root too, it sets the base's v2 knob */
	/*
	 * Emulated where cgroup2 itself has nothing of the kind: a write is
	 * logged as no-v2-equivalent, since it stops working with cgx gone.
	 */
	V1F_V2_LACKS = 1 << 6,
	/*
	 * A count v1 resets on a write, which v2 cannot: the stored value is
	 * where the count stood at the last reset, the daemon's own record. It
	 * moves with the group as it is (never replayed through the write), and
	 * a new group on a directory with a past is reset at once.
	 */
	V1F_RESET_POINT = 1 << 7,
};

/* What a v1 file becomes in cgroup2 (docs/design.md §4): the report and the deprecation log read
 * it. */
enum v1_mapping {
	V1M_UNSET = 0, /* a row without a mapping: the table test fails on it */
	V1M_CORE,      /* cgroup core, same meaning on the leaf (tasks, cgroup.procs) */
	V1M_SAME,      /* the same file and value in v2 */
	V1M_CONVERTED, /* a v2 file with the value converted (see the row's convert) */
	V1M_APPROX,    /* a v2 file that carries only part of the meaning */
	V1M_STATISTIC, /* read-only, computed from v2 statistics */
	V1M_EMULATED,  /* no v2 file: cgx carries the behaviour out itself */
	V1M_NONE,      /* no v2 equivalent: reads and validates, has no effect */
	V1M_RESET,     /* a counter reset v2 cannot do: accepted, changes nothing */
};

/* The values of one v1 group, by file name, as a converter sees them (NULL: the default). */
struct v1_values {
	const char *(*get)(const struct v1_values *values, const char *file);
};

struct v1_v2_map {
	enum v1_mapping kind;
	const char *file; /* the v2 file, or NULL */
	const char *note; /* how the value is carried, or what to use instead */
	/*
	 * The v2 value for v1 value @value of this file in a group whose other
	 * values @values gives (cpu.max needs quota and period); NULL where the
	 * value carries over unchanged.
	 */
	int (*convert)(const struct v1_values *values, const char *value, struct strbuf *out);
};

#define V2_CORE(f)                                                                                 \
	{                                                                                          \
		.kind = V1M_CORE, .file = f                                                        \
	}
#define V2_SAME(f)                                                                                 \
	{                                                                                          \
		.kind = V1M_SAME, .file = f                                                        \
	}
#define V2_CONVERTED(f, fn, why)                                                                   \
	{                                                                                          \
		.kind = V1M_CONVERTED, .file = f, .note = why, .convert = fn                       \
	}
#define V2_APPROX(f, fn, why)                                                                      \
	{                                                                                          \
		.kind = V1M_APPROX, .file = f, .note = why, .convert = fn                          \
	}
#define V2_STATISTIC(f)                                                                            \
	{                                                                                          \
		.kind = V1M_STATISTIC, .file = f                                                   \
	}
#define V2_EMULATED(why)                                                                           \
	{                                                                                          \
		.kind = V1M_EMULATED, .note = why                                                  \
	}
#define V2_NONE(instead)                                                                           \
	{                                                                                          \
		.kind = V1M_NONE, .note = instead                                                  \
	}
#define V2_RESET(f)                                                                                \
	{                                                                                          \
		.kind = V1M_RESET, .file = f                                                       \
	}

struct v1_file {
	const char *name;
	mode_t mode;
	unsigned int flags;
	/* What a read returns until something is written, for files that store their value. */
	const char *default_value;
	/* Fills @out; NULL: the stored value or default_value. */
	int (*read)(const struct v1_file_ctx *fc, struct strbuf *out);
	/* @buf is NUL-terminated, at most max_write_len, as the kernel hands it; NULL: -EINVAL. */
	int (*write)(const struct v1_file_ctx *fc, char *buf, size_t len);
	struct v1_v2_map v2;
	/* What the handlers need to tell rows apart (a huge page size), as cftype->private. */
	unsigned long private;
	/* Whether this machine has the file (a huge page size it supports); NULL: always. */
	bool (*present)(const struct v1_file *file);
	/* cftype->max_write_len: a longer write(2) is E2BIG; 0: a page, as kernfs. */
	size_t max_write_len;
};

/* A controller's rows (enforcer/controllers/NAME.c). */
struct v1_controller {
	const char *name;
	const struct v1_file *files;
	unsigned int nr_files;
	/*
	 * Per-set settings (docs/design.md §3, rule 5) applied to a new leaf of hierarchy
	 * @hier, from the groups its tuple names; NULL when there are none.
	 */
	int (*apply_leaf)(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier);
	/*
	 * What apply_leaf() wrote, back to cgroup2's defaults on a directory
	 * that stays but is no leaf any more (it turned inner, its processes
	 * moved on, it emptied): kept, a setting would reach every directory
	 * below it, whatever groups they stand for. NULL with apply_leaf, or
	 * where what apply_leaf() wrote reaches nothing below (net_cls).
	 */
	int (*reset_leaf)(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);
	/* css_online(): a new group @group takes what it inherits; NULL when nothing. */
	void (*online)(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier);
	/* can_attach(): 0 when processes may join @group, else the kernel's errno. */
	int (*can_attach)(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier);
};

/* The controller rows of hierarchy @hier: calls @fn for each, stopping at an error. */
#define v1_for_each_controller(controller, hier)                                                   \
	for (unsigned int _c = 0; _c < (hier)->nr_controllers; _c++)                               \
		for (const struct v1_controller *controller = (hier)->controller_rows[_c];         \
		     controller; controller = NULL)

/*
 * The registry (v1_table.c, above the controllers' tables in enforcer/LAYERS:
 * nothing below them may call these; they use v1_for_each_controller()).
 */
const struct v1_controller *v1_controller_find(const char *name);
/* Every controller with rows, NULL-terminated. */
extern const struct v1_controller *const v1_controllers[];
/* "converted", "none", ...: the names the report and the log use. */
const char *v1_mapping_name(enum v1_mapping kind);

/* cpu.shares -> cpu.weight (controllers/cpu.c). */
unsigned long long cpu_shares_to_weight(unsigned long long shares);

extern const struct v1_controller v1_blkio;
extern const struct v1_controller v1_cpu;
extern const struct v1_controller v1_cpuacct;
extern const struct v1_controller v1_cpuset;
extern const struct v1_controller v1_devices;
extern const struct v1_controller v1_freezer;
extern const struct v1_controller v1_hugetlb;
extern const struct v1_controller v1_memory;
extern const struct v1_controller v1_misc;
extern const struct v1_controller v1_net_cls;
extern const struct v1_controller v1_net_prio;
extern const struct v1_controller v1_perf_event;
extern const struct v1_controller v1_pids;
extern const struct v1_controller v1_rdma;

/*
 * A write v1 takes and v2 cannot carry out (a counter reset): accepted,
 * changing nothing, so the next read returns what it did.
 */
int v1_write_accepted(const struct v1_file_ctx *fc, char *buf, size_t len);

/* Builds @hier->files: core rows and those of its controllers, sorted by name (v1_table.c). */
int v1_files_build(struct cgx_hier *hier);
/* Index of @name in @hier->files, or -ENOENT. */
int v1_file_find(const struct cgx_hier *hier, const char *name);
/* Whether the file exists in a root (@is_root) or a child group. */
bool v1_file_present(const struct v1_file *file, bool is_root);

extern const struct v1_file v1_core_files[];
extern const unsigned int v1_nr_core_files;

#endif
