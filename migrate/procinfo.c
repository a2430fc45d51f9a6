// SPDX-License-Identifier: GPL-2.0-or-later
#include "procinfo.h"

#include "proc_identity.h"

/* The same reading the deprecation log makes of a writer (enforcer/proc_identity.c). */
int procinfo_fill(struct mig_task *task)
{
	struct proc_identity id;
	int r;

	if ((r = proc_identity_read(task->pid, &id)) < 0)
		return r;
	/* The task takes the strings over; @id keeps nothing to release. */
	task->comm = id.comm;
	task->exe = id.exe;
	task->script = id.script;
	task->argv = id.argv;
	task->argc = id.argc;
	return 0;
}

const char *procinfo_program(const struct mig_task *task)
{
	const struct proc_identity id = {
		.comm = task->comm, .exe = task->exe, .script = task->script};

	return proc_identity_program(&id);
}
