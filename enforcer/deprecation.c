// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deprecation log: writing records (docs/deprecation-log.md) and
 * deciding which operations are multi-hierarchy uses.
 */
#include "deprecation.h"
#include "internal.h"
#include "proc_identity.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A value is recorded up to this many bytes: enough to recognise, not a copy of a page. */
#define RECORDED_VALUE_MAX 256

static const char *const kind_names[DEPRECATION_NR_KINDS] = {
	[DEPRECATION_MULTI_HIERARCHY_PROCESS] = "multi-hierarchy-process",
	[DEPRECATION_DIVERGENT_TREE] = "divergent-tree",
	[DEPRECATION_NAMED_HIERARCHY] = "named-hierarchy",
	[DEPRECATION_RUNTIME_HIERARCHY] = "runtime-hierarchy",
	[DEPRECATION_NO_V2_EQUIVALENT] = "no-v2-equivalent",
	[DEPRECATION_APPROXIMATE] = "approximate",
	[DEPRECATION_DELEGATION_REFUSED] = "delegation-refused",
};

const char *deprecation_kind_name(enum deprecation_kind kind)
{
	return kind < DEPRECATION_NR_KINDS ? kind_names[kind] : "?";
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
	return log->fd < 0 ? -errno : 0;
}

int deprecation_log_init(struct deprecation_log *log, const char *path)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	if (path && snprintf(log->path, sizeof(log->path), "%s", path) >= (int)sizeof(log->path))
		return -ENAMETOOLONG;
	/* Opened at the first record: a daemon with nothing to report leaves no file. */
	return 0;
}

void deprecation_log_release(struct deprecation_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	for (size_t i = 0; i < log->divergent_seen.nr; i++)
		free(log->divergent_seen.keys[i]);
	free(log->divergent_seen.keys);
	log->divergent_seen = (struct deprecation_seen){0};
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

int cgx_deprecation_counters(struct cgx_ctx *ctx, struct strbuf *out)
{
	const struct deprecation_log *log = &ctx->deprecations;
	int r;

	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++)
		if ((r = strbuf_addf(out, "%s %llu\n", kind_names[kind], log->count[kind])) < 0)
			return r;
	return strbuf_addf(out, "log_lost %llu\nsyslog_suppressed %llu\n", log->lost,
			   log->syslog_suppressed);
}

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

/*
 * Whether syslog may carry this warning: DEPRECATION_SYSLOG_BURST per
 * (program, kind) and window, so a script in a loop says it a few times a
 * minute, not thousands. What is held back is counted, and said when the
 * next window opens.
 */
static bool syslog_allowed(struct deprecation_log *log, const char *program,
			   enum deprecation_kind kind, unsigned long long *held_back)
{
	struct deprecation_rate *slot = NULL, *oldest = &log->rates[0];
	time_t now = monotonic_ms() / 1000;

	*held_back = 0;
	for (size_t i = 0; i < DEPRECATION_RATE_SLOTS && !slot; i++) {
		struct deprecation_rate *rate = &log->rates[i];

		if (rate->program[0] && rate->kind == kind && !strcmp(rate->program, program))
			slot = rate;
		else if (!rate->program[0] || rate->window_start < oldest->window_start)
			oldest = rate;
	}
	if (!slot || now - slot->window_start >= DEPRECATION_SYSLOG_WINDOW) {
		if (slot)
			*held_back = slot->held_back;
		else
			slot = oldest;
		snprintf(slot->program, sizeof(slot->program), "%s", program);
		slot->kind = kind;
		slot->window_start = now;
		slot->said = 0;
		slot->held_back = 0;
	}
	if (slot->said < DEPRECATION_SYSLOG_BURST) {
		slot->said++;
		return true;
	}
	slot->held_back++;
	log->syslog_suppressed++;
	return false;
}

static void json_put_string(struct json_object *obj, const char *key, const char *value)
{
	if (value)
		json_object_object_add(obj, key, json_object_new_string(value));
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

static struct json_object *tuple_object(const struct cgx_ctx *ctx, const struct tuple *tuple)
{
	struct json_object *obj = json_object_new_object();
	char path[PATH_MAX];

	for (unsigned int h = 0; obj && h < ctx->hiers.nr; h++) {
		if (tuple->coord[h] == ctx->tree.base)
			continue;
		group_path(tuple->coord[h], path, sizeof(path));
		json_object_object_add(obj, ctx->hiers.hier[h].proc_name,
				       json_object_new_string(path));
	}
	return obj;
}

static struct json_object *event_object(const struct cgx_ctx *ctx,
					const struct deprecation_event *event,
					const struct proc_identity *who, const char *time)
{
	struct json_object *obj = json_object_new_object(), *argv;
	char buf[PATH_MAX];

	if (!obj)
		return NULL;
	json_object_object_add(obj, "v", json_object_new_int(1));
	json_put_string(obj, "time", time);
	json_put_string(obj, "kind", kind_names[event->kind]);
	if (event->hier >= 0) {
		json_put_string(obj, "hierarchy", ctx->hiers.hier[event->hier].proc_name);
		if (event->group) {
			group_path(event->group, buf, sizeof(buf));
			json_put_string(obj, "group", buf);
		}
	}
	json_put_string(obj, "file", event->file);
	if (event->value) {
		size_t len = strnlen(event->value, RECORDED_VALUE_MAX);

		if (len && event->value[len - 1] == '\n')
			len--;
		json_object_object_add(obj, "value",
				       json_object_new_string_len(event->value, (int)len));
	}
	if (event->v2_dir) {
		v2_path(ctx, event->v2_dir, buf, sizeof(buf));
		json_put_string(obj, "v2_path", buf);
	}
	if (event->tuple)
		json_object_object_add(obj, "tuple", tuple_object(ctx, event->tuple));
	json_put_string(obj, "detail", event->detail);
	json_object_object_add(obj, "pid", json_object_new_int(who->pid));
	json_object_object_add(obj, "ppid", json_object_new_int(who->ppid));
	json_object_object_add(obj, "uid", json_object_new_int64(who->uid));
	json_put_string(obj, "comm", who->comm);
	json_put_string(obj, "exe", who->exe);
	argv = json_object_new_array();
	for (unsigned int i = 0; argv && i < who->argc; i++)
		json_object_array_add(argv, json_object_new_string(who->argv[i]));
	json_object_object_add(obj, "cmdline", argv);
	if (who->script[0])
		json_put_string(obj, "script", who->script);
	return obj;
}

/* One write(2) of the whole line: O_APPEND keeps concurrent writers' lines whole. */
static int append_line(struct deprecation_log *log, const char *line)
{
	size_t len = strlen(line);
	_cleanup_free_ char *text = malloc(len + 2);
	ssize_t n;
	int r;

	if (!log->path[0])
		return 0;
	if (!text)
		return -ENOMEM;
	memcpy(text, line, len);
	memcpy(text + len, "\n", 2);
	if (log->fd < 0 && (r = log_open(log)) < 0)
		return r;
	n = write(log->fd, text, len + 1);
	if (n < 0)
		return -errno;
	/* A short write on a full disk leaves half a line, which readers skip and count. */
	return (size_t)n == len + 1 ? 0 : -ENOSPC;
}

void deprecation_record(struct cgx_ctx *ctx, const struct deprecation_event *event)
{
	struct deprecation_log *log = &ctx->deprecations;
	_cleanup_proc_identity_ struct proc_identity who = {0};
	struct json_object *obj;
	unsigned long long held_back;
	const char *program;
	char time[64];
	pid_t tgid;
	int r;

	log->count[event->kind]++;
	if (proc_tgid(event->caller->tid, &tgid) < 0)
		tgid = event->caller->tid;
	if (proc_identity_read(tgid, &who) < 0) {
		log->lost++;
		return;
	}
	program = proc_identity_program(&who);
	rfc3339_now(time, sizeof(time));
	if (!(obj = event_object(ctx, event, &who, time))) {
		log->lost++;
	} else {
		r = append_line(
			log, json_object_to_json_string_ext(
				     obj, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		if (r < 0) {
			/* Said once: the counter tells how many followed. */
			if (!log->lost)
				cgx_log_errno(r, "deprecation log %s: records are lost from here",
					      log->path);
			log->lost++;
		}
		json_object_put(obj);
	}
	if (syslog_allowed(log, program, event->kind, &held_back)) {
		if (held_back)
			cgx_log(CGX_LOG_WARNING,
				"deprecated: %llu more %s warnings by %s were held back", held_back,
				kind_names[event->kind], program);
		cgx_log(CGX_LOG_WARNING, "deprecated: %s by %s (pid %d)%s%s",
			kind_names[event->kind], program, (int)who.pid, event->detail ? ": " : "",
			event->detail ? event->detail : "");
	}
}

/* True when hierarchy @h has any group but its root: its shape is in use. */
static bool hier_in_use(const struct cgx_ctx *ctx, unsigned int h)
{
	return cgx_group_nr_children(ctx->tree.base, h) > 0;
}

/* Each (hierarchy, path, other hierarchy) is said once per run: the shape, not every move. */
static bool divergence_first_seen(struct deprecation_seen *seen, const char *key)
{
	char *copy;

	for (size_t i = 0; i < seen->nr; i++)
		if (!strcmp(seen->keys[i], key))
			return false;
	/* Bounded: past this many shapes, forget them all and say them again later. */
	if (seen->nr == DEPRECATION_SEEN_MAX) {
		for (size_t i = 0; i < seen->nr; i++)
			free(seen->keys[i]);
		seen->nr = 0;
	}
	if (seen->nr == seen->cap) {
		size_t cap = seen->cap ? seen->cap * 2 : 16;
		char **keys = realloc(seen->keys, cap * sizeof(*keys));

		if (!keys)
			return true;
		seen->keys = keys;
		seen->cap = cap;
	}
	if ((copy = strdup(key)))
		seen->keys[seen->nr++] = copy;
	return true;
}

/* A group another hierarchy in use has no group for: the trees differ in shape there. */
static void check_divergent_tree(struct cgx_ctx *ctx, const struct cgx_caller *caller,
				 unsigned int hier, struct v2_dir *group)
{
	char path[PATH_MAX], key[PATH_MAX + 16], detail[PATH_MAX + 1024];

	group_path(group, path, sizeof(path));
	for (unsigned int other = 0; other < ctx->hiers.nr; other++) {
		if (other == hier || !hier_in_use(ctx, other) ||
		    fold_lookup_group(&ctx->tree, other, path))
			continue;
		snprintf(key, sizeof(key), "%u:%u:%s", hier, other, path);
		if (!divergence_first_seen(&ctx->deprecations.divergent_seen, key))
			continue;
		snprintf(detail, sizeof(detail),
			 "%s has a group %s that %s has not: cgroup2 has one tree; give every "
			 "controller the same groups",
			 ctx->hiers.hier[hier].proc_name, path, ctx->hiers.hier[other].proc_name);
		deprecation_record(ctx, &(struct deprecation_event){
						.kind = DEPRECATION_DIVERGENT_TREE,
						.caller = caller,
						.hier = (int)hier,
						.group = group,
						.v2_dir = group,
						.detail = detail,
					});
	}
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

void deprecation_check_attach(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			      unsigned int hier, struct v2_dir *group, const struct tuple *tuple)
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
	 */
	if (!tuple_spans_paths(ctx, tuple) ||
	    fold_tuple(&ctx->tree, &ctx->hiers, tuple, &target) < 0)
		return;
	leaf_dir = target.leaf_name[0] ? tree_child(target.dir, target.leaf_name) : target.dir;
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

void deprecation_check_mkdir(struct cgx_ctx *ctx, const struct cgx_caller *caller,
			     unsigned int hier, struct v2_dir *group)
{
	record_named_hierarchy(ctx, caller, hier, group, NULL);
}

void deprecation_check_write(const struct v1_file_ctx *fc, const char *value)
{
	const struct v1_file *row = fc->ctx->hiers.hier[fc->hier].files[fc->file];
	enum deprecation_kind kind;

	switch (row->v2.kind) {
	case V1M_NONE:
	case V1M_RESET:
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
