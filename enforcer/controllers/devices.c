// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devices (security/device_cgroup.c) on cgroup2: a device program per leaf.
 *
 * A group's behaviour and exceptions are its devices.list record (the stored
 * form of bpf_devices.h), so a restart and a new child (V1F_INHERIT, as
 * devcgroup_online copies its parent) both find them. cgroup2 checks device
 * access with BPF_PROG_TYPE_CGROUP_DEVICE programs: every leaf gets the
 * program of its own devices group, which v1's rules keep within what every
 * ancestor allows, so ancestors need none of their own.
 */
#include "../bpf_devices.h"
#include "../knob.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#define LIST_FILE "devices.list"

enum { DEVICES_ALLOW = 1, DEVICES_DENY = 2 }; /* DEVCG_ALLOW, DEVCG_DENY as cftype->private */

static int group_list(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier,
		      struct devcg_list *list)
{
	const char *text = cgx_value_named(ctx, group, hier, LIST_FILE);
	int r;

	if (!text)
		return -ENOENT;
	if ((r = devcg_list_parse(text, list)) < 0)
		return cgx_log_errno(-EIO, "the devices record of %s is damaged",
				     group->parent ? group->name : "the root");
	return 0;
}

/* @leaf filters device access as @list says. */
static int leaf_apply(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct devcg_list *list)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = cgx_dir_ref(ctx, leaf);
	int r;

	if (ref.fd < 0)
		return ref.fd;
	/* Set before: a program attached and then refused half-way may be there. */
	leaf->may_filter_devices = true;
	if ((r = devcg_cgroup_apply(ref.fd, list)) < 0)
		return cgx_log_errno(r, "cannot set the device filter of leaf %s", leaf->name);
	leaf->may_filter_devices = !devcg_list_allows_all(list);
	return 0;
}

/*
 * A directory that was a leaf before may keep a stricter filter; a new one,
 * or one cleared since, has none to look for. Best effort: a program that
 * stays is at worst stricter than the groups below allow, and a kernel
 * without cgroup BPF says so on every leaf.
 */
static int leaf_clear(struct cgx_ctx *ctx, struct v2_dir *dir)
{
	_cleanup_dir_ref_ struct cgx_dir_ref ref = {ctx, dir, -1};
	int r;

	if (!dir->may_filter_devices)
		return 0;
	if ((ref.fd = cgx_dir_get(ctx, dir)) < 0)
		return ref.fd;
	if ((r = devcg_cgroup_clear(ref.fd)) < 0)
		cgx_log(CGX_LOG_DEBUG, "devices program of %s not cleared: %s", dir->name,
			strerror(-r));
	else
		dir->may_filter_devices = false;
	return 0;
}

static int devices_apply_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;
	int r = group_list(ctx, leaf->leaf_tuple->coord[hier], hier, &list);

	if (r < 0)
		return r;
	if (!devcg_list_allows_all(&list)) {
		/* A restricted group refuses a leaf it cannot filter rather than leave it open. */
		if ((r = leaf_apply(ctx, leaf, &list)) < 0)
			return r;
	} else if ((r = leaf_clear(ctx, leaf)) < 0) {
		/* Nothing to enforce. */
		cgx_log(CGX_LOG_DEBUG, "no device filter check on leaf %s: %s", leaf->name,
			strerror(-r));
	}
	return 0;
}

/*
 * With BPF_F_ALLOW_MULTI a program left on a directory that is no leaf
 * would filter every leaf below it.
 */
static int devices_reset_leaf(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	(void)hier;
	return leaf_clear(ctx, dir);
}

/* Every leaf whose devices group is @group or below gets its own group's program. */
static int sync_leaves(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;
		struct v2_dir *coord = leaf->leaf_tuple->coord[hier];
		int r;

		if (!tree_is_ancestor(group, coord))
			continue;
		if ((r = group_list(ctx, coord, hier, &list)) < 0 ||
		    (r = leaf_apply(ctx, leaf, &list)) < 0)
			return r;
	}
	return 0;
}

/* A group of the subtree a write changes, with its list before and after. */
struct member {
	struct v2_dir *dir;
	int parent; /* index in the array, -1 for the group written */
	struct devcg_list list;
	char *old_text;
};

struct members {
	struct member *m;
	unsigned int nr, cap;
};

static void members_release(struct members *members)
{
	for (unsigned int i = 0; i < members->nr; i++) {
		devcg_list_release(&members->m[i].list);
		free(members->m[i].old_text);
	}
	free(members->m);
}

/* @group and its descendants in @hier, in pre-order as css_for_each_descendant_pre walks them. */
static int collect(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier, int parent,
		   struct members *members)
{
	const char *text = cgx_value_named(ctx, group, hier, LIST_FILE);
	struct member *m;
	int self, r;

	if (!text)
		return -ENOENT;
	if (members->nr == members->cap) {
		unsigned int cap = members->cap ? 2 * members->cap : 8;
		struct member *grown = realloc(members->m, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		members->m = grown;
		members->cap = cap;
	}
	self = (int)members->nr;
	m = &members->m[members->nr++];
	*m = (struct member){.dir = group, .parent = parent, .list = DEVCG_LIST_INIT};
	if (!(m->old_text = strdup(text)))
		return -ENOMEM;
	if ((r = group_list(ctx, group, hier, &m->list)) < 0)
		return r;
	for (struct v2_dir *child = cgx_group_next_child(group, hier, NULL); child;
	     child = cgx_group_next_child(group, hier, child))
		if ((r = collect(ctx, child, hier, self, members)) < 0)
			return r;
	return 0;
}

/* Puts back the records of members [0, @upto), as they were before the write. */
static void restore_records(struct cgx_ctx *ctx, unsigned int hier, struct members *members,
			    unsigned int upto)
{
	for (unsigned int i = 0; i < upto; i++)
		if (cgx_value_set_named(ctx, members->m[i].dir, hier, LIST_FILE,
					members->m[i].old_text) < 0)
			cgx_log(CGX_LOG_ERR, "devices record of %s not restored",
				members->m[i].dir->name);
}

static int update(const struct v1_file_ctx *fc, bool allow_file, const struct devcg_rule *rule)
{
	_cleanup_(members_release) struct members members = {0};
	_cleanup_devcg_list_ struct devcg_list parent = DEVCG_LIST_INIT;
	struct cgx_ctx *ctx = fc->ctx;
	struct v2_dir *dir = fc->dir;
	bool is_root = !dir->parent, propagate;
	unsigned int stored = 0;
	int r;

	if ((r = collect(ctx, dir, fc->hier, -1, &members)) < 0)
		return r;
	if (!is_root &&
	    (r = group_list(ctx, fold_group_of(dir->parent, fc->hier), fc->hier, &parent)) < 0)
		return r;
	if ((r = devcg_update(&members.m[0].list, is_root ? NULL : &parent,
			      cgx_group_nr_children(dir, fc->hier) > 0, allow_file, rule,
			      &propagate)) < 0)
		return r;
	for (unsigned int i = 1; propagate && i < members.nr; i++) {
		struct member *m = &members.m[i];

		if ((r = devcg_propagate(&m->list, &members.m[m->parent].list,
					 members.m[0].list.allow, &rule->ex)) < 0)
			return r;
	}
	/* Records first, then the leaves; any failure puts both back as they were. */
	for (; stored < members.nr; stored++) {
		_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
		struct member *m = &members.m[stored];

		if ((r = devcg_list_format(&m->list, &text)) < 0)
			break;
		if (strcmp(text.buf, m->old_text) &&
		    (r = cgx_value_set_named(ctx, m->dir, fc->hier, LIST_FILE, text.buf)) < 0)
			break;
	}
	if (r >= 0 && (r = sync_leaves(ctx, dir, fc->hier)) >= 0) {
		if (is_root)
			cgx_log(CGX_LOG_WARNING,
				"devices rules of the root group apply only to the processes cgxfs "
				"placed under %s/%s; the rest of the system keeps its own",
				ctx->cgroup2_path, ctx->base_relpath);
		return 0;
	}
	restore_records(ctx, fc->hier, &members, stored);
	sync_leaves(ctx, dir, fc->hier);
	return r;
}

static int access_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	const struct v1_file *row = fc->ctx->hiers.hier[fc->hier].files[fc->file];
	struct devcg_rule rule;
	int r;

	(void)len;
	/* The kernel asks for the capability before it reads a byte. */
	if ((r = proc_is_init_ns_admin(fc->caller->tid)) < 0)
		return r;
	if ((r = devcg_rule_parse(buf, &rule)) < 0)
		return r;
	return update(fc, row->private == DEVICES_ALLOW, &rule);
}

static int list_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;
	int r = group_list(fc->ctx, fc->dir, fc->hier, &list);

	return r < 0 ? r : devcg_list_show(&list, out);
}

static const struct v1_file devices_files[] = {
	{.name = "devices.allow",
	 .mode = 0200,
	 .write = access_write,
	 .private = DEVICES_ALLOW,
	 .v2 = V2_EMULATED("BPF_PROG_TYPE_CGROUP_DEVICE program on the leaves (systemd: "
			   "DeviceAllow=, DevicePolicy=)")},
	{.name = "devices.deny",
	 .mode = 0200,
	 .write = access_write,
	 .private = DEVICES_DENY,
	 .v2 = V2_EMULATED("BPF_PROG_TYPE_CGROUP_DEVICE program on the leaves (systemd: "
			   "DeviceAllow=, DevicePolicy=)")},
	{.name = "devices.list",
	 .mode = 0444,
	 .flags = V1F_INHERIT,
	 .default_value = DEVCG_STORED_ALLOW_ALL,
	 .read = list_read,
	 .v2 = V2_EMULATED("cgx keeps the list it compiled into the leaves' "
			   "BPF_PROG_TYPE_CGROUP_DEVICE programs; cgroup2 cannot read a program "
			   "back as rules (bpftool cgroup show lists them)")},
};

const struct v1_controller v1_devices = {
	.name = "devices",
	.files = devices_files,
	.nr_files = ARRAY_SIZE(devices_files),
	.apply_leaf = devices_apply_leaf,
	.reset_leaf = devices_reset_leaf,
};
