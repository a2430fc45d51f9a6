// SPDX-License-Identifier: GPL-2.0-or-later
#include "netclass.h"

#include "bpf_cgroup.h"
#include "bpf_netclass.h"

#include <net/if.h>
#include <stdlib.h>
#include <string.h>

/* "eth0 5\n..." as net_prio.ifpriomap stores it: an entry per device this namespace has. */
static int add_priomap(const char *map, struct netclass_entry *entries, unsigned int *nr)
{
	for (const char *line = map; *line;) {
		size_t len = strcspn(line, "\n");
		const char *space = memchr(line, ' ', len);
		char name[IF_NAMESIZE + 1];
		unsigned int ifindex;
		unsigned long prio;

		if (space && (size_t)(space - line) < sizeof(name)) {
			memcpy(name, line, (size_t)(space - line));
			name[space - line] = '\0';
			prio = strtoul(space + 1, NULL, 10);
			/* A device gone since the write has no packets to classify. */
			if (prio && (ifindex = if_nametoindex(name))) {
				if (*nr == NETCLASS_MAX_ENTRIES)
					return -E2BIG;
				entries[(*nr)++] = (struct netclass_entry){ifindex, (uint32_t)prio};
			}
		}
		line += len + (line[len] == '\n');
	}
	return 0;
}

static const char *const source_file[NETCLASS_NR_SOURCES] = {
	[NETCLASS_CLS] = "net_cls.classid",
	[NETCLASS_PRIO] = "net_prio.ifpriomap",
};

/* The entries @source's file of @group (of hierarchy @hier) gives; 0 and none where it has none. */
static int group_entries(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
			 enum netclass_source source, struct netclass_entry *entries,
			 unsigned int *nr)
{
	const char *text = cgx_value_named(ctx, group, hier, source_file[source]);
	char *end;
	unsigned long classid;

	if (!text)
		return 0;
	if (source == NETCLASS_PRIO)
		return add_priomap(text, entries, nr);
	classid = strtoul(text, &end, 10);
	/* A classid with a word after it was written without CAP_NET_ADMIN. */
	if (classid && (*end == '\n' || !*end)) {
		if (*nr == NETCLASS_MAX_ENTRIES)
			return -E2BIG;
		entries[(*nr)++] = (struct netclass_entry){NETCLASS_ANY_DEVICE, (uint32_t)classid};
	}
	return 0;
}

static int group_id(struct cgx_ctx *ctx, const struct v2_dir *group, uint64_t *id)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, group);

	return ref.fd < 0 ? ref.fd : bpf_cgroup_id(ref.fd, id);
}

/*
 * What @leaf's program must give, from the net_cls and net_prio groups of
 * its tuple, and which groups those are (netclass_entries_add_source()).
 */
static int leaf_entries(struct cgx_ctx *ctx, const struct v2_dir *leaf,
			struct netclass_entry *entries, unsigned int *nr)
{
	struct v2_dir *from[NETCLASS_NR_SOURCES] = {0};
	int r;

	*nr = 0;
	for (unsigned int h = 0; h < ctx->hiers.nr; h++) {
		struct v2_dir *group = leaf->leaf_tuple->coord[h];

		for (enum netclass_source source = 0; group && source < NETCLASS_NR_SOURCES;
		     source++) {
			if (!cgx_value_named(ctx, group, h, source_file[source]))
				continue;
			from[source] = group;
			if ((r = group_entries(ctx, group, h, source, entries, nr)) < 0)
				return r;
		}
	}
	if (!*nr)
		return 0;
	for (enum netclass_source source = 0; source < NETCLASS_NR_SOURCES; source++) {
		uint64_t id;

		if (from[source] &&
		    ((r = group_id(ctx, from[source], &id)) < 0 ||
		     (r = netclass_entries_add_source(entries, nr, source, id)) < 0))
			return r;
	}
	return 0;
}

static int dir_apply(struct cgx_ctx *ctx, struct v2_dir *dir, const struct netclass_entry *entries,
		     unsigned int nr)
{
	int r;

	/* Nothing to classify, and nothing of ours can be there: no BPF query at all. */
	if (!nr && !dir->may_classify_packets)
		return 0;
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, dir);

	if (ref.fd < 0)
		return ref.fd;
	/* Set before: a program attached and then refused half-way may be there. */
	dir->may_classify_packets = true;
	if ((r = netclass_cgroup_apply(ref.fd, entries, nr)) < 0)
		return cgx_log_errno(r, "cannot set the packet classes of %s", dir->name);
	dir->may_classify_packets = nr > 0;
	return 0;
}

/*
 * A group's directory whose processes moved down to its @tasks when it got
 * a child keeps their older sockets (bpf_netclass.h): they are the same
 * group's, so it follows what @tasks gets, as v1 retags them on a write.
 */
static int leaf_sync(struct cgx_ctx *ctx, struct v2_dir *leaf)
{
	struct netclass_entry entries[NETCLASS_MAX_ENTRIES];
	struct v2_dir *parent = leaf->parent;
	unsigned int nr;
	int r;

	if (!leaf->leaf_tuple)
		return 0;
	if ((r = leaf_entries(ctx, leaf, entries, &nr)) < 0)
		return cgx_log_errno(r, "cannot find the packet classes of leaf %s", leaf->name);
	if ((r = dir_apply(ctx, leaf, entries, nr)) < 0)
		return r;
	if (parent && !parent->leaf_tuple && !strcmp(leaf->name, CGX_TASKS_LEAF))
		return dir_apply(ctx, parent, entries, nr);
	return 0;
}

int netclass_apply_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier)
{
	(void)hier;
	return leaf_sync(ctx, leaf);
}

/* What a write of @source's file of @group gives the directories that follow the group. */
struct follow {
	struct v2_dir *group;
	unsigned int hier;
	enum netclass_source source;
	bool have_id;
	uint64_t id;
	struct netclass_entry entries[NETCLASS_MAX_ENTRIES];
	unsigned int nr;
};

static int follow_dir(struct cgx_ctx *ctx, struct v2_dir *dir, struct follow *f)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, dir);
	int r;

	/* Removed behind our back: reconcile.c sees to it, not this write. */
	if (ref.fd == -ENOENT)
		return 0;
	if (ref.fd < 0)
		return ref.fd;
	/* Asked once, and only where some directory may follow. */
	if (!f->have_id) {
		if ((r = group_entries(ctx, f->group, f->hier, f->source, f->entries, &f->nr)) <
			    0 ||
		    (r = group_id(ctx, f->group, &f->id)) < 0)
			return r;
		f->have_id = true;
	}
	r = netclass_cgroup_follow(ref.fd, f->source, f->id, f->entries, f->nr);
	/* No program (any more): nothing to follow from now on. */
	if (r == -ENOENT)
		dir->may_classify_packets = false;
	else if (r < 0)
		return cgx_log_errno(r, "cannot set the packet classes of %s", dir->name);
	return 0;
}

/* The directories below @dir that are no leaf and may have a program of ours. */
static int follow_below(struct cgx_ctx *ctx, struct v2_dir *dir, struct follow *f)
{
	int r;

	v2_dir_for_each_child (child, dir) {
		if (!child->leaf_tuple && child->may_classify_packets &&
		    (r = follow_dir(ctx, child, f)) < 0)
			return r;
		if ((r = follow_below(ctx, child, f)) < 0)
			return r;
	}
	return 0;
}

/*
 * After a write of @source's file of @group: the leaves of its members, and
 * the directories that were leaves of its members and keep their sockets.
 */
static int group_sync(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		      enum netclass_source source)
{
	_cleanup_free_ struct follow *f = calloc(1, sizeof(*f));
	int r;

	if (!f)
		return -ENOMEM;
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		if (leaf->leaf_tuple->coord[hier] == group && (r = leaf_sync(ctx, leaf)) < 0)
			return r;
	*f = (struct follow){.group = group, .hier = hier, .source = source};
	return follow_below(ctx, ctx->tree.base, f);
}

int netclass_value_set(const struct v1_file_ctx *fc, const char *text)
{
	const char *stored = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	_cleanup_free_ char *old = stored ? strdup(stored) : NULL;
	const char *name = fc->ctx->hiers.hier[fc->hier].files[fc->file]->name;
	enum netclass_source source =
		strcmp(name, source_file[NETCLASS_CLS]) ? NETCLASS_PRIO : NETCLASS_CLS;
	int r;

	if (stored && !old)
		return -ENOMEM;
	if ((r = cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, text)) < 0)
		return r;
	if ((r = group_sync(fc->ctx, fc->dir, fc->hier, source)) >= 0)
		return 0;
	if (old && cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, old) < 0)
		cgx_log(CGX_LOG_ERR, "the old value of %s was not put back", fc->dir->name);
	group_sync(fc->ctx, fc->dir, fc->hier, source);
	return r;
}
