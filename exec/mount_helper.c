// SPDX-License-Identifier: GPL-2.0-or-later
#include "mount_helper.h"

#include "decode.h"
#include "fdpass.h"
#include "util.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the helper needs, all prepared before fork(): the child calls no allocator. */
struct helper_plan {
	const struct caller *caller;
	const char *target;
	int sock;
	bool join_pid, join_user;
	int fd_numbers[PATH_MAX_FD_REFS]; /* the caller's numbers it has a descriptor at... */
	int fd_copies[PATH_MAX_FD_REFS];  /* ...and our copies of those descriptors */
	unsigned int nr_fds;
};

static int send_int(int sock, int value)
{
	return send(sock, &value, sizeof(value), MSG_NOSIGNAL) == sizeof(value) ? 0 : -errno;
}

/* -EPIPE when the other end is gone. */
static int recv_int(int sock, int *value)
{
	ssize_t n;

	while ((n = recv(sock, value, sizeof(*value), 0)) < 0 && errno == EINTR)
		;
	if (n < 0)
		return -errno;
	return n == sizeof(*value) ? 0 : -EPIPE;
}

/* Moves descriptor *@fd above @floor; -errno. */
static int lift_fd(int *fd, int floor)
{
	int lifted;

	if (*fd < 0 || *fd >= floor)
		return 0;
	if ((lifted = fcntl(*fd, F_DUPFD_CLOEXEC, floor)) < 0)
		return -errno;
	*fd = lifted;
	return 0;
}

/* Closes every descriptor but the @nr in @keep (each >= 0). */
static void close_all_but(int *keep, unsigned int nr)
{
	unsigned int low = 0;

	for (;;) {
		int next = -1;

		for (unsigned int i = 0; i < nr; i++)
			if ((unsigned int)keep[i] >= low && (next < 0 || keep[i] < next))
				next = keep[i];
		if (next < 0) {
			syscall(SYS_close_range, low, ~0U, 0);
			return;
		}
		if ((unsigned int)next > low)
			syscall(SYS_close_range, low, next - 1, 0);
		low = next + 1;
	}
}

/*
 * The caller's descriptors at their own numbers, everything of the
 * supervisor's gone (the listener, the view): a target "/proc/self/fd/N"
 * resolves to the caller's N, a number it lacks to nothing, as for it.
 */
static int lay_out_fds(struct helper_plan *plan, int *mnt, int *user, int *root, int *cwd)
{
	int *own[] = {&plan->sock, mnt, user, root, cwd};
	int keep[5 + PATH_MAX_FD_REFS], floor = 3, r;
	unsigned int nr = 0;

	for (unsigned int i = 0; i < plan->nr_fds; i++)
		if (plan->fd_numbers[i] >= floor)
			floor = plan->fd_numbers[i] + 1;
	if (floor > 3) {
		struct rlimit limit;

		if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < (rlim_t)floor + 64) {
			limit.rlim_cur = floor + 64;
			if (limit.rlim_max < limit.rlim_cur)
				limit.rlim_max = limit.rlim_cur;
			setrlimit(RLIMIT_NOFILE, &limit);
		}
	}
	for (unsigned int i = 0; i < 5; i++) {
		if ((r = lift_fd(own[i], floor)) < 0)
			return r;
		keep[nr++] = *own[i];
	}
	for (unsigned int i = 0; i < plan->nr_fds; i++) {
		if ((r = lift_fd(&plan->fd_copies[i], floor)) < 0)
			return r;
		keep[nr++] = plan->fd_copies[i];
	}
	close_all_but(keep, nr);
	for (unsigned int i = 0; i < plan->nr_fds; i++) {
		if (dup2(plan->fd_copies[i], plan->fd_numbers[i]) < 0)
			return -errno;
		close(plan->fd_copies[i]);
	}
	return 0;
}

/*
 * Becomes the caller. The order is forced by the kernel: the mount
 * namespace while we still hold CAP_SYS_ADMIN over its owner; the ids while
 * in the initial user namespace, where /proc numbered them; the caller's user
 * namespace next (setns() refuses a chrooted process); then its root and cwd,
 * and last its capabilities.
 */
static int become_caller(struct helper_plan *plan)
{
	const struct caller *caller = plan->caller;
	int mnt = caller->ns_mnt, user = caller->ns_user, root = caller->root, cwd = caller->cwd;
	uint64_t permitted;
	int r;

	if ((r = lay_out_fds(plan, &mnt, &user, &root, &cwd)) < 0)
		return r;
	if (prctl(PR_SET_DUMPABLE, 0) < 0 || setns(mnt, CLONE_NEWNS) < 0)
		return -errno;
	if (syscall(SYS_setgroups, caller->nr_groups, caller->groups) < 0 ||
	    syscall(SYS_setresgid, caller->gid, caller->egid, caller->sgid) < 0 ||
	    prctl(PR_SET_KEEPCAPS, 1) < 0 ||
	    syscall(SYS_setresuid, caller->uid, caller->euid, caller->suid) < 0)
		return -errno;
	/* Raised again from the permitted set PR_SET_KEEPCAPS kept. */
	if ((r = caps_get_permitted(&permitted)) < 0 || (r = caps_set(permitted, permitted, 0)) < 0)
		return r;
	syscall(SYS_setfsgid, caller->fsgid);
	syscall(SYS_setfsuid, caller->fsuid);
	if (plan->join_user && setns(user, CLONE_NEWUSER) < 0)
		return -errno;
	if (fchdir(root) < 0 || chroot(".") < 0 || fchdir(cwd) < 0)
		return -errno;
	close(mnt);
	close(user);
	close(root);
	close(cwd);
	return caps_set(caller->cap_eff, caller->cap_prm, caller->cap_inh);
}

/*
 * Dies with its parent: the supervisor kills the helper it waits on when the
 * call is given up, and the one in the caller's pid namespace must follow.
 * Set again once the ids changed, which clear it.
 */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
}

static void __attribute__((noreturn)) helper_main(struct helper_plan *plan)
{
	/* 0 when the parent lies outside our pid namespace: what matters is that it stays. */
	pid_t parent = getppid();
	int r, target, tree;

	die_with_parent(parent);
	r = become_caller(plan);
	die_with_parent(parent);
	if (r < 0) {
		send_int(plan->sock, -r);
		_exit(0);
	}
	/* mount(2) looks its target up with LOOKUP_FOLLOW. */
	target = open(plan->target, O_PATH | O_CLOEXEC);
	if (send_int(plan->sock, target < 0 ? errno : 0) < 0 || target < 0)
		_exit(0);
	if ((tree = fd_receive(plan->sock)) < 0)
		_exit(0);
	r = move_mount(tree, "", target, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
	send_int(plan->sock, r < 0 ? errno : 0);
	_exit(0);
}

/* The pid namespace first: it applies to children only, so one more fork() follows. */
static void __attribute__((noreturn)) helper_start(struct helper_plan *plan)
{
	pid_t child;

	if (!plan->join_pid)
		helper_main(plan);
	if (setns(plan->caller->ns_pid, CLONE_NEWPID) < 0) {
		send_int(plan->sock, errno);
		_exit(0);
	}
	if ((child = fork()) < 0) {
		send_int(plan->sock, errno);
		_exit(0);
	}
	if (child == 0)
		helper_main(plan);
	/* Waits, so that the helper is never an orphan for the caller's init to reap. */
	while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

int mount_helper_start(const struct caller *caller, const char *target, struct mount_helper *helper)
{
	struct helper_plan plan = {.caller = caller, .target = target};
	_cleanup_close_ int self_pid = -1, pidfd = -1;
	int socks[2], numbers[PATH_MAX_FD_REFS], r = 0;
	unsigned int nr_refs;

	helper->pid = -1;
	helper->pidfd = -1;
	helper->sock = -1;
	if ((self_pid = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	plan.join_pid = !ns_same(caller->ns_pid, self_pid);
	plan.join_user = !ns_same(caller->ns_user, caller_self_ns_user());
	/* The descriptors the target names, taken from the caller (PTRACE_MODE_ATTACH). */
	nr_refs = path_fd_refs(target, numbers, PATH_MAX_FD_REFS);
	if (nr_refs && (pidfd = syscall(SYS_pidfd_open, caller->tgid, 0)) < 0)
		return -errno;
	/* A number the caller has no descriptor at stays empty in the helper too. */
	for (unsigned int i = 0; i < nr_refs; i++) {
		int copy = syscall(SYS_pidfd_getfd, pidfd, numbers[i], 0);

		if (copy < 0)
			continue;
		plan.fd_numbers[plan.nr_fds] = numbers[i];
		plan.fd_copies[plan.nr_fds++] = copy;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, socks) < 0) {
		r = -errno;
		goto out;
	}
	plan.sock = socks[1];
	helper->pid = fork();
	if (helper->pid == 0)
		helper_start(&plan);
	if (helper->pid < 0)
		r = -errno;
	/* Reaped by the kernel (SIGCHLD ignored): only a pidfd names it safely. */
	else
		helper->pidfd = syscall(SYS_pidfd_open, helper->pid, 0);
	close(socks[1]);
	if (r < 0)
		close(socks[0]);
	else
		helper->sock = socks[0];
out:
	for (unsigned int i = 0; i < plan.nr_fds; i++)
		close(plan.fd_copies[i]);
	return r;
}

int mount_helper_resolved(struct mount_helper *helper)
{
	int answer, r;

	if ((r = recv_int(helper->sock, &answer)) < 0)
		return r == -EPIPE ? -EINTR : r;
	return -answer;
}

int mount_helper_attach(struct mount_helper *helper, int tree)
{
	int answer, r;

	if ((r = fd_send(helper->sock, tree)) < 0 || (r = recv_int(helper->sock, &answer)) < 0)
		return r == -EPIPE ? -EINTR : r;
	return -answer;
}

void mount_helper_release(struct mount_helper *helper)
{
	if (helper->sock >= 0)
		close(helper->sock);
	if (helper->pidfd >= 0)
		close(helper->pidfd);
	helper->sock = helper->pidfd = -1;
}
