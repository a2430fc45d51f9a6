/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions shared between libcgx's own files; not for the front ends. */
#ifndef CGX_INTERNAL_H
#define CGX_INTERNAL_H

#include "cgx.h"
#include "fold.h"
#include "parse.h"
#include "proc.h"
#include "stat_sum.h"
#include "v2io.h"

/* Opens the real v2 directory of @dir. */
int cgx_dir_open(struct cgx_ctx *ctx, const struct v2_dir *dir);

/* state.c: the trusted.cgx.* xattrs that make the v2 tree the only state. */
int state_load(struct cgx_ctx *ctx);
/*
 * The hierarchies kept on the base since one was made or removed at run time
 * (hier_set_parse_stored() reads them); -ENODATA: none.
 */
int state_load_hierarchies(int base_fd, struct strbuf *text);
int state_save_hierarchies(struct cgx_ctx *ctx);
struct v1_group *state_new_group(const struct cgx_hier *hier, uid_t uid, gid_t gid, mode_t mode);
int state_save_group(struct cgx_ctx *ctx, int fd, unsigned int hier, const struct v1_group *group);
/* An id no group of this base ever had, reserved on the base before it is handed out. */
int state_new_id(struct cgx_ctx *ctx, uint64_t *id);
/* The group record with every value and file attribute, as a rename carries them over. */
int state_save_group_all(struct cgx_ctx *ctx, int fd, unsigned int hier, struct v1_group *group);
int state_drop_group(struct cgx_ctx *ctx, int fd, unsigned int hier);
/*
 * The two halves of state_drop_group(): the marker that makes the group
 * exist, then its values and attributes. What a group set in v2 is undone
 * in between (group_forget()); a load that finds records without a marker
 * finishes the removal.
 */
int state_drop_group_marker(struct cgx_ctx *ctx, int fd, unsigned int hier);
int state_drop_group_records(struct cgx_ctx *ctx, int fd, unsigned int hier);
int state_save_file_attr(struct cgx_ctx *ctx, int fd, unsigned int hier,
			 const struct v1_file_attr *attr);
/* The carried record of @hier's group on @fd (stat_sum.h): -ENODATA when there is none. */
int state_carried_get(struct cgx_ctx *ctx, int fd, unsigned int hier, struct strbuf *text);
/* ... written, or removed when @text is empty. */
int state_carried_set(struct cgx_ctx *ctx, int fd, unsigned int hier, const char *text);
int state_save_tuple(struct cgx_ctx *ctx, int fd, const struct tuple *tuple);
/* The v1 name of @dir when its v2 name is a hash (none to keep otherwise). */
int state_save_dir_name(int fd, const struct v2_dir *dir);
int state_drop_tuple(int fd);
/* Where a process was before cgxfs first moved it (DESIGN 3, rule 6). */
int state_origin_save(struct cgx_ctx *ctx, pid_t pid, const char *cgroup2_path);
void state_origin_forget(struct cgx_ctx *ctx, pid_t pid);
/*
 * The event_control registrations, one record each under its serial
 * (memevent.c writes and reads the record), so that a restart takes them up.
 */
int state_listener_save(struct cgx_ctx *ctx, uint64_t serial, const char *record);
void state_listener_forget(struct cgx_ctx *ctx, uint64_t serial);
/* Calls @fn for every record kept. */
int state_listeners_each(struct cgx_ctx *ctx,
			 void (*fn)(struct cgx_ctx *ctx, uint64_t serial, const char *record));
/* The origin of @pid: -ENODATA when none is kept. */
int state_origin_get(struct cgx_ctx *ctx, pid_t pid, char *cgroup2_path, size_t size);

/* The stored values of group @dir of hierarchy @hier, as a row's converter asks for them. */
struct stored_values {
	struct v1_values values;
	struct cgx_ctx *ctx;
	struct v2_dir *dir;
	unsigned int hier;
};
const char *stored_values_get(const struct v1_values *values, const char *file);
#define STORED_VALUES(ctx, dir, hier)                                                              \
	(struct stored_values)                                                                     \
	{                                                                                          \
		{stored_values_get}, ctx, dir, hier                                                \
	}

/* xattr.c: the records of extended attributes, as state.c loads, copies and drops them. */
bool xattr_is_record(const char *name);
/* A name record @name (value @value) found on @dir at start-up; other records are skipped. */
int xattr_load_record(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, const char *name,
		      const char *value);
/* Removes the value record @name once the names are loaded, when no name claims it. */
void xattr_prune_orphans(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, const char *name);
bool xattr_record_of_hier(const char *name, const char *proc_name);
/* Copies @group's attributes from its directory onto @to_fd; one not found is forgotten. */
int xattr_copy_group(struct cgx_ctx *ctx, int to_fd, unsigned int hier, struct v1_group *group);

/* relocate.c: leaves and the processes in them. */
/* The leaf of @tuple as the fold places it now, made when missing. */
int leaf_get(struct cgx_ctx *ctx, const struct tuple *tuple, struct v2_dir **leaf);
/*
 * Retires @leaf when it holds no process (and removes it unless it is also a
 * group directory): 1 when retired, 0 when it still holds processes or,
 * with @keep_charged, pages charged to a memory group it lies outside of
 * (group_stats_leaf_charged()).
 */
int leaf_prune(struct cgx_ctx *ctx, struct v2_dir *leaf, bool keep_charged);
/*
 * What hierarchy @hier's controllers set on every leaf (a root's device
 * rules) goes back to cgroup2's defaults: the hierarchy is going away.
 */
int leaves_reset_hierarchy(struct cgx_ctx *ctx, unsigned int hier);
/* Moves every leaf whose place the fold now puts elsewhere (after mkdir, rmdir, rename). */
int relocate_leaves(struct cgx_ctx *ctx);
/* Removes the (empty) v2 directory @dir from the kernel and the mirror. */
int dir_remove(struct cgx_ctx *ctx, struct v2_dir *dir);
/* Enables the base's controllers in @dir when it is inner, disables them when not. */
int dir_sync_controllers(struct cgx_ctx *ctx, struct v2_dir *dir);
bool dir_is_any_group(const struct v2_dir *dir);
/* Writes every stored v1 value of @dir's group in @hier to its v2 files again. */
void group_replay_values(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);
/*
 * Removes the group of @hier at @dir from the v2 tree: its marker, then the
 * knobs it set on @dir (knob_offline()), then its records. The mirror is
 * left to the caller.
 */
int group_forget(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);

/* knob.c: v2 knobs behind v1 files. */
bool cgx_has_controller(const struct cgx_ctx *ctx, const char *controller);
/* 0 when the base has @controller, else -EOPNOTSUPP and a log line naming @fc's file. */
int knob_require(const struct v1_file_ctx *fc, const char *controller);
/* Reads v2 file @v2_file of @dir; -EOPNOTSUPP when the base lacks @controller. */
int knob_read(struct cgx_ctx *ctx, struct v2_dir *dir, const char *controller, const char *v2_file,
	      struct strbuf *out);
/*
 * Writes @v2_value to @v2_file of the group's directory, then stores
 * @v1_text as what the v1 file reads; -EOPNOTSUPP (logged) without @controller.
 */
int knob_set(const struct v1_file_ctx *fc, const char *controller, const char *v2_file,
	     const char *v2_value, const char *v1_text);
/*
 * css_offline(): the group of @hier leaves @dir (rmdir, renamed away, its
 * hierarchy removed) while the directory stays for other hierarchies or
 * leaves: every v2 knob its rows set there goes back to cgroup2's default,
 * so that no limit outlives its group. Best effort, logged.
 */
void knob_offline(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier);
/* The threads of every leaf whose group in @hier is @group or below it. */
int tasks_count_below(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		      unsigned long long *count);

/* The value of @key in a flat-keyed v2 file ("nr_periods 3"), 0 when absent. */
unsigned long long v2_stat_key(const char *text, const char *key);
/* The value of @key in a "key=value key=value" line (io.stat, io.max), 0 when absent. */
unsigned long long v2_stat_key_eq(const char *fields, const char *key);

/* deprecation.c: the uses of v1 that the deprecation log records. */
struct deprecation_event {
	enum deprecation_kind kind;
	const struct cgx_caller *caller; /* who made the request */
	int hier;			 /* the hierarchy concerned, -1 for none */
	const struct v2_dir *group;	 /* its group */
	const char *file, *value;	 /* the v1 file written and what */
	const struct v2_dir *v2_dir;	 /* the v2 directory affected */
	const struct tuple *tuple;	 /* a process's groups, for multi-hierarchy-process */
	const char *detail;		 /* why, and what to use instead */
};
void deprecation_record(struct cgx_ctx *ctx, const struct deprecation_event *event);
/* After a process joined @group of @hier and now has @tuple. */
void deprecation_check_attach(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			      unsigned int hier, struct v2_dir *group, const struct tuple *tuple);
void deprecation_check_mkdir(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			     unsigned int hier, struct v2_dir *group);
/* After a write of @value to the file of @fc succeeded. */
void deprecation_check_write(const struct v1_file_ctx *fc, const char *value);

/* release.c: the group of @h at @dir now holds a task or a child. */
void release_arm(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h);

/* aggregate.c: true for memory.max, pids.max, cpu.max, the limits a split may carry. */
bool aggregate_is_limit_file(const char *v2_file);
/*
 * The deepest group of @hier on @tuple's path whose @controller limit is
 * split over @leaf (a leaf outside its directory), NULL when none: the one
 * whose limit the leaf's part stands for.
 */
struct v2_dir *aggregate_limit_owner(const struct v2_dir *leaf, const struct tuple *tuple,
				     unsigned int hier, const char *controller);
/* A leaf that some group of its tuple is not an ancestor of: limits may need splitting there. */
bool aggregate_leaf_divergent(const struct cgx_ctx *ctx, const struct v2_dir *leaf);
/*
 * Splits @limit into @nr @parts from each one's @demand: half of it evenly
 * (a reserve of at least @floor each), the other half by headroom on usage
 * above the reserve (when it all fits; in proportion when not) or, @by_rate,
 * in proportion to demand. Parts are multiples of @unit and add up to at most
 * @limit unless the floors alone pass it.
 */
void aggregate_split(bool by_rate, unsigned long long unit, unsigned long long floor,
		     const unsigned long long *demand, size_t nr, unsigned long long limit,
		     unsigned long long *parts);

/* groupstat.c: a v1 group's statistics over every leaf of its members. */
enum stat_scope {
	/* The group and its descendants (usage, cpuacct, io): its directory, the leaves outside. */
	STAT_HIERARCHICAL = 'h',
	/* v1's count of the group's own tasks (oom_kill, pids.events): the leaves naming it. */
	STAT_OWN_TASKS = 't',
	/* The failures of the group's own limit (failcnt): where the limit is set or split. */
	STAT_OWN_LIMIT = 'l',
};
/*
 * v2 file @file (of v2 controller @controller, NULL for a core file) summed
 * over what counts for group @group of @hier in @scope, with what removed
 * leaves carried: "FILE KEY" entries in @sum (stat_sum.h); what cannot be
 * read counts nothing.
 */
int group_stat_read(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		    const char *controller, const char *file, enum stat_scope scope,
		    struct stat_sum *sum);
/* One number of it: @key of a keyed file, the file itself when @key is NULL. */
unsigned long long group_stat(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
			      const char *controller, const char *file, const char *key,
			      enum stat_scope scope);
/*
 * @leaf, a leaf of @tuple, is about to be removed: what it counted for its
 * groups is folded into their records first. @undo: the removal failed, and
 * the fold is taken back.
 */
int group_stats_carry(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct tuple *tuple,
		      bool undo);
/*
 * Whether @leaf lies outside its memory group's directory and still has
 * pages charged: removed, they would count for another directory than the
 * group's (v1 keeps them charged to the group).
 */
bool group_stats_leaf_charged(struct cgx_ctx *ctx, const struct v2_dir *leaf);

/* tasks.c */
/* The tuple of process @pid as the v2 tree holds it: from the leaf it sits in. */
int tasks_tuple_of(struct cgx_ctx *ctx, pid_t pid, struct tuple *tuple, char *v2_path, size_t size);

/* memevent.c: the listeners cgroup.event_control takes (controllers/memory.c parses). */
enum memevent_kind { MEMEVENT_USAGE, MEMEVENT_MEMSW, MEMEVENT_OOM, MEMEVENT_PRESSURE };
struct memevent_request {
	enum memevent_kind kind;
	unsigned long long threshold; /* bytes (usage, memsw) */
	const char *psi_trigger;      /* pressure: what memory.pressure is given */
	int writer_efd; /* the eventfd's number in the writer's table, for a restart */
};
/* The LEVEL[,MODE] of a memory.pressure_level listener; -EINVAL as vmpressure. */
int memevent_parse_pressure(const char *args, struct memevent_request *request);
/*
 * Takes the writer's eventfd @request->writer_efd (checked to be one) as a
 * listener of @fc's group, or folds it into the same one the writer's uid
 * holds; -ENOMEM past the limits (memevent.c).
 */
int memevent_register(const struct v1_file_ctx *fc, const struct memevent_request *request);
/* rmdir: every listener on group @group_id is dropped, signalled once by the next check. */
void memevent_group_removed(struct cgx_ctx *ctx, uint64_t group_id);
/*
 * At start: the registrations an earlier daemon recorded whose eventfd is
 * still held, within @per_uid_limit (0: CGX_LISTENERS_PER_UID_DEFAULT).
 */
void memevent_restore(struct cgx_ctx *ctx, unsigned int per_uid_limit);

#endif
