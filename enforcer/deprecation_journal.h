/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The deprecation log's lines as journal entries, for hosts whose logs go
 * to a fleet through journald (docs/deprecation-log.md, JOURNAL). A line
 * becomes one entry: MESSAGE_ID of its kind (kinds.h; dist/cgx.catalog
 * explains each), MESSAGE the warning syslog would give, and each of the
 * line's fields as CGX_<NAME> ("v2_path" becomes CGX_V2_PATH; an array or
 * object is its JSON text). The file and the journal carry the same lines:
 * the rate limit and the per-account budget decide for both.
 */
#ifndef CGX_DEPRECATION_JOURNAL_H
#define CGX_DEPRECATION_JOURNAL_H

#include <json-c/json.h>
#include <stdbool.h>

/* journald's socket, which sd_journal_send(3) writes to. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/* Whether journald listens here: its socket is there. */
bool deprecation_journal_present(void);

/*
 * Sends @line (a line of the log, not consumed) as one entry, with
 * SYSLOG_IDENTIFIER @identifier. Returns 0, -EINVAL for a line without a
 * known kind, or what sd_journal_sendv(3) returned.
 */
int deprecation_journal_send(struct json_object *line, const char *identifier);

#endif
