/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deprecation log's lines as journal entries, for hosts whose logs go
 * to a fleet through journald (docs/deprecation-log.md, JOURNAL). A line
 * becomes one entry: MESSAGE_ID of its kind (kinds.h; dist/cgx.catalog
 * explains each), MESSAGE the warning syslog would give, and each of the
 * line's fields as CGX_<NAME> ("v2_path" becomes CGX_V2_PATH; an array or
 * object is its JSON text). The file and the journal carry the same lines:
 * the rate limit and the per-account budget decide for both.
 */
#ifndef CGX_DEPRECATION_JOURNAL_H
#define CGX_DEPRECATION_JOURNAL_H

#include <json-c/json.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* journald's socket, which sd_journal_send(3) writes to. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/* Whether journald listens here: its socket is there. */
bool deprecation_journal_present(void);

/*
 * Sends @line (a line of the log, not consumed) as one entry, with
 * SYSLOG_IDENTIFIER @identifier. Returns 0, -EINVAL for a line without a
 * known kind, or what sd_journal_sendv(3) returned.
 */
int deprecation_journal_send(struct json_object *line, const char *identifier);

/*
 * Lines wait here for a thread of their own that sends them: a journald that
 * is slow or stopped (its socket's queue full) blocks that thread, never the
 * requests, which record under the model lock. Bounded: past
 * JOURNAL_QUEUE_MAX lines waiting, a line is counted lost.
 */
#define JOURNAL_QUEUE_MAX 256
struct journal_queue {
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* a line came, or the end */
	pthread_cond_t drained; /* the queue emptied */
	char *line[JOURNAL_QUEUE_MAX];
	unsigned int head, nr;
	bool sending; /* the thread holds a line it took */
	bool stop;
	/* The process whose thread sends, 0 before the first line: a fork keeps no thread. */
	pid_t sender_of;
	pthread_t thread;
	unsigned long long lost; /* the queue was full, or journald refused */
	char identifier[64];
};

void journal_queue_init(struct journal_queue *queue, const char *identifier);
/* Queues a copy of @text (@len bytes), one line of the log, for the journal. */
void journal_queue_push(struct journal_queue *queue, const char *text, size_t len);
/* The lines not sent so far: the queue was full, or journald refused them. */
unsigned long long journal_queue_lost(const struct journal_queue *queue);
/* Sends what waits (for a second at most: a stuck journald keeps nobody), then ends. */
void journal_queue_release(struct journal_queue *queue);

#endif
