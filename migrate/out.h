/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output: the formats, and writing a file whole or not at all (a temporary
 * file in the same directory, renamed over the target once complete).
 */
#ifndef CGX_MIGRATE_OUT_H
#define CGX_MIGRATE_OUT_H

#include "model.h"

#include <stdbool.h>
#include <stdio.h>

struct json_object;

enum out_format { FMT_TEXT, FMT_JSON, FMT_MARKDOWN, FMT_HTML };

/* "text", "json", "markdown" (or "md"), "html"; -EINVAL with a message otherwise. */
int out_format_parse(const char *name, enum out_format *format);
/* As out_format_parse(), quietly: -EINVAL for a name that is no format. */
int out_format_lookup(const char *name, enum out_format *format);

/* Writes what @render produces into @path atomically, or to stdout when @path is NULL. */
int out_write(const char *path, int (*render)(FILE *out, void *data), void *data);

/* Whether text on stdout gets colour: a terminal, and NO_COLOR unset. */
bool out_colour_auto(const char *path);

struct render_args {
	const struct mig_report *report;
	enum out_format format;
	bool colour;
};
/* The report in args->format; the signature out_write() wants. */
int render_report(FILE *out, void *args);
/* @object serialised as out_put_json() writes it, and a newline. */
int render_json_object(FILE *out, struct json_object *object);

#endif
