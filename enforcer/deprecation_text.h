/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text as the deprecation log keeps it. What a process says of itself (its
 * comm, executable, command line, script) and what a user names (groups) is
 * hostile input: the log keeps it as valid UTF-8 (a byte that is not becomes
 * U+FFFD), cut to a bound counted after JSON escaping, so that no field of a
 * line grows past what the log allows; syslog gets it with control
 * characters spelled out, so that a name cannot forge a line of its own.
 */
#ifndef CGX_DEPRECATION_TEXT_H
#define CGX_DEPRECATION_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Copies @src (@len bytes) into @dst as valid UTF-8, at most @size - 1
 * bytes and NUL-terminated, stopping at the last whole character whose JSON
 * form (as json-c writes it, '/' not escaped) still fits in @json_budget
 * bytes. Returns the bytes of that JSON form, quotes not counted; *@cut is
 * set when something of @src was left out.
 */
size_t log_text_copy(char *dst, size_t size, const char *src, size_t len, size_t json_budget,
		     bool *cut);

/*
 * Copies @src into @dst for a syslog message: bytes below 0x20 and 0x7f as
 * "\xNN", cut with "..." to fit @size.
 */
void log_text_printable(char *dst, size_t size, const char *src);

/*
 * The one-line warning of a record, as syslog and the journal's MESSAGE
 * say it: "deprecated: KIND by PROGRAM[ for UNIT] (pid P, uid U)[: DETAIL]",
 * each text made printable, in @size bytes of @dst.
 */
void log_text_warning(char *dst, size_t size, const char *kind, const char *program,
		      const char *unit, int pid, unsigned int uid, const char *detail);

#endif
