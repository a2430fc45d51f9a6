// SPDX-License-Identifier: GPL-2.0-or-later
#include "notify.h"

#include "util.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/*
 * sd_notify(3)'s protocol without libsystemd: one datagram to the
 * AF_UNIX socket named by $NOTIFY_SOCKET ("@name" for the abstract
 * namespace), a file passed along with SCM_RIGHTS. No socket in the
 * environment: not run by systemd, nothing to do.
 */
static int notify_send(const char *message, int fd)
{
	const char *socket_path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	union {
		struct cmsghdr header;
		char space[CMSG_SPACE(sizeof(int))];
	} control = {0};
	struct iovec iov = {.iov_base = (void *)message, .iov_len = strlen(message)};
	struct msghdr msg = {.msg_name = &addr, .msg_iov = &iov, .msg_iovlen = 1};
	_cleanup_close_ int sock = -1;
	size_t path_len;

	if (!socket_path || !*socket_path)
		return 0;
	path_len = strlen(socket_path);
	if ((socket_path[0] != '/' && socket_path[0] != '@') || path_len >= sizeof(addr.sun_path))
		return cgx_log_errno(-EINVAL, "NOTIFY_SOCKET=%s is no socket path", socket_path);
	memcpy(addr.sun_path, socket_path, path_len);
	if (addr.sun_path[0] == '@')
		addr.sun_path[0] = '\0';
	msg.msg_namelen = offsetof(struct sockaddr_un, sun_path) + path_len;
	if (fd >= 0) {
		msg.msg_control = control.space;
		msg.msg_controllen = sizeof(control.space);
		control.header.cmsg_level = SOL_SOCKET;
		control.header.cmsg_type = SCM_RIGHTS;
		control.header.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&control.header), &fd, sizeof(int));
	}
	if ((sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	if (sendmsg(sock, &msg, MSG_NOSIGNAL) != (ssize_t)iov.iov_len)
		return -errno;
	return 0;
}

int notify_ready(void)
{
	char message[64];
	int r;

	snprintf(message, sizeof(message), "READY=1\nMAINPID=%d", (int)getpid());
	if ((r = notify_send(message, -1)) < 0)
		return cgx_log_errno(r, "cannot tell systemd the view is ready");
	return 0;
}

int notify_fdstore(int fd, const char *name)
{
	char message[128];
	int r;

	snprintf(message, sizeof(message), "FDSTORE=1\nFDNAME=%s", name);
	if ((r = notify_send(message, fd)) < 0)
		return cgx_log_errno(r, "cannot store %s with systemd", name);
	return 0;
}

int notify_fdstore_remove(const char *name)
{
	char message[128];
	int r;

	snprintf(message, sizeof(message), "FDSTOREREMOVE=1\nFDNAME=%s", name);
	if ((r = notify_send(message, -1)) < 0)
		return cgx_log_errno(r, "cannot take %s out of systemd's store", name);
	return 0;
}
