// SPDX-License-Identifier: GPL-2.0-or-later
/* perf_event: rows still to come. */
#include "../internal.h"

const struct v1_controller v1_perf_event = {
	.name = "perf_event",
};
