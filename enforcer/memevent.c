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
 *
 * v1 charges a registration to kernel memory, which affects nobody else; here
 * each holds descriptors of the daemon, which serves everyone. So a user
 * other than root holds at most per_uid_limit registrations, and its
 * listeners at most 1/CGX_LISTENER_SHARE of the descriptors listeners of
 * users other than root may hold; listeners never take the last
 * CGX_FD_RESERVE descriptors (those of users other than root at most half of
 * the rest), and past a limit a registration gets ENOMEM, v1's answer when
 * the kernel runs out. A user is the account of the writing process
 * (proc_account.h), so that the uids of one user's namespace share one
 * limit. A registration of the same eventfd, file and arguments as one the
 * user holds is folded into it: v1 makes a second event that fires with the
 * first, so each signal counts once per registration folded in, and the
 * descriptors are held once. A registration stops counting against its user
 * when rmdir removes its group, though it is woken and let go a moment later.
 */
#include "memevent.h"
#include "proc_account.h"

#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <search.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
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
	uid_t uid; /* who registered it (the opener's uid), as logs and records name it */
	struct proc_account account; /* whom its registrations count against */
	bool charged;		     /* they count against the account (until its group goes) */
	unsigned long registrations; /* 1 and the duplicates folded in */
	long long eventfd_id;	     /* fdinfo's eventfd-id, -1 where the kernel shows none */
	size_t fds;		     /* descriptors counted against the budget while in the state */
	size_t poll_slot; /* its first entry in the watcher's poll array; SIZE_MAX: none yet */
};

/* Log lines of registrations (refusals, failures) a minute, past which they are counted. */
#define LOG_LINES_PER_MINUTE 10
/* Refusal lines a minute of each user, then counted; and of every user together. */
#define REFUSAL_LINES_PER_USER	 3
#define REFUSAL_LINES_PER_MINUTE 48

/* Who asks for a registration: the uid logs name, the account its limits count. */
struct registrant {
	uid_t uid;
	struct proc_account account;
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

/*
 * A line to the log within LOG_LINES_PER_MINUTE: registrations come from any
 * user, and a log line per attempt would be an unbounded channel too.
 */
static void __attribute__((format(printf, 3, 4)))
limited_log(struct memevent_state *state, enum cgx_log_level level, const char *fmt, ...)
{
	struct memevent_log_limit *limit = &state->log_limit;
	long long now = monotonic_ms();
	char msg[512];
	va_list ap;

	if (!limit->window_ms || now - limit->window_ms >= 60 * 1000) {
		if (limit->suppressed)
			cgx_log(CGX_LOG_WARNING,
				"cgroup.event_control: %llu more log lines left out in the last "
				"minute",
				limit->suppressed);
		*limit = (struct memevent_log_limit){.window_ms = now};
	}
	if (limit->lines >= LOG_LINES_PER_MINUTE) {
		limit->suppressed++;
		return;
	}
	limit->lines++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cgx_log(level, "%s", msg);
}

static bool is_ticked(enum memevent_kind kind)
{
	return kind != MEMEVENT_PRESSURE;
}

static bool is_polled(enum memevent_kind kind)
{
	return kind == MEMEVENT_OOM || kind == MEMEVENT_PRESSURE;
}

/* The eventfd, its file, the holder pidfd and the file polled, if any. */
static size_t fd_cost(enum memevent_kind kind)
{
	return 2 + is_polled(kind);
}

/*
 * eventfd_signal() @count times for each registration folded in. The
 * kernel's stops at a counter of 2^64 - 1, where a write(2) would wait for a
 * reader (the listener's flags are its own, left alone) and stop the watcher
 * with it: no more is written than the counter fdinfo shows has room for.
 * A writer that fills its counter between that read and the write still
 * blocks the watcher until it reads.
 */
static void listener_signal(const struct memevent *event, uint64_t count)
{
	unsigned long long counter;
	uint64_t add = count * event->registrations;

	if (proc_fdinfo_field(getpid(), (unsigned long)event->eventfd, "eventfd-count", 16,
			      &counter) == 0 &&
	    UINT64_MAX - 1 - counter < add)
		add = UINT64_MAX - 1 - counter;
	if (add && write(event->eventfd, &add, sizeof(add)) != sizeof(add))
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

/* The eventfd-id fdinfo shows for descriptor @fd of @pid (5.2 and later), -1 where it shows none.
 */
static long long eventfd_id_of(pid_t pid, int fd)
{
	unsigned long long id;

	if (proc_fdinfo_field(pid, (unsigned long)fd, "eventfd-id", 10, &id) < 0 || id > LLONG_MAX)
		return -1;
	return (long long)id;
}

static const char *pressure_level_of(const char *psi_trigger)
{
	for (size_t i = 0; i < ARRAY_SIZE(pressure_triggers); i++)
		if (pressure_triggers[i].trigger == psi_trigger)
			return pressure_triggers[i].level;
	return "-";
}

/*
 * "GROUP HIER KIND PAGES LEVEL PID START EFD EVENTFD-ID UID REGISTRATIONS
 * ACCOUNT ROOT" on the base (records of earlier daemons end after
 * EVENTFD-ID or REGISTRATIONS).
 */
static void record_save(struct cgx_ctx *ctx, const struct memevent *event)
{
	unsigned long long start;
	char record[256];
	int r;

	if (event->holder_pidfd < 0 || proc_start_time(event->holder_pid, &start) < 0)
		return;
	snprintf(record, sizeof(record), "%" PRIu64 " %u %d %llu %s %d %llu %d %lld %u %lu %u %d",
		 event->group_id, event->hier, (int)event->kind, event->threshold,
		 pressure_level_of(event->psi_trigger), (int)event->holder_pid, start,
		 event->holder_efd, event->eventfd_id, (unsigned int)event->uid,
		 event->registrations, (unsigned int)event->account.uid, event->account.root);
	if ((r = state_listener_save(ctx, event->serial, record)) < 0)
		limited_log(&ctx->memevents, CGX_LOG_ERR,
			    "cgroup.event_control: a restart would lose a listener of uid %u: %s",
			    (unsigned int)event->uid, strerror(-r));
}

/* Process @pid, pinned by @pidfd (taken), holds the eventfd as its descriptor @efd. */
static void holder_set(struct memevent *event, int pidfd, pid_t pid, int efd)
{
	event->holder_pidfd = pidfd;
	event->holder_pid = pid;
	event->holder_efd = efd;
}

static void holder_drop(struct memevent *event)
{
	if (event->holder_pidfd >= 0)
		close(event->holder_pidfd);
	event->holder_pidfd = -1;
}

/* Watches process @pid, found holding the eventfd as @efd, if it still does once pinned. */
static bool holder_take(struct cgx_ctx *ctx, struct memevent *event, pid_t pid, int efd)
{
	int pidfd = proc_pidfd(pid);

	if (pidfd < 0)
		return false;
	/* Compared once pinned: the pid may have been reused before. */
	if (!proc_same_file(event->eventfd, pid, efd)) {
		close(pidfd);
		return false;
	}
	holder_set(event, pidfd, pid, efd);
	record_save(ctx, event);
	return true;
}

/*
 * Follows the eventfd to a process still holding it once the one watched
 * has exited; false when none is left and the registration should go.
 */
static bool holder_follow(struct cgx_ctx *ctx, struct memevent *event)
{
	pid_t holder;
	int pidfd, holder_efd;

	holder_drop(event);
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

/* What one user's listeners hold. */
struct account_count {
	uid_t uid;
	unsigned long registrations;
	size_t fds;
};

static int account_compare(const void *a, const void *b)
{
	uid_t x = ((const struct account_count *)a)->uid,
	      y = ((const struct account_count *)b)->uid;

	return x < y ? -1 : x > y;
}

static const struct account_count *account_find(const struct memevent_state *state,
						const struct proc_account *account)
{
	struct account_count key = {.uid = account->uid},
			     **found = tfind(&key, &state->uid_counts, account_compare);

	return found ? *found : NULL;
}

/* Root's listeners count against no user: only the descriptors they hold. */
static int account_add(struct memevent_state *state, const struct proc_account *account,
		       unsigned long registrations, size_t fds)
{
	_cleanup_free_ struct account_count *fresh = NULL;
	struct account_count **slot;

	if (account->root)
		return 0;
	if (!(fresh = calloc(1, sizeof(*fresh))))
		return -ENOMEM;
	fresh->uid = account->uid;
	if (!(slot = tsearch(fresh, &state->uid_counts, account_compare)))
		return -ENOMEM;
	if (*slot == fresh)
		steal_ptr(fresh);
	(*slot)->registrations += registrations;
	(*slot)->fds += fds;
	return 0;
}

static void account_sub(struct memevent_state *state, const struct proc_account *account,
			unsigned long registrations, size_t fds)
{
	struct account_count key = {.uid = account->uid}, *count,
			     **slot = tfind(&key, &state->uid_counts, account_compare);

	if (account->root || !slot)
		return;
	count = *slot;
	count->registrations -=
		registrations < count->registrations ? registrations : count->registrations;
	count->fds -= fds < count->fds ? fds : count->fds;
	if (!count->registrations && !count->fds) {
		tdelete(count, &state->uid_counts, account_compare);
		free(count);
	}
}

/* Descriptors listeners may hold in all: the soft RLIMIT_NOFILE less the reserve. */
static size_t fd_budget(void)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur <= CGX_FD_RESERVE)
		return 0;
	return (size_t)(limit.rlim_cur - CGX_FD_RESERVE);
}

/*
 * The refusal lines of @account's window, a slot of a fixed table: its own,
 * else a free one, else the one whose window started longest ago, whose
 * count of lines left out is said first. So each user's first refusals are
 * named, however many another user makes.
 */
static struct memevent_refusals *refusal_slot(struct memevent_state *state,
					      const struct proc_account *account, long long now)
{
	struct memevent_refusals *victim = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(state->refusals); i++) {
		struct memevent_refusals *slot = &state->refusals[i];

		if (slot->used && proc_account_same(&slot->account, account)) {
			victim = slot;
			break;
		}
		if (!victim ||
		    (victim->used && (!slot->used || slot->window_ms < victim->window_ms)))
			victim = slot;
	}
	if (victim->used && proc_account_same(&victim->account, account) &&
	    now - victim->window_ms < 60 * 1000)
		return victim;
	if (victim->used && victim->suppressed)
		cgx_log(CGX_LOG_WARNING,
			"cgroup.event_control: %llu more refusals of user %u left out in a minute",
			victim->suppressed, (unsigned int)victim->account.uid);
	*victim = (struct memevent_refusals){.used = true, .account = *account, .window_ms = now};
	return victim;
}

/* "listener of uid U [(user A)] refused (ENOMEM): WHY", within the refusal lines. */
static void __attribute__((format(printf, 3, 4)))
refused(struct memevent_state *state, const struct registrant *who, const char *fmt, ...)
{
	struct memevent_refusals *slot;
	long long now = monotonic_ms();
	char why[256], user[32] = "";
	va_list ap;

	if (now - state->refusal_window_ms >= 60 * 1000) {
		state->refusal_window_ms = now;
		state->refusal_lines = 0;
	}
	slot = refusal_slot(state, &who->account, now);
	if (slot->lines >= REFUSAL_LINES_PER_USER ||
	    state->refusal_lines >= REFUSAL_LINES_PER_MINUTE) {
		slot->suppressed++;
		return;
	}
	slot->lines++;
	state->refusal_lines++;
	if (who->account.uid != who->uid)
		snprintf(user, sizeof(user), " (user %u)", (unsigned int)who->account.uid);
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	cgx_log(CGX_LOG_WARNING, "cgroup.event_control: listener of uid %u%s refused (ENOMEM): %s",
		(unsigned int)who->uid, user, why);
}

/*
 * How many of @want registrations @who may add that need @fds more
 * descriptors; 0, logged, when none may (the caller answers ENOMEM).
 */
static unsigned long admit(struct memevent_state *state, const struct registrant *who,
			   unsigned long want, size_t fds)
{
	const struct account_count *count = account_find(state, &who->account);
	unsigned long held = count ? count->registrations : 0;
	bool root = who->account.root;
	size_t total = fd_budget(), pool = root ? total : total / 2,
	       in_use = root ? state->nr_fds : state->nr_fds_unprivileged,
	       share = total / 2 / CGX_LISTENER_SHARE, own = count ? count->fds : 0;

	if (fds && (in_use + fds > pool || state->nr_fds + fds > total)) {
		refused(state, who,
			"listeners %shold %zu descriptors of the %zu RLIMIT_NOFILE leaves them",
			root ? "" : "of users other than root ", in_use, pool);
		return 0;
	}
	if (root)
		return want;
	/* One user alone never fills the pool the others share. */
	if (fds && own + fds > share) {
		refused(state, who,
			"its listeners hold %zu descriptors, its share (1/%d) of the %zu those "
			"of users other than root may hold",
			own, CGX_LISTENER_SHARE, total / 2);
		return 0;
	}
	if (held >= state->per_uid_limit) {
		refused(state, who, "it holds %lu, the most --listeners-per-uid allows", held);
		return 0;
	}
	return want < state->per_uid_limit - held ? want : state->per_uid_limit - held;
}

static void fds_add(struct memevent_state *state, const struct memevent *event, ssize_t fds)
{
	state->nr_fds += (size_t)fds;
	if (!event->account.root)
		state->nr_fds_unprivileged += (size_t)fds;
}

/* Counts @event, holding @event->registrations, against its account and the budget. */
static int event_link(struct memevent_state *state, struct memevent *event)
{
	int r;

	event->fds = fd_cost(event->kind);
	if ((r = account_add(state, &event->account, event->registrations, event->fds)) < 0)
		return r;
	event->charged = true;
	fds_add(state, event, (ssize_t)event->fds);
	event->next = state->events;
	state->events = event;
	state_count(state, event, 1);
	return 0;
}

/*
 * @event no longer counts against its account, and holds only its eventfd:
 * its group is gone and it waits for its wake-up. A user that makes and
 * removes groups in a loop is thus never refused for listeners it no longer has.
 */
static void event_discharge(struct memevent_state *state, struct memevent *event)
{
	if (event->charged)
		account_sub(state, &event->account, event->registrations, event->fds);
	event->charged = false;
	close_watch(event);
	holder_drop(event);
	fds_add(state, event, 1 - (ssize_t)event->fds);
	event->fds = 1;
}

/* Frees @event, off both lists: its registrations and descriptors are given back. */
static void event_release(struct memevent_state *state, struct memevent *event)
{
	if (event->charged)
		account_sub(state, &event->account, event->registrations, event->fds);
	fds_add(state, event, -(ssize_t)event->fds);
	memevent_free(event);
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
		.registrations = 1,
		.poll_slot = SIZE_MAX,
	};
	if ((r = watch_open(ctx, event, group)) < 0) {
		memevent_free(event);
		/* cgroup2 without the memory controller or PSI: refused, never taken silently. */
		limited_log(&ctx->memevents, CGX_LOG_ERR,
			    "cgroup.event_control: cannot watch %s of %s for a listener (%s): %s",
			    request->kind == MEMEVENT_OOM ? "memory.events" : "memory.pressure",
			    group->dir->name, strerror(-r), strerror(EOPNOTSUPP));
		return -EOPNOTSUPP;
	}
	/* As __mem_cgroup_usage_register_event(): a crossing counts from the usage now. */
	if (event->kind == MEMEVENT_USAGE || event->kind == MEMEVENT_MEMSW)
		event->above = usage_pages(ctx, event, group) >= event->threshold;
	if (event->kind == MEMEVENT_OOM) {
		oom_counts(ctx, group, &event->ooms, &event->oom_kills);
		watch_rearm(event);
	}
	event->eventfd = eventfd;
	event->eventfd_id = eventfd_id_of(getpid(), eventfd);
	*started = event;
	return 0;
}

/*
 * A listener of @account on @group for the same file and arguments as
 * @request, signalled through the eventfd that process @pid holds as @fd:
 * what a registration of it would duplicate.
 */
static struct memevent *find_duplicate(struct memevent_state *state,
				       const struct proc_account *account,
				       const struct v1_group *group,
				       const struct memevent_request *request, pid_t pid, int fd)
{
	long long id = -2; /* read at the first listener that may match */

	for (struct memevent *event = state->events; event; event = event->next) {
		if (!proc_account_same(&event->account, account) || event->group_id != group->id ||
		    event->hier != group->hier || event->kind != request->kind ||
		    event->threshold != request->threshold / PAGE_SIZE_BYTES ||
		    event->psi_trigger != request->psi_trigger)
			continue;
		if (id == -2)
			id = eventfd_id_of(pid, fd);
		/* An id names one eventfd while it lives, and we hold this one. */
		if (id >= 0 && event->eventfd_id >= 0 ? id == event->eventfd_id
						      : proc_same_file(event->eventfd, pid, fd))
			return event;
	}
	return NULL;
}

/*
 * @registrations more of @event by @who, as far as its user's limit allows;
 * the record follows.
 */
static int duplicate_add(struct cgx_ctx *ctx, struct memevent *event, const struct registrant *who,
			 unsigned long registrations)
{
	unsigned long admitted = admit(&ctx->memevents, who, registrations, 0);
	int r;

	if (!admitted)
		return -ENOMEM;
	if ((r = account_add(&ctx->memevents, &event->account, admitted, 0)) < 0)
		return r;
	event->registrations += admitted;
	record_save(ctx, event);
	return 0;
}

/* pidfd_getfd() found no room: what v1 answers when the kernel runs out. */
static int take_error(int r)
{
	return r == -EMFILE || r == -ENFILE ? -ENOMEM : r;
}

int memevent_register(const struct v1_file_ctx *fc, const struct memevent_request *request)
{
	struct memevent_state *state = &fc->ctx->memevents;
	const struct v1_group *group = fc->dir->group[fc->hier];
	_cleanup_close_ int pidfd = -1, eventfd = -1;
	struct registrant who = {.uid = fc->caller->uid};
	struct memevent *event;
	pid_t tgid;
	int r;

	/* The writer's table is its process's: pidfd_getfd(2) wants the thread group leader. */
	if ((r = proc_tgid(fc->caller->tid, &tgid)) < 0)
		return r;
	/* Whom it counts against, read once: a writer gone is refused below, not counted. */
	(void)proc_account_read(tgid, &who.account);
	/* A user at its limit is refused before any search: duplicates count too. */
	if (!admit(state, &who, 1, 0))
		return -ENOMEM;
	if ((event = find_duplicate(state, &who.account, group, request, tgid,
				    request->writer_efd)))
		return duplicate_add(fc->ctx, event, &who, 1);
	if (!admit(state, &who, 1, fd_cost(request->kind)))
		return -ENOMEM;
	if ((pidfd = proc_pidfd(tgid)) < 0)
		return take_error(pidfd);
	if ((eventfd = proc_pidfd_take(pidfd, request->writer_efd)) < 0) {
		limited_log(state, CGX_LOG_ERR,
			    "cgroup.event_control: cannot take eventfd %d of %d (uid %u): %s",
			    request->writer_efd, (int)tgid, (unsigned int)who.uid,
			    strerror(-eventfd));
		return take_error(eventfd);
	}
	/* The writer may have replaced it since it was checked: what we hold must be one. */
	if (!proc_own_fd_is_eventfd(eventfd))
		return -EINVAL;
	if ((r = event_start(fc->ctx, group, request, eventfd, &event)) < 0)
		return r;
	steal_fd(eventfd);
	event->uid = who.uid;
	event->account = who.account;
	event->serial = state->next_serial++;
	holder_set(event, steal_fd(pidfd), tgid, request->writer_efd);
	if ((r = event_link(state, event)) < 0) {
		memevent_free(event);
		return r;
	}
	record_save(fc->ctx, event);
	if (is_ticked(event->kind) && !cgx_has_controller(fc->ctx, "memory") &&
	    !state->warned_no_memory) {
		state->warned_no_memory = true;
		cgx_log(CGX_LOG_WARNING,
			"cgroup.event_control: the memory controller is not available in cgroup2 "
			"here: threshold listeners wake only when their group is removed");
	}
	return 0;
}

/*
 * One record of an earlier daemon: taken up when its holder still has the
 * same eventfd, within the limits a registration has now (a record over
 * them is dropped, one that duplicates another is folded into it).
 */
static void restore_one(struct cgx_ctx *ctx, uint64_t serial, const char *record)
{
	struct memevent_state *state = &ctx->memevents;
	struct memevent_request request = {0};
	_cleanup_close_ int eventfd = -1, pidfd = -1;
	unsigned long long pages, start, now;
	unsigned long registrations = 1, admitted;
	const struct v1_group *group;
	struct memevent *event;
	struct proc_creds creds;
	struct registrant who;
	unsigned int hier, uid, account;
	int kind, pid, efd, fields, root;
	char level[16];
	uint64_t group_id;
	long long id;

	if (serial >= state->next_serial)
		state->next_serial = serial + 1;
	fields = sscanf(record, "%" SCNu64 " %u %d %llu %15s %d %llu %d %lld %u %lu %u %d",
			&group_id, &hier, &kind, &pages, level, &pid, &start, &efd, &id, &uid,
			&registrations, &account, &root);
	if ((fields != 9 && fields != 11 && fields != 13) || kind < MEMEVENT_USAGE ||
	    kind > MEMEVENT_PRESSURE || !registrations ||
	    !(group = tree_group_by_id(&ctx->tree, group_id)) || group->hier != hier ||
	    proc_start_time(pid, &now) < 0 || now != start)
		goto gone;
	/* The descriptor number may have been closed and reused meanwhile. */
	if (id >= 0 && eventfd_id_of(pid, efd) != id)
		goto gone;
	/* An earlier daemon's record names no uid: the holder's stands in. */
	if (fields == 9) {
		if (proc_creds(pid, &creds) < 0)
			goto gone;
		uid = creds.uid;
	}
	who = (struct registrant){uid, {account, root == 1}};
	/* Nor an account: the holder's stands in, as a registration now would count it. */
	if (fields != 13)
		(void)proc_account_read(pid, &who.account);
	request = (struct memevent_request){.kind = kind,
					    .threshold = pages * PAGE_SIZE_BYTES,
					    .psi_trigger = pressure_trigger_of(level),
					    .writer_efd = efd};
	if (kind == MEMEVENT_PRESSURE && !request.psi_trigger)
		goto gone;
	if ((event = find_duplicate(state, &who.account, group, &request, pid, efd))) {
		if (duplicate_add(ctx, event, &who, registrations) < 0)
			goto gone;
		state_listener_forget(ctx, serial);
		return;
	}
	if (!(admitted = admit(state, &who, registrations, fd_cost(kind))) ||
	    (pidfd = proc_pidfd(pid)) < 0 || (eventfd = proc_pidfd_take(pidfd, efd)) < 0)
		goto gone;
	/* ... or just now. */
	if (!proc_own_fd_is_eventfd(eventfd) || (id >= 0 && eventfd_id_of(getpid(), eventfd) != id))
		goto gone;
	if (event_start(ctx, group, &request, eventfd, &event) < 0)
		goto gone;
	steal_fd(eventfd);
	event->uid = uid;
	event->account = who.account;
	event->registrations = admitted;
	event->serial = serial;
	holder_set(event, steal_fd(pidfd), pid, efd);
	if (event_link(state, event) < 0) {
		memevent_free(event);
		goto gone;
	}
	if (admitted < registrations)
		record_save(ctx, event);
	return;
gone:
	state_listener_forget(ctx, serial);
}

void memevent_restore(struct cgx_ctx *ctx, unsigned int per_uid_limit)
{
	struct memevent_state *state = &ctx->memevents;
	unsigned long listeners = 0, registrations = 0;
	int r;

	state->per_uid_limit = per_uid_limit ? per_uid_limit : CGX_LISTENERS_PER_UID_DEFAULT;
	if ((r = state_listeners_each(ctx, restore_one)) < 0)
		cgx_log_errno(r, "cgroup.event_control: cannot read the listeners kept");
	for (struct memevent *event = state->events; event; event = event->next) {
		listeners++;
		registrations += event->registrations;
	}
	/* One line for all: each one's would be as many lines as users made registrations. */
	if (listeners)
		cgx_log(CGX_LOG_INFO,
			"cgroup.event_control: %lu listeners (%lu registrations) taken up again",
			listeners, registrations);
}

/* What one check read of a group for a kind of listener (usage, memsw, OOM). */
struct group_reading {
	uint64_t group_id;
	enum memevent_kind kind;
	unsigned long long value, kills; /* pages, or ooms and oom_kills */
};

/* One check's readings, shared by the listeners of a group: one read a group, not a listener. */
struct readings {
	struct group_reading *items;
	size_t nr, room;
};

static struct group_reading group_read(struct cgx_ctx *ctx, struct readings *seen,
				       const struct memevent *event, const struct v1_group *group)
{
	struct group_reading fresh = {.group_id = group->id, .kind = event->kind};

	for (size_t i = 0; i < seen->nr; i++)
		if (seen->items[i].group_id == group->id && seen->items[i].kind == event->kind)
			return seen->items[i];
	if (event->kind == MEMEVENT_OOM)
		oom_counts(ctx, group, &fresh.value, &fresh.kills);
	else
		fresh.value = usage_pages(ctx, event, group);
	if (seen->nr == seen->room) {
		struct group_reading *grown =
			realloc(seen->items, (seen->room * 2 + 8) * sizeof(*grown));

		/* Without room it is read again for the next listener: slower, not wrong. */
		if (!grown)
			return fresh;
		seen->items = grown;
		seen->room = seen->room * 2 + 8;
	}
	seen->items[seen->nr++] = fresh;
	return fresh;
}

static void check_one(struct cgx_ctx *ctx, struct readings *seen, struct memevent *event,
		      const struct v1_group *group, bool fired)
{
	struct group_reading now;
	unsigned long long ooms, kills;
	int r;

	if ((r = watch_open(ctx, event, group)) < 0)
		limited_log(&ctx->memevents, CGX_LOG_ERR,
			    "cgroup.event_control: cannot watch %s again after its rename: %s",
			    group->dir->name, strerror(-r));
	switch (event->kind) {
	case MEMEVENT_USAGE:
	case MEMEVENT_MEMSW: {
		bool above = group_read(ctx, seen, event, group).value >= event->threshold;

		if (above != event->above)
			listener_signal(event, 1);
		event->above = above;
		break;
	}
	case MEMEVENT_OOM:
		watch_rearm(event);
		now = group_read(ctx, seen, event, group);
		ooms = now.value;
		kills = now.kills;
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

/*
 * Whether the poll reported one of @events on @event's descriptor @fd, found
 * at the slot cgx_memevent_pollfds() gave it rather than by a search: a
 * search per listener would cost the square of their number each tick.
 */
static bool polled(const struct memevent *event, int fd, short events, const struct pollfd *fds,
		   size_t nr)
{
	for (size_t i = event->poll_slot; fd >= 0 && i < nr && i - event->poll_slot < 2; i++)
		if (fds[i].fd == fd)
			return fds[i].revents & events;
	return false;
}

/*
 * The listeners whose watched holder exited look for another process
 * holding their eventfd (v1 dropped one at the last close, EPOLLHUP), all of
 * them in one pass over /proc: a pass each would hold the lock for seconds
 * once a process holding hundreds exits. Without eventfd-ids each looks on
 * its own. One left with no holder has holder_pidfd -1 and goes.
 */
static void holders_follow(struct cgx_ctx *ctx, const struct pollfd *fds, size_t nr)
{
	_cleanup_free_ unsigned long long *ids = NULL;
	_cleanup_free_ struct proc_fd_ref *holders = NULL;
	size_t nr_ids = 0, room = 0;

	for (struct memevent *event = ctx->memevents.events; event; event = event->next) {
		if (event->holder_pidfd >= 0 &&
		    !polled(event, event->holder_pidfd, POLLIN, fds, nr))
			continue;
		holder_drop(event);
		if (event->eventfd_id < 0) {
			holder_follow(ctx, event);
			continue;
		}
		if (nr_ids == room) {
			unsigned long long *grown =
				realloc(ids, (room = room * 2 + 16) * sizeof(*ids));

			if (!grown)
				continue; /* it goes: what v1 does when it cannot allocate */
			ids = grown;
		}
		ids[nr_ids++] = (unsigned long long)event->eventfd_id;
	}
	if (!nr_ids)
		return;
	nr_ids = proc_ids_sort_unique(ids, nr_ids);
	if (!(holders = calloc(nr_ids, sizeof(*holders))) ||
	    proc_eventfd_holders(ids, nr_ids, holders) < 0)
		return;
	for (struct memevent *event = ctx->memevents.events; event; event = event->next) {
		const struct proc_fd_ref *holder;
		ssize_t found;

		if (event->holder_pidfd >= 0 || event->eventfd_id < 0 ||
		    (found = proc_ids_find(ids, nr_ids, (unsigned long long)event->eventfd_id)) < 0)
			continue;
		holder = &holders[found];
		/* Found, then gone or replaced before it was pinned: a full look. */
		if (holder->fd >= 0 && !holder_take(ctx, event, holder->pid, holder->fd))
			holder_follow(ctx, event);
	}
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
		event_release(state, event);
	}
}

void cgx_memevent_check(struct cgx_ctx *ctx, const struct pollfd *fds, size_t nr)
{
	struct memevent_state *state = &ctx->memevents;
	struct readings seen = {0};

	wake_removed(state);
	holders_follow(ctx, fds, nr);
	for (struct memevent **link = &state->events; *link;) {
		struct memevent *event = *link;
		const struct v1_group *group = tree_group_by_id(&ctx->tree, event->group_id);

		/* No process holds the eventfd any more: v1 dropped it at the last close. */
		if (event->holder_pidfd < 0) {
			*link = event->next;
			state_count(state, event, -1);
			state_listener_forget(ctx, event->serial);
			event_release(state, event);
			continue;
		}
		/* rmdir drops the listeners of the group: a group missing here is not seen. */
		if (group)
			check_one(ctx, &seen, event, group,
				  polled(event, event->watch_fd, POLLPRI, fds, nr));
		link = &event->next;
	}
	free(seen.items);
}

bool cgx_memevent_ticking(struct cgx_ctx *ctx)
{
	return ctx->memevents.nr_ticked > 0 || ctx->memevents.removed;
}

size_t cgx_memevent_pollfds(struct cgx_ctx *ctx, struct pollfd *fds, size_t room)
{
	size_t nr = 0;

	for (struct memevent *event = ctx->memevents.events; event; event = event->next) {
		/* Only the filling call places the listeners; the counting one passes no room. */
		if (room)
			event->poll_slot = nr < room ? nr : SIZE_MAX;
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

/* rmdir: every listener on group @group_id is dropped, signalled once by the next check. */
static void memevent_group_removed(struct cgx_ctx *ctx, uint64_t group_id)
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
		event_discharge(state, event);
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
	tdestroy(state->uid_counts, free);
	state->uid_counts = NULL;
	state->nr_ticked = state->nr_fds = state->nr_fds_unprivileged = 0;
}

void memevent_on_event(const struct cgx_event *event)
{
	if (event->kind == CGX_EVENT_RMDIR)
		memevent_group_removed(event->ctx, event->group_id);
}
