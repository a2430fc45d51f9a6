/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deprecation log (docs/deprecation-log.md): every use of cgroup v1 that
 * has no one-to-one place in the unified tree becomes one JSON line, a
 * syslog warning rate-limited per (program, kind), and a count.
 *
 * Recording never fails the operation it describes: a record that cannot be
 * written is counted as lost, and the operation has already happened.
 */
#ifndef CGX_DEPRECATION_H
#define CGX_DEPRECATION_H

#include "tree.h"

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#define CGX_DEFAULT_DEPRECATION_LOG "/var/log/cgx/deprecations.jsonl"

enum deprecation_kind {
	DEPRECATION_MULTI_HIERARCHY_PROCESS,
	DEPRECATION_DIVERGENT_TREE,
	DEPRECATION_NAMED_HIERARCHY,
	DEPRECATION_RUNTIME_HIERARCHY,
	DEPRECATION_NO_V2_EQUIVALENT,
	DEPRECATION_APPROXIMATE,
	DEPRECATION_DELEGATION_REFUSED,
	DEPRECATION_NR_KINDS,
};

/* Syslog lets each (program, kind) say this much per window, then counts what it holds back. */
#define DEPRECATION_SYSLOG_BURST  5
#define DEPRECATION_SYSLOG_WINDOW 60 /* seconds */
#define DEPRECATION_RATE_SLOTS	  64

struct deprecation_rate {
	char program[256]; /* "" for a free slot */
	enum deprecation_kind kind;
	time_t window_start;
	unsigned int said;
	unsigned long long held_back;
};

#define DEPRECATION_SEEN_MAX 4096

/* Divergent trees already reported: each (hierarchy, path, other hierarchy) once. */
struct deprecation_seen {
	char **keys;
	size_t nr, cap;
};

struct deprecation_log {
	char path[PATH_MAX]; /* "" when no file is kept */
	int fd;		     /* -1 until opened, or after a failed open */
	unsigned long long count[DEPRECATION_NR_KINDS];
	unsigned long long lost;
	unsigned long long syslog_suppressed;
	struct deprecation_rate rates[DEPRECATION_RATE_SLOTS];
	struct deprecation_seen divergent_seen;
};

const char *deprecation_kind_name(enum deprecation_kind kind);

int deprecation_log_init(struct deprecation_log *log, const char *path);
void deprecation_log_release(struct deprecation_log *log);
/* Closes and opens the file again, for logrotate's SIGHUP. */
int deprecation_log_reopen(struct deprecation_log *log);

#endif
