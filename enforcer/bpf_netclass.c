// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The egress program of net_cls and net_prio (bpf_netclass.h), built as raw
 * instructions and kept with its map by bpf(2) alone, as the devices
 * program is.
 */
#include "bpf_netclass.h"

#include "bpf_cgroup.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct bpf_cgroup_prog netclass_prog = {
	.type = BPF_PROG_TYPE_CGROUP_SKB,
	.attach_type = BPF_CGROUP_INET_EGRESS,
	.name = NETCLASS_PROG_NAME,
	.what = "net_cls/net_prio",
};

enum { R0 = 0, R1 = 1, R2 = 2, R6_SKB = 6, R10_FP = 10 };

#define PRIORITY_OFF offsetof(struct __sk_buff, priority)
#define IFINDEX_OFF  offsetof(struct __sk_buff, ifindex)

/* r1 = the map, r2 = the key on the stack, r0 = map_lookup_elem(r1, r2): 5 instructions. */
static unsigned int emit_lookup(struct bpf_insn *prog, int map_fd)
{
	unsigned int n = 0;

	prog[n++] = bpf_insn(BPF_LD | BPF_DW | BPF_IMM, R1, BPF_PSEUDO_MAP_FD, 0, map_fd);
	prog[n++] = bpf_insn(0, 0, 0, 0, 0);
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_X, R2, R10_FP, 0, 0);
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_ADD | BPF_K, R2, 0, 0, -4);
	prog[n++] = bpf_insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	return n;
}

/*
 *	if (skb->priority) return 1;
 *	if (bpf_skb_cgroup_id(skb) != @cgroup_id) return 1;
 *	key = skb->ifindex; value = lookup(&key);
 *	if (!value) { key = 0; value = lookup(&key); if (!value) return 1; }
 *	skb->priority = *value; return 1;
 * It always lets the packet pass: classifying is all it does.
 */
int netclass_prog_build(int map_fd, uint64_t cgroup_id, void **insns, unsigned int *nr_insns)
{
	struct bpf_insn *prog;
	unsigned int n = 0, found_jump, out_jump1, out_jump2, out_jump3, found, out;

	if (!(prog = calloc(32, sizeof(*prog))))
		return -ENOMEM;
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_X, R6_SKB, R1, 0, 0);
	prog[n++] = bpf_insn(BPF_LDX | BPF_MEM | BPF_W, R2, R6_SKB, PRIORITY_OFF, 0);
	out_jump1 = n;
	prog[n++] = bpf_insn(BPF_JMP32 | BPF_JNE | BPF_K, R2, 0, 0, 0);
	prog[n++] = bpf_insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_skb_cgroup_id);
	prog[n++] = bpf_insn(BPF_LD | BPF_DW | BPF_IMM, R1, 0, 0, (int32_t)(uint32_t)cgroup_id);
	prog[n++] = bpf_insn(0, 0, 0, 0, (int32_t)(uint32_t)(cgroup_id >> 32));
	out_jump3 = n;
	prog[n++] = bpf_insn(BPF_JMP | BPF_JNE | BPF_X, R0, R1, 0, 0);
	prog[n++] = bpf_insn(BPF_LDX | BPF_MEM | BPF_W, R2, R6_SKB, IFINDEX_OFF, 0);
	prog[n++] = bpf_insn(BPF_STX | BPF_MEM | BPF_W, R10_FP, R2, -4, 0);
	n += emit_lookup(prog + n, map_fd);
	found_jump = n;
	prog[n++] = bpf_insn(BPF_JMP | BPF_JNE | BPF_K, R0, 0, 0, 0);
	prog[n++] = bpf_insn(BPF_ST | BPF_MEM | BPF_W, R10_FP, 0, -4, NETCLASS_ANY_DEVICE);
	n += emit_lookup(prog + n, map_fd);
	out_jump2 = n;
	prog[n++] = bpf_insn(BPF_JMP | BPF_JEQ | BPF_K, R0, 0, 0, 0);
	found = n;
	prog[n++] = bpf_insn(BPF_LDX | BPF_MEM | BPF_W, R2, R0, 0, 0);
	prog[n++] = bpf_insn(BPF_STX | BPF_MEM | BPF_W, R6_SKB, R2, PRIORITY_OFF, 0);
	out = n;
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_K, R0, 0, 0, 1);
	prog[n++] = bpf_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	/* A jump's offset counts from the instruction after it. */
	prog[out_jump1].off = (int16_t)(out - out_jump1 - 1);
	prog[out_jump3].off = (int16_t)(out - out_jump3 - 1);
	prog[found_jump].off = (int16_t)(found - found_jump - 1);
	prog[out_jump2].off = (int16_t)(out - out_jump2 - 1);
	*insns = prog;
	*nr_insns = n;
	return 0;
}

static int map_create(void)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = sizeof(uint32_t);
	attr.value_size = sizeof(uint32_t);
	attr.max_entries = NETCLASS_MAX_ENTRIES;
	/* Room for the entries there are, not for NETCLASS_MAX_ENTRIES (a map per leaf). */
	attr.map_flags = BPF_F_NO_PREALLOC;
	strncpy(attr.map_name, NETCLASS_PROG_NAME, sizeof(attr.map_name) - 1);
	if ((fd = bpf_sys(BPF_MAP_CREATE, &attr)) < 0)
		return cgx_log_errno(fd, "cannot make the map of the net_cls/net_prio program");
	return fd;
}

static int map_update(int map_fd, uint32_t key, uint32_t value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = bpf_ptr(&key);
	attr.value = bpf_ptr(&value);
	attr.flags = BPF_ANY;
	return bpf_sys(BPF_MAP_UPDATE_ELEM, &attr);
}

static int map_lookup(int map_fd, uint32_t key, uint32_t *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = bpf_ptr(&key);
	attr.value = bpf_ptr(value);
	return bpf_sys(BPF_MAP_LOOKUP_ELEM, &attr);
}

static int map_delete(int map_fd, uint32_t key)
{
	union bpf_attr attr;
	int r;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = bpf_ptr(&key);
	r = bpf_sys(BPF_MAP_DELETE_ELEM, &attr);
	return r == -ENOENT ? 0 : r;
}

/* The keys of @map_fd, at most NETCLASS_MAX_ENTRIES: the map holds no more. */
static int map_keys(int map_fd, uint32_t *keys, unsigned int *nr)
{
	uint32_t key = 0, next = 0; /* next: filled by the kernel */
	union bpf_attr attr;
	bool first = true;
	int r;

	*nr = 0;
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = (uint32_t)map_fd;
		attr.key = first ? 0 : bpf_ptr(&key);
		attr.next_key = bpf_ptr(&next);
		if ((r = bpf_sys(BPF_MAP_GET_NEXT_KEY, &attr)) == -ENOENT)
			return 0;
		if (r < 0)
			return r;
		if (*nr == NETCLASS_MAX_ENTRIES)
			return -E2BIG;
		keys[(*nr)++] = key = next;
		first = false;
	}
}

static bool entries_have(const struct netclass_entry *entries, unsigned int nr, uint32_t ifindex)
{
	for (unsigned int i = 0; i < nr; i++)
		if (entries[i].ifindex == ifindex)
			return true;
	return false;
}

static enum netclass_source source_of(uint32_t key)
{
	return key == NETCLASS_ANY_DEVICE ? NETCLASS_CLS : NETCLASS_PRIO;
}

/*
 * @entries into the map, then the keys of @scope that @entries lacks out
 * of it (NETCLASS_NR_SOURCES: every key, the group keys too): a changed
 * value is replaced in one step, so no packet in between goes without a
 * priority it should have. *@classes: the class keys left, when asked.
 */
static int map_sync(int map_fd, const struct netclass_entry *entries, unsigned int nr,
		    enum netclass_source scope, unsigned int *classes)
{
	uint32_t keys[NETCLASS_MAX_ENTRIES];
	unsigned int nr_keys, left = 0;
	int r;

	for (unsigned int i = 0; i < nr; i++)
		if ((r = map_update(map_fd, entries[i].ifindex, entries[i].priority)) < 0)
			return r;
	if ((r = map_keys(map_fd, keys, &nr_keys)) < 0)
		return r;
	for (unsigned int i = 0; i < nr_keys; i++) {
		bool group_key = keys[i] >= NETCLASS_SOURCE_KEYS;
		bool in_scope =
			scope == NETCLASS_NR_SOURCES || (!group_key && source_of(keys[i]) == scope);

		if (in_scope && !entries_have(entries, nr, keys[i])) {
			if ((r = map_delete(map_fd, keys[i])) < 0)
				return r;
			continue;
		}
		left += !group_key;
	}
	if (classes)
		*classes = left;
	return 0;
}

static int prog_map_fd(int prog_fd)
{
	union bpf_attr attr;
	uint32_t map_id;
	int r;

	if ((r = bpf_prog_first_map_id(prog_fd, &map_id)) < 0)
		return r;
	memset(&attr, 0, sizeof(attr));
	attr.map_id = map_id;
	return bpf_sys(BPF_MAP_GET_FD_BY_ID, &attr);
}

static int prog_attach_new(int cgroup_fd, const struct netclass_entry *entries, unsigned int nr)
{
	_cleanup_close_ int map_fd = -1, prog_fd = -1;
	_cleanup_free_ void *insns = NULL;
	unsigned int nr_insns;
	uint64_t cgroup_id;
	int r;

	if ((r = bpf_cgroup_id(cgroup_fd, &cgroup_id)) < 0)
		return cgx_log_errno(r, "cannot read the id of a cgroup");
	if ((map_fd = map_create()) < 0)
		return map_fd;
	if ((r = map_sync(map_fd, entries, nr, NETCLASS_NR_SOURCES, NULL)) < 0)
		return cgx_log_errno(r, "cannot fill the map of the net_cls/net_prio program");
	if ((r = netclass_prog_build(map_fd, cgroup_id, &insns, &nr_insns)) < 0)
		return r;
	if ((prog_fd = bpf_cgroup_prog_load(&netclass_prog, insns, nr_insns)) < 0)
		return prog_fd;
	return bpf_cgroup_attach(cgroup_fd, &netclass_prog, prog_fd);
}

int netclass_cgroup_apply(int cgroup_fd, const struct netclass_entry *entries, unsigned int nr)
{
	_cleanup_(bpf_cgroup_ours_release) struct bpf_cgroup_ours ours = {.nr = 0};
	_cleanup_close_ int map_fd = -1;
	int r;

	if (!nr)
		return netclass_cgroup_clear(cgroup_fd);
	if (nr > NETCLASS_MAX_ENTRIES)
		return -E2BIG;
	if ((r = bpf_cgroup_query_ours(cgroup_fd, &netclass_prog, &ours)) < 0)
		return cgx_log_errno(r, "cannot list the egress programs of a cgroup");
	if (!ours.nr)
		return prog_attach_new(cgroup_fd, entries, nr);
	/* Ours is there (this daemon's or an earlier one's): its map is all that changes. */
	if ((map_fd = prog_map_fd(ours.fd[0])) < 0)
		return cgx_log_errno(map_fd, "cannot find the map of the net_cls/net_prio program");
	if ((r = map_sync(map_fd, entries, nr, NETCLASS_NR_SOURCES, NULL)) < 0)
		return cgx_log_errno(r, "cannot update the map of the net_cls/net_prio program");
	if (ours.nr > 1) {
		/* Only a daemon killed between an attach and its check leaves two: keep the first.
		 */
		close(ours.fd[0]);
		ours.fd[0] = ours.fd[--ours.nr];
		return bpf_cgroup_detach_ours(cgroup_fd, &netclass_prog, &ours);
	}
	return 0;
}

int netclass_cgroup_clear(int cgroup_fd)
{
	return bpf_cgroup_clear(cgroup_fd, &netclass_prog);
}

int netclass_entries_add_source(struct netclass_entry *entries, unsigned int *nr,
				enum netclass_source source, uint64_t group_id)
{
	if (*nr + 2 > NETCLASS_MAX_ENTRIES)
		return -E2BIG;
	entries[(*nr)++] =
		(struct netclass_entry){NETCLASS_SOURCE_KEYS + 2 * source, (uint32_t)group_id};
	entries[(*nr)++] = (struct netclass_entry){NETCLASS_SOURCE_KEYS + 2 * source + 1,
						   (uint32_t)(group_id >> 32)};
	return 0;
}

static bool map_from_group(int map_fd, enum netclass_source source, uint64_t group_id)
{
	uint32_t low, high;

	return map_lookup(map_fd, NETCLASS_SOURCE_KEYS + 2 * source, &low) == 0 &&
	       map_lookup(map_fd, NETCLASS_SOURCE_KEYS + 2 * source + 1, &high) == 0 &&
	       ((uint64_t)high << 32 | low) == group_id;
}

int netclass_cgroup_follow(int cgroup_fd, enum netclass_source source, uint64_t group_id,
			   const struct netclass_entry *entries, unsigned int nr)
{
	_cleanup_(bpf_cgroup_ours_release) struct bpf_cgroup_ours ours = {.nr = 0};
	_cleanup_close_ int map_fd = -1;
	unsigned int classes;
	int r;

	if ((r = bpf_cgroup_query_ours(cgroup_fd, &netclass_prog, &ours)) < 0)
		return r;
	if (!ours.nr)
		return -ENOENT;
	if ((map_fd = prog_map_fd(ours.fd[0])) < 0)
		return map_fd;
	if (!map_from_group(map_fd, source, group_id))
		return 0;
	if ((r = map_sync(map_fd, entries, nr, source, &classes)) < 0)
		return r;
	if (!classes && (r = netclass_cgroup_clear(cgroup_fd)) < 0)
		return r;
	return 1;
}
