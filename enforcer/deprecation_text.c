// SPDX-License-Identifier: GPL-2.0-or-later
#include "deprecation_text.h"

#include <stdio.h>
#include <string.h>

/* The length of the well-formed UTF-8 sequence at @s (RFC 3629), 0 when there is none. */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
	unsigned char second_min = 0x80, second_max = 0xbf;
	size_t need;

	if (s[0] && s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		/* No overlong forms, no UTF-16 surrogates. */
		second_min = s[0] == 0xe0 ? 0xa0 : 0x80;
		second_max = s[0] == 0xed ? 0x9f : 0xbf;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		/* No overlong forms, nothing past U+10FFFF. */
		second_min = s[0] == 0xf0 ? 0x90 : 0x80;
		second_max = s[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (len < need || s[1] < second_min || s[1] > second_max)
		return 0;
	for (size_t i = 2; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return need;
}

/* What json-c writes for an ASCII byte: \" \\ \b \f \n \r \t, \u00XX for other controls. */
static size_t json_cost(unsigned char c)
{
	switch (c) {
	case '"':
	case '\\':
	case '\b':
	case '\f':
	case '\n':
	case '\r':
	case '\t':
		return 2;
	default:
		return c < 0x20 ? 6 : 1;
	}
}

size_t log_text_copy(char *dst, size_t size, const char *src, size_t len, size_t json_budget,
		     bool *cut)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
	const unsigned char *in = (const unsigned char *)src;
	size_t out = 0, cost = 0, i = 0;

	*cut = false;
	while (i < len) {
		size_t seq = utf8_sequence(in + i, len - i);
		size_t bytes = seq ? seq : sizeof(replacement) - 1;
		size_t json = seq == 1 ? json_cost(in[i]) : bytes;

		if (out + bytes >= size || cost + json > json_budget) {
			*cut = true;
			break;
		}
		memcpy(dst + out, seq ? src + i : replacement, bytes);
		out += bytes;
		cost += json;
		i += seq ? seq : 1;
	}
	if (size)
		dst[out] = '\0';
	return cost;
}

void log_text_printable(char *dst, size_t size, const char *src)
{
	size_t out = 0;

	if (!size)
		return;
	for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
		char spelled[8];
		size_t n = 1;

		if (*s < 0x20 || *s == 0x7f)
			n = (size_t)snprintf(spelled, sizeof(spelled), "\\x%02x", *s);
		else
			spelled[0] = (char)*s;
		if (out + n >= size) {
			/* Room for "...", and no character cut in two: the first byte left out
			 * is no continuation byte. */
			size_t keep = size > 4 ? size - 4 : 0;

			if (keep > out)
				keep = out;
			while (keep && keep < out && ((unsigned char)dst[keep] & 0xc0) == 0x80)
				keep--;
			out = keep;
			if (size > 4)
				out += (size_t)snprintf(dst + out, size - out, "...");
			break;
		}
		memcpy(dst + out, spelled, n);
		out += n;
	}
	dst[out] = '\0';
}

void log_text_warning(char *dst, size_t size, const char *kind, const char *program,
		      const char *unit, int pid, unsigned int uid, const char *detail)
{
	char printable_program[256], printable_unit[256], printable_detail[512];

	log_text_printable(printable_program, sizeof(printable_program), program);
	log_text_printable(printable_unit, sizeof(printable_unit), unit ? unit : "");
	log_text_printable(printable_detail, sizeof(printable_detail), detail ? detail : "");
	snprintf(dst, size, "deprecated: %s by %s%s%s (pid %d, uid %u)%s%s", kind,
		 printable_program, printable_unit[0] ? " for " : "", printable_unit, pid, uid,
		 printable_detail[0] ? ": " : "", printable_detail);
}
