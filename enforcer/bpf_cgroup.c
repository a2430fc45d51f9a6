// SPDX-License-Identifier: GPL-2.0-or-later
#include "bpf_cgroup.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int bpf_sys(enum bpf_cmd cmd, union bpf_attr *attr)
{
	long r = syscall(SYS_bpf, cmd, attr, sizeof(*attr));

	return r < 0 ? -errno : (int)r;
}

/* A cgroup2 file handle is the kernfs node id, which is the cgroup id. */
int bpf_cgroup_id(int cgroup_fd, uint64_t *id)
{
	union {
		struct file_handle handle;
		char room[sizeof(struct file_handle) + sizeof(uint64_t)];
	} fh = {.handle.handle_bytes = sizeof(uint64_t)};
	int mount_id;

	if (name_to_handle_at(cgroup_fd, "", &fh.handle, &mount_id, AT_EMPTY_PATH) < 0)
		return -errno;
	if (fh.handle.handle_bytes != sizeof(uint64_t))
		return -EIO;
	memcpy(id, fh.handle.f_handle, sizeof(*id));
	return 0;
}

int bpf_cgroup_prog_load(const struct bpf_cgroup_prog *prog, const struct bpf_insn *insns,
			 unsigned int nr_insns)
{
	static const char license[] = "GPL";
	_cleanup_free_ char *log = NULL;
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = prog->type;
	attr.expected_attach_type = prog->attach_type;
	attr.insns = bpf_ptr(insns);
	attr.insn_cnt = nr_insns;
	attr.license = bpf_ptr(license);
	strncpy(attr.prog_name, prog->name, sizeof(attr.prog_name) - 1);
	if ((fd = bpf_sys(BPF_PROG_LOAD, &attr)) >= 0 || (fd != -EINVAL && fd != -EACCES))
		return fd < 0 ? cgx_log_errno(fd, "cannot load the %s program", prog->what) : fd;
	/* The verifier refused it: load again only to say why. */
	if ((log = calloc(1, 65536))) {
		attr.log_buf = bpf_ptr(log);
		attr.log_size = 65536;
		attr.log_level = 1;
		if ((fd = bpf_sys(BPF_PROG_LOAD, &attr)) >= 0)
			return fd;
	}
	return cgx_log_errno(fd, "the verifier refused the %s program of %u instructions: %s",
			     prog->what, nr_insns, log ? log : "");
}

int bpf_prog_info_get(int prog_fd, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = bpf_ptr(info);
	return bpf_sys(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

int bpf_prog_first_map_id(int prog_fd, uint32_t *map_id)
{
	struct bpf_prog_info info;
	uint32_t ids[1] = {0};
	union bpf_attr attr;
	int r;

	memset(&info, 0, sizeof(info));
	info.nr_map_ids = ARRAY_SIZE(ids);
	info.map_ids = bpf_ptr(ids);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = bpf_ptr(&info);
	if ((r = bpf_sys(BPF_OBJ_GET_INFO_BY_FD, &attr)) < 0)
		return r;
	if (!info.nr_map_ids)
		return -ENOENT;
	*map_id = ids[0];
	return 0;
}

void bpf_cgroup_ours_release(struct bpf_cgroup_ours *ours)
{
	for (unsigned int i = 0; i < ours->nr; i++)
		close(ours->fd[i]);
	ours->nr = 0;
}

int bpf_cgroup_query_ours(int cgroup_fd, const struct bpf_cgroup_prog *prog,
			  struct bpf_cgroup_ours *ours)
{
	uint32_t ids[ARRAY_SIZE(ours->fd)];
	union bpf_attr attr;
	int r;

	ours->nr = 0;
	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = cgroup_fd;
	attr.query.attach_type = prog->attach_type;
	attr.query.prog_ids = bpf_ptr(ids);
	attr.query.prog_cnt = ARRAY_SIZE(ids);
	if ((r = bpf_sys(BPF_PROG_QUERY, &attr)) < 0)
		return r;
	for (unsigned int i = 0; i < attr.query.prog_cnt && i < ARRAY_SIZE(ids); i++) {
		struct bpf_prog_info info;
		union bpf_attr get;
		int fd;

		memset(&get, 0, sizeof(get));
		get.prog_id = ids[i];
		/* Detached and freed since the query: nothing left to do about it. */
		if ((fd = bpf_sys(BPF_PROG_GET_FD_BY_ID, &get)) == -ENOENT)
			continue;
		if (fd < 0 || (r = bpf_prog_info_get(fd, &info)) < 0) {
			if (fd >= 0)
				close(fd);
			bpf_cgroup_ours_release(ours);
			return fd < 0 ? fd : r;
		}
		if (strncmp(info.name, prog->name, sizeof(info.name))) {
			close(fd);
			continue;
		}
		memcpy(ours->tag[ours->nr], info.tag, BPF_TAG_SIZE);
		ours->fd[ours->nr++] = fd;
	}
	return 0;
}

int bpf_cgroup_attach(int cgroup_fd, const struct bpf_cgroup_prog *prog, int prog_fd)
{
	union bpf_attr attr;
	int r;

	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cgroup_fd;
	attr.attach_bpf_fd = prog_fd;
	attr.attach_type = prog->attach_type;
	attr.attach_flags = BPF_F_ALLOW_MULTI;
	if ((r = bpf_sys(BPF_PROG_ATTACH, &attr)) < 0)
		return cgx_log_errno(r, "cannot attach the %s program", prog->what);
	return 0;
}

int bpf_cgroup_detach_ours(int cgroup_fd, const struct bpf_cgroup_prog *prog,
			   const struct bpf_cgroup_ours *ours)
{
	int r = 0;

	for (unsigned int i = 0; i < ours->nr; i++) {
		union bpf_attr attr;
		int d;

		memset(&attr, 0, sizeof(attr));
		attr.target_fd = cgroup_fd;
		attr.attach_bpf_fd = ours->fd[i];
		attr.attach_type = prog->attach_type;
		d = bpf_sys(BPF_PROG_DETACH, &attr);
		/* ENOENT: someone detached it meanwhile, which is what we wanted. */
		if (d < 0 && d != -ENOENT && r == 0)
			r = cgx_log_errno(d, "cannot detach an earlier %s program", prog->what);
	}
	return r;
}

int bpf_cgroup_clear(int cgroup_fd, const struct bpf_cgroup_prog *prog)
{
	_cleanup_(bpf_cgroup_ours_release) struct bpf_cgroup_ours ours = {.nr = 0};
	int r;

	if ((r = bpf_cgroup_query_ours(cgroup_fd, prog, &ours)) < 0)
		return r;
	return bpf_cgroup_detach_ours(cgroup_fd, prog, &ours);
}
