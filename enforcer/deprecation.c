// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deprecation log: writing records (docs/deprecation-log.md) within the
 * rate limit and the size cap, and deciding which operations are
 * multi-hierarchy uses.
 */
#include "deprecation_journal.h"
#include "deprecation_log.h"
#include "deprecation_text.h"
#include "deprecation.h"
#include "proc_identity.h"
#include "unit_name.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* A value is recorded up to this many bytes: enough to recognise, not a copy of a page. */
#define RECORDED_VALUE_MAX 256
/*
 * The command line takes at most this many bytes of a line, as JSON: a
 * process may hold megabytes of arguments, and a log line is for reading.
 * Only this much of /proc/PID/cmdline is read.
 */
#define CMDLINE_JSON_MAX 4096
/* Paths (groups, v2 directories) and the detail that names them. */
#define PATH_TEXT_MAX	PATH_MAX
#define DETAIL_TEXT_MAX (PATH_MAX + 1024)

_Static_assert(DEPRECATION_NR_KINDS <= DEPRECATION_RATE_KINDS, "a uid budget counts every kind");

/* "2026-12-03T11:30:00.123Z" */
static void rfc3339_now(char *buf, size_t size)
{
	struct timespec now;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &now);
	gmtime_r(&now.tv_sec, &tm);
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%03ldZ", now.tv_nsec / 1000000);
}

/* mkdir -p of the log's directory, private to root as /var/log's own are. */
static void make_parent_dirs(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0750);
		*slash = '/';
	}
}

static int log_open(struct deprecation_log *log)
{
	if (!log->path[0])
		return 0;
	make_parent_dirs(log->path);
	log->fd = open(log->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0640);
	log->capped = false;
	return log->fd < 0 ? -errno : 0;
}

/* One write(2) of the line and its newline: O_APPEND keeps concurrent writers' lines whole. */
static int write_line(int fd, const char *line, size_t len)
{
	struct iovec iov[2] = {{(void *)line, len}, {(void *)"\n", 1}};
	ssize_t n = writev(fd, iov, 2);

	if (n < 0)
		return -errno;
	/* A short write on a full disk leaves half a line, which readers skip and count. */
	return (size_t)n == len + 1 ? 0 : -ENOSPC;
}

static const int json_flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;

/*
 * The first record past the cap leaves one line saying so, itself past the
 * cap by its few bytes, so that a reader knows the file stops short.
 */
static void note_capped(struct deprecation_log *log)
{
	char time[DEPRECATION_TIME_MAX], line[160];
	int len;

	if (log->capped)
		return;
	log->capped = true;
	rfc3339_now(time, sizeof(time));
	len = snprintf(line, sizeof(line),
		       "{\"v\":%d,\"time\":\"%s\",\"kind\":\"log-capped\",\"max\":%llu}",
		       DEPRECATION_LOG_SCHEMA, time, log->max_size);
	(void)write_line(log->fd, line, (size_t)len);
}

/*
 * -EFBIG when the line would take the file past its cap. The size is read
 * at each line: logrotate's copytruncate empties the file without a SIGHUP.
 */
static int append_line(struct deprecation_log *log, const char *line, size_t len)
{
	struct stat st;
	int r;

	if (log->fd < 0 && (r = log_open(log)) < 0)
		return r;
	if (fstat(log->fd, &st) < 0)
		return -errno;
	if ((unsigned long long)st.st_size > log->max_size ||
	    len + 1 > log->max_size - (unsigned long long)st.st_size) {
		note_capped(log);
		return -EFBIG;
	}
	log->capped = false;
	return write_line(log->fd, line, len);
}

/* Whether a line goes anywhere: a file, the journal. */
static bool log_kept(const struct deprecation_log *log)
{
	return log->path[0] || log->journal;
}

/* Writes @obj (consumed) as a line standing for @records records, or counts them as not written. */
static void log_write(struct deprecation_log *log, struct json_object *obj,
		      unsigned long long records)
{
	const char *line;
	size_t len = 0;
	int r;

	if (!log_kept(log)) {
		json_object_put(obj);
		return;
	}
	line = obj ? json_object_to_json_string_length(obj, json_flags, &len) : NULL;
	/* journald gets what the file gets; it counts its own losses (journal_lost). */
	if (line && log->journal)
		journal_queue_push(&log->journal_queue, line, len);
	if (!log->path[0]) {
		json_object_put(obj);
		return;
	}
	r = line ? append_line(log, line, len) : -ENOMEM;
	json_object_put(obj);
	if (r == -EFBIG) {
		log->dropped += records;
	} else if (r < 0) {
		/* Said once: the counter tells how many followed. */
		if (!log->lost)
			cgx_log_errno(r, "deprecation log %s: records are lost from here",
				      log->path);
		log->lost += records;
	}
}

/* A new window for syslog as a whole, once the last is over: it starts by saying what was held. */
static void syslog_window_roll(struct deprecation_log *log, long long now_ms)
{
	if (now_ms - log->syslog_window_start_ms < DEPRECATION_RATE_WINDOW_MS)
		return;
	if (log->syslog_held_back)
		cgx_log(CGX_LOG_WARNING,
			"deprecated: %llu more warnings, of any program, were held back",
			log->syslog_held_back);
	log->syslog_window_start_ms = now_ms;
	log->syslog_said = 0;
	log->syslog_held_back = 0;
}

/* Whether syslog has room left in this window for a warning, any program's. */
static bool syslog_room(struct deprecation_log *log, long long now_ms)
{
	syslog_window_roll(log, now_ms);
	if (log->syslog_said == DEPRECATION_SYSLOG_TOTAL)
		return false;
	log->syslog_said++;
	return true;
}

/* "uid", and "account" where the user charged is another (a user namespace's owner). */
static void put_uid(struct json_object *obj, uid_t uid, uid_t account)
{
	json_object_object_add(obj, "uid", json_object_new_int64(uid));
	if (account != uid)
		json_object_object_add(obj, "account", json_object_new_int64(account));
}

/*
 * The summary line of @folded records of @kind charged to @account, the
 * first by @uid, made between @first and @last.
 */
static struct json_object *summary_line(unsigned int kind, unsigned long long folded,
					const char *first, const char *last, uid_t uid,
					uid_t account, const char *comm, const char *program,
					const char *unit)
{
	struct json_object *obj = json_object_new_object();
	char time[DEPRECATION_TIME_MAX];

	if (!obj)
		return NULL;
	rfc3339_now(time, sizeof(time));
	json_object_object_add(obj, "v", json_object_new_int(DEPRECATION_LOG_SCHEMA));
	json_object_object_add(obj, "time", json_object_new_string(time));
	json_object_object_add(obj, "kind", json_object_new_string(deprecation_kind_name(kind)));
	json_object_object_add(obj, "folded", json_object_new_int64((int64_t)folded));
	json_object_object_add(obj, "first_time", json_object_new_string(first));
	json_object_object_add(obj, "last_time", json_object_new_string(last));
	put_uid(obj, uid, account);
	json_object_object_add(obj, "comm", json_object_new_string(comm));
	json_object_object_add(obj, "program", json_object_new_string(program));
	if (unit[0])
		json_object_object_add(obj, "unit", json_object_new_string(unit));
	return obj;
}

/* The line that gives the count of what @slot's window folded. */
static struct json_object *summary_object(const struct deprecation_rate *slot)
{
	return summary_line(slot->key.kind, slot->folded, slot->first_folded, slot->last_folded,
			    slot->first_uid, slot->key.uid, slot->comm, slot->program, slot->unit);
}

/* The line that gives the count of what @budget folded of @kind, programs together ("*"). */
static struct json_object *uid_summary_object(const struct deprecation_uid_budget *budget,
					      unsigned int kind)
{
	return summary_line(kind, budget->overflow[kind], budget->first_overflow,
			    budget->last_overflow, budget->first_uid, budget->uid, "*", "*", "");
}

/* What a uid's budget folded: one line per kind, outside the budget (they are few and short). */
static void uid_flush(struct deprecation_log *log, struct deprecation_uid_budget *budget)
{
	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++) {
		if (!budget->overflow[kind])
			continue;
		log->pending -= budget->overflow[kind];
		log_write(log, uid_summary_object(budget, kind), budget->overflow[kind]);
		budget->overflow[kind] = 0;
	}
}

/* The budget of @uid for this window, a new one once the last is over or was taken. */
static struct deprecation_uid_budget *uid_budget(struct deprecation_log *log, uid_t uid,
						 long long now_ms)
{
	struct deprecation_uid_budget *budget = deprecation_uid_slot(&log->rates, uid);

	if (deprecation_uid_due(budget, uid, now_ms)) {
		uid_flush(log, budget);
		deprecation_uid_start(budget, uid, now_ms);
	}
	return budget;
}

/*
 * log_write() within the budget of @account: past it, the @records of
 * @kind that @obj (consumed) stands for, the first by @uid, are folded into
 * the budget's count instead. @folded: they are already counted as folded
 * (a summary line's).
 */
static void uid_write(struct deprecation_log *log, uid_t account, uid_t uid, unsigned int kind,
		      struct json_object *obj, unsigned long long records, bool folded,
		      long long now_ms)
{
	struct deprecation_uid_budget *budget;
	char time[DEPRECATION_TIME_MAX];
	size_t len = 0;

	if (!log_kept(log) || !obj || !json_object_to_json_string_length(obj, json_flags, &len)) {
		log_write(log, obj, records);
		return;
	}
	budget = uid_budget(log, account, now_ms);
	/* json-c keeps the string it made: log_write() does not make it again. */
	if (deprecation_uid_charge(budget, len + 1, now_ms)) {
		log_write(log, obj, records);
		return;
	}
	json_object_put(obj);
	rfc3339_now(time, sizeof(time));
	deprecation_uid_fold(budget, kind, records, uid, time);
	if (!folded)
		log->folded += records;
	log->pending += records;
}

/* What a window held back: the summary line of its folded records, the syslog warnings. */
static void rate_flush(struct deprecation_log *log, struct deprecation_rate *slot, long long now_ms)
{
	char program[256];

	if (slot->folded) {
		log->pending -= slot->folded;
		uid_write(log, slot->key.uid, slot->first_uid, slot->key.kind, summary_object(slot),
			  slot->folded, true, now_ms);
		slot->folded = 0;
	}
	/* The journal has no held-back warnings: its entries are the lines, summaries too. */
	if (slot->held_back && log->journal)
		slot->held_back = 0;
	if (slot->held_back) {
		log_text_printable(program, sizeof(program), slot->program);
		if (syslog_room(log, now_ms))
			cgx_log(CGX_LOG_WARNING,
				"deprecated: %llu more %s warnings by %s (uid %u) were held back",
				slot->held_back, deprecation_kind_name(slot->key.kind), program,
				(unsigned int)slot->key.uid);
		else
			log->syslog_held_back += slot->held_back;
		slot->held_back = 0;
	}
}

int deprecation_log_init(struct deprecation_log *log, const char *path, unsigned long long max_size,
			 bool journal)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	log->max_size = max_size;
	log->journal = journal;
	journal_queue_init(&log->journal_queue, program_invocation_short_name);
	if (path && snprintf(log->path, sizeof(log->path), "%s", path) >= (int)sizeof(log->path))
		return -ENAMETOOLONG;
	/* Opened at the first record: a daemon with nothing to report leaves no file. */
	return 0;
}

void deprecation_log_release(struct deprecation_log *log)
{
	long long now_ms = monotonic_ms();

	/* A daemon that ends leaves its counts whole: the windows still open are written. */
	for (size_t i = 0; i < DEPRECATION_RATE_SLOTS; i++)
		if (log->rates.slot[i].used)
			rate_flush(log, &log->rates.slot[i], now_ms);
	/* After the keys' windows, whose summaries a spent budget folds. */
	for (size_t i = 0; i < DEPRECATION_UID_SLOTS; i++)
		if (log->rates.uid[i].used)
			uid_flush(log, &log->rates.uid[i]);
	journal_queue_release(&log->journal_queue);
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
}

int deprecation_log_reopen(struct deprecation_log *log)
{
	bool was_open = log->fd >= 0;

	if (was_open)
		close(log->fd);
	log->fd = -1;
	return was_open ? log_open(log) : 0;
}

int cgx_deprecation_reopen(struct cgx_ctx *ctx)
{
	return deprecation_log_reopen(&ctx->deprecations);
}

void cgx_deprecation_tick(struct cgx_ctx *ctx)
{
	struct deprecation_log *log = &ctx->deprecations;
	long long now_ms = monotonic_ms();

	for (size_t i = 0; i < DEPRECATION_RATE_SLOTS; i++) {
		struct deprecation_rate *slot = &log->rates.slot[i];

		if (deprecation_rate_expired(slot, now_ms)) {
			rate_flush(log, slot, now_ms);
			slot->used = false;
		}
	}
	for (size_t i = 0; i < DEPRECATION_UID_SLOTS; i++) {
		struct deprecation_uid_budget *budget = &log->rates.uid[i];

		if (deprecation_uid_expired(budget, now_ms)) {
			uid_flush(log, budget);
			budget->used = false;
		}
	}
	syslog_window_roll(log, now_ms);
}

int cgx_deprecation_counters(struct cgx_ctx *ctx, struct strbuf *out)
{
	const struct deprecation_log *log = &ctx->deprecations;
	int r;

	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++)
		if ((r = strbuf_addf(out, "%s %llu\n", deprecation_kind_name(kind),
				     log->count[kind])) < 0)
			return r;
	return strbuf_addf(out,
			   "log_lost %llu\nsyslog_suppressed %llu\nlog_folded %llu\n"
			   "log_pending %llu\nlog_dropped %llu\njournal_lost %llu\n",
			   log->lost, log->syslog_suppressed, log->folded, log->pending,
			   log->dropped, journal_queue_lost(&log->journal_queue));
}

/* @src as the log keeps text (deprecation_text.h), in @size bytes; a cut one is named in @cuts. */
static void put_text(struct json_object *obj, const char *key, const char *src, size_t size,
		     struct json_object *cuts)
{
	char text[DETAIL_TEXT_MAX];
	bool cut;

	if (!src)
		return;
	if (size > sizeof(text))
		size = sizeof(text);
	log_text_copy(text, size, src, strlen(src), SIZE_MAX, &cut);
	json_object_object_add(obj, key, json_object_new_string(text));
	if (cut && cuts)
		json_object_array_add(cuts, json_object_new_string(key));
}

/* The v1 path of a group, "/" for a root. */
static void group_path(const struct v2_dir *group, char *buf, size_t size)
{
	if (tree_path(group, true, buf, size) < 0)
		snprintf(buf, size, "?");
}

/* The v2 directory as /proc/PID/cgroup names it: "/cgx/students". */
static void v2_path(const struct cgx_ctx *ctx, const struct v2_dir *dir, char *buf, size_t size)
{
	char rel[PATH_MAX];

	if (tree_path(dir, false, rel, sizeof(rel)) < 0)
		snprintf(rel, sizeof(rel), "?");
	if (snprintf(buf, size, "/%s%s%s", ctx->base_relpath, rel[0] ? "/" : "", rel) >= (int)size)
		snprintf(buf, size, "?");
}

static struct json_object *tuple_object(const struct cgx_ctx *ctx, const struct tuple *tuple,
					struct json_object *cuts)
{
	struct json_object *obj = json_object_new_object();
	char path[PATH_MAX];

	for (unsigned int h = 0; obj && h < ctx->hiers.nr; h++) {
		if (tuple->coord[h] == ctx->tree.base)
			continue;
		group_path(tuple->coord[h], path, sizeof(path));
		put_text(obj, ctx->hiers.hier[h].proc_name, path, PATH_TEXT_MAX, cuts);
	}
	return obj;
}

/* The arguments that fit in CMDLINE_JSON_MAX bytes of JSON; *@cut when some did not. */
static struct json_object *cmdline_array(const struct proc_identity *who, bool *cut)
{
	struct json_object *argv = json_object_new_array();
	size_t budget = CMDLINE_JSON_MAX - 2; /* [] */
	char arg[CMDLINE_JSON_MAX];

	*cut = who->argv_cut;
	for (unsigned int i = 0; argv && i < who->argc; i++) {
		size_t quotes = i ? 3 : 2; /* "", and the comma before */
		bool arg_cut;

		if (budget <= quotes) {
			*cut = true;
			break;
		}
		budget -= quotes;
		budget -= log_text_copy(arg, sizeof(arg), who->argv[i], strlen(who->argv[i]),
					budget, &arg_cut);
		json_object_array_add(argv, json_object_new_string(arg));
		if (arg_cut) {
			*cut = true;
			break;
		}
	}
	return argv;
}

/*
 * The systemd unit a record concerns: the one its group's path names (a
 * service manager making /system.slice/svc.service, or a script writing
 * to it), else the one of a group the moved process joined, else the one
 * the caller runs in, by its cgroup2 path. "" when none names a unit.
 */
static void record_unit(const struct cgx_ctx *ctx, const struct deprecation_event *event,
			pid_t caller, char *unit, size_t size)
{
	char path[PATH_MAX];

	if (event->hier >= 0 && event->group) {
		group_path(event->group, path, sizeof(path));
		if (unit_name_of_path(path, unit, size))
			return;
	}
	for (unsigned int h = 0; event->tuple && h < ctx->hiers.nr; h++) {
		if (event->tuple->coord[h] == ctx->tree.base)
			continue;
		group_path(event->tuple->coord[h], path, sizeof(path));
		if (unit_name_of_path(path, unit, size))
			return;
	}
	if (proc_cgroup2_path(caller, path, sizeof(path)) < 0 ||
	    !unit_name_of_path(path, unit, size))
		unit[0] = '\0';
}

static struct json_object *event_object(const struct cgx_ctx *ctx,
					const struct deprecation_event *event,
					const struct proc_identity *who, const char *program,
					const char *unit, const char *time)
{
	struct json_object *obj = json_object_new_object(), *cuts = json_object_new_array(), *argv;
	char buf[PATH_MAX];
	bool cmdline_cut;

	if (!obj || !cuts) {
		json_object_put(obj);
		json_object_put(cuts);
		return NULL;
	}
	json_object_object_add(obj, "v", json_object_new_int(DEPRECATION_LOG_SCHEMA));
	json_object_object_add(obj, "time", json_object_new_string(time));
	json_object_object_add(obj, "kind",
			       json_object_new_string(deprecation_kind_name(event->kind)));
	if (event->hier >= 0) {
		put_text(obj, "hierarchy", ctx->hiers.hier[event->hier].proc_name, PATH_TEXT_MAX,
			 cuts);
		if (event->group) {
			group_path(event->group, buf, sizeof(buf));
			put_text(obj, "group", buf, PATH_TEXT_MAX, cuts);
		}
	}
	put_text(obj, "file", event->file, PATH_TEXT_MAX, cuts);
	if (event->value) {
		size_t len = strnlen(event->value, RECORDED_VALUE_MAX + 2);

		/* The newline that ends a shell's echo is no part of the value. */
		if (len && event->value[len - 1] == '\n')
			len--;
		snprintf(buf, sizeof(buf), "%.*s", (int)len, event->value);
		put_text(obj, "value", buf, RECORDED_VALUE_MAX + 1, cuts);
	}
	if (event->v2_dir) {
		v2_path(ctx, event->v2_dir, buf, sizeof(buf));
		put_text(obj, "v2_path", buf, PATH_TEXT_MAX, cuts);
	}
	if (event->tuple)
		json_object_object_add(obj, "tuple", tuple_object(ctx, event->tuple, cuts));
	put_text(obj, "detail", event->detail, DETAIL_TEXT_MAX, cuts);
	json_object_object_add(obj, "pid", json_object_new_int(who->pid));
	json_object_object_add(obj, "ppid", json_object_new_int(who->ppid));
	put_uid(obj, who->uid, who->account.uid);
	put_text(obj, "comm", who->comm, DEPRECATION_COMM_MAX, cuts);
	put_text(obj, "exe", who->exe, DEPRECATION_PROGRAM_MAX, cuts);
	argv = cmdline_array(who, &cmdline_cut);
	json_object_object_add(obj, "cmdline", argv);
	if (cmdline_cut)
		json_object_array_add(cuts, json_object_new_string("cmdline"));
	if (who->script[0])
		put_text(obj, "script", who->script, DEPRECATION_PROGRAM_MAX, cuts);
	json_object_object_add(obj, "program", json_object_new_string(program));
	if (unit[0])
		json_object_object_add(obj, "unit", json_object_new_string(unit));
	if (json_object_array_length(cuts))
		json_object_object_add(obj, "truncated", cuts);
	else
		json_object_put(cuts);
	return obj;
}

static void say(struct deprecation_log *log, const struct deprecation_event *event,
		const struct proc_identity *who, const char *program, const char *unit,
		long long now_ms)
{
	char warning[1024];

	if (!syslog_room(log, now_ms)) {
		log->syslog_suppressed++;
		log->syslog_held_back++;
		return;
	}
	log_text_warning(warning, sizeof(warning), deprecation_kind_name(event->kind), program,
			 unit, (int)who->pid, (unsigned int)who->uid, event->detail);
	cgx_log(CGX_LOG_WARNING, "%s", warning);
}

/*
 * Whether @key is new in @seen: some uses are said once per run (a tree's
 * shape, not every move into it; a split limit, not every rebalance that
 * makes it one again). Kept as hashes in a fixed table: two keys of one
 * hash would make the second go unsaid, at odds of 2^-64.
 */
static bool first_seen(struct deprecation_seen *seen, const char *key)
{
	uint64_t hash = fnv1a(key) | 1; /* never 0, the free slot */
	size_t i;

	for (i = hash % DEPRECATION_SEEN_SLOTS; seen->hash[i]; i = (i + 1) % DEPRECATION_SEEN_SLOTS)
		if (seen->hash[i] == hash)
			return false;
	/* Bounded: past this many keys, forget them all and say them again later. */
	if (seen->nr == DEPRECATION_SEEN_SLOTS / 2) {
		memset(seen->hash, 0, sizeof(seen->hash));
		seen->nr = 0;
		i = hash % DEPRECATION_SEEN_SLOTS;
	}
	seen->hash[i] = hash;
	seen->nr++;
	return true;
}

/* Counts a record of @kind by @program, under its own name while there is room. */
static void count_program(struct deprecation_programs *programs, unsigned int kind,
			  const char *program)
{
	char label[DEPRECATION_PROGRAM_LABEL_MAX];
	unsigned int i;
	bool cut;

	log_text_copy(label, sizeof(label), program, strlen(program), SIZE_MAX, &cut);
	for (i = 0; i < programs->nr && strcmp(programs->name[i], label); i++)
		;
	if (i == programs->nr) {
		if (i == DEPRECATION_PROGRAMS) {
			programs->other[kind]++;
			return;
		}
		memcpy(programs->name[i], label, sizeof(label));
		programs->nr++;
	}
	programs->count[i][kind]++;
}

void deprecation_record(struct cgx_ctx *ctx, const struct deprecation_event *event)
{
	struct deprecation_log *log = &ctx->deprecations;
	_cleanup_proc_identity_ struct proc_identity who = {0};
	char program[DEPRECATION_PROGRAM_MAX], comm[DEPRECATION_COMM_MAX];
	char time[DEPRECATION_TIME_MAX], unit[DEPRECATION_UNIT_MAX];
	struct deprecation_rate_key key;
	struct deprecation_rate *slot;
	const char *raw_program;
	long long now_ms;
	unsigned int may;
	pid_t tgid;
	bool cut;

	if (event->once && !first_seen(&log->said_once, event->once))
		return;
	log->count[event->kind]++;
	if (proc_tgid(event->caller->tid, &tgid) < 0)
		tgid = event->caller->tid;
	if (proc_identity_read_max(tgid, CMDLINE_JSON_MAX, &who) < 0) {
		log->lost++;
		log->programs.other[event->kind]++; /* by whom is lost with it */
		return;
	}
	raw_program = proc_identity_program(&who);
	log_text_copy(program, sizeof(program), raw_program, strlen(raw_program), SIZE_MAX, &cut);
	count_program(&log->programs, event->kind, program);
	log_text_copy(comm, sizeof(comm), who.comm, strlen(who.comm), SIZE_MAX, &cut);
	record_unit(ctx, event, tgid, unit, sizeof(unit));
	/*
	 * Charged to the account: the uids of one user's namespace share its
	 * windows. Each unit has its own: a service manager making groups for
	 * every unit at boot names them all (the account's budget bounds them).
	 */
	key = (struct deprecation_rate_key){who.account.uid, event->kind,
					    fnv1a(raw_program) * 31 + fnv1a(unit)};
	now_ms = monotonic_ms();
	rfc3339_now(time, sizeof(time));

	slot = deprecation_rate_slot(&log->rates, &key);
	if (deprecation_rate_due(slot, &key, now_ms)) {
		/* An evicted key's count is written before its slot is another's. */
		rate_flush(log, slot, now_ms);
		deprecation_rate_start(slot, &key, now_ms, program, comm);
		slot->first_uid = who.uid;
		snprintf(slot->unit, sizeof(slot->unit), "%s", unit);
	}
	may = deprecation_rate_take(slot, now_ms, time);
	if (may & DEPRECATION_RATE_WRITE) {
		uid_write(log, who.account.uid, who.uid, event->kind,
			  event_object(ctx, event, &who, program, unit, time), 1, false, now_ms);
	} else {
		log->folded++;
		log->pending++;
	}
	/* The journal's entry is the warning: syslog would bring it to journald twice. */
	if (log->journal)
		return;
	if (may & DEPRECATION_RATE_SYSLOG)
		say(log, event, &who, program, unit, now_ms);
	else
		log->syslog_suppressed++;
}

/* True when hierarchy @h has any group but its root: its shape is in use. */
static bool hier_in_use(const struct cgx_ctx *ctx, unsigned int h)
{
	return cgx_group_nr_children(ctx->tree.base, h) > 0;
}

/*
 * A group other hierarchies in use have no group for: the trees differ in
 * shape there. One record names them all: a legacy-mode systemd makes
 * each unit's group in name=systemd and in few controllers, and a record
 * per other hierarchy (a dozen per unit) spent the account's log budget
 * before the boot was half done.
 */
static void check_divergent_tree(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				 unsigned int hier, struct v2_dir *group)
{
	char path[PATH_MAX], key[PATH_MAX + 16], others[1024] = "", detail[PATH_MAX + 1536];
	size_t len = 0;

	group_path(group, path, sizeof(path));
	for (unsigned int other = 0; other < ctx->hiers.nr; other++) {
		if (other == hier || !hier_in_use(ctx, other) ||
		    fold_lookup_group(&ctx->tree, other, path))
			continue;
		/* Cut at the end: a detail is bounded, and a dozen names fit. */
		len += snprintf(others + len, sizeof(others) - len, "%s%s", len ? ", " : "",
				ctx->hiers.hier[other].proc_name);
		if (len >= sizeof(others))
			len = sizeof(others) - 1;
	}
	if (!len)
		return;
	snprintf(key, sizeof(key), "tree:%u:%s", hier, path);
	snprintf(detail, sizeof(detail),
		 "%s has a group %s that %s %s not: cgroup2 has one tree; give every "
		 "controller the same groups",
		 ctx->hiers.hier[hier].proc_name, path, others,
		 strchr(others, ',') ? "have" : "has");
	deprecation_record(ctx, &(struct deprecation_event){
					.kind = DEPRECATION_DIVERGENT_TREE,
					.caller = caller,
					.hier = (int)hier,
					.group = group,
					.v2_dir = group,
					.detail = detail,
					.once = key,
				});
}

static bool tuple_spans_paths(const struct cgx_ctx *ctx, const struct tuple *tuple)
{
	const struct v2_dir *seen = NULL;

	/* One v2 directory per v1 path: two directories are two paths. */
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		const struct v2_dir *coord = tuple->coord[h];

		if (coord == ctx->tree.base || coord == seen)
			continue;
		if (seen)
			return true;
		seen = coord;
	}
	return false;
}

/* A group (mkdir, @file NULL) or a task (@file "tasks") of a named hierarchy. */
static void record_named_hierarchy(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				   unsigned int hier, struct v2_dir *group, const char *file)
{
	if (!ctx->hiers.hier[hier].named[0])
		return;
	deprecation_record(ctx,
			   &(struct deprecation_event){
				   .kind = DEPRECATION_NAMED_HIERARCHY,
				   .caller = caller,
				   .hier = (int)hier,
				   .group = group,
				   .file = file,
				   .v2_dir = group,
				   .detail = "a named hierarchy holds no controller; cgroup2 has "
					     "one tree: use a directory of it, or xattrs",
			   });
}

/* After a process joined @group of @hier and now has @tuple. */
static void deprecation_check_attach(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				     unsigned int hier, struct v2_dir *group,
				     const struct tuple *tuple)
{
	struct fold_target target;
	struct v2_dir *leaf_dir;

	if (group == ctx->tree.base)
		return;
	record_named_hierarchy(ctx, caller, hier, group, "tasks");
	check_divergent_tree(ctx, caller, hier, group);
	/*
	 * Two non-root groups on different paths: one directory of cgroup2
	 * cannot be both. A tuple on its way from one path to another, group
	 * by group, has one non-root group at each step and is no such use.
	 * Nor is a tuple that folds exactly: groups on one line of descent
	 * (cpuset:/ct, memory:/ct/svc.service, as a container's systemd
	 * leaves every process) are one directory and its ancestors.
	 */
	if (!tuple_spans_paths(ctx, tuple) ||
	    fold_tuple(&ctx->tree, &ctx->hiers, tuple, &target) < 0 || target.exact)
		return;
	leaf_dir = target.leaf_name[0] ? tree_child(&ctx->tree, target.dir, target.leaf_name)
				       : target.dir;
	deprecation_record(ctx, &(struct deprecation_event){
					.kind = DEPRECATION_MULTI_HIERARCHY_PROCESS,
					.caller = caller,
					.hier = (int)hier,
					.group = group,
					.v2_dir = leaf_dir ? leaf_dir : target.dir,
					.tuple = tuple,
					.detail = "the process is in groups on different paths; in "
						  "cgroup2 it sits in one directory of one tree",
				});
}

static void deprecation_check_mkdir(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				    unsigned int hier, struct v2_dir *group)
{
	record_named_hierarchy(ctx, caller, hier, group, NULL);
}

/* Whether @value, white space aside, is @row's default: what a group has untouched. */
static bool is_default_value(const struct v1_file *row, const char *value)
{
	const char *dflt = row->default_value;
	size_t len, dlen;

	if (!dflt || !value)
		return false;
	while (*value == ' ' || *value == '\t' || *value == '\n')
		value++;
	while (*dflt == ' ' || *dflt == '\t' || *dflt == '\n')
		dflt++;
	len = strcspn(value, " \t\n");
	dlen = strcspn(dflt, " \t\n");
	return len == dlen && !strncmp(value, dflt, len) &&
	       !value[len + strspn(value + len, " \t\n")];
}

/* After a write of @value to the file of @fc succeeded. */
static void deprecation_check_write(const struct v1_file_ctx *fc, const char *value)
{
	const struct v1_file *row = fc->ctx->hiers.hier[fc->hier].files[fc->file];
	enum deprecation_kind kind;

	switch (row->v2.kind) {
	case V1M_NONE:
		/*
		 * The default is what cgroup2 does anyway: systemd writes
		 * memory.use_hierarchy 1 to every group, and cgroup2 is always
		 * hierarchical. Nothing is lost, so no use to record.
		 */
		if (is_default_value(row, value))
			return;
		kind = DEPRECATION_NO_V2_EQUIVALENT;
		break;
	case V1M_RESET:
		kind = DEPRECATION_NO_V2_EQUIVALENT;
		break;
	case V1M_EMULATED:
		if (!(row->flags & V1F_V2_LACKS) || is_default_value(row, value))
			return;
		kind = DEPRECATION_NO_V2_EQUIVALENT;
		break;
	case V1M_APPROX:
		kind = DEPRECATION_APPROXIMATE;
		break;
	default:
		return;
	}
	deprecation_record(fc->ctx, &(struct deprecation_event){
					    .kind = kind,
					    .caller = fc->caller,
					    .hier = (int)fc->hier,
					    .group = fc->dir,
					    .file = row->name,
					    .value = value,
					    .v2_dir = fc->dir,
					    .detail = row->v2.note,
				    });
}

void deprecation_on_event(const struct cgx_event *event)
{
	switch (event->kind) {
	case CGX_EVENT_MKDIR:
		deprecation_check_mkdir(event->ctx, event->caller, event->hier, event->group);
		break;
	case CGX_EVENT_ATTACH:
		deprecation_check_attach(event->ctx, event->caller, event->hier, event->group,
					 event->tuple);
		break;
	case CGX_EVENT_WRITE:
		/* A rename carries values over as the daemon: no one's use to record. */
		if (event->caller->tid != own_pid())
			deprecation_check_write(event->fc, event->value);
		break;
	case CGX_EVENT_RMDIR:
		break;
	}
}
