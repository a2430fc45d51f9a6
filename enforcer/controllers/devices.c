// SPDX-License-Identifier: GPL-2.0-or-later
/* devices: rows still to come. */
#include "../internal.h"

const struct v1_controller v1_devices = {
	.name = "devices",
};
