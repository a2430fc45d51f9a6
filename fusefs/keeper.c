// SPDX-License-Identifier: GPL-2.0-or-later
#include "keeper.h"

#include "conn.h"
#include "notify.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A daemon that ends sooner than this after its start waits as long before the next. */
#define RESTART_PAUSE_S 1

struct keeper {
	const struct keeper_config *config;
	struct conn conn;
	sigset_t saved_mask;
	int signal_fd;
	int notify_fd;	      /* the daemons' $NOTIFY_SOCKET: READY=1 once serving */
	char notify_name[32]; /* "@" and the socket's abstract name */
	int ready_pipe;	      /* to the parent waiting in the foreground, until ready */
	pid_t child;
	time_t child_started;
	bool ready;	/* some daemon has served the view */
	bool replacing; /* SIGUSR2: start the next daemon at once */
	bool stopping;
	int result;
};

/*
 * Like fuse_daemonize(), but the parent returns only once a daemon serves
 * the view, with its failure otherwise; the keeper goes on in the child.
 */
static int daemonize(struct keeper *k)
{
	int fds[2];
	char ok = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if ((pid = fork()) < 0)
		return -errno;
	if (pid > 0) {
		close(fds[1]);
		_exit(read(fds[0], &ok, 1) == 1 && ok == 1 ? 0 : 1);
	}
	close(fds[0]);
	k->ready_pipe = fds[1];
	setsid();
	if (chdir("/") < 0)
		return -errno;
	return 0;
}

static int open_notify_socket(struct keeper *k)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	socklen_t len = sizeof(addr);
	int one = 1;

	if ((k->notify_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) < 0)
		return -errno;
	/* Autobind: the kernel picks a free abstract name. */
	if (bind(k->notify_fd, (struct sockaddr *)&addr, sizeof(sa_family_t)) < 0 ||
	    getsockname(k->notify_fd, (struct sockaddr *)&addr, &len) < 0 ||
	    setsockopt(k->notify_fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0)
		return -errno;
	len -= offsetof(struct sockaddr_un, sun_path);
	if (len < 2 || len >= sizeof(k->notify_name))
		return -ENAMETOOLONG;
	k->notify_name[0] = '@';
	memcpy(k->notify_name + 1, addr.sun_path + 1, len - 1);
	k->notify_name[len] = '\0';
	return 0;
}

static int spawn(struct keeper *k)
{
	pid_t pid = fork();

	if (pid < 0)
		return cgx_log_errno(-errno, "cannot start a daemon");
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &k->saved_mask, NULL);
		if (conn_hand_down(&k->conn) < 0 || setenv("NOTIFY_SOCKET", k->notify_name, 1) < 0)
			_exit(127);
		execv(k->config->daemon_argv[0], k->config->daemon_argv);
		cgx_log_errno(-errno, "cannot run %s", k->config->daemon_argv[0]);
		_exit(127);
	}
	k->child = pid;
	k->child_started = monotonic_ms() / 1000;
	return 0;
}

static void became_ready(struct keeper *k)
{
	const char ok = 1;

	k->ready = true;
	cgx_log(CGX_LOG_INFO, "keeping %s, served by pid %d", k->config->mountpoint, (int)k->child);
	notify_ready();
	if (k->ready_pipe >= 0) {
		if (write(k->ready_pipe, &ok, 1) != 1)
			cgx_log_errno(-errno, "cannot tell the caller the view is ready");
		close(k->ready_pipe);
		k->ready_pipe = -1;
		/* As fuse_daemonize(): no terminal from here on. */
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			close(null);
		}
		cgx_log_to_syslog(true);
	}
}

/* A READY=1 counts from the running daemon only: the socket's name is anyone's to find. */
static void read_notification(struct keeper *k)
{
	char buf[256];
	union {
		struct cmsghdr header;
		char space[CMSG_SPACE(sizeof(struct ucred))];
	} control;
	struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf) - 1};
	struct msghdr msg = {.msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = control.space,
			     .msg_controllen = sizeof(control.space)};
	ssize_t n;

	while ((n = recvmsg(k->notify_fd, &msg, MSG_CMSG_CLOEXEC)) >= 0) {
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
		struct ucred cred = {0};

		buf[n] = '\0';
		if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_CREDENTIALS)
			memcpy(&cred, CMSG_DATA(cmsg), sizeof(cred));
		if (cred.pid == k->child && k->child && strstr(buf, "READY=1") && !k->ready)
			became_ready(k);
		msg.msg_controllen = sizeof(control.space);
	}
}

static void stop(struct keeper *k)
{
	if (k->stopping)
		return;
	k->stopping = true;
	/*
	 * Lazily, as fuse_session_unmount(): processes inside keep the
	 * connection until they leave, and the daemon serves them until then.
	 */
	if (k->conn.fuse_fd >= 0 && umount2(k->config->mountpoint, MNT_DETACH) < 0 &&
	    errno != EINVAL)
		cgx_log_errno(-errno, "cannot unmount %s", k->config->mountpoint);
	if (k->child)
		kill(k->child, SIGTERM);
}

static void daemon_ended(struct keeper *k, int status)
{
	bool quick = monotonic_ms() / 1000 - k->child_started < RESTART_PAUSE_S;

	k->child = 0;
	if (k->stopping)
		return;
	if (!conn_alive(&k->conn)) {
		cgx_log(CGX_LOG_INFO, "%s was unmounted", k->config->mountpoint);
		k->stopping = true;
		return;
	}
	if (!k->ready) {
		/* A daemon that never served (a bad option, a missing base) will not do better. */
		k->result = cgx_log_errno(-EIO, "the daemon ended before it served %s",
					  k->config->mountpoint);
		stop(k);
		return;
	}
	if (k->replacing)
		cgx_log(CGX_LOG_INFO, "replacing the daemon of %s", k->config->mountpoint);
	else if (WIFSIGNALED(status))
		cgx_log(CGX_LOG_WARNING,
			"the daemon of %s was killed by signal %d: starting another",
			k->config->mountpoint, WTERMSIG(status));
	else
		cgx_log(CGX_LOG_WARNING, "the daemon of %s exited with %d: starting another",
			k->config->mountpoint, WEXITSTATUS(status));
	if (quick && !k->replacing)
		sleep(RESTART_PAUSE_S);
	k->replacing = false;
	if (spawn(k) < 0)
		stop(k);
}

static void reap(struct keeper *k)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		if (pid == k->child)
			daemon_ended(k, status);
}

static void handle_signal(struct keeper *k)
{
	struct signalfd_siginfo info;

	while (read(k->signal_fd, &info, sizeof(info)) == sizeof(info)) {
		switch (info.ssi_signo) {
		case SIGCHLD:
			reap(k);
			break;
		case SIGHUP:
			if (k->child)
				kill(k->child, SIGHUP);
			break;
		case SIGUSR2:
			if (k->child && !k->stopping) {
				k->replacing = true;
				kill(k->child, SIGTERM);
			}
			break;
		default:
			stop(k);
		}
	}
}

static int setup(struct keeper *k)
{
	sigset_t mask;
	int r;

	if (!k->config->foreground && (r = daemonize(k)) < 0)
		return r;
	if ((r = conn_mount(k->config->mountpoint, k->config->fuse_opts, &k->conn)) < 0)
		return r;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &mask, &k->saved_mask) < 0 ||
	    (k->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		return cgx_log_errno(-errno, "cannot take signals");
	if ((r = open_notify_socket(k)) < 0)
		return cgx_log_errno(r, "cannot open a socket for the daemon's readiness");
	return spawn(k);
}

int keeper_run(const struct keeper_config *config)
{
	struct keeper k = {
		.config = config,
		.conn = CONN_INIT,
		.signal_fd = -1,
		.notify_fd = -1,
		.ready_pipe = -1,
	};
	int r = setup(&k);

	if (r < 0) {
		k.result = r;
		stop(&k);
	}
	while (k.child || !k.stopping) {
		struct pollfd fds[] = {
			{.fd = k.signal_fd, .events = POLLIN},
			{.fd = k.notify_fd, .events = POLLIN},
		};

		if (poll(fds, 2, -1) < 0 && errno != EINTR) {
			k.result = cgx_log_errno(-errno, "keeper stopped");
			break;
		}
		if (fds[1].revents)
			read_notification(&k);
		if (fds[0].revents)
			handle_signal(&k);
	}
	if (k.ready_pipe >= 0)
		close(k.ready_pipe);
	conn_close(&k.conn);
	if (k.signal_fd >= 0)
		close(k.signal_fd);
	if (k.notify_fd >= 0)
		close(k.notify_fd);
	return k.result;
}
