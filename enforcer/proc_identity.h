/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who a process is, as the deprecation log and cgx-migrate name it: its
 * parent, uid, comm, executable, command line and, for an interpreter, the
 * script it runs. Read from /proc; a process gone leaves the strings empty.
 */
#ifndef CGX_PROC_IDENTITY_H
#define CGX_PROC_IDENTITY_H

#include <sys/types.h>

struct proc_identity {
	pid_t pid, ppid;
	uid_t uid;
	char *comm;
	char *exe;
	char **argv;
	unsigned int argc;
	/* Absolute path of the script an interpreter runs ("sh x.sh"), "" when none. */
	char *script;
};

/* -ENOMEM only: whatever /proc no longer has is left empty. */
int proc_identity_read(pid_t pid, struct proc_identity *id);
void proc_identity_release(struct proc_identity *id);
/* What a report names a process by: the script, else the executable, else comm. */
const char *proc_identity_program(const struct proc_identity *id);

#define _cleanup_proc_identity_ __attribute__((cleanup(proc_identity_release)))

#endif
