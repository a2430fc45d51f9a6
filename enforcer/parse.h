/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Number parsing with the kernel's exact rules (lib/kstrtox.c), so that a
 * write through cgxfs is accepted or refused byte for byte as v1 did.
 */
#ifndef CGX_PARSE_H
#define CGX_PARSE_H

#include <stdint.h>

/*
 * kstrtoull(): optional '+', base 0 picks 0x (hex) / 0 (octal) / decimal,
 * at least one digit, one optional trailing '\n', nothing else.
 * -EINVAL for bad syntax, -ERANGE on overflow.
 */
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/*
 * A pid as tasks and cgroup.procs take it (cgroup_procs_write_start):
 * kstrtoint(strstrip(buf), 0) and not negative; any failure is -EINVAL.
 */
int kstrtoint_strict_pid(char *buf, int *pid);

/*
 * memparse(): simple_strtoull with base 0 (no sign, no error: it stops at
 * the first non-digit and wraps on overflow), then an optional K/M/G/T/P/E
 * suffix, either case. *@end points past what was taken.
 */
unsigned long long memparse(const char *s, const char **end);

/*
 * One unsigned decimal as the kernel's vsscanf() converts %u or %llu:
 * white space skipped, then digits only, wrapping as simple_strntoull().
 * No sign: glibc's sscanf() turns "-1" into ULLONG_MAX, the kernel refuses
 * it (blkcg's "MAJ:MIN VALUE" files). *@s moves past the number; -EINVAL
 * when no digit follows.
 */
int kscan_ull(const char **s, unsigned long long *res);

/* strstrip(): drops leading and trailing white space in place. */
char *strstrip(char *s);

#endif
