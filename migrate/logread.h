/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deprecation log reader (docs/deprecation-log.md, schema versions 1
 * and 2): JSON Lines in, a summary of who used v1 in which way, and how
 * often, out. A line that is not a JSON object or lacks v, time or kind is
 * skipped and counted; a version it does not know stops the read. A line of
 * version 2 may stand for many records ("folded", the rate limit's count),
 * or say that the file reached its size cap ("log-capped").
 */
#ifndef CGX_MIGRATE_LOGREAD_H
#define CGX_MIGRATE_LOGREAD_H

#include "strmap.h"

#include <stdio.h>

struct json_tokener;

/* The versions read: 1 (cgxfs before the rate limit) up to 2. */
#define LOG_SCHEMA_OLDEST  1
#define LOG_SCHEMA_VERSION 2

enum log_kind {
	LOG_MULTI_HIERARCHY,
	LOG_DIVERGENT_TREE,
	LOG_NAMED_HIERARCHY,
	LOG_RUNTIME_HIERARCHY,
	LOG_NO_V2,
	LOG_APPROXIMATE,
	LOG_DELEGATION_REFUSED,
	LOG_OTHER, /* a kind this reader does not know: counted, not refused */
	LOG_NR_KINDS,
};

extern const char *const log_kind_names[LOG_NR_KINDS];

#define LOG_USE_EXAMPLES    8
#define LOG_USE_HIERARCHIES 16

/* The records of one program of one kind, for one unit. */
struct log_use {
	char *program; /* the script it ran, else its executable, else its comm */
	char *unit;    /* the systemd unit the records concern, "" when they name none */
	char *comm;
	enum log_kind kind;
	unsigned long count; /* records, folded ones included */
	char *first_time, *last_time;
	/* Distinct examples: a tuple, or "hierarchy:group file=value". */
	char *examples[LOG_USE_EXAMPLES];
	unsigned int nr_examples;
	char *hierarchies[LOG_USE_HIERARCHIES];
	unsigned int nr_hierarchies;
};

struct log_summary {
	char *path;
	/* Every line is one of: a record (or a summary of folded ones), corrupt, blank, capped. */
	unsigned long lines, records, corrupt, blank;
	unsigned long first_corrupt_line;
	unsigned long folded; /* records known only by the count of a summary line */
	unsigned long
		capped; /* lines saying the file reached its size cap: records after are gone */
	unsigned long by_kind[LOG_NR_KINDS]; /* records, folded ones included */
	struct log_use **uses;		     /* most frequent first after log_summary_finish() */
	size_t nr_uses, cap_uses;
	struct strmap use_by_key;
	struct json_tokener *tokener; /* one for every line: a million lines are read */
};

void log_summary_init(struct log_summary *log, const char *path);
void log_summary_release(struct log_summary *log);

/*
 * One line (without its newline) of @name. 0 when counted (as a record or as
 * corrupt), -EPROTONOSUPPORT for an unknown version (reported on stderr),
 * -ENOMEM.
 */
int log_read_line(struct log_summary *log, const char *line, size_t len, unsigned long lineno);
/* Every line of @in; the first error stops it. */
int log_read_stream(struct log_summary *log, FILE *in);
/* @path, or -errno with a message naming it. */
int log_read_file(struct log_summary *log, const char *path);
/* Sorts the uses, most frequent first. */
void log_summary_finish(struct log_summary *log);

#endif
