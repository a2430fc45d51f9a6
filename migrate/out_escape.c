// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text a report shows but did not write itself: group names, comm, program
 * paths, values, log examples. Any process picks its comm and any delegated
 * user its group names, so a report read on a terminal must not pass on a
 * control character (ESC starts a terminal command, CR overwrites the line),
 * a C1 control (U+009B is CSI to some terminals, byte 0x9b to 8-bit ones) or
 * a bidirectional override that reorders what the reader sees.
 */
#include "out_common.h"

#include <stdint.h>
#include <string.h>

/* The length of the well-formed UTF-8 character at @s and its code point, or 0. */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
	size_t len;
	uint32_t min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, min = 0x80, *cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, min = 0x800, *cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, min = 0x10000, *cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and code points past Unicode are no characters. */
	if (*cp < min || (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return len;
}

static bool unsafe_code_point(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t out_char_next(const char *text, bool *unsafe)
{
	uint32_t cp;
	size_t len = utf8_char((const unsigned char *)text, &cp);

	*unsafe = !len || unsafe_code_point(cp);
	return len ? len : 1;
}

const char *out_text_safe(const char *text, char *buf, size_t size)
{
	size_t used = 0;

	if (!size)
		return "";
	for (const char *c = text ? text : ""; *c;) {
		bool unsafe;
		size_t len = out_char_next(c, &unsafe), need = unsafe	    ? 4 * len
							       : *c == '\\' ? 2
									    : len;

		/* Cut at a character, never inside one or inside an escape. */
		if (used + need >= size)
			break;
		for (size_t i = 0; unsafe && i < len; i++)
			used += snprintf(buf + used, size - used, "\\x%02x", (unsigned char)c[i]);
		if (!unsafe && *c == '\\')
			buf[used++] = '\\';
		if (!unsafe)
			memcpy(buf + used, c, len), used += len;
		c += len;
	}
	buf[used] = '\0';
	return buf;
}

void out_put_safe(FILE *out, const char *text)
{
	for (const char *c = text ? text : ""; *c;) {
		bool unsafe;
		size_t len = out_char_next(c, &unsafe);

		for (size_t i = 0; unsafe && i < len; i++)
			fprintf(out, "\\x%02x", (unsigned char)c[i]);
		if (!unsafe)
			fprintf(out, "%s%.*s", *c == '\\' ? "\\" : "", (int)len, c);
		c += len;
	}
}

/*
 * json-c already writes C0 controls as \u00XX and passes every other byte on.
 * Bytes of 0x7f and above occur only inside strings, so they are rewritten
 * there: DEL, C1 and bidirectional controls as the same characters escaped
 * (nothing lost), and a byte that is no UTF-8 as \udcXX, the lone surrogate
 * Python's surrogateescape reads back as that byte (JSON must be UTF-8).
 */
void out_put_json(FILE *out, const char *json)
{
	for (const char *c = json; *c;) {
		uint32_t cp;
		size_t len = utf8_char((const unsigned char *)c, &cp);

		if (!len)
			fprintf(out, "\\udc%02x", (unsigned char)*c);
		else if (unsafe_code_point(cp) && cp >= 0x7f)
			fprintf(out, "\\u%04x", (unsigned int)cp);
		else
			fwrite(c, 1, len, out);
		c += len ? len : 1;
	}
}
