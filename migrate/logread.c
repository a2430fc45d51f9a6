// SPDX-License-Identifier: GPL-2.0-or-later
#include "logread.h"

#include "fail.h"
#include "json_field.h"
#include "kinds.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * The kinds are the daemon's (enforcer/kinds.h), in its order, then "other"
 * for one this reader does not know; enum log_kind names the same values.
 */
#define SAME_KIND(log, daemon) ((int)(log) == (int)(daemon))
_Static_assert(SAME_KIND(LOG_MULTI_HIERARCHY, DEPRECATION_MULTI_HIERARCHY_PROCESS) &&
		       SAME_KIND(LOG_DIVERGENT_TREE, DEPRECATION_DIVERGENT_TREE) &&
		       SAME_KIND(LOG_NAMED_HIERARCHY, DEPRECATION_NAMED_HIERARCHY) &&
		       SAME_KIND(LOG_RUNTIME_HIERARCHY, DEPRECATION_RUNTIME_HIERARCHY) &&
		       SAME_KIND(LOG_NO_V2, DEPRECATION_NO_V2_EQUIVALENT) &&
		       SAME_KIND(LOG_APPROXIMATE, DEPRECATION_APPROXIMATE) &&
		       SAME_KIND(LOG_DELEGATION_REFUSED, DEPRECATION_DELEGATION_REFUSED) &&
		       SAME_KIND(LOG_OTHER, DEPRECATION_NR_KINDS),
	       "enum log_kind follows the daemon's kinds");
#define LOG_KIND_NAME(kind, name, message_id) name,
const char *const log_kind_names[LOG_NR_KINDS] = {DEPRECATION_KINDS(LOG_KIND_NAME) "other"};

/* An example is for reading; a value may be 256 bytes and a tuple long. */
#define EXAMPLE_MAX 240

void log_summary_init(struct log_summary *log, const char *path)
{
	memset(log, 0, sizeof(*log));
	log->path = strdup(path ? path : "-");
}

static void log_use_free(void *p)
{
	struct log_use *use = p;

	if (!use)
		return;
	free(use->program);
	free(use->unit);
	free(use->comm);
	free(use->first_time);
	free(use->last_time);
	for (unsigned int i = 0; i < use->nr_examples; i++)
		free(use->examples[i]);
	for (unsigned int i = 0; i < use->nr_hierarchies; i++)
		free(use->hierarchies[i]);
	free(use);
}

void log_summary_release(struct log_summary *log)
{
	for (size_t i = 0; i < log->nr_uses; i++)
		log_use_free(log->uses[i]);
	free(log->uses);
	strmap_release(&log->use_by_key, NULL);
	if (log->tokener)
		json_tokener_free(log->tokener);
	free(log->path);
	memset(log, 0, sizeof(*log));
}

static enum log_kind kind_of(const char *name)
{
	int kind = deprecation_kind_find(name);

	return kind < 0 ? LOG_OTHER : (enum log_kind)kind;
}

/* Keeps @text once in @set of @max entries; a full set takes no more. */
static int add_distinct(char **set, unsigned int *nr, unsigned int max, const char *text)
{
	for (unsigned int i = 0; i < *nr; i++)
		if (!strcmp(set[i], text))
			return 0;
	if (*nr == max)
		return 0;
	if (!(set[*nr] = strndup(text, EXAMPLE_MAX)))
		return -ENOMEM;
	(*nr)++;
	return 0;
}

static int replace_string(char **slot, const char *text)
{
	char *copy = strdup(text);

	if (!copy)
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

static int find_use(struct log_summary *log, enum log_kind kind, const char *program,
		    const char *unit, const char *comm, struct log_use **out)
{
	_cleanup_strbuf_ struct strbuf key = STRBUF_INIT;
	struct log_use *use;
	int r;

	if ((r = strbuf_addf(&key, "%d\t%s\t%s", kind, unit, program)) < 0)
		return r;
	if ((use = strmap_get(&log->use_by_key, key.buf))) {
		*out = use;
		return 0;
	}
	if (log->nr_uses == log->cap_uses) {
		size_t cap = log->cap_uses ? log->cap_uses * 2 : 16;
		struct log_use **uses = realloc(log->uses, cap * sizeof(*uses));

		if (!uses)
			return -ENOMEM;
		log->uses = uses;
		log->cap_uses = cap;
	}
	if (!(use = calloc(1, sizeof(*use))))
		return -ENOMEM;
	use->kind = kind;
	if (!(use->program = strdup(program)) || !(use->unit = strdup(unit)) ||
	    !(use->comm = strdup(comm)) || (r = strmap_put(&log->use_by_key, key.buf, use)) < 0) {
		log_use_free(use);
		return -ENOMEM;
	}
	log->uses[log->nr_uses++] = use;
	*out = use;
	return 0;
}

/* "cpu,cpuacct:/a net_cls,net_prio:/b" for a tuple; "memory:/x memory.swappiness=10" else. */
static int example_of(struct json_object *record, struct strbuf *out)
{
	struct json_object *tuple;
	const char *hierarchy = json_field_string(record, "hierarchy");
	const char *group = json_field_string(record, "group");
	const char *file = json_field_string(record, "file");
	const char *value = json_field_string(record, "value");
	int r = 0;

	if ((tuple = json_field_object(record, "tuple"))) {
		json_object_object_foreach(tuple, h, path)
		{
			if (json_object_is_type(path, json_type_string) &&
			    (r = strbuf_addf(out, "%s%s:%s", out->len ? " " : "", h,
					     json_object_get_string(path))) < 0)
				return r;
		}
		return 0;
	}
	if (hierarchy && (r = strbuf_addf(out, "%s:%s", hierarchy, group ? group : "/")) < 0)
		return r;
	if (file && (r = strbuf_addf(out, "%s%s", out->len ? " " : "", file)) < 0)
		return r;
	if (file && value)
		r = strbuf_addf(out, "=%s", value);
	return r;
}

static int add_hierarchies(struct log_use *use, struct json_object *record)
{
	const char *hierarchy = json_field_string(record, "hierarchy");
	struct json_object *tuple;
	int r;

	if (hierarchy && (r = add_distinct(use->hierarchies, &use->nr_hierarchies,
					   LOG_USE_HIERARCHIES, hierarchy)) < 0)
		return r;
	if (!(tuple = json_field_object(record, "tuple")))
		return 0;
	json_object_object_foreach(tuple, h, path)
	{
		(void)path;
		if ((r = add_distinct(use->hierarchies, &use->nr_hierarchies, LOG_USE_HIERARCHIES,
				      h)) < 0)
			return r;
	}
	return 0;
}

/* A count that a hostile log cannot wrap. */
static void add_saturating(unsigned long *count, unsigned long n)
{
	*count = n > ULONG_MAX - *count ? ULONG_MAX : *count + n;
}

/*
 * The count of a summary line (which must be a positive integer) in
 * *@folded, 0 for a plain record; -EINVAL for a line that is neither.
 */
static int folded_of(struct json_object *record, unsigned long *folded)
{
	struct json_object *field;
	int64_t n;

	*folded = 0;
	if (!json_object_object_get_ex(record, "folded", &field))
		return 0;
	if (!json_object_is_type(field, json_type_int) || (n = json_object_get_int64(field)) < 1)
		return -EINVAL;
	*folded = (uint64_t)n > ULONG_MAX ? ULONG_MAX : (unsigned long)n;
	return 0;
}

static int count_record(struct log_summary *log, struct json_object *record, const char *time,
			const char *kind_name, unsigned long folded)
{
	_cleanup_strbuf_ struct strbuf example = STRBUF_INIT;
	const char *script = json_field_string(record, "script");
	const char *exe = json_field_string(record, "exe");
	const char *comm = json_field_string(record, "comm");
	const char *program = json_field_string(record, "program");
	const char *unit = json_field_string(record, "unit");
	const char *first_time = json_field_string(record, "first_time");
	const char *last_time = json_field_string(record, "last_time");
	enum log_kind kind = kind_of(kind_name);
	unsigned long records = folded ? folded : 1;
	struct log_use *use;
	int r;

	comm = comm ? comm : "";
	/* Version 2 names the program as the daemon keyed its rate limit; version 1 leaves it to
	 * us. */
	if (!program || !*program)
		program = script && *script ? script
			  : exe && *exe	    ? exe
			  : *comm	    ? comm
					    : "(unknown)";
	log->records++;
	add_saturating(&log->folded, folded);
	add_saturating(&log->by_kind[kind], records);
	if ((r = find_use(log, kind, program, unit ? unit : "", comm, &use)) < 0)
		return r;
	add_saturating(&use->count, records);
	/* A summary spans the times of the records it folded. */
	first_time = first_time ? first_time : time;
	last_time = last_time ? last_time : time;
	/* RFC 3339 UTC with a fixed width compares as text. */
	if (!use->first_time || strcmp(first_time, use->first_time) < 0)
		if ((r = replace_string(&use->first_time, first_time)) < 0)
			return r;
	if (!use->last_time || strcmp(last_time, use->last_time) > 0)
		if ((r = replace_string(&use->last_time, last_time)) < 0)
			return r;
	if ((r = add_hierarchies(use, record)) < 0)
		return r;
	if ((r = example_of(record, &example)) < 0)
		return r;
	if (example.len && use->nr_examples < LOG_USE_EXAMPLES)
		return add_distinct(use->examples, &use->nr_examples, LOG_USE_EXAMPLES,
				    example.buf);
	return 0;
}

static void count_corrupt(struct log_summary *log, unsigned long lineno)
{
	if (!log->corrupt++)
		log->first_corrupt_line = lineno;
}

int log_read_line(struct log_summary *log, const char *line, size_t len, unsigned long lineno)
{
	struct json_object *record, *v;
	const char *time, *kind;
	unsigned long folded;
	size_t end;
	int r;

	log->lines++;
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	while (len && isspace((unsigned char)*line))
		line++, len--;
	if (!len) {
		log->blank++;
		return 0;
	}
	if (!log->tokener && !(log->tokener = json_tokener_new()))
		return -ENOMEM;
	json_tokener_reset(log->tokener);
	/* json-c stops at a NUL; a line with one is not one JSON text. */
	if (memchr(line, '\0', len)) {
		count_corrupt(log, lineno);
		return 0;
	}
	record = json_tokener_parse_ex(log->tokener, line, (int)len);
	end = json_tokener_get_parse_end(log->tokener);
	if (!record || json_tokener_get_error(log->tokener) != json_tokener_success || end != len ||
	    !json_object_is_type(record, json_type_object)) {
		json_object_put(record);
		count_corrupt(log, lineno);
		return 0;
	}
	time = json_field_string(record, "time");
	kind = json_field_string(record, "kind");
	if (!json_object_object_get_ex(record, "v", &v) || !json_object_is_type(v, json_type_int) ||
	    !time || !kind) {
		json_object_put(record);
		count_corrupt(log, lineno);
		return 0;
	}
	if (json_object_get_int64(v) < LOG_SCHEMA_OLDEST ||
	    json_object_get_int64(v) > LOG_SCHEMA_VERSION) {
		long long version = (long long)json_object_get_int64(v);

		json_object_put(record);
		mig_err(0,
			"%s:%lu: deprecation log schema version %lld is unknown (this cgx-migrate "
			"reads versions %d to %d)",
			log->path, lineno, version, LOG_SCHEMA_OLDEST, LOG_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (!strcmp(kind, "log-capped")) {
		log->capped++;
		json_object_put(record);
		return 0;
	}
	if (folded_of(record, &folded) < 0) {
		json_object_put(record);
		count_corrupt(log, lineno);
		return 0;
	}
	r = count_record(log, record, time, kind, folded);
	json_object_put(record);
	return r;
}

int log_read_stream(struct log_summary *log, FILE *in)
{
	_cleanup_free_ char *line = NULL;
	unsigned long lineno = 0;
	size_t cap = 0;
	ssize_t len;
	int r;

	while ((len = getline(&line, &cap, in)) >= 0)
		if ((r = log_read_line(log, line, (size_t)len, ++lineno)) < 0)
			return r;
	if (ferror(in))
		return mig_err(-EIO, "cannot read %s", log->path);
	return 0;
}

int log_read_file(struct log_summary *log, const char *path)
{
	FILE *in = fopen(path, "re");
	int r;

	if (!in)
		return mig_err(-errno, "cannot open the deprecation log %s", path);
	r = log_read_stream(log, in);
	fclose(in);
	if (r == 0)
		log_summary_finish(log);
	return r;
}

static int cmp_use(const void *a, const void *b)
{
	const struct log_use *x = *(const struct log_use *const *)a;
	const struct log_use *y = *(const struct log_use *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->program, y->program);
}

void log_summary_finish(struct log_summary *log)
{
	if (log->nr_uses)
		qsort(log->uses, log->nr_uses, sizeof(*log->uses), cmp_use);
}
