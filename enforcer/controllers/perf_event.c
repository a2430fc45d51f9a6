// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf_event has no files of its own in v1: a group is only a target for
 * "perf stat -G". cgroup2 has the controller implicitly on every cgroup, so
 * "perf stat -G" takes the leaf's v2 path there.
 */
#include "../knob.h"

const struct v1_controller v1_perf_event = {
	.name = "perf_event",
};
