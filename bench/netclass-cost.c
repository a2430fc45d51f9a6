// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netclass-cost (issue 20): what the net_cls/net_prio egress program costs
 * per packet. BPF_PROG_TEST_RUN runs a program on one made-up packet many
 * times in the kernel and reports the mean time of a run; cgx's program
 * (bpf_netclass.c, on its longest path: no ifpriomap entry for the device,
 * then the classid) is measured against the least a cgroup_skb program
 * can be ("return 1"), and the difference is the cost of classifying.
 * The test run reuses one packet: once the program has set its priority,
 * later runs would take the early exit of a packet that has one
 * (SO_PRIORITY). So a second copy of the program writes the class to
 * skb->mark instead (the same store, a field the program never reads), and
 * every run takes the full path; both paths are reported. The test
 * run's packet has a socket made for it in the caller's cgroup: the
 * programs are built for that cgroup, as a leaf's for its own.
 * Needs root (bpf(2)); changes nothing outside its own programs and map.
 */
#include "bpf_cgroup.h"
#include "bpf_netclass.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPEAT 1000000
#define ROUNDS 7

static const struct bpf_cgroup_prog skb_prog = {
	.type = BPF_PROG_TYPE_CGROUP_SKB,
	.attach_type = BPF_CGROUP_INET_EGRESS,
	.name = "cgx_bench",
	.what = "benchmark",
};

/* Mean ns of one run of @prog_fd on a 64-byte IPv4 packet through lo (ifindex 1). */
static int run_ns(int prog_fd, unsigned int *ns, struct __sk_buff *out)
{
	unsigned char packet[64] = {0};
	struct __sk_buff ctx_in = {.ifindex = 1};
	union bpf_attr attr;
	int r;

	packet[12] = 0x08; /* ETH_P_IP */
	packet[14] = 0x45;
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)prog_fd;
	attr.test.data_in = bpf_ptr(packet);
	attr.test.data_size_in = sizeof(packet);
	attr.test.ctx_in = bpf_ptr(&ctx_in);
	attr.test.ctx_size_in = sizeof(ctx_in);
	attr.test.ctx_out = bpf_ptr(out);
	attr.test.ctx_size_out = sizeof(*out);
	attr.test.repeat = REPEAT;
	if ((r = bpf_sys(BPF_PROG_TEST_RUN, &attr)) < 0)
		return r;
	*ns = attr.test.duration;
	return 0;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* The id of this process's cgroup2 cgroup, which the test run's socket is made in. */
static int own_cgroup_id(uint64_t *id)
{
	char line[4096], mount[4096] = "", path[8192] = "";
	FILE *f;
	int fd, r;

	if ((f = fopen("/proc/self/mounts", "re"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%*s %4095s cgroup2", mount) == 1 &&
			    strstr(line, " cgroup2 "))
				break;
			else
				mount[0] = '\0';
		fclose(f);
	}
	if ((f = fopen("/proc/self/cgroup", "re"))) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "0::", 3)) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(path, sizeof(path), "%s%s", mount, line + 3);
			}
		fclose(f);
	}
	if (!mount[0] || !path[0])
		return -ENOENT;
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	r = bpf_cgroup_id(fd, id);
	close(fd);
	return r;
}

/* The copy of cgx's program that stores the class in skb->mark. */
static int retarget_to_mark(struct bpf_insn *insns, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		if (insns[i].code == (BPF_STX | BPF_MEM | BPF_W) &&
		    insns[i].off == offsetof(struct __sk_buff, priority)) {
			insns[i].off = offsetof(struct __sk_buff, mark);
			return 0;
		}
	return -ENOENT;
}

int main(void)
{
	static const struct bpf_insn pass[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 1},
		{.code = BPF_JMP | BPF_EXIT},
	};
	unsigned int floor_ns[ROUNDS], early_ns[ROUNDS], full_ns[ROUNDS];
	struct __sk_buff early_out, full_out, floor_out;
	union bpf_attr attr;
	void *insns = NULL;
	unsigned int nr_insns;
	int floor_fd, early_fd, full_fd, map_fd, r;
	uint32_t key = 0, classid = 0x100001;
	uint64_t cgroup_id;

	if ((r = own_cgroup_id(&cgroup_id)) < 0) {
		fprintf(stderr, "netclass-cost: cannot find this process's cgroup2 cgroup: %s\n",
			strerror(-r));
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = attr.value_size = sizeof(uint32_t);
	attr.max_entries = NETCLASS_MAX_ENTRIES;
	if ((map_fd = bpf_sys(BPF_MAP_CREATE, &attr)) < 0) {
		fprintf(stderr, "netclass-cost: cannot make a map: %s\n", strerror(-map_fd));
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = bpf_ptr(&key);
	attr.value = bpf_ptr(&classid);
	if ((r = bpf_sys(BPF_MAP_UPDATE_ELEM, &attr)) < 0 ||
	    (r = netclass_prog_build(map_fd, cgroup_id, &insns, &nr_insns)) < 0) {
		fprintf(stderr, "netclass-cost: %s\n", strerror(-r));
		return 1;
	}
	floor_fd = bpf_cgroup_prog_load(&skb_prog, pass, 2);
	early_fd = bpf_cgroup_prog_load(&skb_prog, insns, nr_insns);
	full_fd = retarget_to_mark(insns, nr_insns) < 0
			  ? -ENOENT
			  : bpf_cgroup_prog_load(&skb_prog, insns, nr_insns);
	free(insns);
	if (floor_fd < 0 || early_fd < 0 || full_fd < 0) {
		fprintf(stderr, "netclass-cost: cannot load the programs\n");
		return 1;
	}
	/* Interleaved, so that a busy moment weighs on every side alike. */
	for (int i = 0; i < ROUNDS; i++) {
		if ((r = run_ns(floor_fd, &floor_ns[i], &floor_out)) < 0 ||
		    (r = run_ns(early_fd, &early_ns[i], &early_out)) < 0 ||
		    (r = run_ns(full_fd, &full_ns[i], &full_out)) < 0) {
			fprintf(stderr, "netclass-cost: BPF_PROG_TEST_RUN: %s\n", strerror(-r));
			return 1;
		}
	}
	qsort(floor_ns, ROUNDS, sizeof(floor_ns[0]), cmp_uint);
	qsort(early_ns, ROUNDS, sizeof(early_ns[0]), cmp_uint);
	qsort(full_ns, ROUNDS, sizeof(full_ns[0]), cmp_uint);
	printf("cgx_netclass: %u instructions; gave priority 0x%x, the mark copy 0x%x (want "
	       "0x%x)\n",
	       nr_insns, early_out.priority, full_out.mark, classid);
	printf("median ns per run of %d rounds of %d: return 1: %u; a packet with a priority: %u "
	       "(+%d); a packet classified by its classid (two lookups): %u (+%d)\n",
	       ROUNDS, REPEAT, floor_ns[ROUNDS / 2], early_ns[ROUNDS / 2],
	       (int)early_ns[ROUNDS / 2] - (int)floor_ns[ROUNDS / 2], full_ns[ROUNDS / 2],
	       (int)full_ns[ROUNDS / 2] - (int)floor_ns[ROUNDS / 2]);
	close(floor_fd);
	close(early_fd);
	close(full_fd);
	close(map_fd);
	return early_out.priority == classid && full_out.mark == classid ? 0 : 1;
}
