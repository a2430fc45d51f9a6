/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deprecation log (docs/deprecation-log.md): every use of cgroup v1 that
 * has no one-to-one place in the unified tree is counted, and becomes one
 * JSON line and a syslog warning within the rate limit of its (uid,
 * program, kind) (deprecation_rate.h); past it, records are folded into a
 * count that a later line gives.
 *
 * Recording never fails or waits for the operation it describes: a record
 * that cannot be written is counted as lost, one past the file's size cap
 * as dropped, and the operation has already happened. Nothing here grows
 * with what callers do: the rate table and the set of shapes already
 * reported are fixed arrays, a line's fields are cut to fixed bounds.
 */
#ifndef CGX_DEPRECATION_LOG_H
#define CGX_DEPRECATION_LOG_H

#include "deprecation_journal.h"
#include "deprecation_rate.h"
#include "kinds.h"
#include "tree.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define CGX_DEFAULT_DEPRECATION_LOG "/var/log/cgx/deprecations.jsonl"
/* The size the log file may reach (cgxfs --log-max); past it, records are dropped and counted. */
#define CGX_DEFAULT_DEPRECATION_LOG_MAX (64ULL << 20)
#define CGX_DEPRECATION_LOG_NO_MAX	ULLONG_MAX

/* The schema version of the lines written: 2 added folding and the cuts. */
#define DEPRECATION_LOG_SCHEMA 2

/*
 * Syslog as a whole takes this many warnings per rate window, every program
 * together: a caller going through many program names would otherwise get
 * DEPRECATION_SYSLOG_BURST for each, and syslog has no size cap.
 */
#define DEPRECATION_SYSLOG_TOTAL 100

/* Divergent trees already reported, each (hierarchy, path, other hierarchy) once, by hash. */
#define DEPRECATION_SEEN_SLOTS 8192
struct deprecation_seen {
	uint64_t hash[DEPRECATION_SEEN_SLOTS]; /* open addressing; 0 is a free slot */
	unsigned int nr;		       /* at most half the slots, then all forgotten */
};

/*
 * Records by program, for --metrics: the first DEPRECATION_PROGRAMS programs
 * a run sees have a count of their own, the rest count together. First
 * seen, not the busiest: a program that became a label stays one, so each
 * exported count only grows, as a Prometheus counter must.
 */
#define DEPRECATION_PROGRAMS	      20
#define DEPRECATION_PROGRAM_LABEL_MAX 128
struct deprecation_programs {
	char name[DEPRECATION_PROGRAMS][DEPRECATION_PROGRAM_LABEL_MAX];
	unsigned long long count[DEPRECATION_PROGRAMS][DEPRECATION_NR_KINDS];
	unsigned int nr;
	unsigned long long other[DEPRECATION_NR_KINDS];
};

struct deprecation_log {
	char path[PATH_MAX]; /* "" when no file is kept */
	bool journal;	     /* lines go to journald too (deprecation_journal.h) */
	int fd;		     /* -1 until opened, or after a failed open */
	unsigned long long max_size;
	bool capped; /* the line saying the cap was reached is in the file */
	/* Every record, written or not: what really happened. */
	unsigned long long count[DEPRECATION_NR_KINDS];
	/* Records not in the file as a line of their own, each counted in one of these: */
	unsigned long long lost;    /* could not be written (full disk, I/O error, no memory) */
	unsigned long long dropped; /* the file had reached max_size */
	unsigned long long folded;  /* folded by the rate limit into a summary's count */
	unsigned long long pending; /* of those, in a summary not yet written */
	unsigned long long syslog_suppressed;
	long long syslog_window_start_ms;
	unsigned int syslog_said;
	unsigned long long syslog_held_back; /* held back by DEPRECATION_SYSLOG_TOTAL */
	struct deprecation_rate_table rates;
	struct deprecation_seen said_once; /* the keys of records made once a run */
	struct deprecation_programs programs;
	struct journal_queue journal_queue; /* with journal: the lines on their way */
};

/*
 * @max_size: bytes the file may reach, CGX_DEPRECATION_LOG_NO_MAX for no cap.
 * @journal: the lines go to journald as well, and its entries stand for
 * syslog's warnings.
 */
int deprecation_log_init(struct deprecation_log *log, const char *path, unsigned long long max_size,
			 bool journal);
/* Writes what the rate limit still holds, then closes the file. */
void deprecation_log_release(struct deprecation_log *log);
/* Closes and opens the file again, for logrotate's SIGHUP. */
int deprecation_log_reopen(struct deprecation_log *log);

#endif
