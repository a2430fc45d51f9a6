// SPDX-License-Identifier: GPL-2.0-or-later
#include "v2_syntax.h"

#include "cpulist.h"
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MIN_PERIOD_US  1000ULL
#define MAX_PERIOD_US  1000000ULL
#define MAX_RUNTIME_US ((1ULL << 44) - 1)
#define PID_MAX_LIMIT  (4ULL * 1024 * 1024)
#define WEIGHT_MIN     1ULL
#define WEIGHT_MAX     10000ULL

/* A whole decimal u64 in [@start, @end), as kstrtoull(base 10) takes it. */
static bool u64_of(const char *start, const char *end, unsigned long long *value)
{
	char text[32];
	char *stop;

	if (end <= start || (size_t)(end - start) >= sizeof(text))
		return false;
	for (const char *c = start; c < end; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	memcpy(text, start, end - start);
	text[end - start] = '\0';
	errno = 0;
	*value = strtoull(text, &stop, 10);
	return !errno && !*stop;
}

static bool word_is(const char *start, const char *end, const char *word)
{
	return (size_t)(end - start) == strlen(word) && !strncmp(start, word, end - start);
}

/* "max" or a u64 no larger than @limit. */
static bool max_or_u64(const char *start, const char *end, unsigned long long limit)
{
	unsigned long long value;

	return word_is(start, end, "max") || (u64_of(start, end, &value) && value <= limit);
}

/* The next word of @*pos before @end (single spaces between words, as cgx writes them). */
static bool next_word(const char **pos, const char *end, const char **start, const char **stop)
{
	const char *p = *pos;

	if (p >= end)
		return false;
	*start = p;
	while (p < end && *p != ' ')
		p++;
	*stop = p;
	*pos = p < end ? p + 1 : p;
	return *stop > *start;
}

static const char *cpu_max(const char *p, const char *end)
{
	const char *a, *b, *c, *d;
	unsigned long long quota, period;

	if (!next_word(&p, end, &a, &b))
		return "cpu.max: no quota";
	if (!next_word(&p, end, &c, &d))
		return word_is(a, b, "max") ? NULL : "cpu.max: a quota without its period";
	if (p != end && *p)
		return "cpu.max: more than quota and period";
	if (!u64_of(c, d, &period) || period < MIN_PERIOD_US || period > MAX_PERIOD_US)
		return "cpu.max: period outside 1000..1000000";
	if (word_is(a, b, "max"))
		return NULL;
	if (!u64_of(a, b, &quota) || quota < MIN_PERIOD_US || quota > MAX_RUNTIME_US)
		return "cpu.max: quota neither max nor 1000..2^44-1";
	return NULL;
}

/* "MAJ:MIN key=value ...", each key one of @keys, each value max or a number to @limit. */
static const char *keyed_line(const char *p, const char *end, bool device_numbers,
			      const char *const *keys, unsigned long long limit)
{
	const char *a, *b;
	bool any = false;

	if (!next_word(&p, end, &a, &b))
		return "no device";
	if (device_numbers) {
		const char *colon = memchr(a, ':', b - a);
		unsigned long long major, minor;

		if (!colon || !u64_of(a, colon, &major) || !u64_of(colon + 1, b, &minor))
			return "device is not MAJ:MIN";
	}
	while (next_word(&p, end, &a, &b)) {
		const char *eq = memchr(a, '=', b - a);
		bool known = false;

		for (unsigned int i = 0; eq && keys[i]; i++)
			known |= word_is(a, eq, keys[i]);
		if (!known)
			return "unknown key";
		if (!max_or_u64(eq + 1, b, limit))
			return "value neither max nor a number in range";
		any = true;
	}
	return any ? NULL : "no key=value";
}

/* Every line of @text through @check (io.max takes one line per write; cgx writes one). */
static const char *io_max(const char *p, const char *end)
{
	static const char *const keys[] = {"rbps", "wbps", "riops", "wiops", NULL};

	if (memchr(p, '\n', end - p))
		return "io.max: more than one line in a write";
	return keyed_line(p, end, true, keys, ~0ULL);
}

static const char *rdma_max(const char *p, const char *end)
{
	static const char *const keys[] = {"hca_handle", "hca_object", NULL};

	return keyed_line(p, end, false, keys, 0x7fffffffULL);
}

static const char *misc_max(const char *p, const char *end)
{
	const char *a, *b, *c, *d;
	unsigned long long value;
	char number[64];

	if (!next_word(&p, end, &a, &b) || !next_word(&p, end, &c, &d) || p != end)
		return "misc.max: not \"RESOURCE VALUE\"";
	/* misc_cg_max_write(): kstrtou64 with base 0, so 0x10 and 010 too. */
	if (word_is(c, d, "max"))
		return NULL;
	if ((size_t)(d - c) >= sizeof(number))
		return "misc.max: value too long";
	memcpy(number, c, d - c);
	number[d - c] = '\0';
	return kstrtoull(number, 0, &value) == 0 ? NULL : "misc.max: value neither max nor a u64";
}

static const char *subtree_control(const char *p, const char *end)
{
	const char *a, *b;

	while (next_word(&p, end, &a, &b))
		if ((*a != '+' && *a != '-') || b - a < 2)
			return "cgroup.subtree_control: a word without + or -";
	return NULL;
}

static bool has_suffix(const char *file, const char *suffix)
{
	size_t len = strlen(file), slen = strlen(suffix);

	return len >= slen && !strcmp(file + len - slen, suffix);
}

const char *v2_syntax_check(const char *file, const char *text, size_t len)
{
	const char *end = text + len;
	unsigned long long value;

	/* kernfs hands the handler the bytes; every handler here strips one trailing newline. */
	if (len && end[-1] == '\n')
		end--;
	if (memchr(text, '\0', end - text))
		return "a NUL inside the value";
	if (!strcmp(file, "cpu.weight"))
		return u64_of(text, end, &value) && value >= WEIGHT_MIN && value <= WEIGHT_MAX
			       ? NULL
			       : "cpu.weight: not 1..10000";
	if (!strcmp(file, "cpu.max"))
		return cpu_max(text, end);
	if (!strcmp(file, "cpu.max.burst"))
		return u64_of(text, end, &value) && value <= MAX_RUNTIME_US
			       ? NULL
			       : "cpu.max.burst: not 0..2^44-1";
	if (!strcmp(file, "cpu.idle") || !strcmp(file, "cgroup.freeze"))
		return word_is(text, end, "0") || word_is(text, end, "1") ? NULL : "not 0 or 1";
	if (!strcmp(file, "memory.max") || !strcmp(file, "memory.high") ||
	    !strcmp(file, "memory.low") || !strcmp(file, "memory.min") ||
	    !strcmp(file, "memory.swap.max") ||
	    (!strncmp(file, "hugetlb.", 8) && has_suffix(file, ".max")))
		return max_or_u64(text, end, ~0ULL) ? NULL : "memory limit: neither max nor bytes";
	if (!strcmp(file, "memory.reclaim"))
		return u64_of(text, end, &value) ? NULL : "memory.reclaim: not a byte count";
	if (!strcmp(file, "pids.max"))
		return max_or_u64(text, end, PID_MAX_LIMIT)
			       ? NULL
			       : "pids.max: neither max nor 0..4194304";
	if (!strcmp(file, "io.max"))
		return io_max(text, end);
	if (!strcmp(file, "rdma.max"))
		return rdma_max(text, end);
	if (!strcmp(file, "misc.max"))
		return misc_max(text, end);
	if (!strcmp(file, "cgroup.subtree_control"))
		return subtree_control(text, end);
	if (!strcmp(file, "cgroup.procs") || !strcmp(file, "cgroup.threads"))
		return u64_of(text, end, &value) && value > 0 && value <= PID_MAX_LIMIT
			       ? NULL
			       : "not a pid";
	if (!strcmp(file, "cpuset.cpus") || !strcmp(file, "cpuset.mems")) {
		char copy[8192];
		struct cpulist list;

		if ((size_t)(end - text) >= sizeof(copy))
			return "cpuset list longer than a page";
		memcpy(copy, text, end - text);
		copy[end - text] = '\0';
		return cpulist_parse(copy, CPULIST_MAX_BITS, &list) == 0 ? NULL : "not a cpu list";
	}
	return "no v2 syntax known for this file";
}
