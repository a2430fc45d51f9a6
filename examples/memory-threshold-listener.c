// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cgroup v1 memory event listener written the way legacy programs (and
 * the kernel's samples/cgroup/cgroup_event_listener.c) do it: open the
 * control file, make an eventfd, write "EFD CFD ARGS" to the group's
 * cgroup.event_control, then read() the eventfd.
 *
 *   memory-threshold-listener [-n COUNT] [-t SECONDS] CONTROL_FILE [ARGS]
 *
 * CONTROL_FILE is a group's memory.usage_in_bytes (ARGS: the threshold),
 * memory.memsw.usage_in_bytes, memory.oom_control or memory.pressure_level
 * (ARGS: "low", "medium,hierarchy", ...). Prints "registered" once the
 * write succeeds, "event N" for each read (N: the eventfd's count), and
 * "removed" when, after an event, the group's cgroup.event_control is gone
 * (the wake-up of rmdir). Exits once the counts read add up to COUNT
 * (default: never; one read may carry several signals), on removal, or
 * with status 2 after SECONDS without finishing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

static void on_alarm(int sig)
{
	static const char msg[] = "timeout\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX], control[PATH_MAX + 32], line[PATH_MAX];
	long count = -1, seconds = 0;
	int opt, efd, cfd, ctl;

	while ((opt = getopt(argc, argv, "n:t:")) != -1) {
		if (opt == 'n')
			count = strtol(optarg, NULL, 10);
		else if (opt == 't')
			seconds = strtol(optarg, NULL, 10);
		else
			return 1;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: %s [-n COUNT] [-t SECONDS] CONTROL_FILE [ARGS]\n", argv[0]);
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s", argv[optind]);
	snprintf(control, sizeof(control), "%s/cgroup.event_control", dirname(dir));
	if (seconds > 0) {
		signal(SIGALRM, on_alarm);
		alarm((unsigned int)seconds);
	}
	if ((cfd = open(argv[optind], O_RDONLY)) < 0) {
		printf("open %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	if ((efd = eventfd(0, 0)) < 0) {
		printf("eventfd: %s\n", strerror(errno));
		return 1;
	}
	if ((ctl = open(control, O_WRONLY)) < 0) {
		printf("open %s: %s\n", control, strerror(errno));
		return 1;
	}
	snprintf(line, sizeof(line), "%d %d %s", efd, cfd,
		 optind + 1 < argc ? argv[optind + 1] : "");
	if (write(ctl, line, strlen(line)) < 0) {
		printf("register: %s\n", strerror(errno));
		return 1;
	}
	close(ctl);
	printf("registered\n");
	fflush(stdout);
	while (count != 0) {
		uint64_t n;

		if (read(efd, &n, sizeof(n)) != sizeof(n)) {
			if (errno == EINTR)
				continue;
			printf("read: %s\n", strerror(errno));
			return 1;
		}
		printf("event %" PRIu64 "\n", n);
		fflush(stdout);
		if (access(control, W_OK) < 0 && errno == ENOENT) {
			printf("removed\n");
			return 0;
		}
		if (count > 0)
			count = n >= (uint64_t)count ? 0 : count - (long)n;
	}
	return 0;
}
