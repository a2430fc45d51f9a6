/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which /proc files cgx-exec answers, and their content. */
#ifndef CGX_EXEC_PROC_FILES_H
#define CGX_EXEC_PROC_FILES_H

#include "decode.h"
#include "notif.h"
#include "util.h"

#include <sys/types.h>

int proc_file_content(struct supervisor *sup, enum proc_file file, pid_t subject,
		      struct strbuf *out);
const char *proc_file_name(enum proc_file file);

#endif
