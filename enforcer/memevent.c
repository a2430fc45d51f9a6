// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The listeners of cgroup.event_control (mm/memcontrol-v1.c,
 * memcg_write_event_control()): an eventfd of the writer's, taken with
 * pidfd_getfd(2), is signalled when
 *   memory.usage_in_bytes / memory.memsw.usage_in_bytes crosses its
 *     threshold either way (mem_cgroup_threshold()); cgroup2 has no such
 *     notification, so usage is read every CGX_MEMEVENT_TICK_MS;
 *   memory.oom_control: the group's memory.events "oom" or "oom_kill"
 *     grows (mem_cgroup_oom_notify()); memory.events is polled for POLLPRI;
 *   memory.pressure_level: a PSI trigger on the group's memory.pressure
 *     fires (pressure_triggers[] below for the mapping);
 * and once after rmdir of the group, as the kernel's css offlining wakes
 * every listener from a work item: by the watcher, a moment after the rmdir
 * returned, so that the listener then finds its group gone.
 *
 * The daemon holds its own reference to each eventfd, so the kernel's
 * EPOLLHUP at the last close, which ends a v1 registration, never comes.
 * Instead a pidfd of one process holding the eventfd is watched; when that
 * process exits, another holder is looked for (kcmp(2)), and with none left
 * the registration goes.
 *
 * Each registration is recorded on the base (state.c): its group, what it
 * listens for, and where its eventfd is held (pid, start time, descriptor
 * number, eventfd-id). A restarted daemon takes the eventfd again from that
 * holder, so a listener that kept its descriptors through the restart (the
 * keeper holds the mount) goes on being signalled. A crossing during the
 * restart is counted from the usage the new daemon finds.
 *
 * A group's usage and events are those of its v2 directory plus those of
 * its leaves outside it (a divergent fold), so that every process the group
 * holds counts, as in v1.
 */
#include "internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define PAGE_SIZE_BYTES 4096ULL

struct memevent {
	struct memevent *next;
	enum memevent_kind kind;
	uint64_t group_id; /* stable over renames: the group is looked up on each check */
	unsigned int hier;
	int eventfd;
	unsigned long long threshold; /* pages */
	bool above;		      /* usage was at or above the threshold at the last check */
	unsigned long long ooms;      /* "oom" and "oom_kill" at the last check */
	unsigned long long oom_kills;
	const char *psi_trigger;
	/* memory.events (OOM) or memory.pressure with the trigger (pressure); -1: none */
	int watch_fd;
	const struct v2_dir *watch_dir; /* compared, never dereferenced: it may be gone */
	int holder_pidfd;		/* a process with the eventfd open; -1: none known */
	pid_t holder_pid;
	int holder_efd;	      /* the eventfd's number in the holder's table */
	uint64_t serial;      /* of its record on the base */
	long long removed_ms; /* on the removed list: when its group went (monotonic_ms) */
};

/*
 * How long after rmdir a listener is woken: the FUSE reply is out by then
 * and the kernel has dropped the directory's dentry, so a listener that
 * checks its control file at once finds it gone, as on v1.
 */
#define REMOVAL_DELAY_MS 50

/*
 * vmpressure levels as PSI triggers on the group's memory.pressure, each a
 * stall over a 2 s window: "low" (the group reclaims) as 5% of some task's
 * time, "medium" (swapping, caches dropped) as 15%, "critical" (thrashing,
 * close to OOM) as 15% of the time with every task stalled. 2 s because
 * without CAP_SYS_RESOURCE (a container) PSI takes only multiples of it.
 * PSI fires at most once a window; a higher level also fires a lower one's
 * trigger, as vmpressure signals each listener at or below the level reached.
 */
static const struct {
	const char *level, *trigger;
} pressure_triggers[] = {
	{"low", "some 100000 2000000"},
	{"medium", "some 300000 2000000"},
	{"critical", "full 300000 2000000"},
};

/* vmpressure_str_modes: parsed as the kernel does; PSI is hierarchical for all three. */
static const char *const pressure_modes[] = {"default", "hierarchy", "local"};

/* The PSI trigger of vmpressure level @level, NULL for no such level. */
static const char *pressure_trigger_of(const char *level)
{
	for (size_t i = 0; i < ARRAY_SIZE(pressure_triggers); i++)
		if (!strcmp(level, pressure_triggers[i].level))
			return pressure_triggers[i].trigger;
	return NULL;
}

/* vmpressure_register_event(): "LEVEL[,MODE]", kstrndup()'d to 19 bytes first. */
int memevent_parse_pressure(const char *args, struct memevent_request *request)
{
	char spec[sizeof("critical") + sizeof("hierarchy") + 1]; /* 19 bytes and the NUL */
	char *rest = spec, *level, *mode;

	snprintf(spec, sizeof(spec), "%s", args);
	level = strsep(&rest, ",");
	mode = strsep(&rest, ",");
	if (!(request->psi_trigger = pressure_trigger_of(level)))
		return -EINVAL;
	if (!mode)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(pressure_modes); i++)
		if (!strcmp(mode, pressure_modes[i]))
			return 0;
	return -EINVAL;
}

static bool is_ticked(enum memevent_kind kind)
{
	return kind != MEMEVENT_PRESSURE;
}

static bool is_polled(enum memevent_kind kind)
{
	return kind == MEMEVENT_OOM || kind == MEMEVENT_PRESSURE;
}

static void listener_signal(const struct memevent *event, uint64_t count)
{
	/* Blocks only at a counter of 2^64 - 2: the listener's flags are its own, left alone. */
	if (write(event->eventfd, &count, sizeof(count)) != sizeof(count))
		cgx_log(CGX_LOG_DEBUG, "cannot signal an event_control listener: %m");
}

/* The group's directory and its leaves outside it (a divergent fold). */
static unsigned long long group_value(struct cgx_ctx *ctx, const struct v1_group *group,
				      const char *file, const char *key)
{
	return group_stat(ctx, group->dir, group->hier, "memory", file, key, STAT_HIERARCHICAL);
}

static unsigned long long usage_pages(struct cgx_ctx *ctx, const struct memevent *event,
				      const struct v1_group *group)
{
	unsigned long long bytes = group_value(ctx, group, "memory.current", NULL);

	if (event->kind == MEMEVENT_MEMSW)
		bytes += group_value(ctx, group, "memory.swap.current", NULL);
	return bytes / PAGE_SIZE_BYTES;
}

static void close_watch(struct memevent *event)
{
	if (event->watch_fd >= 0)
		close(event->watch_fd);
	event->watch_fd = -1;
	event->watch_dir = NULL;
}

/*
 * The file polled for @event in the group's directory, opened again after a
 * rename moved the group to another directory.
 */
static int watch_open(struct cgx_ctx *ctx, struct memevent *event, const struct v1_group *group)
{
	_cleanup_close_ int dir_fd = -1, fd = -1;

	if (!is_polled(event->kind) || event->watch_dir == group->dir)
		return 0;
	close_watch(event);
	if ((dir_fd = cgx_dir_open(ctx, group->dir)) < 0)
		return dir_fd;
	if (event->kind == MEMEVENT_OOM) {
		fd = openat(dir_fd, "memory.events", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	} else {
		fd = openat(dir_fd, "memory.pressure", O_RDWR | O_NONBLOCK | O_CLOEXEC);
		/* The trigger ends with its NUL, as Documentation/accounting/psi.rst writes it. */
		if (fd < 0 || write(fd, event->psi_trigger, strlen(event->psi_trigger) + 1) < 0)
			return -errno;
	}
	event->watch_fd = steal_fd(fd);
	event->watch_dir = group->dir;
	return 0;
}

/* Reading memory.events again is what re-arms POLLPRI on it (kernfs_generic_poll()). */
static void watch_rearm(const struct memevent *event)
{
	char buf[512];

	if (event->kind == MEMEVENT_OOM && event->watch_fd >= 0 &&
	    lseek(event->watch_fd, 0, SEEK_SET) == 0)
		while (read(event->watch_fd, buf, sizeof(buf)) > 0)
			;
}

static void oom_counts(struct cgx_ctx *ctx, const struct v1_group *group, unsigned long long *ooms,
		       unsigned long long *kills)
{
	*ooms = group_value(ctx, group, "memory.events", "oom");
	*kills = group_value(ctx, group, "memory.events", "oom_kill");
}

static void memevent_free(struct memevent *event)
{
	close_watch(event);
	if (event->holder_pidfd >= 0)
		close(event->holder_pidfd);
	if (event->eventfd >= 0)
		close(event->eventfd);
	free(event);
}

/* The eventfd-id the kernel shows in fdinfo (6.x), -1 where it shows none. */
static long long eventfd_id_of(int fd)
{
	_cleanup_strbuf_ struct strbuf info = STRBUF_INIT;
	char path[64];
	const char *field;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (read_file_at(AT_FDCWD, path, &info) < 0 || !(field = strstr(info.buf, "eventfd-id:")))
		return -1;
	return strtoll(field + strlen("eventfd-id:"), NULL, 10);
}

static const char *pressure_level_of(const char *psi_trigger)
{
	for (size_t i = 0; i < ARRAY_SIZE(pressure_triggers); i++)
		if (pressure_triggers[i].trigger == psi_trigger)
			return pressure_triggers[i].level;
	return "-";
}

/* "GROUP HIER KIND PAGES LEVEL PID START EFD EVENTFD-ID" on the base. */
static void record_save(struct cgx_ctx *ctx, const struct memevent *event)
{
	unsigned long long start;
	char record[256];
	int r;

	if (event->holder_pidfd < 0 || proc_start_time(event->holder_pid, &start) < 0)
		return;
	snprintf(record, sizeof(record), "%" PRIu64 " %u %d %llu %s %d %llu %d %lld",
		 event->group_id, event->hier, (int)event->kind, event->threshold,
		 pressure_level_of(event->psi_trigger), (int)event->holder_pid, start,
		 event->holder_efd, eventfd_id_of(event->eventfd));
	if ((r = state_listener_save(ctx, event->serial, record)) < 0)
		cgx_log_errno(r, "cgroup.event_control: a restart would lose a listener");
}

/* Process @pid, pinned by @pidfd (taken), holds the eventfd as its descriptor @efd. */
static void holder_set(struct memevent *event, int pidfd, pid_t pid, int efd)
{
	event->holder_pidfd = pidfd;
	event->holder_pid = pid;
	event->holder_efd = efd;
}

/*
 * Follows the eventfd to a process still holding it once the one watched
 * has exited; false when none is left and the registration should go.
 */
static bool holder_follow(struct cgx_ctx *ctx, struct memevent *event)
{
	pid_t holder;
	int pidfd, holder_efd;

	if (event->holder_pidfd >= 0)
		close(event->holder_pidfd);
	event->holder_pidfd = -1;
	/* Retried while the holder found exits before its pidfd is open. */
	for (int attempt = 0; attempt < 8; attempt++) {
		if (proc_file_holder(event->eventfd, PROC_EVENTFD_LINK, &holder, &holder_efd) < 0)
			return false;
		if ((pidfd = proc_pidfd(holder)) >= 0) {
			holder_set(event, pidfd, holder, holder_efd);
			record_save(ctx, event);
			return true;
		}
	}
	return false;
}

static void state_count(struct memevent_state *state, const struct memevent *event, int delta)
{
	if (is_ticked(event->kind))
		state->nr_ticked += delta;
}

/*
 * A listener on @group for @request, signalled through @eventfd (kept on
 * success); its holder is still to be set.
 */
static int event_start(struct cgx_ctx *ctx, const struct v1_group *group,
		       const struct memevent_request *request, int eventfd,
		       struct memevent **started)
{
	struct memevent *event = calloc(1, sizeof(*event));
	int r;

	if (!event)
		return -ENOMEM;
	*event = (struct memevent){
		.kind = request->kind,
		.group_id = group->id,
		.hier = group->hier,
		.eventfd = -1,
		.threshold = request->threshold / PAGE_SIZE_BYTES,
		.psi_trigger = request->psi_trigger,
		.watch_fd = -1,
		.holder_pidfd = -1,
	};
	if ((r = watch_open(ctx, event, group)) < 0) {
		memevent_free(event);
		/* cgroup2 without the memory controller or PSI: refused, never taken silently. */
		return cgx_log_errno(
			-EOPNOTSUPP,
			"cgroup.event_control: cannot watch %s of %s for a listener (%s)",
			request->kind == MEMEVENT_OOM ? "memory.events" : "memory.pressure",
			group->dir->name, strerror(-r));
	}
	/* As __mem_cgroup_usage_register_event(): a crossing counts from the usage now. */
	if (event->kind == MEMEVENT_USAGE || event->kind == MEMEVENT_MEMSW)
		event->above = usage_pages(ctx, event, group) >= event->threshold;
	if (event->kind == MEMEVENT_OOM) {
		oom_counts(ctx, group, &event->ooms, &event->oom_kills);
		watch_rearm(event);
	}
	event->eventfd = eventfd;
	*started = event;
	return 0;
}

static void event_link(struct memevent_state *state, struct memevent *event)
{
	event->next = state->events;
	state->events = event;
	state_count(state, event, 1);
}

int memevent_add(const struct v1_file_ctx *fc, int eventfd, const struct memevent_request *request)
{
	struct memevent_state *state = &fc->ctx->memevents;
	struct memevent *event;
	pid_t tgid;
	int r, pidfd;

	if ((r = event_start(fc->ctx, fc->dir->group[fc->hier], request, eventfd, &event)) < 0)
		return r;
	if (is_ticked(event->kind) && !cgx_has_controller(fc->ctx, "memory"))
		cgx_log(CGX_LOG_WARNING,
			"cgroup.event_control: the memory controller is not available in cgroup2 "
			"here: this listener wakes only when its group is removed");
	event->serial = state->next_serial++;
	/* The writer holds the eventfd it named; with no holder left, the next check drops it. */
	if (proc_tgid(fc->caller->tid, &tgid) == 0 && (pidfd = proc_pidfd(tgid)) >= 0) {
		holder_set(event, pidfd, tgid, request->writer_efd);
		record_save(fc->ctx, event);
	} else {
		holder_follow(fc->ctx, event);
	}
	event_link(state, event);
	return 0;
}

/* One record of an earlier daemon: taken up when its holder still has the same eventfd. */
static void restore_one(struct cgx_ctx *ctx, uint64_t serial, const char *record)
{
	struct memevent_request request = {0};
	_cleanup_close_ int eventfd = -1, pidfd = -1;
	unsigned long long pages, start, now;
	const struct v1_group *group;
	struct memevent *event;
	char level[16];
	int kind, pid, efd;
	uint64_t group_id;
	unsigned int hier;
	long long id;

	if (serial >= ctx->memevents.next_serial)
		ctx->memevents.next_serial = serial + 1;
	if (sscanf(record, "%" SCNu64 " %u %d %llu %15s %d %llu %d %lld", &group_id, &hier, &kind,
		   &pages, level, &pid, &start, &efd, &id) != 9 ||
	    kind < MEMEVENT_USAGE || kind > MEMEVENT_PRESSURE ||
	    !(group = tree_group_by_id(&ctx->tree, group_id)) || group->hier != hier ||
	    proc_start_time(pid, &now) < 0 || now != start || (pidfd = proc_pidfd(pid)) < 0 ||
	    (eventfd = proc_pidfd_take(pidfd, efd)) < 0)
		goto gone;
	/* The descriptor number may have been closed and reused meanwhile. */
	if (!proc_own_fd_is_eventfd(eventfd) || (id >= 0 && eventfd_id_of(eventfd) != id))
		goto gone;
	request = (struct memevent_request){.kind = kind,
					    .threshold = pages * PAGE_SIZE_BYTES,
					    .psi_trigger = pressure_trigger_of(level)};
	if (kind == MEMEVENT_PRESSURE && !request.psi_trigger)
		goto gone;
	if (event_start(ctx, group, &request, eventfd, &event) < 0)
		goto gone;
	steal_fd(eventfd);
	event->serial = serial;
	holder_set(event, steal_fd(pidfd), pid, efd);
	event_link(&ctx->memevents, event);
	cgx_log(CGX_LOG_INFO, "cgroup.event_control: listener of process %d taken up again", pid);
	return;
gone:
	state_listener_forget(ctx, serial);
}

void memevent_restore(struct cgx_ctx *ctx)
{
	int r = state_listeners_each(ctx, restore_one);

	if (r < 0)
		cgx_log_errno(r, "cgroup.event_control: cannot read the listeners kept");
}

static void check_one(struct cgx_ctx *ctx, struct memevent *event, const struct v1_group *group,
		      bool fired)
{
	unsigned long long ooms, kills;
	int r;

	if ((r = watch_open(ctx, event, group)) < 0)
		cgx_log_errno(r, "cgroup.event_control: cannot watch %s again after its rename",
			      group->dir->name);
	switch (event->kind) {
	case MEMEVENT_USAGE:
	case MEMEVENT_MEMSW: {
		bool above = usage_pages(ctx, event, group) >= event->threshold;

		if (above != event->above)
			listener_signal(event, 1);
		event->above = above;
		break;
	}
	case MEMEVENT_OOM:
		watch_rearm(event);
		oom_counts(ctx, group, &ooms, &kills);
		/* One signal per OOM, as mem_cgroup_oom_notify() gives each. */
		if (ooms > event->ooms || kills > event->oom_kills)
			listener_signal(event, ooms - event->ooms > kills - event->oom_kills
						       ? ooms - event->ooms
						       : kills - event->oom_kills);
		/* A counter only shrinks when the directory was made anew: start from there. */
		event->ooms = ooms;
		event->oom_kills = kills;
		break;
	case MEMEVENT_PRESSURE:
		if (fired)
			listener_signal(event, 1);
		break;
	}
}

/* Whether the poll of @fd reported one of @events. */
static bool polled(int fd, short events, const struct pollfd *fds, size_t nr)
{
	for (size_t i = 0; i < nr && fd >= 0; i++)
		if (fds[i].fd == fd && (fds[i].revents & events))
			return true;
	return false;
}

/* No process holds the eventfd any more: v1 dropped it at the last close (EPOLLHUP). */
static bool listener_gone(struct cgx_ctx *ctx, struct memevent *event, const struct pollfd *fds,
			  size_t nr)
{
	if (event->holder_pidfd >= 0 && !polled(event->holder_pidfd, POLLIN, fds, nr))
		return false;
	return !holder_follow(ctx, event);
}

/* memcg_event_remove(): the listener reads 1 and finds its control file gone. */
static void wake_removed(struct memevent_state *state)
{
	for (struct memevent **link = &state->removed; *link;) {
		struct memevent *event = *link;

		if (monotonic_ms() - event->removed_ms < REMOVAL_DELAY_MS) {
			link = &event->next;
			continue;
		}
		listener_signal(event, 1);
		*link = event->next;
		memevent_free(event);
	}
}

void cgx_memevent_check(struct cgx_ctx *ctx, const struct pollfd *fds, size_t nr)
{
	struct memevent_state *state = &ctx->memevents;

	wake_removed(state);
	for (struct memevent **link = &state->events; *link;) {
		struct memevent *event = *link;
		const struct v1_group *group = tree_group_by_id(&ctx->tree, event->group_id);

		if (listener_gone(ctx, event, fds, nr)) {
			*link = event->next;
			state_count(state, event, -1);
			state_listener_forget(ctx, event->serial);
			memevent_free(event);
			continue;
		}
		/* rmdir drops the listeners of the group: a group missing here is not seen. */
		if (group)
			check_one(ctx, event, group, polled(event->watch_fd, POLLPRI, fds, nr));
		link = &event->next;
	}
}

bool cgx_memevent_ticking(struct cgx_ctx *ctx)
{
	return ctx->memevents.nr_ticked > 0 || ctx->memevents.removed;
}

size_t cgx_memevent_pollfds(struct cgx_ctx *ctx, struct pollfd *fds, size_t room)
{
	size_t nr = 0;

	for (struct memevent *event = ctx->memevents.events; event; event = event->next) {
		if (event->watch_fd >= 0) {
			if (nr < room)
				fds[nr] = (struct pollfd){.fd = event->watch_fd, .events = POLLPRI};
			nr++;
		}
		/* A pidfd polls readable once its process has exited. */
		if (event->holder_pidfd >= 0) {
			if (nr < room)
				fds[nr] = (struct pollfd){.fd = event->holder_pidfd,
							  .events = POLLIN};
			nr++;
		}
	}
	return nr;
}

void memevent_group_removed(struct cgx_ctx *ctx, uint64_t group_id)
{
	struct memevent_state *state = &ctx->memevents;

	for (struct memevent **link = &state->events; *link;) {
		struct memevent *event = *link;

		if (event->group_id != group_id) {
			link = &event->next;
			continue;
		}
		*link = event->next;
		state_count(state, event, -1);
		state_listener_forget(ctx, event->serial);
		close_watch(event);
		event->removed_ms = monotonic_ms();
		event->next = state->removed;
		state->removed = event;
	}
}

static void free_all(struct memevent **list)
{
	while (*list) {
		struct memevent *event = *list;

		*list = event->next;
		memevent_free(event);
	}
}

void memevent_state_release(struct memevent_state *state)
{
	free_all(&state->events);
	free_all(&state->removed);
	state->nr_ticked = 0;
}
