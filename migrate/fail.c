// SPDX-License-Identifier: GPL-2.0-or-later
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void say(const char *level, int err, const char *fmt, va_list ap)
{
	fprintf(stderr, "cgx-migrate: %s", level);
	vfprintf(stderr, fmt, ap);
	if (err < 0)
		fprintf(stderr, ": %s", strerror(-err));
	fputc('\n', stderr);
}

int mig_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", err, fmt, ap);
	va_end(ap);
	return err;
}

void mig_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", 0, fmt, ap);
	va_end(ap);
}
