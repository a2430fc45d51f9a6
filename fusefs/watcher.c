// SPDX-License-Identifier: GPL-2.0-or-later
#include "watcher.h"

#include "metrics.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

/*
 * A new leaf is watched from the next wake-up: the interval bounds how late
 * a group that empties before then is seen, as the kernel's release work
 * runs later than the exit that triggers it, and how stale a split limit's
 * parts may grow.
 */
#define RESCAN_INTERVAL_MS CGX_REBALANCE_INTERVAL_MS

/*
 * Every this many wake-ups the mirror is checked against v2 for directories
 * another tool removed, by their parents' subdirectory counts; sooner when
 * an operation found one gone. Every RECONCILE_THOROUGH_EVERY of those
 * checks, one fstatat per directory also finds a removal that another
 * tool's mkdir beside it hid from the count.
 */
#define RECONCILE_EVERY		 10
#define RECONCILE_THOROUGH_EVERY 10

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void drain(int fd)
{
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/*
 * The three fds of the watcher, then the files event_control listeners
 * poll, as the context has them now; -ENOMEM leaves the old set.
 */
static int pollfds_refresh(struct watcher *watcher, struct pollfd **fds, size_t *nr)
{
	size_t want = 3 + cgx_memevent_pollfds(watcher->ctx, NULL, 0);
	struct pollfd *grown = realloc(*fds, want * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	grown[0] = (struct pollfd){.fd = watcher->stop_fd, .events = POLLIN};
	grown[1] = (struct pollfd){.fd = watcher->signal_fd, .events = POLLIN};
	grown[2] = (struct pollfd){.fd = watcher->inotify_fd, .events = POLLIN};
	cgx_memevent_pollfds(watcher->ctx, grown + 3, want - 3);
	*fds = grown;
	*nr = want;
	return 0;
}

/* Writes --metrics from @model, copied under the lock: the file is written after it. */
static void metrics_flush(struct watcher *watcher, const struct cgx_metrics *model)
{
	struct request_stats requests;
	int r;

	request_stats_read(&requests);
	r = metrics_write(watcher->metrics_path, model, &requests);
	/* Said once per cause, not every interval: a full disk would fill syslog. */
	if (r < 0 && r != watcher->metrics_error)
		cgx_log_errno(r, "cannot write the metrics to %s", watcher->metrics_path);
	else if (r == 0 && watcher->metrics_error)
		cgx_log(CGX_LOG_INFO, "metrics written to %s again", watcher->metrics_path);
	watcher->metrics_error = r;
}

static void *watch_loop(void *arg)
{
	struct watcher *watcher = arg;
	_cleanup_free_ struct pollfd *fds = NULL;
	long long last_rescan = monotonic_ms(), last_metrics = 0;
	bool ticking = false, releasing, metrics_due, reconcile_due;
	struct cgx_metrics model;
	struct cgx_release_runs due = {0};
	size_t nr = 0;
	unsigned int wakeups = 0;

	cgx_lock(watcher->ctx);
	pollfds_refresh(watcher, &fds, &nr);
	cgx_unlock(watcher->ctx);
	for (;;) {
		/* Listeners on usage need reading more often than a rescan runs. */
		int timeout = ticking ? CGX_MEMEVENT_TICK_MS : RESCAN_INTERVAL_MS;
		int r;

		if (!fds || poll(fds, nr, timeout) < 0) {
			if (fds && errno == EINTR)
				continue;
			cgx_log_errno(fds ? -errno : -ENOMEM,
				      "watcher stopped: no more release agents, rebalances, "
				      "event_control listeners or log reopening");
			break;
		}
		if (fds[0].revents)
			break;
		cgx_lock(watcher->ctx);
		cgx_memevent_check(watcher->ctx, fds + 3, nr - 3);
		if (!fds[1].revents && !fds[2].revents &&
		    monotonic_ms() - last_rescan < RESCAN_INTERVAL_MS) {
			ticking = cgx_memevent_ticking(watcher->ctx);
			pollfds_refresh(watcher, &fds, &nr);
			cgx_unlock(watcher->ctx);
			continue;
		}
		last_rescan = monotonic_ms();
		if (fds[1].revents) {
			drain(watcher->signal_fd);
			if ((r = cgx_deprecation_reopen(watcher->ctx)) < 0)
				cgx_log_errno(r, "SIGHUP: cannot reopen the deprecation log");
			else
				cgx_log(CGX_LOG_INFO, "SIGHUP: deprecation log reopened");
		}
		if (fds[2].revents)
			drain(watcher->inotify_fd);
		reconcile_due = ++wakeups % RECONCILE_EVERY == 0;
		cgx_retire_vacated_leaves(watcher->ctx);
		if ((r = cgx_aggregate_rebalance(watcher->ctx)) < 0)
			cgx_log_errno(r, "cannot rebalance the split limits");
		cgx_deprecation_tick(watcher->ctx);
		metrics_due =
			watcher->metrics_path && last_rescan - last_metrics >= METRICS_INTERVAL_MS;
		if (metrics_due) {
			cgx_metrics_snapshot(watcher->ctx, &model);
			last_metrics = last_rescan;
		}
		/*
		 * A leaf that empties wakes the loop at once: a release agent
		 * runs, and a split limit gives back the part an exited
		 * process held (the group's directory keeps no share of a
		 * pids.max it no longer needs until the next interval).
		 */
		releasing = cgx_release_wanted(watcher->ctx);
		if ((releasing || cgx_aggregate_enforcing(watcher->ctx)) &&
		    (r = cgx_release_watch(watcher->ctx, watcher->inotify_fd)) < 0)
			cgx_log_errno(r, "cannot watch cgroup.events");
		if (releasing)
			cgx_release_check(watcher->ctx, &due);
		ticking = cgx_memevent_ticking(watcher->ctx);
		pollfds_refresh(watcher, &fds, &nr);
		cgx_unlock(watcher->ctx);
		cgx_release_run(&due);
		/* It takes the lock in slices: requests are served meanwhile. */
		if ((r = cgx_reconcile(watcher->ctx, reconcile_due,
				       wakeups % (RECONCILE_EVERY * RECONCILE_THOROUGH_EVERY) ==
					       0)) < 0)
			cgx_log_errno(r, "cannot repair the mirror of the v2 tree");
		if (metrics_due)
			metrics_flush(watcher, &model);
	}
	return NULL;
}

int watcher_start(struct watcher *watcher, struct cgx_ctx *ctx, const char *metrics_path)
{
	sigset_t hup, stop, saved;
	int r;

	*watcher = (struct watcher){.ctx = ctx,
				    .signal_fd = -1,
				    .inotify_fd = -1,
				    .stop_fd = -1,
				    .metrics_path = metrics_path};
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	/* Blocked before the FUSE threads exist, so they inherit it and only the signalfd sees it.
	 */
	if ((r = pthread_sigmask(SIG_BLOCK, &hup, NULL)) != 0)
		return -r;
	watcher->signal_fd = signalfd(-1, &hup, SFD_NONBLOCK | SFD_CLOEXEC);
	watcher->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	watcher->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (watcher->signal_fd < 0 || watcher->inotify_fd < 0 || watcher->stop_fd < 0) {
		r = cgx_log_errno(-errno, "cannot set up the watcher");
		watcher_stop(watcher);
		return r;
	}
	/*
	 * The signals libfuse ends the loop on are blocked in the watcher from
	 * its first instruction: a SIGTERM the kernel gave this thread would
	 * run libfuse's handler here, mark the session exited, and wake neither
	 * the loop's main thread (waiting on its semaphore) nor its workers
	 * (in read, with these signals blocked): the daemon would never exit.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	r = pthread_create(&watcher->thread, NULL, watch_loop, watcher);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (r != 0) {
		watcher_stop(watcher);
		return cgx_log_errno(-r, "cannot start the watcher thread");
	}
	watcher->running = true;
	return 0;
}

void watcher_stop(struct watcher *watcher)
{
	if (watcher->running) {
		uint64_t one = 1;

		if (write(watcher->stop_fd, &one, sizeof(one)) == sizeof(one))
			pthread_join(watcher->thread, NULL);
		watcher->running = false;
	}
	close_fd(&watcher->signal_fd);
	close_fd(&watcher->inotify_fd);
	close_fd(&watcher->stop_fd);
}
