/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgxfs view over a stand-in for the cgroup2 mount: plain directories on
 * tmpfs with the v2 files a group has, so that libcgx runs its real paths
 * (the row handlers, state_load, knob_set) without touching a cgroup tree.
 * Every v2 write goes through write_file_at (linked with --wrap): each value
 * is checked against what cgroup2 itself takes in that file, and a value it
 * would refuse aborts the fuzzer (or, @lenient, fails with EINVAL as the
 * kernel's write would).
 */
#ifndef CGX_TEST_FAKE_VIEW_H
#define CGX_TEST_FAKE_VIEW_H

#include "cgx.h"

#include <stdint.h>

#define FAKE_BASE "cgx.view"

struct fake_view {
	char mount[64];	     /* the directory standing for the cgroup2 mount */
	struct cgx_ctx *ctx; /* NULL until fake_view_open() */
	struct cgx_caller caller;
	/* Let values cgroup2 would refuse through, as the kernel would refuse them (EINVAL). */
	bool lenient;
};

/*
 * A fresh stand-in mount on /dev/shm with the base and its files, no context
 * yet; it goes when the process ends, however it ends.
 */
int fake_mount_create(struct fake_view *view);
/* Gives directory @relpath (below the mount, made if missing) every v2 file of a group. */
int fake_dir_populate(struct fake_view *view, const char *relpath);
/* What the base's cgroup.controllers lists; NULL: every controller (a hybrid host has none). */
int fake_set_controllers(struct fake_view *view, const char *controllers);
/* Opens the view on the stand-in mount (state_load included): the daemon's start. */
int fake_view_open(struct fake_view *view);
void fake_view_close(struct fake_view *view);
/* Sets xattr @name of the base's directory @dir ("" for the base) as a daemon would. */
int fake_xattr_set(struct fake_view *view, const char *dir, const char *name, const char *value);
/* Gives v2 file @file of the base's directory @dir the content @value, as the kernel would. */
int fake_file_set(struct fake_view *view, const char *dir, const char *file, const char *value);
/* The v2 directory of @dir relative to the mount ("cgx.view/g"). */
int fake_dir_relpath(const struct v2_dir *dir, char *buf, size_t size);

/*
 * A fuzz input is records "HEADER TEXT" separated by NUL bytes, the HEADER
 * bytes (selectors, which may be NUL themselves) taken as they are: the
 * length of the record at @data, whose header is @header bytes, without its
 * separator.
 */
size_t fuzz_record_len(const uint8_t *data, const uint8_t *end, size_t header);

#endif
