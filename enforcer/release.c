// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * notify_on_release: a group with the flag set that loses its last task and
 * its last child runs the hierarchy's release_agent with the group's path,
 * as kernel/cgroup/cgroup-v1.c does (cgroup1_check_for_release(), then
 * cgroup1_release_agent()). cgroup2 has no agent: what changes is seen in
 * cgroup.events ("populated 0"), which the front end watches with inotify
 * and answers by calling cgx_release_check().
 */
#include "release.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

/* The agent of hierarchy @h, NULL when none is set. */
static const char *release_agent_of(struct cgx_ctx *ctx, unsigned int h)
{
	const char *agent = cgx_value_named(ctx, ctx->tree.base, h, "release_agent");

	return agent && agent[0] && agent[0] != '\n' ? agent : NULL;
}

static bool notify_on_release(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h)
{
	const char *flag = cgx_value_named(ctx, dir, h, "notify_on_release");

	return flag && flag[0] == '1';
}

/*
 * call_usermodehelper(UMH_WAIT_EXEC): the agent runs as root in the
 * daemon's namespaces, its own session, stdio on /dev/null, the kernel's
 * environment, and nobody waits for it. The middle child exits at once, so
 * the agent is init's to reap and the daemon leaves no zombie.
 */
static int run_agent(const char *agent_line, const char *path)
{
	char agent[PATH_MAX];
	char *argv[] = {agent, (char *)path, NULL};
	char *envp[] = {"HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL};
	int status;
	pid_t child;

	/* The stored value is what a read returns: the path and a newline. */
	snprintf(agent, sizeof(agent), "%.*s", (int)strcspn(agent_line, "\n"), agent_line);
	child = fork();
	if (child < 0)
		return -errno;
	if (child == 0) {
		/* Between fork and exec only async-signal-safe calls: the daemon has threads. */
		pid_t agent_pid = fork();

		if (agent_pid == 0) {
			int null = open("/dev/null", O_RDWR);
			sigset_t none;

			/* As the kernel's usermode helper: no signal blocked, none ignored. */
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			signal(SIGPIPE, SIG_DFL);
			signal(SIGHUP, SIG_DFL);
			setsid();
			if (null >= 0) {
				dup2(null, 0);
				dup2(null, 1);
				dup2(null, 2);
			}
			if (chdir("/") == 0)
				execve(agent, argv, envp);
			_exit(127);
		}
		_exit(agent_pid < 0 ? 1 : 0);
	}
	if (waitpid(child, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EAGAIN;
}

/*
 * One group, then its children: a group is armed while it holds a task or
 * a child, and the agent runs when an armed group with the flag set has
 * neither. The kernel checks on each such change; here each check sees the
 * state since the last one, which is the same answer a moment later.
 */
static void release_run_free(struct cgx_release_run *run)
{
	free(run->agent);
	free(run->path);
	free(run->hier_name);
}

/* @agent for @path of hierarchy @h, added to @due; logged and dropped when there is no memory. */
static void release_due(struct cgx_ctx *ctx, unsigned int h, const char *agent, const char *path,
			struct cgx_release_runs *due)
{
	struct cgx_release_run run = {strdup(agent), strdup(path),
				      strdup(ctx->hiers.hier[h].dir_name)};

	if (run.agent && run.path && run.hier_name && due->nr == due->room) {
		unsigned int room = due->room ? 2 * due->room : 8;
		struct cgx_release_run *grown = realloc(due->run, room * sizeof(*grown));

		if (grown) {
			due->run = grown;
			due->room = room;
		}
	}
	if (!run.agent || !run.path || !run.hier_name || due->nr == due->room) {
		cgx_log_errno(-ENOMEM, "cannot run the release agent of %s for %s",
			      ctx->hiers.hier[h].dir_name, path);
		release_run_free(&run);
		return;
	}
	due->run[due->nr++] = run;
}

static void check_group(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h, const char *agent,
			struct cgx_release_runs *due)
{
	struct v1_group *group = dir->group[h];
	struct v2_dir *child = NULL;
	unsigned long long tasks;
	char path[PATH_MAX];

	while ((child = cgx_group_next_child(dir, h, child)))
		check_group(ctx, child, h, agent, due);
	/* Only flagged groups are counted: the tasks of the others are never read here. */
	if (dir == ctx->tree.base || !notify_on_release(ctx, dir, h))
		return;
	if (cgx_group_nr_children(dir, h) || tasks_count_below(ctx, dir, h, &tasks) < 0 || tasks) {
		group->release_armed = true;
		return;
	}
	if (!group->release_armed)
		return;
	group->release_armed = false;
	if (tree_path(dir, true, path, sizeof(path)) < 0)
		return;
	release_due(ctx, h, agent, path, due);
}

/*
 * The group of @h at @dir now holds a task or a child.
 * Armed at once by a move or mkdir, not at the next check: a task that
 * comes and goes between two checks still makes its group release.
 */
static void release_arm(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h)
{
	if (dir != ctx->tree.base && dir->group[h])
		dir->group[h]->release_armed = true;
}

bool cgx_release_wanted(struct cgx_ctx *ctx)
{
	for (unsigned int h = 0; h < ctx->hiers.nr; h++)
		if (release_agent_of(ctx, h))
			return true;
	return false;
}

void cgx_release_check(struct cgx_ctx *ctx, struct cgx_release_runs *due)
{
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		const char *agent = release_agent_of(ctx, h);

		if (agent)
			check_group(ctx, ctx->tree.base, h, agent, due);
	}
}

void cgx_release_run(struct cgx_release_runs *due)
{
	for (unsigned int i = 0; i < due->nr; i++) {
		struct cgx_release_run *run = &due->run[i];
		int r = run_agent(run->agent, run->path);

		if (r < 0)
			cgx_log_errno(r, "cannot run the release agent of %s for %s",
				      run->hier_name, run->path);
		else
			cgx_log(CGX_LOG_INFO, "released %s:%s", run->hier_name, run->path);
		release_run_free(run);
	}
	free(due->run);
	*due = (struct cgx_release_runs){0};
}

void release_arm_populated(struct cgx_ctx *ctx)
{
	struct cgx_release_runs due = {0};

	/* Nothing is armed before this: the check arms what is populated and finds none due. */
	cgx_release_check(ctx, &due);
	cgx_release_run(&due);
}

int cgx_release_watch(struct cgx_ctx *ctx, int inotify_fd)
{
	char path[PATH_MAX + 64], rel[PATH_MAX];

	/*
	 * Once per leaf: the watch lasts as long as its directory, and this runs
	 * at every wake-up while some limit is split, over every leaf.
	 */
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		if (leaf->events_watched || tree_path(leaf, false, rel, sizeof(rel)) < 0)
			continue;
		/* Through the base's fd: right however the mount point is reached. */
		if (snprintf(path, sizeof(path), "/proc/self/fd/%d/%s/cgroup.events", ctx->base_fd,
			     rel) >= (int)sizeof(path))
			continue;
		if (inotify_add_watch(inotify_fd, path, IN_MODIFY) < 0) {
			if (errno != ENOENT)
				return -errno;
			continue;
		}
		leaf->events_watched = true;
	}
	return 0;
}

/* The groups a request filled: the parent of a new group, every group a process joined. */
void release_on_event(const struct cgx_event *event)
{
	struct cgx_ctx *ctx = event->ctx;

	if (event->kind == CGX_EVENT_MKDIR)
		release_arm(ctx, event->parent, event->hier);
	else if (event->kind == CGX_EVENT_ATTACH)
		for (unsigned int h = 0; h < ctx->hiers.nr; h++)
			release_arm(ctx, event->tuple->coord[h], h);
}
