// SPDX-License-Identifier: GPL-2.0-or-later
#include "deprecation_journal.h"

#include "deprecation_text.h"
#include "kinds.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>
/* The entry is the record's, not a place in this file: no CODE_FILE, CODE_LINE, CODE_FUNC. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>
#include <unistd.h>

/* MESSAGE_ID, MESSAGE, PRIORITY, SYSLOG_IDENTIFIER: the fields every entry has besides the line's.
 */
#define JOURNAL_OWN_FIELDS 4

bool deprecation_journal_present(void)
{
	return access(JOURNAL_SOCKET, W_OK) == 0;
}

static const char *line_text(struct json_object *line, const char *key)
{
	struct json_object *value;

	return json_object_object_get_ex(line, key, &value) ? json_object_get_string(value) : "";
}

static long long line_number(struct json_object *line, const char *key)
{
	struct json_object *value;

	return json_object_object_get_ex(line, key, &value) ? json_object_get_int64(value) : 0;
}

/* What journalctl shows of the line: the warning of a record, or what a summary counts. */
static void line_message(struct json_object *line, bool summary, char *buf, size_t size)
{
	char program[256];

	if (!summary) {
		log_text_warning(buf, size, line_text(line, "kind"), line_text(line, "program"),
				 line_text(line, "unit"), (int)line_number(line, "pid"),
				 (unsigned int)line_number(line, "uid"), line_text(line, "detail"));
		return;
	}
	log_text_printable(program, sizeof(program), line_text(line, "program"));
	snprintf(buf, size,
		 "deprecated: %lld more %s records by %s (uid %lld) were folded, %s to %s",
		 line_number(line, "folded"), line_text(line, "kind"), program,
		 line_number(line, "uid"), line_text(line, "first_time"),
		 line_text(line, "last_time"));
}

/* Adds the field printed from @format to @iov[*@nr]. */
static int __attribute__((format(printf, 3, 4)))
add_field(struct iovec *iov, size_t *nr, const char *format, ...)
{
	va_list args;
	char *field;
	int len;

	va_start(args, format);
	len = vasprintf(&field, format, args);
	va_end(args);
	if (len < 0)
		return -ENOMEM;
	iov[*nr] = (struct iovec){.iov_base = field, .iov_len = (size_t)len};
	(*nr)++;
	return 0;
}

/* CGX_ and @key in capitals, '_' for what a field name may not hold (journal-fields(7)). */
static int add_line_field(struct iovec *iov, size_t *nr, const char *key, struct json_object *value)
{
	char name[64] = "CGX_";
	size_t at = strlen(name);
	const char *text;

	for (const char *k = key; *k && at < sizeof(name) - 1; k++)
		name[at++] = isalnum((unsigned char)*k) ? (char)toupper((unsigned char)*k) : '_';
	name[at] = '\0';
	/* A string as it is; numbers, arrays and objects (tuple, cmdline) as JSON text. */
	text = json_object_is_type(value, json_type_string)
		       ? json_object_get_string(value)
		       : json_object_to_json_string_ext(
				 value, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	return text ? add_field(iov, nr, "%s=%s", name, text) : -ENOMEM;
}

int deprecation_journal_send(struct json_object *line, const char *identifier)
{
	size_t max = (size_t)json_object_object_length(line) + JOURNAL_OWN_FIELDS, nr = 0;
	struct json_object *folded;
	const char *message_id;
	char message[1024];
	struct iovec *iov;
	bool summary;
	int kind, r;

	kind = deprecation_kind_find(line_text(line, "kind"));
	if (kind < 0)
		return -EINVAL;
	summary = json_object_object_get_ex(line, "folded", &folded);
	message_id = summary ? DEPRECATION_FOLDED_MESSAGE_ID : deprecation_kind_message_id(kind);
	iov = calloc(max, sizeof(*iov));
	if (!iov)
		return -ENOMEM;
	line_message(line, summary, message, sizeof(message));
	if ((r = add_field(iov, &nr, "MESSAGE_ID=%s", message_id)) < 0 ||
	    (r = add_field(iov, &nr, "MESSAGE=%s", message)) < 0 ||
	    (r = add_field(iov, &nr, "PRIORITY=%d", summary ? LOG_NOTICE : LOG_WARNING)) < 0 ||
	    (r = add_field(iov, &nr, "SYSLOG_IDENTIFIER=%s", identifier)) < 0)
		goto out;
	json_object_object_foreach(line, key, value)
	{
		/* The schema version is the file's; the journal stamps its own time. */
		if (!strcmp(key, "v") || !strcmp(key, "time"))
			continue;
		if ((r = add_line_field(iov, &nr, key, value)) < 0)
			goto out;
	}
	r = sd_journal_sendv(iov, (int)nr);
out:
	for (size_t i = 0; i < nr; i++)
		free(iov[i].iov_base);
	free(iov);
	return r;
}

void journal_queue_init(struct journal_queue *queue, const char *identifier)
{
	memset(queue, 0, sizeof(*queue));
	pthread_mutex_init(&queue->lock, NULL);
	pthread_cond_init(&queue->wake, NULL);
	pthread_cond_init(&queue->drained, NULL);
	snprintf(queue->identifier, sizeof(queue->identifier), "%s", identifier);
}

/* Parses and sends one line; -errno as the journal or json-c said. */
static int send_text(const char *text, const char *identifier)
{
	struct json_object *line = json_tokener_parse(text);
	int r;

	if (!line)
		return -EINVAL;
	r = deprecation_journal_send(line, identifier);
	json_object_put(line);
	return r;
}

static void *sender(void *arg)
{
	struct journal_queue *queue = arg;

	pthread_mutex_lock(&queue->lock);
	for (;;) {
		char *text;
		int r;

		while (!queue->nr && !queue->stop)
			pthread_cond_wait(&queue->wake, &queue->lock);
		if (!queue->nr)
			break;
		text = queue->line[queue->head];
		queue->line[queue->head] = NULL;
		queue->head = (queue->head + 1) % JOURNAL_QUEUE_MAX;
		queue->nr--;
		queue->sending = true;
		pthread_mutex_unlock(&queue->lock);
		r = send_text(text, queue->identifier);
		free(text);
		pthread_mutex_lock(&queue->lock);
		queue->sending = false;
		if (r < 0) {
			/* Said once, as the file's losses are. */
			if (!queue->lost)
				cgx_log_errno(r, "journal: deprecation records are lost from here");
			__atomic_fetch_add(&queue->lost, 1, __ATOMIC_RELAXED);
		}
		if (!queue->nr)
			pthread_cond_broadcast(&queue->drained);
	}
	pthread_mutex_unlock(&queue->lock);
	return NULL;
}

/* The thread of this process, started at its first line. Under the queue's lock. */
static bool sender_running(struct journal_queue *queue)
{
	pid_t self = getpid();
	sigset_t all, saved;
	int r;

	if (queue->sender_of == self)
		return true;
	/*
	 * Born with every signal blocked: a SIGTERM the process gets must go to
	 * a thread that acts on it (libfuse's loop), not to one that only sends.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &saved);
	r = pthread_create(&queue->thread, NULL, sender, queue);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r != 0) {
		cgx_log_errno(-r, "journal: cannot start the thread that sends the records");
		return false;
	}
	queue->sender_of = self;
	return true;
}

void journal_queue_push(struct journal_queue *queue, const char *text, size_t len)
{
	char *copy = strndup(text, len);

	pthread_mutex_lock(&queue->lock);
	if (!copy || queue->nr == JOURNAL_QUEUE_MAX || !sender_running(queue)) {
		if (!queue->lost)
			cgx_log(CGX_LOG_WARNING,
				"journal: deprecation records are lost from here (%s)",
				copy ? "journald does not keep up" : "no memory");
		__atomic_fetch_add(&queue->lost, 1, __ATOMIC_RELAXED);
		free(copy);
	} else {
		queue->line[(queue->head + queue->nr) % JOURNAL_QUEUE_MAX] = copy;
		queue->nr++;
		pthread_cond_signal(&queue->wake);
	}
	pthread_mutex_unlock(&queue->lock);
}

unsigned long long journal_queue_lost(const struct journal_queue *queue)
{
	/* Added to under the queue's lock; read without it by the counters' readers. */
	return __atomic_load_n(&queue->lost, __ATOMIC_RELAXED);
}

void journal_queue_release(struct journal_queue *queue)
{
	struct timespec deadline;
	bool joinable;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 1;
	pthread_mutex_lock(&queue->lock);
	joinable = queue->sender_of == getpid();
	while (joinable && (queue->nr || queue->sending))
		if (pthread_cond_timedwait(&queue->drained, &queue->lock, &deadline) == ETIMEDOUT)
			joinable = false; /* stuck in a send: left to end with the process */
	queue->stop = true;
	pthread_cond_signal(&queue->wake);
	pthread_mutex_unlock(&queue->lock);
	if (joinable)
		pthread_join(queue->thread, NULL);
	else if (queue->sender_of == getpid())
		pthread_detach(queue->thread);
	for (unsigned int i = 0; i < JOURNAL_QUEUE_MAX; i++)
		free(queue->line[i]);
	queue->nr = 0;
	queue->sender_of = 0;
}
