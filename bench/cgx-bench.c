// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cgx-bench: the same cgroup v1 operations against the kernel's own v1
 * hierarchy, against a cgxfs view mounted for the run and against floorfs (the
 * minimal FUSE file system beside it in bench/, the floor), interleaved in one
 * run, printed as medians, ratios and the targets of issue 18
 * (bench/README.md). With --scale N: cgxfs alone with N groups, its restart,
 * idle CPU and memory.
 *
 * Everything the run makes is named for its pid and removed on every path: the
 * scratch group in the host's v1 cpu hierarchy, the cgxfs and floorfs mounts,
 * the cgroup2 bases under them, and the processes it moves. SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT stop the run and clean up; a SIGKILL leaves the cgroups
 * behind, and takes the daemons (PR_SET_PDEATHSIG) and the processes with it.
 */
#include "util.h" /* the cleanup helpers and ARRAY_SIZE of libcgx, header only */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FUSE_SUPER_MAGIC 0x65735546
#define NR_POINTS_MAX	 4
#define WARMUP		 20
#define CROWD_READ_SIZE	 (256 * 1024)
#define WALK_PAUSE_MS	 1500
/* Groups every scale point holds besides the fillers: a, b and crowd. */
#define NR_FIXED_GROUPS 3
/* The samples of an operation are taken in this many rounds, each side in turn in each. */
#define NR_ROUNDS 10

static volatile sig_atomic_t stop_signal;

struct config {
	unsigned int groups;	 /* the largest scale point */
	unsigned int procs;	 /* processes of the crowd group */
	unsigned int iterations; /* samples per operation and scale point */
	unsigned int walks;	 /* samples of the walk */
	unsigned int scale;	 /* --scale: groups of the restart measure; 0: the comparison */
	unsigned int idle;	 /* seconds of the idle CPU measure */
	const char *cgxfs;
	const char *floorfs;
	const char *cgroup2;
	const char *v1;
	const char *hierarchies;
};

enum side_id { SIDE_V1, SIDE_CGXFS, SIDE_FLOOR, NR_SIDES };

/* The two cgroup2 sides each hold their own processes; v1 shares cgxfs's (apart hierarchies). */
enum crowd_id { CROWD_CGXFS, CROWD_FLOOR, NR_CROWDS };

/* One side of the comparison: a scratch group, and the paths the operations use in it. */
struct side {
	const char *label;
	char root[PATH_MAX]; /* the scratch group; every group of the run is below it */
	bool root_made;
	bool active; /* the floor is left out when there is no floorfs */
	enum crowd_id crowd;
	pid_t mover; /* the process its moves move, its own so that no side moves another's */
	char mover_text[32];
	unsigned int nr_fillers;
	char knob_read[PATH_MAX];
	char knob_write[PATH_MAX];
	char tasks[2][PATH_MAX];
	char crowd_tasks[PATH_MAX];
	char probe_group[PATH_MAX];
};

enum op_id { OP_KNOB_READ, OP_KNOB_WRITE, OP_MOVE, OP_MKDIR_RMDIR, OP_CROWD_READ, NR_OPS };

struct point {
	unsigned int groups;
	uint64_t median[NR_OPS][NR_SIDES];
	double fill_seconds[NR_SIDES];
	long rss_kib; /* the daemon's VmRSS once the groups exist */
};

/* A FUSE daemon of the run, mounted on a directory of the run's temporary one. */
struct daemon {
	const char *label;
	char path[PATH_MAX];
	char mountpoint[PATH_MAX];
	char log[PATH_MAX]; /* its stdout and stderr */
	pid_t pid;
};

enum daemon_id { DAEMON_CGXFS, DAEMON_FLOOR, NR_DAEMONS };

/* A scratch cgroup2 directory the run made (or had a daemon make) and removes. */
struct base {
	char path[PATH_MAX];
	bool ours;
};

struct walk_result {
	uint64_t median;
	unsigned long dirs;
	unsigned long entries;
};

struct run {
	struct config cfg;
	struct side side[NR_SIDES];
	char cgroup2[PATH_MAX];
	char v1[PATH_MAX];
	char workdir[PATH_MAX]; /* holds the mount points and the daemons' logs */
	struct daemon daemon[NR_DAEMONS];
	char deprecation_log[PATH_MAX]; /* cgxfs's own, never /var/log's */
	char load_start[64];
	char load_end[64];
	char counters[1024]; /* cgx.deprecations at the end, the lines not 0 */
	char base_name[64];
	struct base base[NR_DAEMONS];
	pid_t *crowd[NR_CROWDS];
	unsigned int nr_crowd[NR_CROWDS];
	double crowd_move_seconds[NR_SIDES];
	const char *write_file;
	const char *write_values[2];
	const char *write_note;
	char *read_buf;
	struct point point[NR_POINTS_MAX];
	unsigned int nr_points;
	long rss_mounted_kib;
	struct walk_result walk[NR_SIDES];
	struct scale_result {
		char deep[PATH_MAX]; /* the last group made, the one a restart must answer */
		double make_seconds;
		long rss_made_kib; /* the daemon that made them */
		double stop_seconds;
		double restart_seconds;
		long rss_restarted_kib;
		double idle_seconds;
		double idle_cpu_seconds;
		/* Reads of a knob every millisecond: at rest, and while a thorough pass repairs. */
		struct read_probe {
			unsigned int nr;
			uint64_t p99_ns, worst_ns;
		} at_rest, repairing;
		bool repaired;
	} scale;
};

static int warn_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "cgx-bench: MESSAGE: strerror" and returns @err, negative errno. */
static int warn_errno(int err, const char *fmt, ...)
{
	va_list ap;

	fputs("cgx-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(-err));
	fputc('\n', stderr);
	return err;
}

static void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void progress(const char *fmt, ...)
{
	va_list ap;

	fputs("[cgx-bench] ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

static int path_join(char *out, const char *dir, const char *name)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* What `cat FILE` does: open, read to end of file, close. Returns the bytes read. */
static ssize_t read_to_eof(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	do {
		if (used == size)
			return -EFBIG;
		n = read(fd, buf + used, size - used);
		if (n < 0)
			return -errno;
		used += (size_t)n;
	} while (n > 0);
	return (ssize_t)used;
}

/* What `echo TEXT > FILE` does: the shell's open flags, one write, close (which may fail). */
static int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	ssize_t n;
	int r = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

static int op_knob_read(struct run *run, struct side *side, unsigned int i)
{
	ssize_t n = read_to_eof(side->knob_read, run->read_buf, CROWD_READ_SIZE);

	(void)i;
	return n < 0 ? (int)n : 0;
}

static int op_knob_write(struct run *run, struct side *side, unsigned int i)
{
	return write_text(side->knob_write, run->write_values[i & 1]);
}

static int op_move(struct run *run, struct side *side, unsigned int i)
{
	(void)run;
	return write_text(side->tasks[i & 1], side->mover_text);
}

static int op_mkdir_rmdir(struct run *run, struct side *side, unsigned int i)
{
	(void)run, (void)i;
	if (mkdir(side->probe_group, 0755) < 0)
		return -errno;
	return rmdir(side->probe_group) < 0 ? -errno : 0;
}

static int op_crowd_read(struct run *run, struct side *side, unsigned int i)
{
	ssize_t n = read_to_eof(side->crowd_tasks, run->read_buf, CROWD_READ_SIZE);

	(void)i;
	return n < 0 ? (int)n : 0;
}

struct op {
	const char *name;
	int (*run)(struct run *run, struct side *side, unsigned int i);
	unsigned int divisor; /* iterations / divisor samples */
	double target;	      /* the largest cgxfs/v1 ratio allowed (issue 18); 0: none */
};

static const struct op ops[NR_OPS] = {
	[OP_KNOB_READ] = {"open+read+close cpu.shares", op_knob_read, 1, 5.0},
	[OP_KNOB_WRITE] = {"knob write (echo > FILE)", op_knob_write, 1, 4.0},
	[OP_MOVE] = {"echo PID > tasks (move)", op_move, 1, 4.0},
	[OP_MKDIR_RMDIR] = {"mkdir + rmdir", op_mkdir_rmdir, 2, 3.0},
	[OP_CROWD_READ] = {"read tasks of the crowd", op_crowd_read, 4, 0},
};

/* Issue 18: every operation of cgxfs within this of the floor's. */
#define FLOOR_TARGET 1.3
/* The scale curve: no operation of cgxfs slower at the largest point than at 10 groups by more. */
#define SCALE_TARGET   1.5
#define RSS_TARGET_KIB 2.0
/* --scale (issue 18): restart, idle CPU (percent of a core) and memory per group. */
#define RESTART_TARGET_S     1.0
#define IDLE_CPU_TARGET	     0.5
#define SCALE_RSS_TARGET_KIB 1.0

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median_of(uint64_t *samples, unsigned int n)
{
	qsort(samples, n, sizeof(*samples), cmp_u64);
	return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

/* Calls @from to @to of @op on @side; @samples, when given, gets the time of each call. */
static int run_calls(struct run *run, struct side *side, const struct op *op, unsigned int from,
		     unsigned int to, uint64_t *samples)
{
	int r;

	for (unsigned int i = from; i < to; i++) {
		uint64_t start;

		/* A call a signal cut short is no failure to report: the run is stopping. */
		if (stop_signal)
			return -EINTR;
		start = now_ns();
		if ((r = op->run(run, side, i)) < 0)
			return stop_signal ? -EINTR
					   : warn_errno(r, "%s: %s", side->label, op->name);
		if (samples)
			samples[i] = now_ns() - start;
	}
	return 0;
}

/*
 * The samples of @op on every side, taken in rounds, the sides in turn in
 * each and in a turning order: a change of the machine's load while the
 * operation is measured falls on every side alike.
 */
static int measure(struct run *run, const struct op *op, uint64_t *median)
{
	unsigned int n = run->cfg.iterations / op->divisor;
	_cleanup_free_ uint64_t *samples = NULL;
	int r;

	if (n < NR_ROUNDS)
		n = NR_ROUNDS;
	if (!(samples = calloc((size_t)n * NR_SIDES, sizeof(*samples))))
		return -ENOMEM;
	/* Warm the caches the operation goes through, both the kernel's and the daemons'. */
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		if (run->side[s].active &&
		    (r = run_calls(run, &run->side[s], op, 0, WARMUP, NULL)) < 0)
			return r;
	}
	for (unsigned int round = 0; round < NR_ROUNDS; round++) {
		for (unsigned int k = 0; k < NR_SIDES; k++) {
			unsigned int s = (round + k) % NR_SIDES;

			if (!run->side[s].active)
				continue;
			r = run_calls(run, &run->side[s], op, n * round / NR_ROUNDS,
				      n * (round + 1) / NR_ROUNDS, samples + (size_t)n * s);
			if (r < 0)
				return r;
		}
	}
	for (unsigned int s = 0; s < NR_SIDES; s++)
		median[s] = run->side[s].active ? median_of(samples + (size_t)n * s, n) : 0;
	return 0;
}

/* A find-like walk: every directory read, every entry (file or group) stat'ed, as `find -ls`. */
static int walk_dir(int parent_fd, const char *name, struct walk_result *walk)
{
	int fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *entry;
	int r;

	if (fd < 0)
		return -errno;
	if (!(dir = fdopendir(fd))) {
		r = -errno;
		close(fd);
		return r;
	}
	walk->dirs++;
	for (errno = 0; (entry = readdir(dir)); errno = 0) {
		struct stat st;

		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		if (stop_signal)
			return -EINTR;
		if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		walk->entries++;
		if (S_ISDIR(st.st_mode) && (r = walk_dir(dirfd(dir), entry->d_name, walk)) < 0)
			return r;
	}
	return errno ? -errno : 0;
}

static int measure_walk(struct run *run, struct side *side, struct walk_result *result)
{
	_cleanup_free_ uint64_t *samples = calloc(run->cfg.walks, sizeof(*samples));
	int r;

	if (!samples)
		return -ENOMEM;
	for (unsigned int i = 0; i < run->cfg.walks; i++) {
		struct walk_result walk = {0};
		uint64_t start;

		/*
		 * cgxfs lets the kernel cache names and attributes for 1 s: past that, a
		 * walk is a cold one, as a find run now and then would be.
		 */
		sleep_ms(WALK_PAUSE_MS);
		if (stop_signal)
			return -EINTR;
		start = now_ns();
		if ((r = walk_dir(AT_FDCWD, side->root, &walk)) < 0)
			return stop_signal
				       ? -EINTR
				       : warn_errno(r, "%s: walk of %s", side->label, side->root);
		samples[i] = now_ns() - start;
		result->dirs = walk.dirs;
		result->entries = walk.entries;
	}
	result->median = median_of(samples, run->cfg.walks);
	return 0;
}

/* The mount point of the first mount of @fstype (and, for "cgroup", with @option). */
static int find_mount(const char *fstype, const char *option, char *out)
{
	_cleanup_free_ char *line = NULL;
	FILE *mounts = fopen("/proc/self/mountinfo", "re");
	size_t cap = 0;
	int r = -ENOENT;

	if (!mounts)
		return -errno;
	while (getline(&line, &cap, mounts) > 0) {
		char target[PATH_MAX], type[64], super[1024];
		char *sep = strstr(line, " - ");
		char *tok, *save;
		bool match = !option;

		/* Field 5 is the mount point; after " - ": type, source, super options. */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", target) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", type, super) != 2 || strcmp(type, fstype))
			continue;
		for (tok = strtok_r(super, ",", &save); tok && !match;
		     tok = strtok_r(NULL, ",", &save))
			match = !strcmp(tok, option);
		/* Octal escapes (a space is \040) would make another path: refuse those. */
		if (match && !strchr(target, '\\')) {
			snprintf(out, PATH_MAX, "%s", target);
			r = 0;
			break;
		}
	}
	fclose(mounts);
	return r;
}

static long daemon_rss_kib(pid_t pid)
{
	_cleanup_free_ char *line = NULL;
	char path[64];
	size_t cap = 0;
	long kib = -1;
	FILE *status;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (!(status = fopen(path, "re")))
		return -errno;
	while (getline(&line, &cap, status) > 0) {
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	}
	fclose(status);
	return kib;
}

static void reset_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
	sigset_t none;

	for (unsigned int i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* A process that waits to be killed, and dies with cgx-bench whatever kills it. */
static int spawn_sleeper(pid_t *out)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		/* Out of the terminal's process group: only cgx-bench ends it. */
		setpgid(0, 0);
		reset_signals();
		for (;;)
			pause();
	}
	*out = pid;
	return 0;
}

static void reap(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGKILL);
	while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
		;
	*pid = 0;
}

static bool is_fuse_mount(const char *path)
{
	struct statfs st;

	return statfs(path, &st) == 0 && st.f_type == FUSE_SUPER_MAGIC;
}

/*
 * Starts @d with @argv (its stdout and stderr to its log) and waits until its
 * mount answers and, when @probe is given, until a stat of @probe does: the
 * time to that, in @seconds when given, is what a restart costs.
 */
static int daemon_start(struct daemon *d, const char *const *argv, const char *probe,
			double *seconds)
{
	_cleanup_close_ int log_fd = -1;
	pid_t parent = getpid();
	uint64_t start;
	struct stat st;
	int r;

	log_fd = open(d->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (log_fd < 0)
		return warn_errno(-errno, "%s", d->log);
	fflush(NULL);
	start = now_ns();
	d->pid = fork();
	if (d->pid < 0) {
		d->pid = 0;
		return warn_errno(-errno, "fork");
	}
	if (d->pid == 0) {
		/* SIGTERM, not SIGKILL: the daemon then unmounts before it goes. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		setpgid(0, 0);
		reset_signals();
		if (dup2(log_fd, STDOUT_FILENO) < 0 || dup2(log_fd, STDERR_FILENO) < 0)
			_exit(127);
		execv(d->path, (char *const *)argv);
		_exit(127);
	}
	/* Polled each millisecond: a restart is measured against a 1 s target. */
	for (unsigned int waited = 0; waited < 30000; waited++) {
		int status;

		if (is_fuse_mount(d->mountpoint) && (!probe || stat(probe, &st) == 0)) {
			if (seconds)
				*seconds = (double)(now_ns() - start) / 1e9;
			return 0;
		}
		r = waitpid(d->pid, &status, WNOHANG);
		if (r == d->pid) {
			d->pid = 0;
			warn_errno(0, "%s ended (%s %d) before mounting", d->path,
				   WIFEXITED(status) ? "exit status" : "signal",
				   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			return -ECHILD;
		}
		if (stop_signal)
			return -EINTR;
		sleep_ms(1);
	}
	return warn_errno(-ETIMEDOUT, "%s did not mount %s in 30 s", d->path, d->mountpoint);
}

static int cgxfs_start(struct run *run, const char *probe, double *seconds)
{
	struct daemon *d = &run->daemon[DAEMON_CGXFS];
	const char *argv[14];
	unsigned int argc = 0;

	argv[argc++] = d->path;
	argv[argc++] = "-f";
	argv[argc++] = "--cgroup2";
	argv[argc++] = run->cgroup2;
	argv[argc++] = "--base";
	argv[argc++] = run->base_name;
	argv[argc++] = "--log";
	argv[argc++] = run->deprecation_log;
	if (run->cfg.hierarchies) {
		argv[argc++] = "--hierarchies";
		argv[argc++] = run->cfg.hierarchies;
	}
	argv[argc++] = d->mountpoint;
	argv[argc] = NULL;
	/* cgxfs makes its base; it counts as the run's from the fork on. */
	run->base[DAEMON_CGXFS].ours = true;
	return daemon_start(d, argv, probe, seconds);
}

static int floorfs_start(struct run *run)
{
	struct daemon *d = &run->daemon[DAEMON_FLOOR];
	struct base *base = &run->base[DAEMON_FLOOR];
	const char *argv[] = {d->path, base->path, d->mountpoint, NULL};

	if (mkdir(base->path, 0755) < 0)
		return warn_errno(-errno, "mkdir %s", base->path);
	base->ours = true;
	return daemon_start(d, argv, NULL, NULL);
}

static bool wait_exit(pid_t pid, unsigned int ms)
{
	for (unsigned int waited = 0; waited <= ms; waited++) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD))
			return true;
		sleep_ms(1);
	}
	return false;
}

static bool mount_left(const char *mountpoint)
{
	struct stat st;

	/* A dead daemon leaves ENOTCONN behind: that mount goes too. */
	return is_fuse_mount(mountpoint) || (stat(mountpoint, &st) < 0 && errno == ENOTCONN);
}

static void daemon_stop(struct daemon *d)
{
	if (d->mountpoint[0] && mount_left(d->mountpoint)) {
		if (umount2(d->mountpoint, 0) < 0 && umount2(d->mountpoint, MNT_DETACH) < 0)
			warn_errno(-errno, "cannot unmount %s", d->mountpoint);
	}
	if (d->pid <= 0)
		return;
	/* Unmounted, the daemon's loop ends; a signal is the fallback. */
	if (!wait_exit(d->pid, 5000)) {
		kill(d->pid, SIGTERM);
		if (!wait_exit(d->pid, 2000)) {
			kill(d->pid, SIGKILL);
			wait_exit(d->pid, 2000);
		}
	}
	d->pid = 0;
	if (mount_left(d->mountpoint))
		umount2(d->mountpoint, MNT_DETACH);
}

static int rmdir_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	return 0;
}

/* Removes a scratch cgroup tree, depth first; a group whose last task just died may refuse a
 * moment. */
static void cgroup_tree_remove(const char *root)
{
	struct stat st;

	for (unsigned int tries = 0; tries < 50; tries++) {
		if (lstat(root, &st) < 0)
			return;
		nftw(root, rmdir_cb, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		if (lstat(root, &st) < 0)
			return;
		sleep_ms(100);
	}
	warn_errno(0, "scratch cgroup %s left behind: remove it with rmdir, depth first", root);
}

static void base_remove(struct base *base)
{
	char path[PATH_MAX];
	char events[512];

	if (!base->ours)
		return;
	/* Only the run's own processes can be there; kill any the run lost track of. */
	if (path_join(path, base->path, "cgroup.kill") == 0)
		write_text(path, "1\n");
	if (path_join(path, base->path, "cgroup.events") == 0) {
		for (unsigned int tries = 0; tries < 50; tries++) {
			ssize_t n = read_to_eof(path, events, sizeof(events) - 1);

			if (n < 0)
				break;
			events[n] = '\0';
			if (strstr(events, "populated 0"))
				break;
			sleep_ms(100);
		}
	}
	cgroup_tree_remove(base->path);
	base->ours = false;
}

static void cleanup(struct run *run)
{
	struct side *v1 = &run->side[SIDE_V1];

	for (unsigned int s = 0; s < NR_SIDES; s++)
		reap(&run->side[s].mover);
	for (unsigned int c = 0; c < NR_CROWDS; c++) {
		for (unsigned int i = 0; i < run->nr_crowd[c]; i++)
			kill(run->crowd[c][i], SIGKILL);
		for (unsigned int i = 0; i < run->nr_crowd[c]; i++)
			reap(&run->crowd[c][i]);
		run->nr_crowd[c] = 0;
	}
	for (unsigned int d = 0; d < NR_DAEMONS; d++) {
		daemon_stop(&run->daemon[d]);
		base_remove(&run->base[d]);
	}
	if (v1->root_made) {
		cgroup_tree_remove(v1->root);
		v1->root_made = false;
	}
	for (unsigned int d = 0; d < NR_DAEMONS; d++) {
		struct daemon *daemon = &run->daemon[d];

		if (daemon->mountpoint[0] && rmdir(daemon->mountpoint) < 0 && errno != ENOENT)
			warn_errno(-errno, "%s", daemon->mountpoint);
		if (daemon->log[0])
			unlink(daemon->log);
	}
	if (run->deprecation_log[0])
		unlink(run->deprecation_log);
	if (run->workdir[0] && rmdir(run->workdir) < 0 && errno != ENOENT)
		warn_errno(-errno, "%s", run->workdir);
}

static void read_loadavg(char *out, size_t size)
{
	char text[128];
	ssize_t n = read_to_eof("/proc/loadavg", text, sizeof(text) - 1);
	unsigned int fields = 0;

	snprintf(out, size, "?");
	if (n <= 0)
		return;
	text[n] = '\0';
	/* The three averages: the first three fields. */
	for (ssize_t i = 0; i < n; i++) {
		if (text[i] == ' ' && ++fields == 3) {
			text[i] = '\0';
			break;
		}
	}
	/* Three averages always fit; a cut one would still read as numbers. */
	if (snprintf(out, size, "%s", text) >= (int)size)
		out[size - 1] = '\0';
}

/* The view's deprecation counters that are not 0, on one line. */
static void read_counters(struct run *run)
{
	char path[PATH_MAX], text[1024];
	ssize_t n;
	size_t used = 0;

	run->counters[0] = '\0';
	if (path_join(path, run->daemon[DAEMON_CGXFS].mountpoint, "cgx.deprecations") < 0 ||
	    (n = read_to_eof(path, text, sizeof(text) - 1)) < 0)
		return;
	text[n] = '\0';
	for (char *save, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *count = strrchr(line, ' ');
		int w;

		if (!count || !strcmp(count + 1, "0"))
			continue;
		w = snprintf(run->counters + used, sizeof(run->counters) - used, "%s%s",
			     used ? ", " : "", line);
		if (w < 0 || (size_t)w >= sizeof(run->counters) - used)
			break;
		used += (size_t)w;
	}
}

static void print_daemon_log(const struct daemon *d)
{
	char text[4096];
	ssize_t n = read_to_eof(d->log, text, sizeof(text) - 1);

	if (n > 0) {
		text[n] = '\0';
		fprintf(stderr, "--- %s log (%s) ---\n%s", d->label, d->log, text);
	}
}

static int side_paths(struct side *side)
{
	int r;

	if ((r = path_join(side->knob_read, side->root, "a/cpu.shares")) < 0 ||
	    (r = path_join(side->tasks[0], side->root, "a/tasks")) < 0 ||
	    (r = path_join(side->tasks[1], side->root, "b/tasks")) < 0 ||
	    (r = path_join(side->crowd_tasks, side->root, "crowd/tasks")) < 0)
		return r;
	return path_join(side->probe_group, side->root, "probe");
}

static int make_group(struct side *side, const char *name)
{
	char path[PATH_MAX];
	int r;

	if ((r = path_join(path, side->root, name)) < 0)
		return r;
	if (mkdir(path, 0755) < 0)
		return warn_errno(-errno, "%s: mkdir %s", side->label, path);
	return 0;
}

static int setup_side(struct side *side)
{
	static const char *const fixed[NR_FIXED_GROUPS] = {"a", "b", "crowd"};
	int r;

	if (mkdir(side->root, 0755) < 0)
		return warn_errno(-errno, "%s: mkdir %s", side->label, side->root);
	side->root_made = true;
	for (unsigned int i = 0; i < ARRAY_SIZE(fixed); i++) {
		if ((r = make_group(side, fixed[i])) < 0)
			return r;
	}
	return side_paths(side);
}

/* The view's directory of the hierarchy with cpu: the target of the `cpu` alias if there is one. */
static int view_cpu_hierarchy(struct run *run, char *out)
{
	const char *mountpoint = run->daemon[DAEMON_CGXFS].mountpoint;
	char alias[PATH_MAX], target[NAME_MAX + 1];
	ssize_t n;
	int r;

	if ((r = path_join(alias, mountpoint, "cpu")) < 0)
		return r;
	n = readlink(alias, target, sizeof(target) - 1);
	if (n < 0 && errno != EINVAL)
		return warn_errno(-errno, "%s: the view has no cpu hierarchy", alias);
	if (n < 0)
		return path_join(out, mountpoint, "cpu");
	target[n] = '\0';
	return path_join(out, mountpoint, target);
}

/*
 * cpu.shares is the knob written when cgxfs can apply it; on a hybrid host cpu
 * is bound to v1 and cgxfs refuses the write (EOPNOTSUPP), so the run writes a
 * core file both sides keep, cgroup.clone_children (v1: a flag on the cgroup;
 * cgxfs: an xattr on the v2 directory). Not notify_on_release: that would
 * make cgxfs check for a release at every move out of the group.
 */
static int choose_write_knob(struct run *run)
{
	struct side *view = &run->side[SIDE_CGXFS];
	int r;

	r = write_text(view->knob_read, "1024\n");
	if (r == 0) {
		run->write_file = "cpu.shares";
		run->write_values[0] = "512\n";
		run->write_values[1] = "1024\n";
	} else if (r == -EOPNOTSUPP) {
		run->write_file = "cgroup.clone_children";
		run->write_values[0] = "1\n";
		run->write_values[1] = "0\n";
		run->write_note = "cpu.shares is refused by cgxfs here (EOPNOTSUPP: the cpu "
				  "controller is bound to v1, not in cgroup2), so the write "
				  "measured is cgroup.clone_children on every side";
	} else {
		return warn_errno(r, "cgxfs: write of %s", view->knob_read);
	}
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		struct side *side = &run->side[s];
		char name[64];

		/* floorfs keeps both knobs in memory: it takes whichever cgxfs takes. */
		snprintf(name, sizeof(name), "a/%s", run->write_file);
		if ((r = path_join(side->knob_write, side->root, name)) < 0)
			return r;
	}
	return 0;
}

static unsigned int count_lines(const char *text, size_t len)
{
	unsigned int lines = 0;

	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	return lines;
}

static int setup_processes(struct run *run)
{
	char text[32];
	int r;

	for (unsigned int s = 0; s < NR_SIDES; s++) {
		struct side *side = &run->side[s];

		if (!side->active)
			continue;
		if ((r = spawn_sleeper(&side->mover)) < 0)
			return warn_errno(r, "fork");
		snprintf(side->mover_text, sizeof(side->mover_text), "%d\n", (int)side->mover);
	}
	for (unsigned int c = 0; c < NR_CROWDS; c++) {
		if (c == CROWD_FLOOR && !run->side[SIDE_FLOOR].active)
			continue;
		if (!(run->crowd[c] = calloc(run->cfg.procs, sizeof(*run->crowd[c]))))
			return -ENOMEM;
		for (unsigned int i = 0; i < run->cfg.procs; i++) {
			if (stop_signal)
				return -EINTR;
			if ((r = spawn_sleeper(&run->crowd[c][i])) < 0)
				return warn_errno(r, "fork (process %u of a crowd)", i + 1);
			run->nr_crowd[c]++;
		}
	}
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		struct side *side = &run->side[s];
		const pid_t *crowd = run->crowd[side->crowd];
		unsigned int nr = run->nr_crowd[side->crowd];
		uint64_t start = now_ns();
		ssize_t n;

		if (!side->active)
			continue;
		for (unsigned int i = 0; i < nr; i++) {
			if (stop_signal)
				return -EINTR;
			snprintf(text, sizeof(text), "%d\n", (int)crowd[i]);
			if ((r = write_text(side->crowd_tasks, text)) < 0)
				return warn_errno(r, "%s: move %d to %s", side->label,
						  (int)crowd[i], side->crowd_tasks);
		}
		run->crowd_move_seconds[s] = (double)(now_ns() - start) / 1e9;
		n = read_to_eof(side->crowd_tasks, run->read_buf, CROWD_READ_SIZE);
		if (n < 0)
			return warn_errno((int)n, "%s: read %s", side->label, side->crowd_tasks);
		if (count_lines(run->read_buf, (size_t)n) != nr)
			return warn_errno(-EPROTO, "%s: %s lists %u tasks, not %u", side->label,
					  side->crowd_tasks, count_lines(run->read_buf, (size_t)n),
					  nr);
		progress("%s: %u processes moved into crowd in %.2f s", side->label, nr,
			 run->crowd_move_seconds[s]);
	}
	return 0;
}

static int fill(struct side *side, unsigned int fillers, double *seconds)
{
	uint64_t start = now_ns();
	char name[32];
	int r;

	for (; side->nr_fillers < fillers; side->nr_fillers++) {
		if (stop_signal)
			return -EINTR;
		snprintf(name, sizeof(name), "g%05u", side->nr_fillers);
		if ((r = make_group(side, name)) < 0)
			return r;
	}
	*seconds = (double)(now_ns() - start) / 1e9;
	return 0;
}

static int run_point(struct run *run, struct point *point)
{
	int r;

	for (unsigned int s = 0; s < NR_SIDES; s++) {
		struct side *side = &run->side[s];
		unsigned int before = side->nr_fillers;

		if (!side->active)
			continue;
		if ((r = fill(side, point->groups - NR_FIXED_GROUPS, &point->fill_seconds[s])) < 0)
			return r;
		if (side->nr_fillers > before)
			progress("%s: %u groups made in %.2f s (%u in all)", side->label,
				 side->nr_fillers - before, point->fill_seconds[s], point->groups);
	}
	point->rss_kib = daemon_rss_kib(run->daemon[DAEMON_CGXFS].pid);
	for (unsigned int o = 0; o < NR_OPS; o++) {
		if ((r = measure(run, &ops[o], point->median[o])) < 0)
			return r;
	}
	progress("%u groups measured", point->groups);
	return 0;
}

static void format_ns(char *out, size_t size, uint64_t ns)
{
	if (ns < 1000000)
		snprintf(out, size, "%.1f us", (double)ns / 1e3);
	else if (ns < 10000000000ull)
		snprintf(out, size, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(out, size, "%.2f s", (double)ns / 1e9);
}

static const char *verdict(double value, double target)
{
	if (target <= 0)
		return "";
	return value <= target ? "met" : "MISSED";
}

static void op_label(struct run *run, unsigned int o, char *out, size_t size)
{
	if (o == OP_KNOB_WRITE)
		snprintf(out, size, "echo > %s", run->write_file);
	else if (o == OP_CROWD_READ)
		snprintf(out, size, "read tasks, %u processes", run->nr_crowd[CROWD_CGXFS]);
	else
		snprintf(out, size, "%s", ops[o].name);
}

/* "RATIO TARGET VERDICT", or dashes where a side was not measured or there is no target. */
static void print_ratio(FILE *out, uint64_t num, uint64_t den, double target)
{
	char text[32];
	double ratio;

	if (!num || !den) {
		fprintf(out, " %8s %8s %6s", "-", "", "");
		return;
	}
	ratio = (double)num / (double)den;
	if (target > 0)
		snprintf(text, sizeof(text), "<= %gx", target);
	else
		snprintf(text, sizeof(text), "-");
	fprintf(out, " %7.2fx %8s %6s", ratio, text, verdict(ratio, target));
}

static void report_sides(struct run *run, FILE *out)
{
	const struct point *first = &run->point[0];
	const struct point *last = &run->point[run->nr_points - 1];
	char label[64], cell[NR_SIDES][32];

	snprintf(label, sizeof(label), "at %u groups", first->groups);
	fprintf(out, "\n%-34s %12s %12s %12s %8s %8s %6s %8s %8s\n", label, "v1 kernel", "cgxfs",
		"floor", "cgxfs/v1", "target", "", "/floor", "target");
	for (unsigned int o = 0; o < NR_OPS; o++) {
		op_label(run, o, label, sizeof(label));
		for (unsigned int s = 0; s < NR_SIDES; s++) {
			if (run->side[s].active)
				format_ns(cell[s], sizeof(cell[s]), first->median[o][s]);
			else
				snprintf(cell[s], sizeof(cell[s]), "-");
		}
		fprintf(out, "%-34s %12s %12s %12s", label, cell[SIDE_V1], cell[SIDE_CGXFS],
			cell[SIDE_FLOOR]);
		print_ratio(out, first->median[o][SIDE_CGXFS], first->median[o][SIDE_V1],
			    ops[o].target);
		print_ratio(out, first->median[o][SIDE_CGXFS], first->median[o][SIDE_FLOOR],
			    FLOOR_TARGET);
		fputc('\n', out);
	}
	snprintf(label, sizeof(label), "walk, %u groups", last->groups);
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		if (run->side[s].active)
			format_ns(cell[s], sizeof(cell[s]), run->walk[s].median);
		else
			snprintf(cell[s], sizeof(cell[s]), "-");
	}
	fprintf(out, "%-34s %12s %12s %12s", label, cell[SIDE_V1], cell[SIDE_CGXFS],
		cell[SIDE_FLOOR]);
	/* Not beside the floor's: it lists 3 files a group, cgxfs as many as v1. */
	print_ratio(out, run->walk[SIDE_CGXFS].median, run->walk[SIDE_V1].median, 0);
	fputc('\n', out);
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		if (!run->side[s].active)
			continue;
		fprintf(out, "  %s walk: %lu directories, %lu entries stat'ed, %.1f us per entry\n",
			run->side[s].label, run->walk[s].dirs, run->walk[s].entries,
			(double)run->walk[s].median / 1e3 / (double)(run->walk[s].entries ?: 1));
	}
}

static void report_scale(struct run *run, FILE *out, unsigned int s)
{
	const struct point *first = &run->point[0];
	const struct point *last = &run->point[run->nr_points - 1];
	char label[64], cell[32];

	snprintf(label, sizeof(label), "scale, %s", run->side[s].label);
	fprintf(out, "\n%-34s", label);
	for (unsigned int p = 0; p < run->nr_points; p++) {
		snprintf(label, sizeof(label), "%u groups", run->point[p].groups);
		fprintf(out, " %12s", label);
	}
	fprintf(out, " %8s %8s\n", "last/10", s == SIDE_CGXFS ? "target" : "");
	for (unsigned int o = 0; o < NR_OPS; o++) {
		op_label(run, o, label, sizeof(label));
		fprintf(out, "%-34s", label);
		for (unsigned int p = 0; p < run->nr_points; p++) {
			format_ns(cell, sizeof(cell), run->point[p].median[o][s]);
			fprintf(out, " %12s", cell);
		}
		if (s == SIDE_CGXFS)
			print_ratio(out, last->median[o][s], first->median[o][s], SCALE_TARGET);
		else
			fprintf(out, " %7.2fx",
				(double)last->median[o][s] / (double)first->median[o][s]);
		fputc('\n', out);
	}
	fprintf(out, "%-34s", "groups made, per group");
	for (unsigned int p = 0; p < run->nr_points; p++) {
		unsigned int made =
			run->point[p].groups - (p ? run->point[p - 1].groups : NR_FIXED_GROUPS);

		format_ns(cell, sizeof(cell),
			  made ? (uint64_t)(run->point[p].fill_seconds[s] * 1e9 / made) : 0);
		fprintf(out, " %12s", made ? cell : "-");
	}
	fprintf(out, "\n");
	if (s != SIDE_CGXFS)
		return;
	/* Issue 18: a mkdir beside many siblings (all groups of a point share one parent). */
	for (unsigned int p = 1; p < run->nr_points; p++) {
		if (run->point[p].groups < 10000)
			continue;
		snprintf(label, sizeof(label), "mkdir+rmdir, %u siblings / %u",
			 run->point[p].groups, first->groups);
		fprintf(out, "%-34s %12s", label, "");
		print_ratio(out, run->point[p].median[OP_MKDIR_RMDIR][s],
			    first->median[OP_MKDIR_RMDIR][s], SCALE_TARGET);
		/* The floor's own curve: how much of the growth a change of load explains. */
		if (run->side[SIDE_FLOOR].active)
			fprintf(out, "  floor %.2fx",
				(double)run->point[p].median[OP_MKDIR_RMDIR][SIDE_FLOOR] /
					(double)first->median[OP_MKDIR_RMDIR][SIDE_FLOOR]);
		fputc('\n', out);
	}
	if (!run->side[SIDE_FLOOR].active)
		return;
	fprintf(out, "\n%-34s", "cgxfs / floor");
	for (unsigned int p = 0; p < run->nr_points; p++) {
		snprintf(label, sizeof(label), "%u groups", run->point[p].groups);
		fprintf(out, " %12s", label);
	}
	fprintf(out, " %8s\n", "target");
	for (unsigned int o = 0; o < NR_OPS; o++) {
		double worst = 0;

		op_label(run, o, label, sizeof(label));
		fprintf(out, "%-34s", label);
		for (unsigned int p = 0; p < run->nr_points; p++) {
			double ratio = (double)run->point[p].median[o][SIDE_CGXFS] /
				       (double)run->point[p].median[o][SIDE_FLOOR];

			fprintf(out, " %11.2fx", ratio);
			worst = ratio > worst ? ratio : worst;
		}
		fprintf(out, " %7gx %s\n", FLOOR_TARGET, verdict(worst, FLOOR_TARGET));
	}
}

static void report_to(struct run *run, FILE *out)
{
	const struct point *first = &run->point[0];
	const struct point *last = &run->point[run->nr_points - 1];

	fprintf(out, "\ncgx-bench: kernel v1 %s vs cgxfs %s over %s", run->side[SIDE_V1].root,
		run->side[SIDE_CGXFS].root, run->base[DAEMON_CGXFS].path);
	if (run->side[SIDE_FLOOR].active)
		fprintf(out, " vs floorfs %s over %s", run->side[SIDE_FLOOR].root,
			run->base[DAEMON_FLOOR].path);
	fprintf(out,
		"\nsamples per operation and side: %u (mkdir+rmdir %u, tasks read %u), medians, "
		"taken in %u rounds, the sides in turn; load average %s at the start, %s at the "
		"end\n",
		run->cfg.iterations, run->cfg.iterations / ops[OP_MKDIR_RMDIR].divisor,
		run->cfg.iterations / ops[OP_CROWD_READ].divisor, NR_ROUNDS, run->load_start,
		run->load_end);
	if (run->write_note)
		fprintf(out, "note: %s\n", run->write_note);
	if (!run->side[SIDE_FLOOR].active)
		fprintf(out, "note: no floorfs (%s), so no floor: give one with --floorfs\n",
			run->daemon[DAEMON_FLOOR].path);

	report_sides(run, out);
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		if (run->side[s].active)
			report_scale(run, out, s);
	}

	fprintf(out, "\ncgxfs resident memory (VmRSS): %ld KiB mounted", run->rss_mounted_kib);
	for (unsigned int p = 0; p < run->nr_points; p++)
		fprintf(out, ", %ld KiB at %u groups", run->point[p].rss_kib, run->point[p].groups);
	fprintf(out, "\n");
	if (run->nr_points > 1) {
		double per_group = (double)(last->rss_kib - first->rss_kib) /
				   (double)(last->groups - first->groups);

		fprintf(out, "%-34s %9.2f KiB %8s %8s  %s\n", "per group (10 -> last point)",
			per_group, "", "< 2 KiB", per_group < RSS_TARGET_KIB ? "met" : "MISSED");
	}
	fprintf(out, "deprecation records of the run: %s\n",
		run->counters[0] ? run->counters : "none");
}

static void report_scale_to(struct run *run, FILE *out)
{
	const struct scale_result *scale = &run->scale;
	double idle = scale->idle_cpu_seconds / scale->idle_seconds * 100;
	double per_group =
		(double)(scale->rss_restarted_kib - run->rss_mounted_kib) / (double)run->cfg.scale;

	fprintf(out, "\ncgx-bench --scale: cgxfs %s over %s, %u groups, the deepest %s\n",
		run->daemon[DAEMON_CGXFS].mountpoint, run->base[DAEMON_CGXFS].path, run->cfg.scale,
		scale->deep);
	fprintf(out, "load average %s at the start, %s at the end\n", run->load_start,
		run->load_end);
	fprintf(out, "groups made through the view in %.1f s (%.0f us each)\n", scale->make_seconds,
		scale->make_seconds * 1e6 / run->cfg.scale);
	fprintf(out, "cgxfs stopped (unmounted, exited) in %.3f s\n\n", scale->stop_seconds);
	fprintf(out, "%-40s %14s %10s\n", "", "measured", "target");
	fprintf(out, "%-40s %12.3f s %8.1f s  %s\n", "restart: exec to a stat of the deepest",
		scale->restart_seconds, RESTART_TARGET_S,
		verdict(scale->restart_seconds, RESTART_TARGET_S));
	fprintf(out, "%-40s %12.3f %% %8.1f %%  %s\n", "idle CPU (user+system) of a core", idle,
		IDLE_CPU_TARGET, verdict(idle, IDLE_CPU_TARGET));
	fprintf(out, "  %.2f s of CPU over %.1f s idle after the restart\n",
		scale->idle_cpu_seconds, scale->idle_seconds);
	fprintf(out, "%-40s %10.2f KiB %6.0f KiB  %s\n", "VmRSS per group, restarted", per_group,
		SCALE_RSS_TARGET_KIB, verdict(per_group, SCALE_RSS_TARGET_KIB));
	fprintf(out,
		"  VmRSS %ld KiB mounted with no group, %ld KiB after making them, %ld KiB "
		"restarted and idle\n",
		run->rss_mounted_kib, scale->rss_made_kib, scale->rss_restarted_kib);
	fprintf(out, "\na read of %s/notify_on_release every millisecond, 3 s:\n", scale->deep);
	fprintf(out, "%-40s %10.0f us %8.1f ms  (%u reads)\n", "  at rest: p99, worst",
		scale->at_rest.p99_ns / 1e3, scale->at_rest.worst_ns / 1e6, scale->at_rest.nr);
	fprintf(out, "%-40s %10.0f us %8.1f ms  (%u reads)\n", "  during a thorough repair pass",
		scale->repairing.p99_ns / 1e3, scale->repairing.worst_ns / 1e6,
		scale->repairing.nr);
	fprintf(out, "  the directory removed behind its back %s\n",
		scale->repaired ? "was made again" : "was NOT made again within 3 s");
}

/* The report, without the blanks an empty last column leaves at the end of a line. */
static void report(struct run *run, void (*report_to)(struct run *run, FILE *out))
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out) {
		report_to(run, stdout);
		return;
	}
	report_to(run, out);
	if (fclose(out) != 0) {
		free(text);
		report_to(run, stdout);
		return;
	}
	for (char *line = text, *end; *line; line = end + 1) {
		size_t len;

		if (!(end = strchr(line, '\n')))
			end = line + strlen(line) - 1;
		for (len = (size_t)(end - line) + (*end != '\n'); len && line[len - 1] == ' ';)
			len--;
		printf("%.*s\n", (int)len, line);
	}
	free(text);
}

/* The temporary directory with the mount points and logs, and the names of the run's bases. */
static int setup_paths(struct run *run)
{
	char name[80];
	struct stat st;
	int r;

	snprintf(run->workdir, sizeof(run->workdir), "/tmp/cgx-bench.XXXXXX");
	if (!mkdtemp(run->workdir)) {
		run->workdir[0] = '\0';
		return warn_errno(-errno, "mkdtemp");
	}
	if ((r = path_join(run->deprecation_log, run->workdir, "deprecations.jsonl")) < 0)
		return r;
	snprintf(run->base_name, sizeof(run->base_name), "cgx-bench-%d", (int)getpid());
	if ((r = path_join(run->base[DAEMON_CGXFS].path, run->cgroup2, run->base_name)) < 0 ||
	    (r = path_join(run->side[SIDE_V1].root, run->v1, run->base_name)) < 0)
		return r;
	snprintf(name, sizeof(name), "%s-floor", run->base_name);
	if ((r = path_join(run->base[DAEMON_FLOOR].path, run->cgroup2, name)) < 0)
		return r;
	for (unsigned int d = 0; d < NR_DAEMONS; d++) {
		struct daemon *daemon = &run->daemon[d];

		/* The bases must be new: everything below them is removed at the end. */
		if (lstat(run->base[d].path, &st) == 0)
			return warn_errno(-EEXIST, "%s", run->base[d].path);
		snprintf(name, sizeof(name), "%s.log", d == DAEMON_CGXFS ? "cgxfs" : "floorfs");
		if ((r = path_join(daemon->log, run->workdir, name)) < 0 ||
		    (r = path_join(daemon->mountpoint, run->workdir,
				   d == DAEMON_CGXFS ? "mnt" : "floor")) < 0)
			return r;
		if (mkdir(daemon->mountpoint, 0755) < 0) {
			r = -errno;
			warn_errno(r, "mkdir %s", daemon->mountpoint);
			daemon->mountpoint[0] = '\0';
			return r;
		}
	}
	return 0;
}

static int bench(struct run *run)
{
	struct side *v1 = &run->side[SIDE_V1], *view = &run->side[SIDE_CGXFS];
	struct side *floor = &run->side[SIDE_FLOOR];
	char hier[PATH_MAX];
	static const unsigned int points[] = {10, 1000, 10000};
	int r;

	if (!(run->read_buf = malloc(CROWD_READ_SIZE)))
		return -ENOMEM;
	read_loadavg(run->load_start, sizeof(run->load_start));
	for (unsigned int i = 0; i < ARRAY_SIZE(points) && points[i] < run->cfg.groups; i++)
		run->point[run->nr_points++].groups = points[i];
	run->point[run->nr_points++].groups = run->cfg.groups;

	if ((r = setup_paths(run)) < 0)
		return r;
	if ((r = cgxfs_start(run, NULL, NULL)) < 0) {
		print_daemon_log(&run->daemon[DAEMON_CGXFS]);
		return r;
	}
	run->rss_mounted_kib = daemon_rss_kib(run->daemon[DAEMON_CGXFS].pid);
	if (floor->active && (r = floorfs_start(run)) < 0) {
		print_daemon_log(&run->daemon[DAEMON_FLOOR]);
		return r;
	}
	if ((r = view_cpu_hierarchy(run, hier)) < 0 ||
	    (r = path_join(view->root, hier, "bench")) < 0 ||
	    (r = path_join(floor->root, run->daemon[DAEMON_FLOOR].mountpoint, "bench")) < 0)
		return r;
	progress("v1: %s; cgxfs: %s (base %s); floor: %s", v1->root, view->root,
		 run->base[DAEMON_CGXFS].path, floor->active ? floor->root : "none");
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		if (run->side[s].active && (r = setup_side(&run->side[s])) < 0)
			return r;
	}
	if ((r = choose_write_knob(run)) < 0 || (r = setup_processes(run)) < 0)
		return r;
	for (unsigned int p = 0; p < run->nr_points; p++) {
		if ((r = run_point(run, &run->point[p])) < 0)
			return r;
	}
	for (unsigned int s = 0; s < NR_SIDES; s++) {
		if (!run->side[s].active)
			continue;
		if ((r = measure_walk(run, &run->side[s], &run->walk[s])) < 0)
			return r;
	}
	progress("walks measured");
	read_loadavg(run->load_end, sizeof(run->load_end));
	read_counters(run);
	report(run, report_to);
	return 0;
}

/* The CPU time @pid has used, user and system, in seconds (/proc/PID/stat fields 14 and 15). */
static double daemon_cpu_seconds(pid_t pid)
{
	unsigned long utime, stime;
	char path[64], text[1024];
	ssize_t n;
	char *end;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((n = read_to_eof(path, text, sizeof(text) - 1)) < 0)
		return -1;
	text[n] = '\0';
	/* The command name may hold spaces and parentheses: the fields start after the last ')'. */
	if (!(end = strrchr(text, ')')) ||
	    sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime,
		   &stime) != 2)
		return -1;
	return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

/* @n groups in the view, two deep below @root: a few hundred siblings in each directory. */
static int make_tree(struct run *run, const char *root, unsigned int n)
{
	struct scale_result *scale = &run->scale;
	unsigned int fan = 1, made = 0;
	uint64_t start = now_ns();
	char mid[PATH_MAX], name[32];
	int r;

	while (fan * fan < n)
		fan++;
	for (unsigned int d = 0; made < n; d++) {
		snprintf(name, sizeof(name), "d%05u", d);
		if ((r = path_join(mid, root, name)) < 0)
			return r;
		for (unsigned int g = 0; g <= fan && made < n; g++, made++) {
			if (stop_signal)
				return -EINTR;
			/* The middle group first, then its children. */
			snprintf(name, sizeof(name), "g%05u", g - 1);
			if (!g)
				memcpy(scale->deep, mid, sizeof(mid));
			else if ((r = path_join(scale->deep, mid, name)) < 0)
				return r;
			if (mkdir(scale->deep, 0755) < 0)
				return warn_errno(-errno, "mkdir %s", scale->deep);
			if ((made + 1) % 10000 == 0)
				progress("%u groups made in %.0f s", made + 1,
					 (double)(now_ns() - start) / 1e9);
		}
	}
	scale->make_seconds = (double)(now_ns() - start) / 1e9;
	return 0;
}

/*
 * A read of @path every millisecond for @ms: a request that waits for the
 * watcher's pass over the whole mirror shows as the worst read.
 */
static int probe_reads(const char *path, unsigned int ms, struct read_probe *probe)
{
	unsigned int cap = ms + 1;
	_cleanup_free_ uint64_t *samples = calloc(cap, sizeof(*samples));
	uint64_t end = now_ns() + (uint64_t)ms * 1000000;
	char buf[256];

	if (!samples)
		return -ENOMEM;
	probe->nr = 0;
	while (probe->nr < cap && now_ns() < end) {
		uint64_t start = now_ns();
		ssize_t n;

		if (stop_signal)
			return -EINTR;
		if ((n = read_to_eof(path, buf, sizeof(buf))) < 0)
			return warn_errno((int)n, "read %s", path);
		samples[probe->nr++] = now_ns() - start;
		sleep_ms(1);
	}
	qsort(samples, probe->nr, sizeof(*samples), cmp_u64);
	probe->p99_ns = samples[probe->nr * 99 / 100];
	probe->worst_ns = samples[probe->nr - 1];
	return 0;
}

/*
 * A group's v2 directory removed behind the daemon's back, and a write to
 * it that finds it gone (the read of a knob kept in memory would not): the
 * watcher's next pass is a thorough one, an fstatat of every directory of
 * the base, and makes it again.
 */
static int probe_during_repair(struct run *run, const char *root)
{
	struct scale_result *scale = &run->scale;
	char knob[PATH_MAX], gone[PATH_MAX], flag[PATH_MAX];
	const char *group = "scale/d00000/g00000";
	struct stat st;
	int r;

	if ((r = path_join(knob, scale->deep, "notify_on_release")) < 0 ||
	    (r = path_join(gone, run->base[DAEMON_CGXFS].path, group)) < 0)
		return r;
	if ((r = probe_reads(knob, 3000, &scale->at_rest)) < 0)
		return r;
	if (rmdir(gone) < 0)
		return warn_errno(-errno, "rmdir %s", gone);
	if ((r = path_join(flag, root, "d00000/g00000/notify_on_release")) < 0)
		return r;
	(void)write_text(flag, "0\n"); /* fails with ENOENT: that is the point */
	if ((r = probe_reads(knob, 3000, &scale->repairing)) < 0)
		return r;
	scale->repaired = stat(gone, &st) == 0;
	return 0;
}

static int scale_bench(struct run *run)
{
	struct daemon *cgxfs = &run->daemon[DAEMON_CGXFS];
	struct scale_result *scale = &run->scale;
	char hier[PATH_MAX], root[PATH_MAX];
	double cpu_start, cpu_end;
	uint64_t start;
	int r;

	read_loadavg(run->load_start, sizeof(run->load_start));
	if ((r = setup_paths(run)) < 0)
		return r;
	if ((r = cgxfs_start(run, NULL, NULL)) < 0) {
		print_daemon_log(cgxfs);
		return r;
	}
	run->rss_mounted_kib = daemon_rss_kib(cgxfs->pid);
	if ((r = view_cpu_hierarchy(run, hier)) < 0 || (r = path_join(root, hier, "scale")) < 0)
		return r;
	if (mkdir(root, 0755) < 0)
		return warn_errno(-errno, "mkdir %s", root);
	progress("making %u groups under %s (base %s)", run->cfg.scale, root,
		 run->base[DAEMON_CGXFS].path);
	if ((r = make_tree(run, root, run->cfg.scale - 1)) < 0)
		return r;
	scale->rss_made_kib = daemon_rss_kib(cgxfs->pid);
	progress("%u groups made in %.1f s; restarting cgxfs", run->cfg.scale, scale->make_seconds);

	start = now_ns();
	daemon_stop(cgxfs);
	scale->stop_seconds = (double)(now_ns() - start) / 1e9;
	if ((r = cgxfs_start(run, scale->deep, &scale->restart_seconds)) < 0) {
		print_daemon_log(cgxfs);
		return r;
	}
	progress("restarted in %.3f s; measuring idle CPU for %u s", scale->restart_seconds,
		 run->cfg.idle);

	start = now_ns();
	cpu_start = daemon_cpu_seconds(cgxfs->pid);
	for (unsigned int waited = 0; waited < run->cfg.idle * 10; waited++) {
		if (stop_signal)
			return -EINTR;
		sleep_ms(100);
	}
	cpu_end = daemon_cpu_seconds(cgxfs->pid);
	scale->idle_seconds = (double)(now_ns() - start) / 1e9;
	if (cpu_start < 0 || cpu_end < 0)
		return warn_errno(-EIO, "/proc/%d/stat unreadable", (int)cgxfs->pid);
	scale->idle_cpu_seconds = cpu_end - cpu_start;
	scale->rss_restarted_kib = daemon_rss_kib(cgxfs->pid);
	progress("reading a knob every millisecond, at rest and during a repair pass");
	if ((r = probe_during_repair(run, root)) < 0)
		return r;
	read_loadavg(run->load_end, sizeof(run->load_end));
	report(run, report_scale_to);
	return 0;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int install_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
	/* No SA_RESTART: a blocked call returns EINTR and the run stops at once. */
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < ARRAY_SIZE(sigs); i++) {
		if (sigaction(sigs[i], &sa, NULL) < 0)
			return -errno;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cgx-bench [OPTIONS]\n"
		"The same cgroup v1 operations against the kernel's v1 cpu hierarchy, a cgxfs "
		"view\n"
		"and floorfs (the floor) it mounts over scratch cgroup2 bases, interleaved;\n"
		"medians, ratios and targets. With --scale: cgxfs's restart, idle CPU and memory\n"
		"with that many groups.\n\n"
		"  --groups N       the largest scale point (default 10000; 10, 1000, 10000 below "
		"it too)\n"
		"  --procs N        processes in the group whose tasks are read (default 1000)\n"
		"  --iterations N   samples per operation and scale point (default 1000)\n"
		"  --walks N        samples of the walk over every group (default 3)\n"
		"  --quick          --groups 1000 --procs 100 --iterations 200 --walks 1\n"
		"  --scale N        N groups in a cgxfs view, then its restart, idle CPU, memory\n"
		"  --idle S         seconds of the idle CPU measure of --scale (default 60)\n"
		"  --cgxfs PATH     the daemon (default: cgxfs beside cgx-bench)\n"
		"  --floorfs PATH   the floor (default: the build's bench/floorfs, if there)\n"
		"  --cgroup2 DIR    the cgroup2 mount (default: from the mount table)\n"
		"  --v1 DIR         the v1 hierarchy with cpu (default: from the mount table)\n"
		"  --hierarchies S  passed to cgxfs --hierarchies\n"
		"  -h, --help       this help\n");
}

static int parse_count(const char *arg, unsigned int min, unsigned int max, unsigned int *out)
{
	char *end;
	unsigned long value;

	errno = 0;
	value = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || value < min || value > max) {
		fprintf(stderr, "cgx-bench: %s: a number from %u to %u is wanted\n", arg, min, max);
		return -EINVAL;
	}
	*out = (unsigned int)value;
	return 0;
}

static int parse_args(int argc, char **argv, struct config *cfg)
{
	enum {
		OPT_GROUPS = 256,
		OPT_PROCS,
		OPT_ITER,
		OPT_WALKS,
		OPT_QUICK,
		OPT_SCALE,
		OPT_IDLE,
		OPT_CGXFS,
		OPT_FLOORFS,
		OPT_CGROUP2,
		OPT_V1,
		OPT_HIER
	};
	static const struct option options[] = {
		{"groups", required_argument, NULL, OPT_GROUPS},
		{"procs", required_argument, NULL, OPT_PROCS},
		{"iterations", required_argument, NULL, OPT_ITER},
		{"walks", required_argument, NULL, OPT_WALKS},
		{"quick", no_argument, NULL, OPT_QUICK},
		{"scale", required_argument, NULL, OPT_SCALE},
		{"idle", required_argument, NULL, OPT_IDLE},
		{"cgxfs", required_argument, NULL, OPT_CGXFS},
		{"floorfs", required_argument, NULL, OPT_FLOORFS},
		{"cgroup2", required_argument, NULL, OPT_CGROUP2},
		{"v1", required_argument, NULL, OPT_V1},
		{"hierarchies", required_argument, NULL, OPT_HIER},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool groups = false, procs = false, iterations = false, walks = false, quick = false;
	int opt, r = 0;

	*cfg = (struct config){
		.groups = 10000, .procs = 1000, .iterations = 1000, .walks = 3, .idle = 60};
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_GROUPS:
			r = parse_count(optarg, 10, 1000000, &cfg->groups);
			groups = true;
			break;
		case OPT_PROCS:
			r = parse_count(optarg, 1, 100000, &cfg->procs);
			procs = true;
			break;
		case OPT_ITER:
			r = parse_count(optarg, 10, 10000000, &cfg->iterations);
			iterations = true;
			break;
		case OPT_WALKS:
			r = parse_count(optarg, 1, 1000, &cfg->walks);
			walks = true;
			break;
		case OPT_QUICK:
			quick = true;
			break;
		case OPT_SCALE:
			r = parse_count(optarg, 2, 10000000, &cfg->scale);
			break;
		case OPT_IDLE:
			r = parse_count(optarg, 1, 86400, &cfg->idle);
			break;
		case OPT_CGXFS:
			cfg->cgxfs = optarg;
			break;
		case OPT_FLOORFS:
			cfg->floorfs = optarg;
			break;
		case OPT_CGROUP2:
			cfg->cgroup2 = optarg;
			break;
		case OPT_V1:
			cfg->v1 = optarg;
			break;
		case OPT_HIER:
			cfg->hierarchies = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
		if (r < 0)
			return r;
	}
	if (optind < argc) {
		usage(stderr);
		return -EINVAL;
	}
	/* --quick sets what was not given explicitly, whatever the order. */
	if (quick) {
		cfg->groups = groups ? cfg->groups : 1000;
		cfg->procs = procs ? cfg->procs : 100;
		cfg->iterations = iterations ? cfg->iterations : 200;
		cfg->walks = walks ? cfg->walks : 1;
	}
	return 0;
}

/* @out: @given, or @name beside cgx-bench. */
static int beside_self(const char *given, const char *name, char *out)
{
	char self[PATH_MAX];
	ssize_t n;

	if (given) {
		snprintf(out, PATH_MAX, "%s", given);
		return 0;
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) < 0)
		return warn_errno(-errno, "/proc/self/exe");
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	return path_join(out, self, name);
}

static int resolve_paths(struct run *run)
{
	const struct config *cfg = &run->cfg;
	struct daemon *cgxfs = &run->daemon[DAEMON_CGXFS], *floorfs = &run->daemon[DAEMON_FLOOR];
	int r;

	if ((r = beside_self(cfg->cgxfs, "cgxfs", cgxfs->path)) < 0)
		return r;
	/* The build's floorfs, which is not installed. */
	snprintf(floorfs->path, sizeof(floorfs->path), "%s", cfg->floorfs ?: FLOORFS_BUILD_PATH);
	if (access(cgxfs->path, X_OK) < 0)
		return warn_errno(-errno, "%s (give the daemon with --cgxfs)", cgxfs->path);
	/* An installed cgx-bench has no floorfs beside it: it measures without the floor. */
	run->side[SIDE_FLOOR].active = !cfg->scale && access(floorfs->path, X_OK) == 0;
	if (!cfg->scale && cfg->floorfs && !run->side[SIDE_FLOOR].active)
		return warn_errno(-errno, "%s", floorfs->path);
	if (cfg->cgroup2)
		snprintf(run->cgroup2, sizeof(run->cgroup2), "%s", cfg->cgroup2);
	else if ((r = find_mount("cgroup2", NULL, run->cgroup2)) < 0)
		return warn_errno(r, "no cgroup2 mount (give one with --cgroup2)");
	if (cfg->v1)
		snprintf(run->v1, sizeof(run->v1), "%s", cfg->v1);
	else if (!cfg->scale && (r = find_mount("cgroup", "cpu", run->v1)) < 0)
		return warn_errno(r, "no cgroup v1 hierarchy with cpu (give one with --v1)");
	return 0;
}

int main(int argc, char **argv)
{
	static struct run run = {
		.side =
			{
				[SIDE_V1] = {.label = "v1 kernel", .active = true},
				[SIDE_CGXFS] = {.label = "cgxfs", .active = true},
				[SIDE_FLOOR] = {.label = "floor", .crowd = CROWD_FLOOR},
			},
		.daemon = {[DAEMON_CGXFS] = {.label = "cgxfs"},
			   [DAEMON_FLOOR] = {.label = "floorfs"}},
	};
	int r;

	if (parse_args(argc, argv, &run.cfg) < 0)
		return 2;
	if (geteuid() != 0) {
		warn_errno(-EPERM, "cgroup mkdir, moves and mounts need root");
		return 1;
	}
	if (resolve_paths(&run) < 0 || install_signals() < 0)
		return 1;
	r = run.cfg.scale ? scale_bench(&run) : bench(&run);
	cleanup(&run);
	for (unsigned int c = 0; c < NR_CROWDS; c++)
		free(run.crowd[c]);
	free(run.read_buf);
	if (stop_signal) {
		fprintf(stderr, "cgx-bench: stopped by signal %d, cleaned up\n", (int)stop_signal);
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return r < 0 ? 1 : 0;
}
