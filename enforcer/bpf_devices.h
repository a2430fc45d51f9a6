/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The v1 devices controller (security/device_cgroup.c) as data: a group's
 * default behaviour and exception list, the kernel's rule parser and list
 * logic as pure functions, and the BPF_PROG_TYPE_CGROUP_DEVICE program that
 * makes cgroup2 check device access the way the v1 group would.
 */
#ifndef CGX_BPF_DEVICES_H
#define CGX_BPF_DEVICES_H

#include "util.h"

#include <stdbool.h>
#include <stdint.h>

/* The kernel's numbering (include/linux/device_cgroup.h), also that of struct bpf_cgroup_dev_ctx.
 */
enum { DEVCG_DEV_BLOCK = 1, DEVCG_DEV_CHAR = 2, DEVCG_DEV_ALL = 4 };
enum { DEVCG_ACC_MKNOD = 1, DEVCG_ACC_READ = 2, DEVCG_ACC_WRITE = 4, DEVCG_ACC_MASK = 7 };
/* "*" for a major or minor: ~0, so that a written 4294967295 is the wildcard too, as in v1. */
#define DEVCG_ANY UINT32_MAX

/* The program's name: a restarted daemon finds its own programs on a cgroup by it. */
#define DEVCG_PROG_NAME "cgx_devices"

struct devcg_exception {
	uint32_t major, minor;
	short type;   /* DEVCG_DEV_BLOCK or DEVCG_DEV_CHAR */
	short access; /* DEVCG_ACC_* bits */
};

/* What a group holds: struct dev_cgroup's behavior and exceptions, in the kernel's order. */
struct devcg_list {
	bool allow; /* DEVCG_DEFAULT_ALLOW, else DEVCG_DEFAULT_DENY */
	struct devcg_exception *ex;
	unsigned int nr;
	unsigned int cap;
};

#define DEVCG_LIST_INIT                                                                            \
	{                                                                                          \
		true, NULL, 0, 0                                                                   \
	}

void devcg_list_release(struct devcg_list *list);
static inline void cleanup_devcg_listp(struct devcg_list *list)
{
	devcg_list_release(list);
}
#define _cleanup_devcg_list_ __attribute__((cleanup(cleanup_devcg_listp)))

int devcg_list_copy(struct devcg_list *dst, const struct devcg_list *src);
/* Allows every access: no program is needed at all. */
bool devcg_list_allows_all(const struct devcg_list *list);

/*
 * The stored form, which never is empty (an empty xattr would vanish):
 * "default allow\n" or "default deny\n", then one exception a line as
 * devices.list prints it ("c 1:3 rwm"). -EINVAL for anything else.
 */
int devcg_list_parse(const char *text, struct devcg_list *list);
int devcg_list_format(const struct devcg_list *list, struct strbuf *out);
#define DEVCG_STORED_ALLOW_ALL "default allow\n"

/* What devices.list reads (devcgroup_seq_show): "a *:* rwm" when the default is allow. */
int devcg_list_show(const struct devcg_list *list, struct strbuf *out);

/* A write to devices.allow or devices.deny, parsed. */
struct devcg_rule {
	bool all; /* "a...": a new default behaviour, the exceptions cleared */
	struct devcg_exception ex;
};

/*
 * devcgroup_update_access()'s parser, on the buffer as written: stripped
 * first (strstrip), then "a" followed by anything, or
 * "TYPE MAJ:MIN ACC" with TYPE b|c, MAJ/MIN a u32 or "*", one white space
 * each side, and ACC read up to three characters of rwm (a newline or the
 * end stops it; anything after them is ignored). -EINVAL otherwise.
 */
int devcg_rule_parse(const char *buf, struct devcg_rule *rule);

/*
 * The rest of devcgroup_update_access() on @group, whose parent's list is
 * @parent (NULL at the root) and which has child groups when @has_children:
 * -EINVAL ("a" with children), -EPERM (more than the parent allows),
 * -ENOMEM. @allow_file tells devices.allow from devices.deny. Sets
 * *@propagate when descendants must follow (a deny rule, see devcg_propagate).
 */
int devcg_update(struct devcg_list *group, const struct devcg_list *parent, bool has_children,
		 bool allow_file, const struct devcg_rule *rule, bool *propagate);

/*
 * propagate_exception() for one descendant @devcg of the group that took deny
 * rule @ex (default allow when @origin_allow), with @parent the descendant's
 * parent as already updated: called for descendants in pre-order.
 */
int devcg_propagate(struct devcg_list *devcg, const struct devcg_list *parent, bool origin_allow,
		    const struct devcg_exception *ex);

/*
 * devcgroup_legacy_check_permission(): whether @list lets a task open
 * (@access READ/WRITE) or mknod (MKNOD) device @type @major:@minor.
 */
bool devcg_may_access(const struct devcg_list *list, short type, uint32_t major, uint32_t minor,
		      short access);

/*
 * The program for @list, as struct bpf_insn (8 bytes each): returns 1 to
 * allow and 0 to refuse exactly where devcg_may_access does. The caller frees
 * *@insns.
 */
int devcg_prog_build(const struct devcg_list *list, void **insns, unsigned int *nr_insns);

/*
 * Makes @list the device filter of the cgroup2 directory @cgroup_fd: a new
 * program is attached (BPF_F_ALLOW_MULTI) before this daemon's earlier ones
 * (found by name) are detached, so the cgroup is never without a filter. An
 * allow-all list detaches ours and attaches nothing. -errno from bpf(2).
 */
int devcg_cgroup_apply(int cgroup_fd, const struct devcg_list *list);
/* Detaches every program of ours from @cgroup_fd; 0 when there was none. */
int devcg_cgroup_clear(int cgroup_fd);

#endif
