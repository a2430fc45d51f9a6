// SPDX-License-Identifier: GPL-2.0-or-later
#include "values.h"

#include "fail.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

static bool is_core_row(const struct v1_file *row)
{
	return row >= v1_core_files && row < v1_core_files + v1_nr_core_files;
}

enum setting_check setting_check_of(const struct v1_file *row, bool is_root)
{
	bool writable = row->mode & 0222;
	enum v1_mapping kind = row->v2.kind;

	if (!v1_file_present(row, is_root) || !(row->mode & 0444))
		return CHECK_NONE;
	if (kind == V1M_STATISTIC || kind == V1M_RESET || kind == V1M_CORE || kind == V1M_UNSET)
		return CHECK_NONE;
	/*
	 * A root's controller files hold the kernel's own state (the root
	 * cpuset is exclusive, the root's memory.swappiness is vm.swappiness)
	 * and the v2 root has no such files: only the core files
	 * (release_agent) and the root-only switches are settings there.
	 */
	if (is_root && !is_core_row(row) && !(row->flags & V1F_ROOT_ONLY))
		return CHECK_NONE;
	if (row->flags & V1F_INHERIT) {
		/*
		 * A new group starts with its parent's value, so only the group
		 * that changed it holds the setting. devices.list is read-only:
		 * devices.allow/deny write it.
		 */
		if (!is_root)
			return CHECK_PARENT;
		return writable && row->default_value ? CHECK_DEFAULT : CHECK_NONE;
	}
	if (!writable)
		return CHECK_NONE; /* an id or a state the kernel keeps (net_prio.prioidx) */
	if (row->default_value)
		return CHECK_DEFAULT;
	/*
	 * No fixed default: the kernel starts a group without a limit whatever
	 * its parent's, and how that reads depends on the machine (hugetlb's
	 * PAGE_COUNTER_MAX in whole huge pages, misc.max's resources).
	 */
	if (!is_root && (kind == V1M_SAME || kind == V1M_CONVERTED))
		return CHECK_LIMITED;
	return CHECK_NONE; /* a writable counter (max_usage_in_bytes, failcnt) */
}

static const char *lookup(const struct v1_values *view, const char *file)
{
	const struct group_values *values = (const struct group_values *)view;
	int i = v1_file_find(values->hier, file);

	return i < 0 ? NULL : values->text[i];
}

static int values_alloc(struct group_values *values, const struct cgx_hier *hier)
{
	values->lookup.get = lookup;
	values->hier = hier;
	values->text = calloc(hier->nr_files ? hier->nr_files : 1, sizeof(*values->text));
	return values->text ? 0 : -ENOMEM;
}

int group_values_read(struct group_values *values, const struct cgx_hier *hier, int dirfd,
		      bool is_root)
{
	int r;

	if ((r = values_alloc(values, hier)) < 0)
		return r;
	for (unsigned int i = 0; i < hier->nr_files; i++) {
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

		/*
		 * A root's value that is no setting of its own is still what
		 * its children start from (vm.swappiness, "a *:* rwm"): they
		 * are compared with it.
		 */
		if (setting_check_of(hier->files[i], is_root) == CHECK_NONE &&
		    !(is_root && setting_check_of(hier->files[i], false) == CHECK_PARENT))
			continue;
		r = read_file_at(dirfd, hier->files[i]->name, &text);
		if (r == -ENOMEM)
			return r;
		/* Missing, or refused by this kernel: the group has no such setting to carry. */
		if (r < 0)
			continue;
		values->text[i] = steal_ptr(text.buf);
	}
	return 0;
}

int group_values_set(struct group_values *values, const struct cgx_hier *hier,
		     const char *const *pairs)
{
	int r;

	if ((r = values_alloc(values, hier)) < 0)
		return r;
	for (; pairs[0] && pairs[1]; pairs += 2) {
		int i = v1_file_find(hier, pairs[0]);

		if (i < 0)
			return -ENOENT;
		free(values->text[i]);
		if (!(values->text[i] = strdup(pairs[1])))
			return -ENOMEM;
	}
	return 0;
}

void group_values_release(struct group_values *values)
{
	for (unsigned int i = 0; values->text && i < values->hier->nr_files; i++)
		free(values->text[i]);
	free(values->text);
	values->text = NULL;
}

/* [start, end) of @text without surrounding white space. */
static void trimmed(const char *text, const char **start, size_t *len)
{
	size_t n = strlen(text);

	while (n && isspace((unsigned char)*text))
		text++, n--;
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	*start = text;
	*len = n;
}

/* net_prio.ifpriomap lists every interface with priority 0 when nothing is set. */
static bool is_map_of_zeros(const char *text, size_t len)
{
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		const char *line_end = nl ? nl : end;
		const char *space = line_end;

		while (space > text && space[-1] != ' ')
			space--;
		if (space == text || line_end - space != 1 || *space != '0')
			return false;
		text = nl ? nl + 1 : end;
	}
	return true;
}

bool v1_text_equal(const char *value, const char *expected)
{
	const char *a, *b;
	size_t a_len, b_len;

	trimmed(value, &a, &a_len);
	trimmed(expected ? expected : "", &b, &b_len);
	if (a_len == b_len && !memcmp(a, b, a_len))
		return true;
	return b_len == 0 && is_map_of_zeros(a, a_len);
}

static char *trimmed_copy(const char *text)
{
	const char *start;
	size_t len;

	trimmed(text, &start, &len);
	return strndup(start, len);
}

/* The v2 value of one setting, by the row's converter, and what becomes of it. */
static int convert_setting(const struct group_values *values, const struct v1_file *row,
			   const char *text, struct mig_setting *setting)
{
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	int r;

	/*
	 * cgx carries net_cls and net_prio out, but a cgroup2 kernel alone has
	 * nothing of the kind: the report is about the move, so they are lost.
	 */
	setting->fate = row->flags & V1F_V2_LACKS ? FATE_LOST : mig_fate_of(row->v2.kind);
	switch (row->v2.kind) {
	case V1M_SAME:
		setting->v2_value = trimmed_copy(text);
		return setting->v2_value ? 0 : -ENOMEM;
	case V1M_CONVERTED:
	case V1M_APPROX:
		if (!row->v2.convert) {
			if (row->v2.kind == V1M_CONVERTED &&
			    !(setting->v2_value = trimmed_copy(text)))
				return -ENOMEM;
			return 0;
		}
		if ((r = row->v2.convert(&values->lookup, text, &out)) == -ENOMEM)
			return r;
		if (r < 0) {
			/* A value the kernel would not have taken: nothing to carry. */
			setting->fate = FATE_LOST;
			return 0;
		}
		if (out.len && !(setting->v2_value = trimmed_copy(out.buf)))
			return -ENOMEM;
		return 0;
	default:
		return 0;
	}
}

/* "max", or "RESOURCE max", on every line (none: no resource to limit): a v2 limit that is none. */
static bool v2_text_is_max(const char *v2_text)
{
	for (const char *line = v2_text; *line;) {
		const char *end = strchrnul(line, '\n');
		const char *word = end;

		while (word > line && word[-1] != ' ')
			word--;
		if (end > line && (end - word != 3 || strncmp(word, "max", 3)))
			return false;
		line = *end ? end + 1 : end;
	}
	return true;
}

/* Whether @text, a value of @row, is no limit once in v2 (the row's converter decides). */
static bool means_no_limit(const struct group_values *values, const struct v1_file *row,
			   const char *text)
{
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	_cleanup_free_ char *v2_text = NULL;

	if (row->v2.convert) {
		/* A value the converter refuses, the kernel would not have shown: a setting. */
		if (row->v2.convert(&values->lookup, text, &out) < 0)
			return false;
		text = out.len ? out.buf : "";
	}
	v2_text = trimmed_copy(text);
	return v2_text && v2_text_is_max(v2_text);
}

/* Whether file @i of the group holds a setting: read, and unlike what it would be untouched. */
static bool is_setting(const struct group_values *values, const struct group_values *parent,
		       bool is_root, unsigned int i)
{
	const struct v1_file *row = values->hier->files[i];
	const char *expected;

	if (!values->text[i])
		return false;
	switch (setting_check_of(row, is_root)) {
	case CHECK_DEFAULT:
		expected = row->default_value;
		break;
	case CHECK_PARENT:
		/* A parent that lacks the file (a partial copy) had the default. */
		expected = parent && parent->text[i] ? parent->text[i] : row->default_value;
		break;
	case CHECK_LIMITED:
		return !means_no_limit(values, row, values->text[i]);
	default:
		return false;
	}
	return !v1_text_equal(values->text[i], expected);
}

int group_settings(const struct group_values *values, const struct group_values *parent,
		   bool is_root, struct mig_group *group)
{
	const struct cgx_hier *hier = values->hier;
	unsigned int nr = 0;
	int r;

	for (unsigned int i = 0; i < hier->nr_files; i++)
		nr += is_setting(values, parent, is_root, i);
	if (!nr)
		return 0;
	if (!(group->settings = calloc(nr, sizeof(*group->settings))))
		return -ENOMEM;
	for (unsigned int i = 0; i < hier->nr_files; i++) {
		struct mig_setting *setting = &group->settings[group->nr_settings];

		if (!is_setting(values, parent, is_root, i))
			continue;
		setting->row = hier->files[i];
		if (!(setting->value = trimmed_copy(values->text[i])))
			return -ENOMEM;
		group->nr_settings++;
		if ((r = convert_setting(values, hier->files[i], values->text[i], setting)) < 0)
			return r;
	}
	return 0;
}
