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
 * namespace). No socket in the environment: not run by systemd, nothing to do.
 */
int notify_ready(void)
{
	const char *socket_path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	_cleanup_close_ int fd = -1;
	char message[64];
	socklen_t len;
	size_t path_len;
	int n;

	if (!socket_path || !*socket_path)
		return 0;
	path_len = strlen(socket_path);
	if ((socket_path[0] != '/' && socket_path[0] != '@') || path_len >= sizeof(addr.sun_path))
		return cgx_log_errno(-EINVAL, "NOTIFY_SOCKET=%s is no socket path", socket_path);
	memcpy(addr.sun_path, socket_path, path_len);
	if (addr.sun_path[0] == '@')
		addr.sun_path[0] = '\0';
	len = offsetof(struct sockaddr_un, sun_path) + path_len;
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return cgx_log_errno(-errno, "cannot tell systemd the view is ready");
	n = snprintf(message, sizeof(message), "READY=1\nMAINPID=%d", (int)getpid());
	if (sendto(fd, message, n, MSG_NOSIGNAL, (struct sockaddr *)&addr, len) != n)
		return cgx_log_errno(-errno, "cannot tell systemd the view is ready");
	return 0;
}
