// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A notification's replies and its life while a worker serves it: blocked
 * on the caller, given up by the watchdog, answered once. Below both the
 * supervisor, which hands calls to workers, and the handlers, which answer.
 */
#include "notif.h"

#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int send_response(int listener, struct seccomp_notif_resp *resp)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp) < 0 ? -errno : 0;
}

int notif_reply(int listener, uint64_t id, int error)
{
	struct seccomp_notif_resp resp = {.id = id, .val = error ? -1 : 0, .error = error};

	if (!error)
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	return send_response(listener, &resp);
}

int notif_continue(struct call *call)
{
	return notif_reply(call->sup->listener, call->req.id, 0);
}

int notif_return(struct call *call, int64_t value, int error)
{
	struct seccomp_notif_resp resp = {.id = call->req.id, .val = value, .error = error};

	return send_response(call->sup->listener, &resp);
}

int notif_set_fd(struct call *call, int srcfd, int target_fd, bool cloexec)
{
	struct seccomp_notif_addfd addfd = {
		.id = call->req.id,
		.flags = SECCOMP_ADDFD_FLAG_SETFD,
		.srcfd = srcfd,
		.newfd = target_fd,
		.newfd_flags = cloexec ? O_CLOEXEC : 0,
	};

	return ioctl(call->sup->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0 ? -errno : 0;
}

bool notif_valid(struct call *call)
{
	return ioctl(call->sup->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &call->req.id) == 0;
}

void call_init(struct call *call, struct supervisor *sup)
{
	call->sup = sup;
	call->helper_pidfd = -1;
	pthread_mutex_init(&call->helper_lock, NULL);
}

void call_start(struct call *call, const struct seccomp_notif *req)
{
	call->req = *req;
	atomic_store(&call->giveup, 0);
	atomic_store(&call->state, CALL_RUNNING);
}

bool call_finish(struct call *call)
{
	return atomic_exchange(&call->state, CALL_IDLE) == CALL_ABANDONED;
}

void call_block(struct call *call)
{
	int expected = CALL_RUNNING;

	atomic_store(&call->blocked_since_ms, now_ms());
	/* Never over a call the watchdog has given up: it would be answered twice. */
	atomic_compare_exchange_strong(&call->state, &expected, CALL_BLOCKED);
}

int call_unblock(struct call *call)
{
	int expected = CALL_BLOCKED;

	/* Lost to the watchdog: it has answered, and nothing more may be done for the caller. */
	if (!atomic_compare_exchange_strong(&call->state, &expected, CALL_RUNNING))
		return -ECANCELED;
	return 0;
}

void call_set_giveup(struct call *call, int error)
{
	atomic_store(&call->giveup, error);
}

void call_watch_helper(struct call *call, int pidfd)
{
	/* Under the lock: the watchdog must never signal a number closed and reused meanwhile. */
	pthread_mutex_lock(&call->helper_lock);
	call->helper_pidfd = pidfd;
	pthread_mutex_unlock(&call->helper_lock);
}

bool call_give_up(struct call *call, long long blocked_ms)
{
	int expected = CALL_BLOCKED;

	if (atomic_load(&call->state) != CALL_BLOCKED ||
	    now_ms() - atomic_load(&call->blocked_since_ms) < blocked_ms ||
	    !atomic_compare_exchange_strong(&call->state, &expected, CALL_ABANDONED))
		return false;
	notif_reply(call->sup->listener, call->req.id, atomic_load(&call->giveup));
	/* A helper stopped by its caller (SIGSTOP) would hold the worker: it goes. */
	pthread_mutex_lock(&call->helper_lock);
	if (call->helper_pidfd >= 0)
		syscall(SYS_pidfd_send_signal, call->helper_pidfd, SIGKILL, NULL, 0);
	pthread_mutex_unlock(&call->helper_lock);
	return true;
}

/* Ends a call_block() section begun before @result was had. */
static int unblock_with(struct call *call, int result)
{
	int r = call_unblock(call);

	return r < 0 ? r : result;
}

int call_read(struct call *call, uint64_t addr, void *buf, size_t len)
{
	call_block(call);
	return unblock_with(call, target_read(call->req.pid, addr, buf, len));
}

int call_read_string(struct call *call, uint64_t addr, char *buf, size_t size)
{
	call_block(call);
	return unblock_with(call, target_read_string(call->req.pid, addr, buf, size));
}

int call_write(struct call *call, uint64_t addr, const void *data, size_t len)
{
	call_block(call);
	return unblock_with(call, target_write(call->req.pid, addr, data, len));
}
