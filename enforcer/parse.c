// SPDX-License-Identifier: GPL-2.0-or-later
#include "parse.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (tolower((unsigned char)s[1]) == 'x' && isxdigit((unsigned char)s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

static int parse_digits(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long acc = 0;
	const char *start;
	bool overflow = false;

	s = fixup_radix(s, &base);
	start = s;
	for (;; s++) {
		unsigned int digit;
		int c = tolower((unsigned char)*s);

		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (c >= 'a' && c <= 'f')
			digit = c - 'a' + 10;
		else
			break;
		if (digit >= base)
			break;
		if (acc > (ULLONG_MAX - digit) / base)
			overflow = true;
		acc = acc * base + digit;
	}
	if (s == start)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = acc;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return parse_digits(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long magnitude;
	int r;

	if (s[0] == '-') {
		r = parse_digits(s + 1, base, &magnitude);
		if (r < 0)
			return r;
		if (magnitude > (unsigned long long)LLONG_MAX + 1)
			return -ERANGE;
		*res = magnitude == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN
								      : -(long long)magnitude;
		return 0;
	}
	r = kstrtoull(s, base, &magnitude);
	if (r < 0)
		return r;
	if (magnitude > LLONG_MAX)
		return -ERANGE;
	*res = (long long)magnitude;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long wide;
	int r = kstrtoll(s, base, &wide);

	if (r < 0)
		return r;
	if (wide < INT_MIN || wide > INT_MAX)
		return -ERANGE;
	*res = (int)wide;
	return 0;
}

char *strstrip(char *s)
{
	size_t len = strlen(s);

	while (len && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

int kstrtoint_strict_pid(char *buf, int *pid)
{
	if (kstrtoint(strstrip(buf), 0, pid) < 0 || *pid < 0)
		return -EINVAL;
	return 0;
}

int kscan_ull(const char **s, unsigned long long *res)
{
	const char *c = *s;
	unsigned long long value = 0;

	while (isspace((unsigned char)*c))
		c++;
	if (!isdigit((unsigned char)*c))
		return -EINVAL;
	for (; isdigit((unsigned char)*c); c++)
		value = value * 10 + (*c - '0');
	*res = value;
	*s = c;
	return 0;
}

unsigned long long memparse(const char *s, const char **end)
{
	unsigned int base = 0;
	unsigned long long value = 0;
	const char *c = fixup_radix(s, &base);
	int shift = 0;

	for (;; c++) {
		int ch = tolower((unsigned char)*c);
		unsigned int digit;

		if (ch >= '0' && ch <= '9')
			digit = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			digit = ch - 'a' + 10;
		else
			break;
		if (digit >= base)
			break;
		value = value * base + digit; /* wraps, as simple_strtoull */
	}
	if (c == s + 2 && base == 16)
		c = s; /* "0x" with no digit took nothing */
	switch (*c) {
	case 'E':
	case 'e':
		shift += 10; /* fall through */
	case 'P':
	case 'p':
		shift += 10; /* fall through */
	case 'T':
	case 't':
		shift += 10; /* fall through */
	case 'G':
	case 'g':
		shift += 10; /* fall through */
	case 'M':
	case 'm':
		shift += 10; /* fall through */
	case 'K':
	case 'k':
		shift += 10;
		c++;
		break;
	default:
		break;
	}
	*end = c;
	return shift >= 64 ? 0 : value << shift;
}
