// SPDX-License-Identifier: GPL-2.0-or-later
#include "supervisor.h"

#include "util.h"

#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

int notif_continue(struct supervisor *sup, uint64_t id)
{
	struct seccomp_notif_resp resp = {.id = id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};

	return ioctl(sup->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 ? -errno : 0;
}

int notif_return(struct supervisor *sup, uint64_t id, int64_t value, int error)
{
	struct seccomp_notif_resp resp = {.id = id, .val = value, .error = error};

	return ioctl(sup->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 ? -errno : 0;
}

bool notif_valid(struct supervisor *sup, uint64_t id)
{
	return ioctl(sup->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

static int dispatch(struct supervisor *sup, const struct seccomp_notif *req)
{
	switch (req->data.nr) {
	case __NR_openat:
	case __NR_openat2:
#ifdef __NR_open
	case __NR_open:
#endif
		return handle_open(sup, req);
	case __NR_statfs:
	case __NR_fstatfs:
		return handle_statfs(sup, req);
	case __NR_mount:
		return handle_mount(sup, req);
	case __NR_fsopen:
		return handle_fsopen(sup, req);
	default:
		return notif_continue(sup, req->id);
	}
}

int supervisor_run(struct supervisor *sup)
{
	struct seccomp_notif_sizes sizes;
	_cleanup_free_ struct seccomp_notif *req = NULL;
	struct pollfd pfd = {.fd = sup->listener, .events = POLLIN};

	/* seccomp_unotify(2): the structures may grow; allocate what the kernel says. */
	if (syscall(__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return cgx_log_errno(-errno, "cannot get the notification sizes");
	if (!(req = calloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif
								 : sizeof(*req))))
		return -ENOMEM;

	for (;;) {
		int r;

		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return cgx_log_errno(-errno, "poll on the seccomp listener");
		}
		/* POLLHUP: every process under the filter is gone. */
		if (!(pfd.revents & POLLIN))
			return 0;
		memset(req, 0, sizes.seccomp_notif);
		if (ioctl(sup->listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) {
			/* ENOENT: the caller died or was interrupted before we took it. */
			if (errno == EINTR || errno == ENOENT)
				continue;
			return cgx_log_errno(-errno, "cannot receive a notification");
		}
		r = dispatch(sup, req);
		if (r < 0 && r != -ENOENT)
			cgx_log(CGX_LOG_DEBUG, "call %d of %d: %s", req->data.nr, req->pid,
				strerror(-r));
	}
}
