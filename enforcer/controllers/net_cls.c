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
#include "../proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Kept after the value of a classid written without CAP_NET_ADMIN: it is
 * read back and inherited, but gives no priority. The kernel lets only
 * CAP_NET_ADMIN give a socket a priority above 6 (SO_PRIORITY), and a v1
 * classid steered nothing unless the administrator set up a cgroup filter
 * for it; given as a priority, it would pick any HTB or PRIO class of every
 * device, past the administrator's filters.
 */
#define UNAPPLIED " unapplied"

/* write_classid(): any u64 taken by kstrtoull, kept as a u32. */
static int classid_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	char text[32], *mark = NULL;
	bool applied;
	int r;

	(void)len;
	/*
	 * The daemon's own replay of a stored value (a rename) keeps its mark,
	 * and its number is parsed as any other: the replay brings back what
	 * was stored, never more.
	 */
	if (fc->caller->tid == own_pid() && (mark = strstr(buf, UNAPPLIED)) &&
	    strspn(mark + strlen(UNAPPLIED), "\n") == strlen(mark + strlen(UNAPPLIED)))
		*mark = '\0';
	else
		mark = NULL;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	applied = !(unsigned int)value ||
		  (!mark && proc_has_init_ns_cap(fc->caller->tid, CAP_NET_ADMIN_BIT) == 0);
	snprintf(text, sizeof(text), "%u%s\n", (unsigned int)value, applied ? "" : UNAPPLIED);
	return netclass_value_set(fc, text);
}

/* The value alone, whoever wrote it. */
static int classid_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const char *text = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);

	return strbuf_addf(out, "%lu\n", strtoul(text ? text : "0", NULL, 10));
}

static const struct v1_file net_cls_files[] = {
	{.name = "net_cls.classid",
	 .mode = 0644,
	 .flags = V1F_INHERIT | V1F_V2_LACKS, /* cgrp_css_online() copies the parent's */
	 .default_value = "0\n",
	 .read = classid_read,
	 .write = classid_write,
	 .v2 = V2_EMULATED("cgx gives the classid to packets as skb->priority (an egress BPF "
			   "program), which HTB and PRIO take as their class; the tc cgroup filter "
			   "and iptables -m cgroup --cgroup match nothing on cgroup2. Without cgx, "
			   "match the cgroup path: nftables \"socket cgroupv2 level N\" or "
			   "iptables -m cgroup --path")},
};

const struct v1_controller v1_net_cls = {
	.name = "net_cls",
	.files = net_cls_files,
	.nr_files = ARRAY_SIZE(net_cls_files),
	.apply_leaf = netclass_apply_leaf,
};
