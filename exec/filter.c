// SPDX-License-Identifier: GPL-2.0-or-later
#include "filter.h"

#include "util.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define FILTER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FILTER_ARCH AUDIT_ARCH_AARCH64
#else
#error "cgx-exec: add this architecture's AUDIT_ARCH"
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cgx-exec: ARG_HI assumes a little-endian machine"
#endif

#define X32_SYSCALL_BIT 0x40000000

#define ARG_LO(n) (offsetof(struct seccomp_data, args[n]))
/* The upper half of argument n follows its lower half on both (little-endian). */
#define ARG_HI(n) (offsetof(struct seccomp_data, args[n]) + 4)

#define LOAD(off)     BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define JEQ(k, t, f)  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define JGE(k, t, f)  BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (k), (t), (f))
#define JSET(k, t, f) BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (t), (f))
#define RET(v)	      BPF_STMT(BPF_RET | BPF_K, (v))

/*
 * Only read-only opens of files can be a /proc file cgx-exec answers: a
 * write, O_PATH or O_DIRECTORY open runs without a round trip through the
 * supervisor.
 */
#define OPEN_SKIP (O_ACCMODE | O_PATH | O_DIRECTORY)

/* aarch64 has no open(2): a number no call has stands in for it. */
#ifdef __NR_open
#define NR_OPEN __NR_open
#else
#define NR_OPEN 0x3fffffff
#endif

/* Jump offsets count the instructions skipped; the comments give each index. */
static struct sock_filter program[] = {
	/* 0 */ LOAD(offsetof(struct seccomp_data, arch)),
	/* 1 */ JEQ(FILTER_ARCH, 1, 0),
	/* 2 */ RET(SECCOMP_RET_ALLOW),
	/* 3 */ LOAD(offsetof(struct seccomp_data, nr)),
	/* 4 */ JGE(X32_SYSCALL_BIT, 0, 1),
	/* 5 */ RET(SECCOMP_RET_ALLOW),
	/* 6 */ JEQ(__NR_openat, 0, 3),
	/* 7 */ LOAD(ARG_LO(2)),
	/* 8 */ JSET(OPEN_SKIP, 0, 8),
	/* 9 */ RET(SECCOMP_RET_ALLOW),
	/* 10 */ JEQ(NR_OPEN, 0, 3),
	/* 11 */ LOAD(ARG_LO(1)),
	/* 12 */ JSET(OPEN_SKIP, 0, 4),
	/* 13 */ RET(SECCOMP_RET_ALLOW),
	/* 14 */ JEQ(__NR_openat2, 2, 0),
	/* 15 */ JEQ(__NR_statfs, 1, 0),
	/* 16 */ JEQ(__NR_fstatfs, 0, 1),
	/* 17 */ RET(SECCOMP_RET_USER_NOTIF),
	/* 18 */ JEQ(__NR_mount, 1, 0),
	/* 19 */ JEQ(__NR_fsopen, 0, 1),
	/* 20 */ RET(SECCOMP_RET_USER_NOTIF),
	/* A mount table cgx-exec answered, added to an epoll set: handle_epoll.c. */
	/* 21 */ JEQ(__NR_epoll_ctl, 0, 3),
	/* 22 */ LOAD(ARG_LO(1)),
	/* 23 */ JEQ(EPOLL_CTL_ADD, 0, 8),
	/* 24 */ RET(SECCOMP_RET_USER_NOTIF),
	/* A rewind, lseek(fd, 0, SEEK_SET), of a file it answered: handle_rewind.c. */
	/* 25 */ JEQ(__NR_lseek, 0, 6),
	/* 26 */ LOAD(ARG_LO(1)),
	/* 27 */ JEQ(0, 0, 4),
	/* 28 */ LOAD(ARG_HI(1)),
	/* 29 */ JEQ(0, 0, 2),
	/* 30 */ LOAD(ARG_LO(2)),
	/* 31 */ JEQ(SEEK_SET, 1, 0),
	/* 32 */ RET(SECCOMP_RET_ALLOW),
	/* 33 */ RET(SECCOMP_RET_USER_NOTIF),
};

int filter_install(void)
{
	struct sock_fprog prog = {.len = ARRAY_SIZE(program), .filter = program};
	int fd;

	fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
		     &prog);
	/*
	 * Without CAP_SYS_ADMIN the kernel asks for no_new_privs. With it the
	 * filter goes in without, so that sudo, su and other set-user-ID
	 * programs inside still work.
	 */
	if (fd < 0 && errno == EACCES) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			return cgx_log_errno(-errno, "cannot set no_new_privs");
		fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			     SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	}
	if (fd < 0)
		return cgx_log_errno(-errno, "cannot install the seccomp filter");
	return fd;
}
