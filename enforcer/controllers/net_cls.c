// SPDX-License-Identifier: GPL-2.0-or-later
/* net_cls: rows still to come. */
#include "../internal.h"

const struct v1_controller v1_net_cls = {
	.name = "net_cls",
};
