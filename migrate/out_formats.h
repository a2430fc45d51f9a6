/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report in each format (out_text.c, out_md.c, out_html.c, out_json.c); out.c picks one. */
#ifndef CGX_MIGRATE_OUT_FORMATS_H
#define CGX_MIGRATE_OUT_FORMATS_H

#include "model.h"

#include <stdbool.h>
#include <stdio.h>

struct json_object;

int render_text(FILE *out, const struct mig_report *report, bool colour);
int render_markdown(FILE *out, const struct mig_report *report);
int render_html(FILE *out, const struct mig_report *report);
/* The report as JSON (schema cgx-migrate/1, migrate/README.md); NULL on -ENOMEM. */
struct json_object *report_to_json(const struct mig_report *report);

#endif
