// SPDX-License-Identifier: GPL-2.0-or-later
/* The devices whitelist as a BPF_PROG_TYPE_CGROUP_DEVICE program: still to come. */
#include "internal.h"
