// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net_prio (net/core/netprio_cgroup.c): a per-interface socket priority.
 * cgroup2 has no such controller. The egress program of netclass.h gives a
 * packet without a priority its group's entry for the device it leaves
 * by, as v1 did at the device.
 */
#include "../knob.h"
#include "../netclass.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#define IFNAMSIZ 16

/* The interfaces of the daemon's network namespace, in ifindex order as for_each_netdev(). */
struct netdev {
	char name[IFNAMSIZ + 1];
	int ifindex;
};

static int cmp_ifindex(const void *a, const void *b)
{
	return ((const struct netdev *)a)->ifindex - ((const struct netdev *)b)->ifindex;
}

static int netdevs_list(struct netdev **devs, size_t *nr)
{
	_cleanup_closedir_ DIR *dir = opendir("/sys/class/net");
	struct netdev *list = NULL;
	struct dirent *entry;
	size_t n = 0;

	if (!dir)
		return -errno;
	while ((entry = readdir(dir))) {
		char path[300];
		FILE *f;
		struct netdev *grown;

		if (entry->d_name[0] == '.' || strlen(entry->d_name) > IFNAMSIZ)
			continue;
		if (!(grown = realloc(list, (n + 1) * sizeof(*list)))) {
			free(list);
			return -ENOMEM;
		}
		list = grown;
		snprintf(list[n].name, sizeof(list[n].name), "%.*s", IFNAMSIZ, entry->d_name);
		list[n].ifindex = 0;
		snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", entry->d_name);
		if ((f = fopen(path, "re"))) {
			if (fscanf(f, "%d", &list[n].ifindex) != 1)
				list[n].ifindex = 0;
			fclose(f);
		}
		n++;
	}
	qsort(list, n, sizeof(*list), cmp_ifindex);
	*devs = list;
	*nr = n;
	return 0;
}

static bool netdev_exists(const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	return strlen(name) <= IFNAMSIZ && access(path, F_OK) == 0;
}

/* The priority stored for @name in the map text ("eth0 5\n..."), 0 when none. */
static unsigned int map_prio(const char *map, const char *name)
{
	size_t len = strlen(name);

	for (const char *line = map; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, name, len) && line[len] == ' ')
			return (unsigned int)strtoul(line + len + 1, NULL, 10);
	}
	return 0;
}

static int ifpriomap_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const char *map = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	_cleanup_free_ struct netdev *devs = NULL;
	size_t nr = 0;
	int r;

	if ((r = netdevs_list(&devs, &nr)) < 0)
		return r;
	for (size_t i = 0; i < nr; i++)
		if ((r = strbuf_addf(out, "%s %u\n", devs[i].name, map_prio(map, devs[i].name))) <
		    0)
			return r;
	return 0;
}

/*
 * write_priomap(): sscanf "%16s %u" as the kernel's vsscanf does it (white
 * space skipped, no sign for %u, the rest ignored), EINVAL unless both are
 * there, ENODEV for an interface this namespace does not have.
 */
static int ifpriomap_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	const char *old = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	_cleanup_strbuf_ struct strbuf map = STRBUF_INIT;
	char name[IFNAMSIZ + 1];
	unsigned int prio;
	const char *p = buf;
	size_t n = 0;

	(void)len;
	while (isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p) && n < IFNAMSIZ)
		name[n++] = *p++;
	name[n] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (!n || !isdigit((unsigned char)*p))
		return -EINVAL;
	prio = (unsigned int)strtoull(p, NULL, 10);
	if (!netdev_exists(name))
		return -ENODEV;
	/* Keep the other interfaces' lines, replace this one's. */
	for (const char *line = old ? old : ""; *line;) {
		size_t line_len = strcspn(line, "\n");

		if (!(strncmp(line, name, n) == 0 && line[n] == ' ') &&
		    strbuf_addf(&map, "%.*s\n", (int)line_len, line) < 0)
			return -ENOMEM;
		line += line_len + (line[line_len] == '\n');
	}
	if (prio && strbuf_addf(&map, "%s %u\n", name, prio) < 0)
		return -ENOMEM;
	return netclass_value_set(fc, map.buf ? map.buf : "");
}

static int prioidx_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	if (fc->dir == fc->ctx->tree.base)
		return strbuf_add(out, "1\n", 2);
	return strbuf_addf(out, "%s", cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file));
}

static bool prioidx_used(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			 const struct v2_dir *self, unsigned long idx)
{
	const char *text;

	if (dir != self && dir != ctx->tree.base && dir->group[hier] &&
	    (text = cgx_value_named(ctx, dir, hier, "net_prio.prioidx")) &&
	    strtoul(text, NULL, 10) == idx)
		return true;
	v2_dir_for_each_child (child, dir)
		if (prioidx_used(ctx, child, hier, self, idx))
			return true;
	return false;
}

/* css ids come from an idr starting at 2 (1 is the root's): the lowest free one. */
static void net_prio_online(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	unsigned long idx = 2;
	char text[24];

	while (prioidx_used(ctx, ctx->tree.base, hier, group, idx))
		idx++;
	snprintf(text, sizeof(text), "%lu\n", idx);
	if (cgx_value_set_named(ctx, group, hier, "net_prio.prioidx", text) < 0)
		cgx_log(CGX_LOG_WARNING, "net_prio.prioidx of %s not recorded", group->name);
}

static const struct v1_file net_prio_files[] = {
	{.name = "net_prio.ifpriomap",
	 .mode = 0644,
	 .flags = V1F_INHERIT | V1F_V2_LACKS, /* cgrp_css_online() copies the parent's priorities */
	 .default_value = "",
	 .read = ifpriomap_read,
	 .write = ifpriomap_write,
	 .v2 = V2_EMULATED("cgx sets skb->priority per device for packets without one (an "
			   "egress BPF program). Without cgx, set SO_PRIORITY in the program, or "
			   "classify with tc or an eBPF program matching the cgroup")},
	{.name = "net_prio.prioidx",
	 .mode = 0444,
	 .default_value = "1\n",
	 .read = prioidx_read,
	 .v2 = V2_NONE("the cgroup's id in the net_prio hierarchy; cgroup2 has none")},
};

const struct v1_controller v1_net_prio = {
	.name = "net_prio",
	.files = net_prio_files,
	.nr_files = ARRAY_SIZE(net_prio_files),
	.online = net_prio_online,
	.apply_leaf = netclass_apply_leaf,
};
