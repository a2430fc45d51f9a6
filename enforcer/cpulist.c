// SPDX-License-Identifier: GPL-2.0-or-later
#include "cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

struct region {
	unsigned int start, end, off, group_len;
};

static bool end_of_str(char c)
{
	return c == '\0' || c == '\n';
}

static bool between_regions(char c)
{
	return isspace((unsigned char)c) || c == ',';
}

static bool end_of_region(char c)
{
	return between_regions(c) || end_of_str(c);
}

/* bitmap_getnum(): a decimal u32, or "N" for the last bit. */
static const char *get_number(const char *s, unsigned int last_bit, unsigned int *num, int *err)
{
	unsigned long long n = 0;
	const char *p = s;

	if (*s == 'N') {
		*num = last_bit;
		return s + 1;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (unsigned int)(*p - '0');
		if (n > UINT32_MAX) {
			*err = -EOVERFLOW;
			return NULL;
		}
	}
	if (p == s) {
		*err = -EINVAL;
		return NULL;
	}
	*num = (unsigned int)n;
	return p;
}

/* bitmap_parse_region(): "a", "a-b" or "a-b:off/len"; returns where the next one may start. */
static const char *parse_region(const char *s, unsigned int last_bit, struct region *r, int *err)
{
	if (!(s = get_number(s, last_bit, &r->start, err)))
		return NULL;
	if (end_of_region(*s)) {
		r->end = r->start;
		goto no_pattern;
	}
	if (*s != '-')
		goto invalid;
	if (!(s = get_number(s + 1, last_bit, &r->end, err)))
		return NULL;
	if (end_of_region(*s))
		goto no_pattern;
	if (*s != ':')
		goto invalid;
	if (!(s = get_number(s + 1, last_bit, &r->off, err)))
		return NULL;
	if (*s != '/')
		goto invalid;
	return get_number(s + 1, last_bit, &r->group_len, err);
no_pattern:
	r->off = r->end + 1;
	r->group_len = r->end + 1;
	return s;
invalid:
	*err = -EINVAL;
	return NULL;
}

static void set_bit_in(struct cpulist *list, unsigned int bit)
{
	list->bits[bit / 64] |= 1ULL << (bit % 64);
}

static bool test_bit_in(const struct cpulist *list, unsigned int bit)
{
	return list->bits[bit / 64] >> (bit % 64) & 1;
}

int cpulist_parse(const char *text, unsigned int nbits, struct cpulist *list)
{
	const char *s = text;
	int err = 0;

	memset(list, 0, sizeof(*list));
	if (nbits > CPULIST_MAX_BITS)
		nbits = CPULIST_MAX_BITS;
	for (;;) {
		struct region r;

		while (between_regions(*s))
			s++;
		if (end_of_str(*s))
			return 0;
		if (!(s = parse_region(s, nbits ? nbits - 1 : 0, &r, &err)))
			return err;
		/* bitmap_check_region(), then bitmap_set_region() */
		if (r.start > r.end || r.group_len == 0 || r.off > r.group_len)
			return -EINVAL;
		if (r.end >= nbits)
			return -ERANGE;
		for (unsigned int start = r.start; start <= r.end; start += r.group_len) {
			for (unsigned int bit = start; bit < start + r.off && bit <= r.end; bit++)
				set_bit_in(list, bit);
			if (start + r.group_len < start)
				break; /* wrapped: past any bit */
		}
	}
}

int cpulist_format(const struct cpulist *list, struct strbuf *out)
{
	bool first = true;
	int r;

	for (unsigned int bit = 0; bit < CPULIST_MAX_BITS; bit++) {
		unsigned int end = bit;

		if (!test_bit_in(list, bit))
			continue;
		while (end + 1 < CPULIST_MAX_BITS && test_bit_in(list, end + 1))
			end++;
		r = end == bit ? strbuf_addf(out, "%s%u", first ? "" : ",", bit)
			       : strbuf_addf(out, "%s%u-%u", first ? "" : ",", bit, end);
		if (r < 0)
			return r;
		first = false;
		bit = end;
	}
	return strbuf_add(out, "\n", 1);
}

bool cpulist_empty(const struct cpulist *list)
{
	for (size_t i = 0; i < ARRAY_SIZE(list->bits); i++)
		if (list->bits[i])
			return false;
	return true;
}

bool cpulist_subset(const struct cpulist *sub, const struct cpulist *of)
{
	for (size_t i = 0; i < ARRAY_SIZE(sub->bits); i++)
		if (sub->bits[i] & ~of->bits[i])
			return false;
	return true;
}

bool cpulist_intersects(const struct cpulist *a, const struct cpulist *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(a->bits); i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

bool cpulist_equal(const struct cpulist *a, const struct cpulist *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}
