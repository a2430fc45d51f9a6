// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net_cls (net/core/netclassid_cgroup.c): a class id for tc and iptables.
 * cgroup2 has no such controller. The egress program of netclass.h gives
 * the class id as the packets' priority, which HTB and PRIO take as their
 * class; iptables -m cgroup --cgroup and the cgroup filter of tc see
 * nothing (docs/mapping.md says what to use instead).
 */
#include "../knob.h"
#include "../netclass.h"

#include <stdio.h>

/* write_classid(): any u64 taken by kstrtoull, kept as a u32. */
static int classid_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	char text[16];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	snprintf(text, sizeof(text), "%u\n", (unsigned int)value);
	return netclass_value_set(fc, text);
}

static const struct v1_file net_cls_files[] = {
	{.name = "net_cls.classid",
	 .mode = 0644,
	 .flags = V1F_INHERIT | V1F_V2_LACKS, /* cgrp_css_online() copies the parent's */
	 .default_value = "0\n",
	 .write = classid_write,
	 .v2 = V2_EMULATED("a cgroup_skb egress program gives the classid as skb->priority, "
			   "which HTB and PRIO take as the class; the tc cgroup filter and "
			   "iptables -m cgroup --cgroup match nothing: nftables \"socket cgroupv2 "
			   "level N\" or iptables -m cgroup --path match the cgroup instead")},
};

const struct v1_controller v1_net_cls = {
	.name = "net_cls",
	.files = net_cls_files,
	.nr_files = ARRAY_SIZE(net_cls_files),
	.apply_leaf = netclass_apply_leaf,
	.reset_leaf = netclass_reset_leaf,
};
