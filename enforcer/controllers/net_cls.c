// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net_cls (net/core/netclassid_cgroup.c): a class id for tc and iptables.
 * cgroup2 has no such controller; packet filters match the cgroup path
 * itself (nftables "socket cgroupv2", iptables -m cgroup --path, eBPF).
 * The value keeps its v1 behaviour and has no effect.
 */
#include "../knob.h"

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
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, text);
}

static const struct v1_file net_cls_files[] = {
	{.name = "net_cls.classid",
	 .mode = 0644,
	 .flags = V1F_INHERIT, /* cgrp_css_online() copies the parent's */
	 .default_value = "0\n",
	 .write = classid_write,
	 .v2 = V2_NONE("match the cgroup path instead: nftables \"socket cgroupv2 level N\", "
		       "iptables -m cgroup --path, or an eBPF cgroup_skb program")},
};

const struct v1_controller v1_net_cls = {
	.name = "net_cls",
	.files = net_cls_files,
	.nr_files = ARRAY_SIZE(net_cls_files),
};
