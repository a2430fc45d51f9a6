// SPDX-License-Identifier: GPL-2.0-or-later
#include "conn.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fuse.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* uapi 7.40 (Linux 6.9); Debian 12's headers stop at 7.38. */
#ifndef FUSE_NOTIFY_RESEND
#define FUSE_NOTIFY_RESEND 7
#endif

/* The kernel refuses reads of /dev/fuse into less than FUSE_MIN_READ_BUFFER. */
#define INIT_READ_SIZE (64 * 1024)

void conn_close(struct conn *conn)
{
	if (conn->fuse_fd >= 0)
		close(conn->fuse_fd);
	if (conn->init_fd >= 0)
		close(conn->init_fd);
	*conn = (struct conn)CONN_INIT;
}

/* Generic mount flags among -o's options; the rest goes to the kernel's fuse. */
static int split_opts(const char *extra, unsigned long *flags, char *data, size_t size)
{
	static const struct {
		const char *name;
		unsigned long set, clear;
	} generic[] = {
		{"ro", MS_RDONLY, 0},	     {"rw", 0, MS_RDONLY},
		{"noexec", MS_NOEXEC, 0},    {"exec", 0, MS_NOEXEC},
		{"noatime", MS_NOATIME, 0},  {"nodiratime", MS_NODIRATIME, 0},
		{"sync", MS_SYNCHRONOUS, 0}, {"dirsync", MS_DIRSYNC, 0},
	};
	_cleanup_free_ char *copy = extra ? strdup(extra) : NULL;
	char *save = NULL;

	if (extra && !copy)
		return -ENOMEM;
	for (char *opt = copy ? strtok_r(copy, ",", &save) : NULL; opt;
	     opt = strtok_r(NULL, ",", &save)) {
		bool found = false;

		for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
			if (!strcmp(opt, generic[i].name)) {
				*flags = (*flags | generic[i].set) & ~generic[i].clear;
				found = true;
			}
		}
		/* The source and type are the keeper's to set, as fsname= and subtype= in libfuse.
		 */
		if (found || !strncmp(opt, "fsname=", 7) || !strncmp(opt, "subtype=", 8))
			continue;
		if (strlen(data) + strlen(opt) + 2 > size)
			return -E2BIG;
		strcat(data, ",");
		strcat(data, opt);
	}
	return 0;
}

static int read_init(int fuse_fd, int *init_fd)
{
	_cleanup_free_ char *buf = malloc(INIT_READ_SIZE);
	_cleanup_close_ int fd = -1;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	do
		n = read(fuse_fd, buf, INIT_READ_SIZE);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return cgx_log_errno(-errno, "cannot read FUSE_INIT");
	if ((size_t)n < sizeof(struct fuse_in_header) ||
	    ((struct fuse_in_header *)buf)->opcode != FUSE_INIT)
		return cgx_log_errno(-EPROTO, "the first FUSE request is no FUSE_INIT");
	if ((fd = memfd_create("cgxfs-fuse-init", MFD_CLOEXEC | MFD_ALLOW_SEALING)) < 0)
		return cgx_log_errno(-errno, "cannot keep FUSE_INIT");
	if (write(fd, buf, n) != n)
		return cgx_log_errno(-EIO, "cannot keep FUSE_INIT");
	*init_fd = steal_fd(fd);
	return 0;
}

int conn_mount(const char *mountpoint, const char *extra_opts, struct conn *conn)
{
	unsigned long flags = MS_NOSUID | MS_NODEV;
	_cleanup_close_ int fd = -1;
	struct stat st;
	char data[1024];
	int r;

	if (stat(mountpoint, &st) < 0)
		return cgx_log_errno(-errno, "cannot mount %s", mountpoint);
	if ((fd = open("/dev/fuse", O_RDWR | O_CLOEXEC)) < 0)
		return cgx_log_errno(-errno, "cannot open /dev/fuse");
	/* What libfuse passes for a plain cgxfs (see serve() in main.c). */
	snprintf(data, sizeof(data),
		 "fd=%d,rootmode=%o,user_id=%u,group_id=%u,default_permissions,allow_other", fd,
		 st.st_mode & S_IFMT, getuid(), getgid());
	if ((r = split_opts(extra_opts, &flags, data, sizeof(data))) < 0)
		return cgx_log_errno(r, "-o %s", extra_opts);
	if (mount("cgroup", mountpoint, "fuse.cgxfs", flags, data) < 0)
		return cgx_log_errno(-errno, "cannot mount %s", mountpoint);
	if ((r = read_init(fd, &conn->init_fd)) < 0) {
		umount2(mountpoint, MNT_DETACH);
		return r;
	}
	conn->fuse_fd = steal_fd(fd);
	return 0;
}

int conn_from_listen_fds(struct conn *conn, bool *stale)
{
	const char *pid = getenv("LISTEN_PID"), *count = getenv("LISTEN_FDS");
	_cleanup_free_ char *names =
		getenv("LISTEN_FDNAMES") ? strdup(getenv("LISTEN_FDNAMES")) : NULL;
	char *save = NULL, *name = names ? strtok_r(names, ":", &save) : NULL;
	int n;

	*stale = false;
	if (!pid || !count || atoi(pid) != getpid())
		return 0;
	n = atoi(count);
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	for (int fd = 3; fd < 3 + n; fd++, name = name ? strtok_r(NULL, ":", &save) : NULL) {
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		if (name && !strcmp(name, CONN_FUSE_NAME) && conn->fuse_fd < 0)
			conn->fuse_fd = fd;
		else if (name && !strcmp(name, CONN_INIT_NAME) && conn->init_fd < 0)
			conn->init_fd = fd;
		else
			close(fd); /* nothing cgxfs stored, or a second copy */
	}
	if (conn->fuse_fd >= 0 && conn->init_fd < 0)
		return cgx_log_errno(-EINVAL,
				     "$LISTEN_FDS has a FUSE connection but no " CONN_INIT_NAME);
	if (conn->fuse_fd >= 0 && conn_alive(conn))
		return 1;
	/*
	 * systemd drops a file from its store on POLLHUP only: the FUSE_INIT
	 * of a connection unmounted at the stop stays, and would be handed
	 * down again beside the one of the mount made now.
	 */
	if (conn->fuse_fd >= 0 || conn->init_fd >= 0) {
		cgx_log(CGX_LOG_INFO, "the FUSE connection handed down is gone: mounting anew");
		conn_close(conn);
		*stale = true;
	}
	return 0;
}

bool conn_alive(const struct conn *conn)
{
	struct pollfd pfd = {.fd = conn->fuse_fd};

	/* fuse_dev_poll() says POLLERR once the connection is aborted or unmounted. */
	return poll(&pfd, 1, 0) >= 0 && !(pfd.revents & (POLLERR | POLLHUP | POLLNVAL));
}

/* Replies to the kernel go to the session's fd: the fd libfuse was given as /dev/fd/N. */
static int replay_init(struct fuse_session *se, int init_fd)
{
	struct stat st;
	_cleanup_free_ char *buf = NULL;

	if (fstat(init_fd, &st) < 0)
		return -errno;
	if (!(buf = malloc(st.st_size)))
		return -ENOMEM;
	if (pread(init_fd, buf, st.st_size, 0) != st.st_size)
		return -EIO;
	fuse_session_process_buf(se, &(struct fuse_buf){.size = st.st_size, .mem = buf});
	return 0;
}

/*
 * The FUSE_INIT memfd is sealed once a daemon has served the connection: a
 * daemon that finds it unsealed is the first, and no request was read yet
 * that the kernel would have to send again. A memfd made without
 * MFD_ALLOW_SEALING (an older cgxfs) shows F_SEAL_SEAL: served, as far as
 * anyone can tell.
 */
static bool conn_served_before(const struct conn *conn)
{
	return fcntl(conn->init_fd, F_GET_SEALS) != 0;
}

static void conn_mark_served(const struct conn *conn)
{
	/* Fails only on a memfd of an older cgxfs, which already counts as served. */
	fcntl(conn->init_fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
}

int conn_attach(struct fuse_session *se, const struct conn *conn)
{
	struct fuse_out_header resend = {.len = sizeof(resend), .error = FUSE_NOTIFY_RESEND};
	char path[32];
	int r;

	if (!conn_alive(conn))
		return cgx_log_errno(-ENOTCONN, "the FUSE connection handed down is gone");
	snprintf(path, sizeof(path), "/dev/fd/%d", conn->fuse_fd);
	if (fuse_session_mount(se, path) < 0)
		return cgx_log_errno(-EIO, "cannot serve the FUSE connection on fd %d",
				     conn->fuse_fd);
	if ((r = replay_init(se, conn->init_fd)) < 0)
		return cgx_log_errno(r, "cannot take up the FUSE connection");
	if (!conn_served_before(conn)) {
		conn_mark_served(conn);
		return 0;
	}
	/* Before the loop reads anything: no request of this daemon is sent twice. */
	if (write(conn->fuse_fd, &resend, sizeof(resend)) != sizeof(resend))
		cgx_log(CGX_LOG_WARNING,
			"the kernel cannot resend requests (%s): one a killed daemon read but did "
			"not answer waits, uninterruptibly, until the connection ends",
			strerror(errno));
	return 0;
}

int conn_hand_down(const struct conn *conn)
{
	/* Out of the way first: either file may sit at 3 or 4 already. */
	int fuse_fd = fcntl(conn->fuse_fd, F_DUPFD_CLOEXEC, 10);
	int init_fd = fcntl(conn->init_fd, F_DUPFD_CLOEXEC, 10);
	char pid[16];

	/* dup2() leaves the copies open across exec. */
	if (fuse_fd < 0 || init_fd < 0 || dup2(fuse_fd, 3) < 0 || dup2(init_fd, 4) < 0)
		return -errno;
	close(fuse_fd);
	close(init_fd);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (setenv("LISTEN_PID", pid, 1) < 0 || setenv("LISTEN_FDS", "2", 1) < 0 ||
	    setenv("LISTEN_FDNAMES", CONN_FUSE_NAME ":" CONN_INIT_NAME, 1) < 0)
		return -errno;
	return 0;
}
