// SPDX-License-Identifier: GPL-2.0-or-later
#include "proc_identity.h"

#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Programs whose first non-option argument is the file they run. */
static const char *const interpreters[] = {
	"sh",	   "bash", "dash", "ash", "zsh",   "ksh",  "mksh",
	"busybox", "perl", "ruby", "lua", "tclsh", "node", "php",
};

static bool is_interpreter(const char *name)
{
	if (!strncmp(name, "python", 6))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(interpreters); i++)
		if (!strcmp(name, interpreters[i]))
			return true;
	return false;
}

static char *proc_link(pid_t pid, const char *what)
{
	char path[64], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, what);
	n = readlink(path, target, sizeof(target) - 1);
	target[n < 0 ? 0 : n] = '\0';
	return strdup(target);
}

/* /proc/PID/cmdline up to @max bytes: the kernel copies only what a read asks for. */
static int read_cmdline(pid_t pid, size_t max, struct strbuf *text, bool *cut)
{
	char path[64], chunk[4096];
	_cleanup_close_ int fd = -1;
	ssize_t n;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if ((r = strbuf_add(text, "", 0)) < 0)
		return r;
	/* One byte past @max tells whether there was more. */
	while (text->len <= max) {
		size_t want = max + 1 - text->len;

		if ((n = read(fd, chunk, want < sizeof(chunk) ? want : sizeof(chunk))) <= 0)
			break;
		if ((r = strbuf_add(text, chunk, (size_t)n)) < 0)
			return r;
	}
	if (text->len > max) {
		text->len = max;
		*cut = true;
	}
	return 0;
}

static int read_argv(struct proc_identity *id, size_t max)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	unsigned int argc = 0;
	int r;

	if ((r = read_cmdline(id->pid, max, &text, &id->argv_cut)) == -ENOMEM)
		return r;
	if (r < 0 || !text.len)
		return 0;
	for (size_t i = 0; i < text.len; i++)
		argc += text.buf[i] == '\0';
	/* A process that rewrote its arguments may leave no final NUL. */
	if (text.buf[text.len - 1] != '\0')
		argc++;
	if (!(id->argv = calloc(argc, sizeof(*id->argv))))
		return -ENOMEM;
	for (size_t off = 0; off < text.len && id->argc < argc; id->argc++) {
		size_t len = strnlen(text.buf + off, text.len - off);

		if (!(id->argv[id->argc] = strndup(text.buf + off, len)))
			return -ENOMEM;
		off += len + 1;
	}
	return 0;
}

/* "sh x.sh": x.sh made absolute against the process's cwd; "sh -c CMD" runs no file. */
static int find_script(struct proc_identity *id)
{
	const char *exe_name = strrchr(id->exe, '/') ? strrchr(id->exe, '/') + 1 : id->exe;
	_cleanup_free_ char *cwd = NULL;
	const char *arg = NULL;

	if (!is_interpreter(id->comm) && !(exe_name[0] && is_interpreter(exe_name)))
		return 0;
	for (unsigned int i = 1; i < id->argc && !arg; i++) {
		if (!strcmp(id->argv[i], "-c"))
			return 0;
		if (id->argv[i][0] != '-')
			arg = id->argv[i];
	}
	if (!arg)
		return 0;
	free(id->script);
	id->script = NULL;
	if (arg[0] == '/')
		return (id->script = strdup(arg)) ? 0 : -ENOMEM;
	if (!(cwd = proc_link(id->pid, "cwd")))
		return -ENOMEM;
	if (!cwd[0])
		return (id->script = strdup(arg)) ? 0 : -ENOMEM;
	return asprintf(&id->script, "%s/%s", strcmp(cwd, "/") ? cwd : "", arg) < 0 ? -ENOMEM : 0;
}

/* Parent and real uid from /proc/PID/status; a process gone leaves them 0. */
static void read_status(struct proc_identity *id)
{
	_cleanup_strbuf_ struct strbuf status = STRBUF_INIT;
	char path[64];
	const char *field;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)id->pid);
	if (read_file_at(AT_FDCWD, path, &status) < 0)
		return;
	if ((field = strstr(status.buf, "\nPPid:")))
		id->ppid = (pid_t)strtol(field + 6, NULL, 10);
	if ((field = strstr(status.buf, "\nUid:")))
		id->uid = (uid_t)strtoul(field + 5, NULL, 10);
}

int proc_identity_read(pid_t pid, struct proc_identity *id)
{
	return proc_identity_read_max(pid, SIZE_MAX - 1, id);
}

int proc_identity_read_max(pid_t pid, size_t cmdline_max, struct proc_identity *id)
{
	_cleanup_strbuf_ struct strbuf comm = STRBUF_INIT;
	char path[64];

	*id = (struct proc_identity){.pid = pid};
	/* Read once a request: the caller of each of the daemon's per-user bounds. */
	(void)proc_account_read(pid, &id->account);
	read_status(id);
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (read_file_at(AT_FDCWD, path, &comm) < 0)
		comm.len = 0;
	if (comm.len && comm.buf[comm.len - 1] == '\n')
		comm.len--;
	if (!(id->comm = strndup(comm.len ? comm.buf : "", comm.len)) ||
	    !(id->exe = proc_link(pid, "exe")) || !(id->script = strdup("")) ||
	    read_argv(id, cmdline_max) < 0 || find_script(id) < 0) {
		proc_identity_release(id);
		return -ENOMEM;
	}
	return 0;
}

void proc_identity_release(struct proc_identity *id)
{
	for (unsigned int i = 0; i < id->argc; i++)
		free(id->argv[i]);
	free(id->argv);
	free(id->comm);
	free(id->exe);
	free(id->script);
	*id = (struct proc_identity){0};
}

const char *proc_identity_program(const struct proc_identity *id)
{
	if (id->script && id->script[0])
		return id->script;
	if (id->exe && id->exe[0])
		return id->exe;
	if (id->comm && id->comm[0])
		return id->comm;
	return "(gone)";
}
