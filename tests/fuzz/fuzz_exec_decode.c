// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for what cgx-exec's supervisor decodes from a caller's
 * memory (exec/decode.c): the options of mount -t cgroup, path folding, the
 * descriptors a mount target names and the /proc file a path is. The first
 * byte picks the decoder, the rest is the caller's string. Beyond "no
 * crash", each result is held to what the kernel would make of it.
 */
#include "decode.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX 4096

static void options(const char *text)
{
	struct cgroup_request want;

	if (cgroup_options_parse(text, &want) < 0)
		return;
	/* A name is [\w.-]+ and fits MAX_CGROUP_ROOT_NAMELEN. */
	if (strlen(want.name) >= sizeof(want.name) ||
	    want.name[strspn(want.name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789_.-")])
		abort();
	if (cgroup_options_validate(&want) < 0)
		return;
	/* check_cgroupfs_options(): something named, never none with controllers. */
	if ((!want.controllers && !want.name[0]) || (want.controllers && want.none))
		abort();
}

static void fold(const char *text)
{
	char path[TEXT_MAX + 2], again[TEXT_MAX + 2];
	size_t len;

	path[0] = '/';
	strcpy(path + 1, text);
	len = strlen(path);
	path_fold(path);
	/* Absolute, never longer, no empty, "." or ".." component left, and a fixed point. */
	if (path[0] != '/' || strlen(path) > len || strstr(path, "//") || strstr(path, "/./") ||
	    strstr(path, "/../"))
		abort();
	len = strlen(path);
	if ((len >= 2 && !strcmp(path + len - 2, "/.")) ||
	    (len >= 3 && !strcmp(path + len - 3, "/..")) || (len > 1 && path[len - 1] == '/'))
		abort();
	strcpy(again, path);
	path_fold(again);
	if (strcmp(path, again))
		abort();
}

static void fd_refs(const char *text)
{
	int fds[PATH_MAX_FD_REFS];
	unsigned int nr = path_fd_refs(text, fds, PATH_MAX_FD_REFS);

	if (nr > PATH_MAX_FD_REFS)
		abort();
	for (unsigned int i = 0; i < nr; i++) {
		if (fds[i] < 0)
			abort();
		for (unsigned int j = 0; j < i; j++)
			if (fds[i] == fds[j])
				abort();
	}
}

static void classify(const char *text)
{
	char path[TEXT_MAX + 2];
	pid_t subject = 0;
	enum proc_file file;

	path[0] = '/';
	strcpy(path + 1, text);
	path_fold(path);
	subject = -1;
	file = proc_file_classify(path, &subject);
	/* Every file but /proc/cgroups is some process's: the opener's (0) or a pid /proc could
	 * have. */
	if (file != PROC_OTHER && file != PROC_CGROUPS && (subject < 0 || subject > (1 << 22)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[TEXT_MAX + 1];

	if (size < 1 || size - 1 > TEXT_MAX)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 4) {
	case 0:
		options(text);
		break;
	case 1:
		fold(text);
		break;
	case 2:
		fd_refs(text);
		break;
	default:
		classify(text);
		break;
	}
	return 0;
}
