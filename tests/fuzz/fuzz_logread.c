// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the deprecation log reader on arbitrary bytes. A log
 * is written by a daemon that may die mid-line or share the file with
 * others; whatever is in it, the reader counts, skips or refuses, and
 * never crashes or leaks.
 */
#include "logread.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct log_summary log;
	FILE *in;

	if (!size)
		return 0;
	if (!(in = fmemopen((void *)data, size, "r")))
		return 0;
	log_summary_init(&log, "fuzz");
	/* An unknown version is a refusal, not a failure of the reader. */
	(void)log_read_stream(&log, in);
	log_summary_finish(&log);
	if (log.records + log.corrupt + log.blank + log.capped > log.lines)
		__builtin_trap();
	log_summary_release(&log);
	fclose(in);
	return 0;
}
