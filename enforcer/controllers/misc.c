// SPDX-License-Identifier: GPL-2.0-or-later
/* misc: rows still to come. */
#include "../internal.h"

const struct v1_controller v1_misc = {
	.name = "misc",
};
