/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup2's statistics files as numbers under keys, summed over the v2
 * directories that hold a v1 group's members, and the record in which a
 * group keeps what its leaves counted before they were removed. Pure
 * functions: no system calls (groupstat.c reads and writes the files).
 *
 * A key is "FILE KEY": "memory.stat pgfault" for a flat-keyed file,
 * "io.stat 8:0/rbytes" for one with a line per device, "memory.peak -" for
 * a file that is one number. Readings of directories side by side add up;
 * a high-water mark (stat_file_is_peak()) carried for leaves gone counts by
 * the larger of it and the sum of those alive.
 *
 * The carried record (trusted.cgx.carried/H on the group's directory) has
 * one line per number, "SCOPE FILE KEY VALUE", SCOPE a letter of enum
 * stat_scope. The same letter in upper case is a past: what the group's
 * directories had counted before the group came to them (another
 * hierarchy's group used them), taken away from what it reads. A fold of
 * one leaf, written before the leaf is removed, also names the leaf
 * ("@last INO PATH") and keeps the old value of each line it changed
 * ("@ SCOPE FILE KEY OLD"): while the leaf still exists (the daemon was
 * killed before its rmdir) the fold is void and the old values hold.
 */
#ifndef CGX_STAT_SUM_H
#define CGX_STAT_SUM_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>

struct stat_value {
	char *key;
	unsigned long long value;
};

struct stat_sum {
	struct stat_value *v;
	size_t nr, cap;
};

#define STAT_SUM_INIT                                                                              \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

void stat_sum_release(struct stat_sum *sum);
static inline void cleanup_stat_sump(struct stat_sum *sum)
{
	stat_sum_release(sum);
}
#define _cleanup_stat_sum_ __attribute__((cleanup(cleanup_stat_sump)))

/* memory.peak, pids.peak: the larger of two readings stands for both. */
bool stat_file_is_peak(const char *file);
/* Adds @value under @key, or takes the larger with @peak. */
int stat_sum_add(struct stat_sum *sum, const char *key, unsigned long long value, bool peak);
/*
 * Adds every number of v2 file @file as it reads (@text), under "@scope FILE
 * KEY" (a record's keys) or, @scope 0, "FILE KEY"; only those of @keys when
 * it is non-NULL (a NULL-terminated list of keys of a flat-keyed file).
 * Words that are no number ("max") are left out.
 */
int stat_sum_add_text(struct stat_sum *sum, char scope, const char *file, const char *text,
		      const char *const *keys);
/*
 * The entries "@scope @file KEY" of a record's @from, added to @to as "@file
 * KEY" (the larger of the two for a high-water mark).
 */
int stat_sum_add_scope(struct stat_sum *to, const struct stat_sum *from, char scope,
		       const char *file);
/*
 * The entries "@scope @file KEY" of a record's @from, taken away from "@file
 * KEY" of @to, never below 0.
 */
void stat_sum_sub_scope(struct stat_sum *to, const struct stat_sum *from, char scope,
			const char *file);
/* Takes @part away from @sum key by key, never below 0: what a part counted, out of its whole. */
void stat_sum_sub(struct stat_sum *sum, const struct stat_sum *part);
/* The value of "@file @key" (@key "-" or NULL for a file that is one number), 0 when absent. */
unsigned long long stat_sum_get(const struct stat_sum *sum, const char *file, const char *key);

struct carry_record {
	struct stat_sum carried;
	/* The last fold, while not known to be final: its leaf and the values it replaced. */
	unsigned long long last_ino;
	char *last_path;
	struct stat_sum last_old;
};

void carry_release(struct carry_record *rec);
static inline void cleanup_carryp(struct carry_record *rec)
{
	carry_release(rec);
}
#define _cleanup_carry_ __attribute__((cleanup(cleanup_carryp)))

/* -EINVAL for a line that is none of the above (the record is then as far as it was read). */
int carry_parse(const char *text, struct carry_record *rec);
int carry_format(const struct carry_record *rec, struct strbuf *out);
/*
 * Folds @add (keys "SCOPE FILE KEY") in, peaks by the larger value, as the
 * fold of the leaf @ino at @path; the last fold must have been settled.
 */
int carry_fold(struct carry_record *rec, const struct stat_sum *add, unsigned long long ino,
	       const char *path);
/* The last fold is void: its lines get their old values back. */
void carry_undo_last(struct carry_record *rec);
/* The last fold is final: only its marker goes. */
void carry_keep_last(struct carry_record *rec);

#endif
