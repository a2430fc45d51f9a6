/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rate limit of the deprecation log, one for its file and its syslog
 * warnings. The "uid" of a key or a budget is the account a record is
 * charged to (proc_account.h): the real uid in the initial user namespace,
 * else the owner of the caller's namespace, so that a user who maps 65536
 * uids of its own is still one user. Each (uid, program, unit, kind) has a window of
 * DEPRECATION_RATE_WINDOW_MS: the first DEPRECATION_LOG_BURST records of
 * the window are written in full, the first DEPRECATION_SYSLOG_BURST of
 * those also go to syslog, and the rest are folded into a count that one
 * summary line gives when the window closes. So a program in a loop costs
 * the log a few lines a minute, and the counts stay whole.
 *
 * The table is a fixed array of DEPRECATION_RATE_SLOTS: a key that finds
 * no slot of its own takes a free one, else the one used longest ago, whose
 * count is written out first. However many programs or uids a caller goes
 * through, the daemon's memory for this does not grow; a key evicted early
 * only starts a new window sooner. No system call in here: the caller gives
 * the time.
 */
#ifndef CGX_DEPRECATION_RATE_H
#define CGX_DEPRECATION_RATE_H

#include "unit_name.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define DEPRECATION_RATE_SLOTS	   256
#define DEPRECATION_RATE_WINDOW_MS 60000
#define DEPRECATION_LOG_BURST	   20
#define DEPRECATION_SYSLOG_BURST   5

/* Bytes of a program name or comm as the log keeps them, NUL included. */
#define DEPRECATION_PROGRAM_MAX 1024
#define DEPRECATION_COMM_MAX	64
#define DEPRECATION_TIME_MAX	32
#define DEPRECATION_UNIT_MAX	UNIT_NAME_SIZE

struct deprecation_rate_key {
	uid_t uid;
	unsigned int kind;
	uint64_t program_hash; /* of the whole name and unit, before they are cut for the log */
};

struct deprecation_rate {
	bool used;
	struct deprecation_rate_key key;
	uid_t first_uid; /* the real uid of the window's first record, for its summary line */
	long long window_start_ms, last_use_ms;
	unsigned int written; /* records written in full in this window */
	unsigned int said;    /* of those, warnings given to syslog */
	unsigned long long folded, held_back;
	/* For the summary line: when the folded records were made, and by whom. */
	char first_folded[DEPRECATION_TIME_MAX], last_folded[DEPRECATION_TIME_MAX];
	char program[DEPRECATION_PROGRAM_MAX];
	char comm[DEPRECATION_COMM_MAX];
	char unit[DEPRECATION_UNIT_MAX]; /* "" when the records name none */
};

/*
 * What one uid may add to the file in a window, every program and kind
 * together: the per-key limit alone lets a user that makes a new program
 * name for each process (the script path comes from its argv) write
 * DEPRECATION_LOG_BURST lines for each. Past the budget, the uid's records
 * and summaries are folded into one count per kind, written when the uid's
 * window closes with the program "*". A uid's lines in a window are thus at
 * most DEPRECATION_UID_BYTES plus one short line per kind.
 */
#define DEPRECATION_UID_BYTES  (256U << 10)
#define DEPRECATION_UID_SLOTS  64
#define DEPRECATION_RATE_KINDS 8

struct deprecation_uid_budget {
	bool used;
	uid_t uid;
	long long window_start_ms, last_use_ms;
	unsigned long long bytes; /* written in this window */
	unsigned long long overflow[DEPRECATION_RATE_KINDS];
	uid_t first_uid; /* the real uid of the first record folded, for the summary lines */
	char first_overflow[DEPRECATION_TIME_MAX], last_overflow[DEPRECATION_TIME_MAX];
};

struct deprecation_rate_table {
	struct deprecation_rate slot[DEPRECATION_RATE_SLOTS];
	struct deprecation_uid_budget uid[DEPRECATION_UID_SLOTS];
};

/* What a record may do. */
enum {
	DEPRECATION_RATE_WRITE = 1,  /* a line of its own in the file */
	DEPRECATION_RATE_SYSLOG = 2, /* a syslog warning */
};

/*
 * The slot for @key: its own, else a free one, else the one used longest
 * ago. When deprecation_rate_due() says so, the caller writes out what the
 * slot holds, then calls deprecation_rate_start().
 */
struct deprecation_rate *deprecation_rate_slot(struct deprecation_rate_table *table,
					       const struct deprecation_rate_key *key);
/* True when @slot is another key's, free, or its window is over. */
bool deprecation_rate_due(const struct deprecation_rate *slot,
			  const struct deprecation_rate_key *key, long long now_ms);
/* True when @slot is in use and its window is over. */
bool deprecation_rate_expired(const struct deprecation_rate *slot, long long now_ms);
/* A new window for @key in @slot, named @program and @comm in summary lines. */
void deprecation_rate_start(struct deprecation_rate *slot, const struct deprecation_rate_key *key,
			    long long now_ms, const char *program, const char *comm);
/* One record of @slot's key at @now_ms: DEPRECATION_RATE_* bits; 0 when it is folded. */
unsigned int deprecation_rate_take(struct deprecation_rate *slot, long long now_ms,
				   const char *time);

/*
 * The budget of @uid: its own, else a free one, else the one used longest
 * ago. When deprecation_uid_due() says so, the caller writes out what the
 * budget folded, then calls deprecation_uid_start().
 */
struct deprecation_uid_budget *deprecation_uid_slot(struct deprecation_rate_table *table,
						    uid_t uid);
bool deprecation_uid_due(const struct deprecation_uid_budget *budget, uid_t uid, long long now_ms);
bool deprecation_uid_expired(const struct deprecation_uid_budget *budget, long long now_ms);
void deprecation_uid_start(struct deprecation_uid_budget *budget, uid_t uid, long long now_ms);
/* Charges a line of @len bytes: false, and nothing charged, when it would overrun the budget. */
bool deprecation_uid_charge(struct deprecation_uid_budget *budget, size_t len, long long now_ms);
/* @records of @kind, the first by real uid @uid, folded into the budget's counts at @time. */
void deprecation_uid_fold(struct deprecation_uid_budget *budget, unsigned int kind,
			  unsigned long long records, uid_t uid, const char *time);

#endif
