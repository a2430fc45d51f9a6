// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The main thread only receives notifications and hands each to an idle
 * worker; it never touches a caller's memory or files. A worker that stays
 * blocked on a caller (a path in a page of a FUSE file whose daemon never
 * answers: an uninterruptible wait, which no signal ends) is given up: the
 * watchdog answers its call and counts the worker as stuck. Threads are
 * bounded: WORKERS_ACTIVE running at once, WORKERS_MAX in all, the others
 * blocked on callers or stuck; once every worker waits on a caller, calls
 * are handed back to the kernel unserved rather than left waiting.
 */
#include "supervisor.h"

#include "caller.h"
#include "handle.h"
#include "notif.h"
#include "util.h"

#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>

#define WORKERS_ACTIVE 8
#define WORKERS_MAX    24
#define WORKER_STACK   (512 * 1024)
/* How long a call may stay blocked on its caller before it is given up. */
#define BLOCKED_GIVEUP_MS 5000
#define WATCH_INTERVAL_MS 250

struct worker {
	pthread_t thread;
	pthread_cond_t wake;
	bool reserved, has_call; /* under pool.lock */
	struct call call;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t idle;
	struct worker *workers[WORKERS_MAX];
	unsigned int nr, nr_stuck;
	unsigned long long total_stuck;
	bool unserved_logged;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int dispatch(struct call *call)
{
	switch (call->req.data.nr) {
	case __NR_openat:
	case __NR_openat2:
#ifdef __NR_open
	case __NR_open:
#endif
		return handle_open(call);
	case __NR_statfs:
	case __NR_fstatfs:
		return handle_statfs(call);
	case __NR_mount:
		return handle_mount(call);
	case __NR_fsopen:
		return handle_fsopen(call);
	case __NR_epoll_ctl:
		return handle_epoll_ctl(call);
	case __NR_lseek:
		return handle_rewind(call);
	default:
		return notif_continue(call);
	}
}

static void *worker_main(void *arg)
{
	struct worker *worker = arg;
	/* Its own root and cwd, to walk a caller's paths from the caller's. */
	int r = caller_thread_init();

	if (r < 0)
		cgx_log_errno(r, "a worker without a root of its own walks no caller's path");
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!worker->has_call)
			pthread_cond_wait(&worker->wake, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
		r = dispatch(&worker->call);
		if (r < 0 && r != -ENOENT && r != -ECANCELED)
			cgx_log(CGX_LOG_DEBUG, "call %d of %d: %s", worker->call.req.data.nr,
				worker->call.req.pid, strerror(-r));
		pthread_mutex_lock(&pool.lock);
		if (call_finish(&worker->call)) {
			pool.nr_stuck--;
			cgx_log(CGX_LOG_INFO, "a stuck worker came back (%u still stuck)",
				pool.nr_stuck);
		}
		worker->has_call = false;
		pthread_cond_signal(&pool.idle);
	}
	return NULL;
}

/* Under pool.lock. */
static struct worker *spawn_worker(struct supervisor *sup)
{
	struct worker *worker = calloc(1, sizeof(*worker));
	pthread_attr_t attr;
	int r;

	if (!worker)
		return NULL;
	call_init(&worker->call, sup);
	pthread_cond_init(&worker->wake, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&worker->thread, &attr, worker_main, worker);
	pthread_attr_destroy(&attr);
	if (r) {
		cgx_log_errno(-r, "cannot start a worker");
		pthread_cond_destroy(&worker->wake);
		pthread_mutex_destroy(&worker->call.helper_lock);
		free(worker);
		return NULL;
	}
	pool.workers[pool.nr++] = worker;
	return worker;
}

/* Gives up every call blocked past BLOCKED_GIVEUP_MS. */
static void watch_workers(void)
{
	pthread_mutex_lock(&pool.lock);
	for (unsigned int i = 0; i < pool.nr; i++) {
		struct worker *worker = pool.workers[i];

		if (!call_give_up(&worker->call, BLOCKED_GIVEUP_MS))
			continue;
		pool.nr_stuck++;
		pool.total_stuck++;
		cgx_log(CGX_LOG_WARNING,
			"call %d of pid %d blocked on its caller: given up (%u workers stuck, %llu "
			"so far)",
			worker->call.req.data.nr, worker->call.req.pid, pool.nr_stuck,
			pool.total_stuck);
	}
	pthread_mutex_unlock(&pool.lock);
}

/*
 * An idle worker for the next call, or a new one while fewer than
 * WORKERS_ACTIVE run and there are fewer than WORKERS_MAX: a worker blocked
 * on its caller uses no CPU, and no other call may wait on it. NULL when
 * every worker waits on a caller (or is stuck): the call then goes to the
 * kernel unserved rather than wait. Waits while workers run.
 */
static struct worker *reserve_worker(struct supervisor *sup)
{
	struct timespec deadline;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		struct worker *worker = NULL;
		unsigned int running = 0;

		for (unsigned int i = 0; i < pool.nr; i++) {
			struct worker *candidate = pool.workers[i];
			int state = atomic_load(&candidate->call.state);

			if (!worker && !candidate->reserved && state == CALL_IDLE)
				worker = candidate;
			if (candidate->reserved || state == CALL_RUNNING)
				running++;
		}
		if (!worker && running < WORKERS_ACTIVE && pool.nr < WORKERS_MAX)
			worker = spawn_worker(sup);
		if (worker) {
			worker->reserved = true;
			pool.unserved_logged = false;
			pthread_mutex_unlock(&pool.lock);
			return worker;
		}
		if (!running) {
			if (!pool.unserved_logged)
				cgx_log(CGX_LOG_ERR,
					"all %u workers wait on their callers (%u given up): calls "
					"go to the kernel unserved",
					pool.nr, pool.nr_stuck);
			pool.unserved_logged = true;
			pthread_mutex_unlock(&pool.lock);
			return NULL;
		}
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += WATCH_INTERVAL_MS * 1000000L;
		if (deadline.tv_nsec >= 1000000000L) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		if (pthread_cond_timedwait(&pool.idle, &pool.lock, &deadline) == ETIMEDOUT) {
			pthread_mutex_unlock(&pool.lock);
			watch_workers();
			pthread_mutex_lock(&pool.lock);
		}
	}
}

static void hand_over(struct worker *worker, const struct seccomp_notif *req)
{
	pthread_mutex_lock(&pool.lock);
	call_start(&worker->call, req);
	worker->reserved = false;
	worker->has_call = true;
	pthread_cond_signal(&worker->wake);
	pthread_mutex_unlock(&pool.lock);
}

static void unreserve(struct worker *worker)
{
	pthread_mutex_lock(&pool.lock);
	worker->reserved = false;
	pthread_mutex_unlock(&pool.lock);
}

int supervisor_run(struct supervisor *sup)
{
	struct seccomp_notif_sizes sizes;
	_cleanup_free_ struct seccomp_notif *req = NULL;
	struct pollfd pfd = {.fd = sup->listener, .events = POLLIN};
	int r;

	/* The mount helpers are reaped by the kernel; a helper gone away is no SIGPIPE. */
	signal(SIGCHLD, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	if ((r = caller_init_self()) < 0)
		return cgx_log_errno(r, "cannot read the supervisor's own credentials");
	/* seccomp_unotify(2): the structures may grow; allocate what the kernel says. */
	if (syscall(__NR_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return cgx_log_errno(-errno, "cannot get the notification sizes");
	if (!(req = calloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif
								 : sizeof(*req))))
		return -ENOMEM;

	for (;;) {
		struct worker *worker;

		watch_workers();
		if (poll(&pfd, 1, WATCH_INTERVAL_MS) < 0) {
			if (errno == EINTR)
				continue;
			return cgx_log_errno(-errno, "poll on the seccomp listener");
		}
		/* POLLHUP: every process under the filter is gone. */
		if (pfd.revents & (POLLHUP | POLLERR) && !(pfd.revents & POLLIN))
			return 0;
		if (!(pfd.revents & POLLIN))
			continue;
		worker = reserve_worker(sup);
		memset(req, 0, sizes.seccomp_notif);
		if (ioctl(sup->listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) {
			/* ENOENT: the caller died or was interrupted before we took it. */
			if (worker)
				unreserve(worker);
			if (errno == EINTR || errno == ENOENT)
				continue;
			return cgx_log_errno(-errno, "cannot receive a notification");
		}
		if (worker)
			hand_over(worker, req);
		else
			notif_reply(sup->listener, req->id, 0);
	}
}
