/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who a process is, as the deprecation log and cgx-migrate name it: its
 * parent, uid, the user it is accountable to, comm, executable, command line and, for an
 * interpreter, the script it runs. Read from /proc; a process gone leaves the strings empty.
 */
#ifndef CGX_PROC_IDENTITY_H
#define CGX_PROC_IDENTITY_H

#include "proc_account.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct proc_identity {
	pid_t pid, ppid;
	uid_t uid;
	struct proc_account account; /* whom the daemon's per-user bounds charge */
	char *comm;
	char *exe;
	char **argv;
	unsigned int argc;
	bool argv_cut; /* the command line was longer than what was read of it */
	/* Absolute path of the script an interpreter runs ("sh x.sh"), "" when none. */
	char *script;
};

/* -ENOMEM only: whatever /proc no longer has is left empty. */
int proc_identity_read(pid_t pid, struct proc_identity *id);
/*
 * The same, reading no more than @cmdline_max bytes of the command line: a
 * process may hold megabytes there, and the deprecation log keeps a few
 * kilobytes of it.
 */
int proc_identity_read_max(pid_t pid, size_t cmdline_max, struct proc_identity *id);
void proc_identity_release(struct proc_identity *id);
/* What a report names a process by: the script, else the executable, else comm. */
const char *proc_identity_program(const struct proc_identity *id);

#define _cleanup_proc_identity_ __attribute__((cleanup(proc_identity_release)))

#endif
