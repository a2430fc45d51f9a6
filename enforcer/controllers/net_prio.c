// SPDX-License-Identifier: GPL-2.0-or-later
/* net_prio: rows still to come. */
#include "../internal.h"

const struct v1_controller v1_net_prio = {
	.name = "net_prio",
};
