// SPDX-License-Identifier: GPL-2.0-or-later
#include "stat_sum.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stat_sum_release(struct stat_sum *sum)
{
	for (size_t i = 0; i < sum->nr; i++)
		free(sum->v[i].key);
	free(sum->v);
	*sum = (struct stat_sum)STAT_SUM_INIT;
}

bool stat_file_is_peak(const char *file)
{
	size_t len = strlen(file);

	return len >= 5 && !strcmp(file + len - 5, ".peak");
}

static struct stat_value *find(const struct stat_sum *sum, const char *key)
{
	for (size_t i = 0; i < sum->nr; i++)
		if (!strcmp(sum->v[i].key, key))
			return &sum->v[i];
	return NULL;
}

/* The entry of @key, made (0) when missing. */
static int entry(struct stat_sum *sum, const char *key, struct stat_value **out)
{
	struct stat_value *grown;

	if ((*out = find(sum, key)))
		return 0;
	if (sum->nr == sum->cap) {
		size_t cap = sum->cap ? sum->cap * 2 : 16;

		if (!(grown = realloc(sum->v, cap * sizeof(*grown))))
			return -ENOMEM;
		sum->v = grown;
		sum->cap = cap;
	}
	if (!(sum->v[sum->nr].key = strdup(key)))
		return -ENOMEM;
	sum->v[sum->nr].value = 0;
	*out = &sum->v[sum->nr++];
	return 0;
}

int stat_sum_add(struct stat_sum *sum, const char *key, unsigned long long value, bool peak)
{
	struct stat_value *e;
	int r;

	if ((r = entry(sum, key, &e)) < 0)
		return r;
	if (!peak)
		e->value += value;
	else if (value > e->value)
		e->value = value;
	return 0;
}

void stat_sum_sub(struct stat_sum *sum, const struct stat_sum *part)
{
	for (size_t i = 0; i < part->nr; i++) {
		struct stat_value *e = find(sum, part->v[i].key);

		if (e)
			e->value -= part->v[i].value < e->value ? part->v[i].value : e->value;
	}
}

/* A whole decimal number of @len bytes at @text. */
static bool number(const char *text, size_t len, unsigned long long *value)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)text[0]))
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	errno = 0;
	*value = strtoull(buf, &end, 10);
	return !errno && !*end;
}

static bool wanted(const char *const *keys, const char *key, size_t len)
{
	if (!keys)
		return true;
	for (; *keys; keys++)
		if (strlen(*keys) == len && !strncmp(*keys, key, len))
			return true;
	return false;
}

static int add_key(struct stat_sum *sum, char scope, const char *file, const char *key,
		   size_t key_len, const char *sub, size_t sub_len, unsigned long long value)
{
	char name[256];
	int w = snprintf(name, sizeof(name), "%s%s%s %.*s%s%.*s", scope ? (char[]){scope, 0} : "",
			 scope ? " " : "", file, (int)key_len, key, sub_len ? "/" : "",
			 (int)sub_len, sub);

	/* A key this long is none of cgroup2's: left out rather than cut. */
	if (w < 0 || (size_t)w >= sizeof(name))
		return 0;
	/* Directories that exist side by side add up, high-water marks too. */
	return stat_sum_add(sum, name, value, false);
}

/* One line: "N", "KEY N", or "KEY A=N B=N ..." (io.stat, rdma.current). */
static int add_line(struct stat_sum *sum, char scope, const char *file, const char *line,
		    size_t len, const char *const *keys)
{
	size_t first = strcspn(line, " ");
	unsigned long long value;
	int r;

	if (first > len)
		first = len;
	if (first == len)
		return number(line, len, &value) ? add_key(sum, scope, file, "-", 1, "", 0, value)
						 : 0;
	if (!memchr(line + first, '=', len - first)) {
		const char *rest = line + first + 1;

		if (!wanted(keys, line, first) || !number(rest, len - first - 1, &value))
			return 0;
		return add_key(sum, scope, file, line, first, "", 0, value);
	}
	for (const char *field = line + first; field < line + len;) {
		const char *eq;
		size_t field_len;

		while (field < line + len && *field == ' ')
			field++;
		field_len = strcspn(field, " ");
		if (field + field_len > line + len)
			field_len = line + len - field;
		eq = memchr(field, '=', field_len);
		if (eq && number(eq + 1, field + field_len - eq - 1, &value) &&
		    (r = add_key(sum, scope, file, line, first, field, eq - field, value)) < 0)
			return r;
		field += field_len;
	}
	return 0;
}

int stat_sum_add_text(struct stat_sum *sum, char scope, const char *file, const char *text,
		      const char *const *keys)
{
	int r;

	for (const char *line = text; line && *line;) {
		size_t len = strcspn(line, "\n");

		if (len && (r = add_line(sum, scope, file, line, len, keys)) < 0)
			return r;
		line += len + (line[len] == '\n');
	}
	return 0;
}

int stat_sum_add_scope(struct stat_sum *to, const struct stat_sum *from, char scope,
		       const char *file)
{
	size_t file_len = strlen(file);
	int r;

	for (size_t i = 0; i < from->nr; i++) {
		const char *key = from->v[i].key;

		if (key[0] != scope || key[1] != ' ' || strncmp(key + 2, file, file_len) ||
		    key[2 + file_len] != ' ')
			continue;
		if ((r = stat_sum_add(to, key + 2, from->v[i].value, stat_file_is_peak(file))) < 0)
			return r;
	}
	return 0;
}

void stat_sum_sub_scope(struct stat_sum *to, const struct stat_sum *from, char scope,
			const char *file)
{
	size_t file_len = strlen(file);

	for (size_t i = 0; i < from->nr; i++) {
		const char *key = from->v[i].key;
		struct stat_value *e;

		if (key[0] != scope || key[1] != ' ' || strncmp(key + 2, file, file_len) ||
		    key[2 + file_len] != ' ' || !(e = find(to, key + 2)))
			continue;
		e->value -= from->v[i].value < e->value ? from->v[i].value : e->value;
	}
}

unsigned long long stat_sum_get(const struct stat_sum *sum, const char *file, const char *key)
{
	char name[256];
	const struct stat_value *e;

	snprintf(name, sizeof(name), "%s %s", file, key ? key : "-");
	return (e = find(sum, name)) ? e->value : 0;
}

void carry_release(struct carry_record *rec)
{
	stat_sum_release(&rec->carried);
	stat_sum_release(&rec->last_old);
	free(rec->last_path);
	rec->last_path = NULL;
	rec->last_ino = 0;
}

/* "S FILE KEY VALUE": the key is all before the last space. */
static int parse_entry(const char *line, size_t len, struct stat_sum *into)
{
	const char *space = NULL;
	unsigned long long value;
	char key[256];
	size_t key_len;

	for (const char *c = line; c < line + len; c++)
		if (*c == ' ')
			space = c;
	if (!space || (key_len = space - line) >= sizeof(key) || key_len < 5 || line[1] != ' ' ||
	    !number(space + 1, line + len - space - 1, &value))
		return -EINVAL;
	memcpy(key, line, key_len);
	key[key_len] = '\0';
	return stat_sum_add(into, key, value, false);
}

int carry_parse(const char *text, struct carry_record *rec)
{
	int r;

	for (const char *line = text; line && *line;) {
		size_t len = strcspn(line, "\n");

		if (len > 6 && !strncmp(line, "@last ", 6)) {
			char *end;

			free(rec->last_path);
			rec->last_path = NULL;
			rec->last_ino = strtoull(line + 6, &end, 10);
			if (*end != ' ' || end + 1 >= line + len)
				return -EINVAL;
			if (!(rec->last_path = strndup(end + 1, line + len - end - 1)))
				return -ENOMEM;
		} else if (len > 2 && !strncmp(line, "@ ", 2)) {
			if ((r = parse_entry(line + 2, len - 2, &rec->last_old)) < 0)
				return r;
		} else if (len && (r = parse_entry(line, len, &rec->carried)) < 0) {
			return r;
		}
		line += len + (line[len] == '\n');
	}
	return 0;
}

int carry_format(const struct carry_record *rec, struct strbuf *out)
{
	int r;

	/* Text even when empty (a record with nothing to carry is removed, not written). */
	if ((r = strbuf_add(out, "", 0)) < 0)
		return r;
	for (size_t i = 0; i < rec->carried.nr; i++)
		if ((r = strbuf_addf(out, "%s %llu\n", rec->carried.v[i].key,
				     rec->carried.v[i].value)) < 0)
			return r;
	if (!rec->last_path)
		return 0;
	if ((r = strbuf_addf(out, "@last %llu %s\n", rec->last_ino, rec->last_path)) < 0)
		return r;
	for (size_t i = 0; i < rec->last_old.nr; i++)
		if ((r = strbuf_addf(out, "@ %s %llu\n", rec->last_old.v[i].key,
				     rec->last_old.v[i].value)) < 0)
			return r;
	return 0;
}

int carry_fold(struct carry_record *rec, const struct stat_sum *add, unsigned long long ino,
	       const char *path)
{
	int r;

	carry_keep_last(rec);
	if (!(rec->last_path = strdup(path)))
		return -ENOMEM;
	rec->last_ino = ino;
	for (size_t i = 0; i < add->nr; i++) {
		const char *key = add->v[i].key;
		struct stat_value *e;
		/* "S FILE KEY": the file is the second word. */
		char file[128];

		if (sscanf(key, "%*c %127s", file) != 1)
			continue;
		if ((r = entry(&rec->carried, key, &e)) < 0 ||
		    (r = stat_sum_add(&rec->last_old, key, e->value, false)) < 0)
			return r;
		/* entry() may have moved the array: look the line up again. */
		if ((r = stat_sum_add(&rec->carried, key, add->v[i].value,
				      stat_file_is_peak(file))) < 0)
			return r;
	}
	return 0;
}

void carry_undo_last(struct carry_record *rec)
{
	for (size_t i = 0; i < rec->last_old.nr; i++) {
		struct stat_value *e = find(&rec->carried, rec->last_old.v[i].key);

		if (e)
			e->value = rec->last_old.v[i].value;
	}
	carry_keep_last(rec);
}

void carry_keep_last(struct carry_record *rec)
{
	stat_sum_release(&rec->last_old);
	free(rec->last_path);
	rec->last_path = NULL;
	rec->last_ino = 0;
}
