// SPDX-License-Identifier: GPL-2.0-or-later
#include "procinfo.h"

#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *const interpreters[] = {
	"sh",	   "bash", "dash", "ash", "zsh",   "ksh",  "mksh",
	"busybox", "perl", "ruby", "lua", "tclsh", "node", "php",
};

static bool is_interpreter(const char *comm)
{
	if (!strncmp(comm, "python", 6))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(interpreters); i++)
		if (!strcmp(comm, interpreters[i]))
			return true;
	return false;
}

static int proc_link(pid_t pid, const char *what, char **out)
{
	char path[64], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	n = readlink(path, target, sizeof(target) - 1);
	target[n < 0 ? 0 : n] = '\0';
	*out = strdup(target);
	return *out ? 0 : -ENOMEM;
}

static int read_argv(struct mig_task *task)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	char path[64];
	unsigned int argc = 0;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)task->pid);
	if (read_file_at(AT_FDCWD, path, &text) < 0 || !text.len)
		return 0;
	for (size_t i = 0; i < text.len; i++)
		argc += text.buf[i] == '\0';
	if (text.buf[text.len - 1] != '\0')
		argc++;
	if (!(task->argv = calloc(argc, sizeof(*task->argv))))
		return -ENOMEM;
	for (size_t off = 0; off < text.len && task->argc < argc; task->argc++) {
		size_t len = strnlen(text.buf + off, text.len - off);

		if (!(task->argv[task->argc] = strndup(text.buf + off, len)))
			return -ENOMEM;
		off += len + 1;
	}
	return 0;
}

/* "sh x.sh": the absolute path of x.sh, as the deprecation log records it. */
static int find_script(struct mig_task *task)
{
	_cleanup_free_ char *cwd = NULL;
	const char *arg = NULL;
	int r;

	const char *exe_name = strrchr(task->exe, '/') ? strrchr(task->exe, '/') + 1 : task->exe;

	if (!is_interpreter(task->comm) && !(exe_name[0] && is_interpreter(exe_name)))
		return 0;
	for (unsigned int i = 1; i < task->argc; i++) {
		if (task->argv[i][0] == '-') {
			/* "sh -c CMD" runs no file. */
			if (!strcmp(task->argv[i], "-c"))
				return 0;
			continue;
		}
		arg = task->argv[i];
		break;
	}
	if (!arg)
		return 0;
	if (arg[0] == '/') {
		free(task->script);
		return (task->script = strdup(arg)) ? 0 : -ENOMEM;
	}
	if ((r = proc_link(task->pid, "cwd", &cwd)) < 0)
		return r;
	free(task->script);
	if (!cwd[0])
		return (task->script = strdup(arg)) ? 0 : -ENOMEM;
	return asprintf(&task->script, "%s/%s", strcmp(cwd, "/") ? cwd : "", arg) < 0 ? -ENOMEM : 0;
}

int procinfo_fill(struct mig_task *task)
{
	_cleanup_strbuf_ struct strbuf comm = STRBUF_INIT;
	char path[64];
	int r;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)task->pid);
	if (read_file_at(AT_FDCWD, path, &comm) < 0 && (r = strbuf_add(&comm, "", 0)) < 0)
		return r;
	if (comm.len && comm.buf[comm.len - 1] == '\n')
		comm.buf[--comm.len] = '\0';
	if (!(task->comm = strdup(comm.buf ? comm.buf : "")) ||
	    (r = proc_link(task->pid, "exe", &task->exe)) < 0 || (r = read_argv(task)) < 0)
		return -ENOMEM;
	if (!(task->script = strdup("")))
		return -ENOMEM;
	return find_script(task);
}

const char *procinfo_program(const struct mig_task *task)
{
	if (task->script && task->script[0])
		return task->script;
	if (task->exe && task->exe[0])
		return task->exe;
	if (task->comm && task->comm[0])
		return task->comm;
	return "(gone)";
}
