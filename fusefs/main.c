// SPDX-License-Identifier: GPL-2.0-or-later
/* cgxfs: mounts a cgroup v1 multi-hierarchy view folded into one cgroup2 tree. */
#include "conn.h"
#include "keeper.h"
#include "notify.h"
#include "ops.h"
#include "sysfs_overlay.h"
#include "timed_ops.h"
#include "watcher.h"

#include "cgx.h"
#include "deprecation_journal.h"
#include "parse.h"

#include <ctype.h>
#include <fuse_lowlevel.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_MOUNTPOINT "/sys/fs/cgroup-compat"

struct cgxfs_args {
	struct cgx_options model;
	const char *mountpoint;
	const char *fuse_opts;
	const char *metrics; /* --metrics FILE, or NULL */
	bool foreground;
	bool debug;
	bool supervise;
	bool fdstore;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: cgxfs [OPTIONS] [MOUNTPOINT]\n"
		"Mount a cgroup v1 multi-hierarchy view (default " DEFAULT_MOUNTPOINT ")\n"
		"whose groups, moves and values live in a real cgroup2 tree.\n\n"
		"  --cgroup2 DIR       the cgroup2 mount (default: found in the mount table)\n"
		"  --base NAME         the v2 directory managed, below the mount (default cgx)\n"
		"  --hierarchies SPEC  ';'-separated hierarchies, each a comma list of\n"
		"                      controllers or name=X (default: the classic layout)\n"
		"  --primary-order LIST  controllers whose groups hold divergent leaves\n"
		"                      first (default memory,pids,cpu,blkio,hugetlb,rdma,\n"
		"                      misc,cpuset)\n"
		"  --log FILE          the deprecation log, JSON Lines (default\n"
		"                      " CGX_DEFAULT_DEPRECATION_LOG "; \"\" for none)\n"
		"  --log-max SIZE      the size the log may reach, K/M/G suffixes; past\n"
		"                      it records are dropped and counted (default 64M,\n"
		"                      0 for no cap)\n"
		"  --journal, --no-journal  the records to journald as well, or not\n"
		"                      (default: as a systemd service where it listens)\n"
		"  --metrics FILE      write Prometheus metrics to FILE (node_exporter's\n"
		"                      textfile format) every 5 s\n"
		"  --supervise         keep the mount across daemon restarts: a keeper\n"
		"                      holds the FUSE connection and restarts the daemon\n"
		"  --fdstore           keep the FUSE connection in systemd's file\n"
		"                      descriptor store (FileDescriptorStoreMax=)\n"
		"  --listeners-per-uid N  cgroup.event_control registrations a uid other\n"
		"                      than root may hold (default %d)\n"
		"  -f, --foreground    stay in the foreground\n"
		"  -d, --debug         log every request (implies -f)\n"
		"  -o OPTIONS          further FUSE mount options\n"
		"  -h, --help          show this help\n"
		"  -V, --version       show the version\n",
		CGX_LISTENERS_PER_UID_DEFAULT);
}

/* A count of at least 1, as --listeners-per-uid takes it. */
static int parse_count(const char *text, unsigned int *count)
{
	unsigned long long value;

	if (kstrtoull(text, 10, &value) < 0 || !value || value > UINT_MAX)
		return -EINVAL;
	*count = (unsigned int)value;
	return 0;
}

/* "64M", "1G", "500000"; 0 means no cap. */
static int parse_log_max(const char *text, unsigned long long *max)
{
	const char *end;

	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	*max = memparse(text, &end);
	if (*end)
		return -EINVAL;
	if (!*max)
		*max = CGX_DEPRECATION_LOG_NO_MAX;
	return 0;
}

/*
 * The file is written anew at every interval, from the background: a
 * directory missing now would fail every write, logged once, and the
 * collector would see nothing. cgxfs makes no directory: where the file goes
 * is the collector's (node_exporter's textfile directory) or the unit's
 * (RuntimeDirectory=).
 */
static int check_metrics_dir(const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	struct stat st;
	int err;

	if (!dir)
		return -ENOMEM;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) < 0) {
		err = errno;
		fprintf(stderr, "cgxfs: --metrics %s: cannot use the directory %s: %s\n", path, dir,
			strerror(err));
		return -err;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "cgxfs: --metrics %s: %s is not a directory\n", path, dir);
		return -ENOTDIR;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct cgxfs_args *args)
{
	static const struct option options[] = {
		{"cgroup2", required_argument, NULL, 'c'},
		{"base", required_argument, NULL, 'b'},
		{"hierarchies", required_argument, NULL, 'H'},
		{"log", required_argument, NULL, 'L'},
		{"log-max", required_argument, NULL, 'M'},
		{"journal", no_argument, NULL, 'j'},
		{"metrics", required_argument, NULL, 'm'},
		{"no-journal", no_argument, NULL, 'J'},
		{"primary-order", required_argument, NULL, 'P'},
		{"supervise", no_argument, NULL, 'S'},
		{"fdstore", no_argument, NULL, 'F'},
		{"listeners-per-uid", required_argument, NULL, 'U'},
		{"foreground", no_argument, NULL, 'f'},
		{"debug", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int opt, journal = -1;

	*args = (struct cgxfs_args){.model.base = "cgx", .mountpoint = DEFAULT_MOUNTPOINT};
	while ((opt = getopt_long(argc, argv, "fdho:V", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			args->model.cgroup2 = optarg;
			break;
		case 'b':
			args->model.base = optarg;
			break;
		case 'H':
			args->model.hierarchies = optarg;
			break;
		case 'L':
			args->model.deprecation_log = optarg;
			break;
		case 'M':
			if (parse_log_max(optarg, &args->model.deprecation_log_max) < 0) {
				fprintf(stderr, "cgxfs: --log-max: a size is a number with an "
						"optional K, M or G suffix\n");
				return -EINVAL;
			}
			break;
		case 'j':
			journal = 1;
			break;
		case 'J':
			journal = 0;
			break;
		case 'm':
			/* The daemon's cwd is / once it runs in the background. */
			if (optarg[0] != '/') {
				fprintf(stderr, "cgxfs: --metrics wants an absolute path\n");
				return -EINVAL;
			}
			if (check_metrics_dir(optarg) < 0)
				return -EINVAL;
			args->metrics = optarg;
			break;
		case 'P':
			args->model.primary_order = optarg;
			break;
		case 'S':
			args->supervise = true;
			break;
		case 'F':
			args->fdstore = true;
			break;
		case 'U':
			if (parse_count(optarg, &args->model.listeners_per_uid) < 0) {
				fprintf(stderr,
					"cgxfs: --listeners-per-uid wants a count of 1 or more\n");
				return -EINVAL;
			}
			break;
		case 'f':
			args->foreground = true;
			break;
		case 'd':
			args->debug = args->foreground = true;
			break;
		case 'o':
			args->fuse_opts = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("cgxfs %s\n", CGX_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	/*
	 * By default a service of systemd's, where journald listens, and not a
	 * daemon an admin or a test started by hand, whose records stay in its
	 * file: systemd sets $INVOCATION_ID in every unit's environment.
	 */
	args->model.journal = journal == 1 || (journal == -1 && getenv("INVOCATION_ID") &&
					       deprecation_journal_present());
	if (optind < argc)
		args->mountpoint = argv[optind++];
	if (optind < argc) {
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every descriptor the hard limit allows: listeners of cgroup.event_control
 * hold some each (memevent.c keeps a reserve for requests out of the soft
 * limit), and systemd starts services at a soft limit of 1024.
 */
static void raise_nofile_limit(void)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur == limit.rlim_max)
		return;
	limit.rlim_cur = limit.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &limit) < 0)
		cgx_log_errno(-errno, "cannot raise the open files limit to %llu",
			      (unsigned long long)limit.rlim_max);
}

/*
 * A daemon killed with -9 leaves its mount dead ("Transport endpoint is not
 * connected"); true when one was found and detached.
 */
static bool clear_dead_mount(const char *mountpoint)
{
	struct stat st;

	if (stat(mountpoint, &st) < 0 && errno == ENOTCONN) {
		cgx_log(CGX_LOG_WARNING, "%s: dead mount of a previous daemon, detached",
			mountpoint);
		return umount2(mountpoint, MNT_DETACH) == 0;
	}
	return false;
}

/*
 * Serves the view until unmounted or signalled. With @conn, on a FUSE
 * connection mounted by someone else (a keeper, or systemd's store): no
 * mount, no unmount and no fork of its own.
 */
static int serve(struct cgx_ctx *ctx, struct cgxfs_args *args, const struct conn *conn)
{
	char mount_opts[1024];
	char *fuse_argv[] = {"cgxfs", "-o", mount_opts, args->debug ? "-d" : NULL, NULL};
	struct fuse_args fuse_args = FUSE_ARGS_INIT(args->debug ? 4 : 3, fuse_argv);
	struct fuse_loop_config *loop_config = NULL;
	struct cgxfs fs = {.ctx = ctx};
	struct watcher watcher;
	struct fuse_session *se;
	int r = -EIO;

	snprintf(mount_opts, sizeof(mount_opts),
		 "default_permissions,allow_other,fsname=cgroup,subtype=cgxfs%s%s",
		 args->fuse_opts ? "," : "", args->fuse_opts ? args->fuse_opts : "");
	open_files_init(&fs.files);
	/* Requests are timed only for --metrics, which shows the times. */
	se = fuse_session_new(&fuse_args, args->metrics ? &cgxfs_timed_ops : &cgxfs_ops,
			      sizeof(cgxfs_ops), &fs);
	if (!se)
		return cgx_log_errno(-EINVAL, "cannot start a FUSE session");
	if (fuse_set_signal_handlers(se) < 0)
		goto out_session;
	if (conn) {
		if ((r = conn_attach(se, conn)) < 0)
			goto out_signals;
	} else if (fuse_session_mount(se, args->mountpoint) < 0) {
		r = cgx_log_errno(-EIO, "cannot mount %s", args->mountpoint);
		goto out_signals;
	}
	r = -EIO;
	/* The mount answers from here: the parent returns once the child runs. */
	if (!conn && fuse_daemonize(args->foreground) < 0)
		goto out_unmount;
	if (!args->foreground)
		cgx_log_to_syslog(true);
	cgx_log(CGX_LOG_INFO, "serving %s from %s/%s", args->mountpoint, ctx->cgroup2_path,
		ctx->base_relpath);
	if ((r = watcher_start(&watcher, ctx, args->metrics)) < 0)
		goto out_unmount;
	/* Mounted and watched: a Type=notify unit may start what needs the view. */
	notify_ready();
	r = -EIO;
	loop_config = fuse_loop_cfg_create();
	if (!loop_config)
		goto out_watcher;
	fuse_loop_cfg_set_max_threads(loop_config, 16);
	r = fuse_session_loop_mt(se, loop_config) < 0 ? -EIO : 0;
	fuse_loop_cfg_destroy(loop_config);
out_watcher:
	watcher_stop(&watcher);
out_unmount:
	/* A no-op on a connection handed down: fuse_session_mount() mounted nothing. */
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
	fuse_opt_free_args(&fuse_args);
	open_files_release(&fs.files);
	return r;
}

/* The view's mount point made ready: a dead mount cleared, /sys/fs overlaid. */
static int prepare_mountpoint(const char *mountpoint, bool *overlay)
{
	/* The overlay a killed daemon laid for this mount point is ours to take away. */
	*overlay = clear_dead_mount(mountpoint) && !strncmp(mountpoint, "/sys/fs/", 8);
	if (sysfs_overlay_needed(mountpoint)) {
		if (sysfs_overlay_setup(mountpoint) < 0)
			return -EIO;
		*overlay = true;
	}
	return 0;
}

/*
 * The keeper runs this very binary, from where it was installed (an upgrade
 * replaces the file), with the same options less --supervise.
 */
static int supervise(struct cgxfs_args *args, int argc, char **argv)
{
	_cleanup_free_ char **daemon_argv = calloc(argc + 2, sizeof(char *));
	char exe[PATH_MAX], mountpoint[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *deleted = " (deleted)";
	int nr = 0;

	if (!daemon_argv || n < 0)
		return cgx_log_errno(n < 0 ? -errno : -ENOMEM, "cannot find the cgxfs binary");
	/* The keeper leaves its cwd for / before it mounts. */
	if (!realpath(args->mountpoint, mountpoint))
		return cgx_log_errno(-errno, "cannot mount %s", args->mountpoint);
	exe[n] = '\0';
	if (n > (ssize_t)strlen(deleted) && !strcmp(exe + n - strlen(deleted), deleted))
		exe[n - strlen(deleted)] = '\0';
	daemon_argv[nr++] = exe;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--supervise"))
			daemon_argv[nr++] = argv[i];
	return keeper_run(&(struct keeper_config){
		.mountpoint = mountpoint,
		.fuse_opts = args->fuse_opts,
		.foreground = args->foreground,
		.daemon_argv = daemon_argv,
	});
}

/*
 * systemd keeps the connection; a restart finds it in $LISTEN_FDS. What a
 * store still held of a connection gone goes first: systemd removes by name,
 * and would otherwise keep the stale files beside the new ones, past
 * FileDescriptorStoreMax=.
 */
static int store_with_systemd(struct cgxfs_args *args, struct conn *conn, bool stale)
{
	int r;

	if (stale) {
		notify_fdstore_remove(CONN_FUSE_NAME);
		notify_fdstore_remove(CONN_INIT_NAME);
	}
	if ((r = conn_mount(args->mountpoint, args->fuse_opts, conn)) < 0)
		return r;
	if ((r = notify_fdstore(conn->fuse_fd, CONN_FUSE_NAME)) < 0 ||
	    (r = notify_fdstore(conn->init_fd, CONN_INIT_NAME)) < 0)
		cgx_log(CGX_LOG_WARNING, "the mount of %s will not outlive this daemon",
			args->mountpoint);
	return 0;
}

int main(int argc, char **argv)
{
	struct cgxfs_args args;
	struct conn conn = CONN_INIT;
	struct cgx_ctx *ctx = NULL;
	bool overlay = false, stale;
	int r;

	if (parse_args(argc, argv, &args) < 0)
		return 2;
	if (args.debug)
		cgx_log_set_level(CGX_LOG_DEBUG);
	raise_nofile_limit();
	/* Handed a connection: the mount is up and its point must not be looked at (no one
	 * answers). */
	if ((r = conn_from_listen_fds(&conn, &stale)) < 0)
		return 1;
	if (r == 0 && prepare_mountpoint(args.mountpoint, &overlay) < 0)
		return 1;
	if (args.supervise && r == 0) {
		r = supervise(&args, argc, argv);
	} else if (cgx_ctx_open(&ctx, &args.model) < 0) {
		r = -EIO;
	} else {
		if (args.fdstore && conn.fuse_fd < 0 &&
		    (r = store_with_systemd(&args, &conn, stale)) < 0)
			goto out;
		r = serve(ctx, &args, conn.fuse_fd >= 0 ? &conn : NULL);
	}
out:
	/*
	 * With systemd's store the mount outlives this daemon, and a restarted
	 * one did not lay the overlay it sits in: it goes with the mount only.
	 */
	if (args.fdstore && conn.fuse_fd >= 0)
		overlay = !conn_alive(&conn) && !strncmp(args.mountpoint, "/sys/fs/", 8);
	/* Only an overlay this daemon owns: another cgxfs may serve under /sys/fs too. */
	if (overlay)
		sysfs_overlay_teardown();
	conn_close(&conn);
	cgx_ctx_free(ctx);
	return r < 0 ? 1 : 0;
}
