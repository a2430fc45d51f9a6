/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state layer: the trusted.cgx.* xattrs (state.c) and the records of user xattrs (xattr.c). */
#ifndef CGX_STATE_H
#define CGX_STATE_H

#include "deprecation.h"

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
/* Where a process was before cgxfs first moved it (docs/design.md §3, rule 6). */
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
/* Whether the load reads the value of record @name (a name record's), or its name only. */
bool xattr_record_wants_value(const char *name);
/* A name record @name (value @value) found on @dir at start-up; other records are skipped. */
int xattr_load_record(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, const char *name,
		      const char *value);
/* Removes the value record @name once the names are loaded, when no name claims it. */
void xattr_prune_orphans(struct cgx_ctx *ctx, struct v2_dir *dir, int fd, const char *name);
bool xattr_record_of_hier(const char *name, const char *proc_name);
/* Copies @group's attributes from its directory onto @to_fd; one not found is forgotten. */
int xattr_copy_group(struct cgx_ctx *ctx, int to_fd, unsigned int hier, struct v1_group *group);

#endif
