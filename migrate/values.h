/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One group's v1 values and what they become: which files hold a setting
 * (the table's default_value and modes decide), whether the value differs
 * from what the group would have had untouched, and the v2 value from the
 * row's own converter.
 */
#ifndef CGX_MIGRATE_VALUES_H
#define CGX_MIGRATE_VALUES_H

#include "model.h"

/* The values read in one group, as the table's converters look them up. */
struct group_values {
	struct v1_values lookup; /* first: converters get a pointer to it */
	const struct cgx_hier *hier;
	char **text; /* per index of hier->files, as read; NULL when not read */
};

/* How a file's value is judged to be a setting in a root or a child group. */
enum setting_check {
	CHECK_NONE,    /* not a setting: a statistic, a counter, an id, unreadable */
	CHECK_DEFAULT, /* differs from the row's default_value */
	CHECK_PARENT,  /* differs from the parent group's: an inherited value */
	CHECK_LIMITED, /* not "max" in v2: a limit a new group starts without (hugetlb, misc.max) */
};

enum setting_check setting_check_of(const struct v1_file *row, bool is_root);

/*
 * Reads every file of @hier that can hold a setting, through @dirfd (one
 * group's directory). A file the group lacks is left out, not an error.
 */
int group_values_read(struct group_values *values, const struct cgx_hier *hier, int dirfd,
		      bool is_root);
/* Test hook: values given as text, "file" -> "value" pairs, NULL-terminated. */
int group_values_set(struct group_values *values, const struct cgx_hier *hier,
		     const char *const *pairs);
void group_values_release(struct group_values *values);

/* Adds to @group a setting for each value that differs from its default or its parent's. */
int group_settings(const struct group_values *values, const struct group_values *parent,
		   bool is_root, struct mig_group *group);

/* Whether two v1 texts mean the same (white space aside; a map of zeros is empty). */
bool v1_text_equal(const char *value, const char *expected);

#endif
