// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgx-exec: runs a command and its descendants on a v1 host made of a cgxfs
 * view. The command runs in a child with its own mount namespace and a
 * seccomp filter; a supervisor answers what the filter sends, and stays
 * while any process under the filter lives, after the command itself ended.
 */
#include "fdpass.h"
#include "filter.h"
#include "ns.h"
#include "supervisor.h"
#include "view.h"

#include "cgx.h"
#include "util.h"

#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define DEFAULT_MOUNT "/sys/fs/cgroup-compat"
/* env(1) and podman: 125 when cgx-exec itself fails, 126/127 when the command cannot run. */
#define EXIT_SETUP_FAILED 125

static void usage(FILE *out)
{
	fprintf(out, "usage: cgx-exec [--mount MOUNTPOINT] -- COMMAND [ARG...]\n"
		     "Runs COMMAND on a cgroup v1 host made of the cgxfs view at MOUNTPOINT\n"
		     "(default " DEFAULT_MOUNT ").\n");
}

/* The child: the namespace, the filter, the listener to the parent, then the command. */
static void run_command(const struct view *view, int sock, char **argv)
{
	int listener;

	if (ns_setup(view) < 0)
		_exit(EXIT_SETUP_FAILED);
	if ((listener = filter_install()) < 0)
		_exit(EXIT_SETUP_FAILED);
	if (fd_send(sock, listener) < 0) {
		cgx_log_errno(-errno, "cannot hand the listener over");
		_exit(EXIT_SETUP_FAILED);
	}
	/* The command must never hold its own listener. */
	close(listener);
	close(sock);
	execvp(argv[0], argv);
	fprintf(stderr, "cgx-exec: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/*
 * The supervisor runs in its own process and session, so that the command's
 * exit status is ours at once while its daemons are still served, and a ^C
 * meant for the command does not take the supervisor away.
 */
static int start_supervisor(struct supervisor *sup)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid > 0)
		return 0;
	setsid();
	/* Not holding the caller's pipes open: $(cgx-exec ...) ends with the command. */
	if (!getenv("CGX_EXEC_DEBUG")) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
		cgx_log_to_syslog(true);
	}
	_exit(supervisor_run(sup) < 0 ? 1 : 0);
}

static pid_t command_pid;

static void forward_signal(int sig)
{
	if (command_pid > 0)
		kill(command_pid, sig);
}

/*
 * SIGTERM and SIGHUP sent to cgx-exec go on to the command; ^C and ^\ reach
 * the command from the terminal already, and are ignored here as system() does.
 */
static int wait_command(pid_t pid)
{
	struct sigaction forward = {.sa_handler = forward_signal};
	struct sigaction ignore = {.sa_handler = SIG_IGN};
	int status;

	command_pid = pid;
	sigaction(SIGTERM, &forward, NULL);
	sigaction(SIGHUP, &forward, NULL);
	sigaction(SIGINT, &ignore, NULL);
	sigaction(SIGQUIT, &ignore, NULL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_SETUP_FAILED;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"mount", required_argument, NULL, 'm'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *mount_point = DEFAULT_MOUNT;
	struct supervisor sup = {.listener = -1, .view_lock = PTHREAD_MUTEX_INITIALIZER};
	int socks[2], opt, r;
	pid_t pid;

	while ((opt = getopt_long(argc, argv, "+m:h", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			mount_point = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_SETUP_FAILED;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_SETUP_FAILED;
	}
	if ((r = view_open(&sup.view, mount_point)) < 0) {
		cgx_log_errno(r, "%s is no running cgxfs view", mount_point);
		return EXIT_SETUP_FAILED;
	}
	if ((r = cgx_find_cgroup2(sup.cgroup2, sizeof(sup.cgroup2))) < 0) {
		cgx_log_errno(r, "no cgroup2 mount");
		return EXIT_SETUP_FAILED;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, socks) < 0) {
		cgx_log_errno(-errno, "socketpair");
		return EXIT_SETUP_FAILED;
	}
	pid = fork();
	if (pid < 0) {
		cgx_log_errno(-errno, "fork");
		return EXIT_SETUP_FAILED;
	}
	if (pid == 0) {
		close(socks[0]);
		run_command(&sup.view, socks[1], argv + optind);
	}
	close(socks[1]);
	sup.listener = fd_receive(socks[0]);
	close(socks[0]);
	if (sup.listener >= 0) {
		if ((r = start_supervisor(&sup)) < 0) {
			/* Nobody would answer: the command must not run on. */
			cgx_log_errno(r, "cannot start the supervisor");
			kill(pid, SIGKILL);
		}
		close(sup.listener);
	}
	view_close(&sup.view);
	return wait_command(pid);
}
