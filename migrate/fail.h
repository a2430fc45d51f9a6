/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages of a command-line tool: "cgx-migrate: what: why" on stderr, and
 * the error returned, so that a failure is reported and propagated in one
 * line (the daemon's cgx_log_errno prefixes "cgxfs" and may go to syslog).
 */
#ifndef CGX_MIGRATE_FAIL_H
#define CGX_MIGRATE_FAIL_H

/* Prints the message, with strerror(-@err) appended when @err is negative; returns @err. */
int mig_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mig_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
