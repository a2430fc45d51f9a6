// SPDX-License-Identifier: GPL-2.0-or-later
/* cgxfs: mounts a cgroup v1 multi-hierarchy view folded into one cgroup2 tree. */
#include "notify.h"
#include "ops.h"
#include "sysfs_overlay.h"
#include "watcher.h"

#include "cgx.h"

#include <fuse_lowlevel.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define DEFAULT_MOUNTPOINT "/sys/fs/cgroup-compat"

struct cgxfs_args {
	struct cgx_options model;
	const char *mountpoint;
	const char *fuse_opts;
	bool foreground;
	bool debug;
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
		"  -f, --foreground    stay in the foreground\n"
		"  -d, --debug         log every request (implies -f)\n"
		"  -o OPTIONS          further FUSE mount options\n"
		"  -h, --help          show this help\n"
		"  -V, --version       show the version\n");
}

static int parse_args(int argc, char **argv, struct cgxfs_args *args)
{
	static const struct option options[] = {
		{"cgroup2", required_argument, NULL, 'c'},
		{"base", required_argument, NULL, 'b'},
		{"hierarchies", required_argument, NULL, 'H'},
		{"log", required_argument, NULL, 'L'},
		{"primary-order", required_argument, NULL, 'P'},
		{"foreground", no_argument, NULL, 'f'},
		{"debug", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int opt;

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
		case 'P':
			args->model.primary_order = optarg;
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
	if (optind < argc)
		args->mountpoint = argv[optind++];
	if (optind < argc) {
		usage(stderr);
		return -EINVAL;
	}
	return 0;
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

static int serve(struct cgx_ctx *ctx, struct cgxfs_args *args)
{
	char mount_opts[1024];
	char *fuse_argv[] = {"cgxfs", "-o", mount_opts, args->debug ? "-d" : NULL, NULL};
	struct fuse_args fuse_args = FUSE_ARGS_INIT(args->debug ? 4 : 3, fuse_argv);
	struct fuse_loop_config *loop_config = NULL;
	struct watcher watcher;
	struct fuse_session *se;
	int r = -EIO;

	snprintf(mount_opts, sizeof(mount_opts),
		 "default_permissions,allow_other,fsname=cgroup,subtype=cgxfs%s%s",
		 args->fuse_opts ? "," : "", args->fuse_opts ? args->fuse_opts : "");
	se = fuse_session_new(&fuse_args, &cgxfs_ops, sizeof(cgxfs_ops), ctx);
	if (!se)
		return cgx_log_errno(-EINVAL, "cannot start a FUSE session");
	if (fuse_set_signal_handlers(se) < 0)
		goto out_session;
	if (fuse_session_mount(se, args->mountpoint) < 0) {
		r = cgx_log_errno(-EIO, "cannot mount %s", args->mountpoint);
		goto out_signals;
	}
	/* The mount answers from here: the parent returns once the child runs. */
	if (fuse_daemonize(args->foreground) < 0)
		goto out_unmount;
	if (!args->foreground)
		cgx_log_to_syslog(true);
	cgx_log(CGX_LOG_INFO, "serving %s from %s/%s", args->mountpoint, ctx->cgroup2_path,
		ctx->base_relpath);
	if ((r = watcher_start(&watcher, ctx)) < 0)
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
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_session:
	fuse_session_destroy(se);
	fuse_opt_free_args(&fuse_args);
	return r;
}

int main(int argc, char **argv)
{
	struct cgxfs_args args;
	struct cgx_ctx *ctx = NULL;
	bool overlay = false;
	int r;

	if (parse_args(argc, argv, &args) < 0)
		return 2;
	if (args.debug)
		cgx_log_set_level(CGX_LOG_DEBUG);
	if (cgx_ctx_open(&ctx, &args.model) < 0)
		return 1;
	/* The overlay a killed daemon laid for this mount point is ours to take away. */
	overlay = clear_dead_mount(args.mountpoint) && !strncmp(args.mountpoint, "/sys/fs/", 8);
	if (sysfs_overlay_needed(args.mountpoint)) {
		if (sysfs_overlay_setup(args.mountpoint) < 0) {
			cgx_ctx_free(ctx);
			return 1;
		}
		overlay = true;
	}
	r = serve(ctx, &args);
	/* Only an overlay this daemon owns: another cgxfs may serve under /sys/fs too. */
	if (overlay)
		sysfs_overlay_teardown();
	cgx_ctx_free(ctx);
	return r < 0 ? 1 : 0;
}
