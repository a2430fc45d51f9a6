// SPDX-License-Identifier: GPL-2.0-or-later
#include "decode.h"

#include "hierarchy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool word_is(const char *word, size_t len, const char *literal)
{
	return len == strlen(literal) && !strncmp(word, literal, len);
}

/* vfs_parse_sb_flag(): superblock flags the VFS takes before the file system sees them. */
static bool is_vfs_sb_flag(const char *word, size_t len)
{
	static const char *const flags[] = {"ro",	"rw",	      "sync", "async",	"dirsync",
					    "lazytime", "nolazytime", "mand", "nomand", "posixacl"};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (word_is(word, len, flags[i]))
			return true;
	return false;
}

/* Flags of the v1 file system that cgx accepts and does not carry (see exec/README.md). */
static bool is_cgroup_flag(const char *word, size_t len)
{
	static const char *const flags[] = {"xattr", "clone_children", "cpuset_v2_mode",
					    "favordynmods", "nofavordynmods"};

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (word_is(word, len, flags[i]))
			return true;
	return false;
}

int cgroup_options_parse(const char *data, struct cgroup_request *want)
{
	const char *word = data;

	memset(want, 0, sizeof(*want));
	while (*word) {
		size_t len = strcspn(word, ",");
		int index;

		if (len == 0 || is_vfs_sb_flag(word, len) || is_cgroup_flag(word, len)) {
			/* an empty option is skipped, as generic_parse_monolithic() does */
		} else if (word_is(word, len, "none")) {
			want->none = true;
		} else if (word_is(word, len, "all")) {
			want->all = true;
		} else if (word_is(word, len, "noprefix")) {
			want->noprefix = true;
		} else if (len > 5 && !strncmp(word, "name=", 5)) {
			/* MAX_CGROUP_ROOT_NAMELEN, [\w.-]+, and only once */
			if (want->name[0] || len - 5 >= sizeof(want->name) ||
			    !hier_name_valid(word + 5, len - 5))
				return -EINVAL;
			memcpy(want->name, word + 5, len - 5);
			want->name[len - 5] = '\0';
		} else if (len > 14 && !strncmp(word, "release_agent=", 14)) {
			if (want->release_agent)
				return -EINVAL;
			want->release_agent = true;
		} else if ((index = hier_controller_index(word, len)) >= 0) {
			want->controllers |= 1u << index;
		} else {
			return -EINVAL;
		}
		word += len + (word[len] == ',');
	}
	return 0;
}

int cgroup_options_validate(struct cgroup_request *want)
{
	const unsigned int every = (1u << HIER_NR_CONTROLLERS) - 1;
	const unsigned int cpuset = 1u << hier_controller_index("cpuset", 6);

	if (!want->controllers && !want->none && !want->name[0])
		want->all = true;
	if (want->all) {
		if (want->controllers)
			return -EINVAL; /* "subsys name conflicts with all" */
		want->controllers = every;
	}
	if (!want->controllers && !want->name[0])
		return -EINVAL;
	/* noprefix is for the old cpuset only */
	if (want->noprefix && (want->controllers & ~cpuset))
		return -EINVAL;
	if (want->controllers && want->none)
		return -EINVAL;
	return 0;
}

void path_fold(char *path)
{
	char *out = path, *in = path;

	while (*in) {
		size_t len;

		in += strspn(in, "/");
		len = strcspn(in, "/");
		if (len == 0)
			break;
		if (len == 1 && in[0] == '.') {
			/* nothing */
		} else if (len == 2 && in[0] == '.' && in[1] == '.') {
			while (out > path && *--out != '/')
				;
		} else {
			*out++ = '/';
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

/* A descriptor number as /proc spells it: digits, no sign, no leading zero, an int. */
static int parse_fd(const char *word, size_t len)
{
	long value = 0;

	if (!len || len > 10 || (word[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (word[i] < '0' || word[i] > '9')
			return -1;
		value = value * 10 + (word[i] - '0');
	}
	return value > 0x7fffffff ? -1 : (int)value;
}

unsigned int path_fd_refs(const char *path, int *fds, unsigned int max)
{
	const char *word = path;
	bool after_fd = false;
	unsigned int nr = 0;

	/*
	 * Every "fd/N" counts, whatever leads to it: copying one descriptor too
	 * many into the helper is harmless, missing one resolves wrongly.
	 */
	while (*word && nr < max) {
		size_t len;
		int fd;

		word += strspn(word, "/");
		len = strcspn(word, "/");
		if (!len)
			break;
		if (after_fd && (fd = parse_fd(word, len)) >= 0) {
			bool known = false;

			for (unsigned int i = 0; i < nr; i++)
				known |= fds[i] == fd;
			if (!known)
				fds[nr++] = fd;
		}
		after_fd = word_is(word, len, "fd");
		word += len;
	}
	return nr;
}

static enum proc_file per_process_file(const char *name)
{
	if (!strcmp(name, "mounts"))
		return PROC_MOUNTS;
	if (!strcmp(name, "mountinfo"))
		return PROC_MOUNTINFO;
	if (!strcmp(name, "cgroup"))
		return PROC_CGROUP;
	if (!strcmp(name, "cpuset"))
		return PROC_CPUSET;
	return PROC_OTHER;
}

/* A pid as a /proc entry spells it: digits only, no sign, no leading zero. */
static bool parse_pid(const char **cursor, pid_t *pid)
{
	const char *s = *cursor;
	char *end;
	long value;

	if (*s < '1' || *s > '9')
		return false;
	value = strtol(s, &end, 10);
	if (*end != '/' || value <= 0 || value > (1L << 22))
		return false;
	*pid = value;
	*cursor = end + 1;
	return true;
}

enum proc_file proc_file_classify(const char *path, pid_t *subject)
{
	const char *rest;
	pid_t task;

	if (strncmp(path, "/proc/", 6))
		return PROC_OTHER;
	rest = path + 6;
	if (!strcmp(rest, "cgroups"))
		return PROC_CGROUPS;
	/* /proc/mounts is a symlink to self/mounts. */
	if (!strcmp(rest, "mounts")) {
		*subject = 0;
		return PROC_MOUNTS;
	}
	if (!strncmp(rest, "self/", 5)) {
		*subject = 0;
		rest += 5;
	} else if (!strncmp(rest, "thread-self/", 12)) {
		/* Mounts and cgroups are per process: the thread's are its process's. */
		*subject = 0;
		return per_process_file(rest + 12);
	} else if (!parse_pid(&rest, subject)) {
		return PROC_OTHER;
	}
	if (!strncmp(rest, "task/", 5)) {
		rest += 5;
		if (!parse_pid(&rest, &task))
			return PROC_OTHER;
	}
	return per_process_file(rest);
}
