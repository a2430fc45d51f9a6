/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Raw bpf(2) for programs this daemon attaches to cgroup2 directories: load
 * one (with the verifier's reason when it refuses), find the programs of a
 * given name on one directory and attach point, attach beside others
 * (BPF_F_ALLOW_MULTI) and detach. A program's name is how a restarted daemon
 * tells its own programs from systemd's or a container manager's.
 */
#ifndef CGX_BPF_CGROUP_H
#define CGX_BPF_CGROUP_H

#include <linux/bpf.h>
#include <stdint.h>

int bpf_sys(enum bpf_cmd cmd, union bpf_attr *attr);

static inline uint64_t bpf_ptr(const void *ptr)
{
	return (uint64_t)(uintptr_t)ptr;
}

static inline struct bpf_insn bpf_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
				       int32_t imm)
{
	return (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm};
}

/* The id of the cgroup2 directory @cgroup_fd, as bpf_skb_cgroup_id() gives it. */
int bpf_cgroup_id(int cgroup_fd, uint64_t *id);

/* What a program is and what it is called: BPF_OBJ_NAME_LEN - 1 characters at most. */
struct bpf_cgroup_prog {
	enum bpf_prog_type type;
	enum bpf_attach_type attach_type;
	const char *name;
	const char *what; /* for messages: "devices", "net_cls" */
};

/* A program fd, or -errno; a verifier refusal is logged with its reason. */
int bpf_cgroup_prog_load(const struct bpf_cgroup_prog *prog, const struct bpf_insn *insns,
			 unsigned int nr_insns);

int bpf_prog_info_get(int prog_fd, struct bpf_prog_info *info);
/* The id of the first map @prog_fd uses, -ENOENT when it uses none. */
int bpf_prog_first_map_id(int prog_fd, uint32_t *map_id);

/* The programs of one name on one cgroup directory, an fd each to detach them by. */
struct bpf_cgroup_ours {
	int fd[64]; /* BPF_CGROUP_MAX_PROGS */
	uint8_t tag[64][BPF_TAG_SIZE];
	unsigned int nr;
};

void bpf_cgroup_ours_release(struct bpf_cgroup_ours *ours);
/* Those attached to @cgroup_fd itself at @prog's attach point and called @prog's name. */
int bpf_cgroup_query_ours(int cgroup_fd, const struct bpf_cgroup_prog *prog,
			  struct bpf_cgroup_ours *ours);
int bpf_cgroup_attach(int cgroup_fd, const struct bpf_cgroup_prog *prog, int prog_fd);
/* Detaches every one of @ours; one already gone counts as detached. */
int bpf_cgroup_detach_ours(int cgroup_fd, const struct bpf_cgroup_prog *prog,
			   const struct bpf_cgroup_ours *ours);
/* Detaches every program of @prog's name from @cgroup_fd; 0 when there was none. */
int bpf_cgroup_clear(int cgroup_fd, const struct bpf_cgroup_prog *prog);

#endif
