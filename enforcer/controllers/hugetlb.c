// SPDX-License-Identifier: GPL-2.0-or-later
/* hugetlb: rows still to come. */
#include "../internal.h"

const struct v1_controller v1_hugetlb = {
	.name = "hugetlb",
};
