/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What cgroup2 itself takes in the files cgx writes, checked the way the
 * kernel's write handlers parse them (kernel/sched/core.c cpu_max_write,
 * mm/memcontrol.c page_counter_memparse, block/blk-throttle.c tg_set_limit,
 * kernel/cgroup/{pids,rdma,misc}.c, kernel/cgroup/cpuset.c). The fuzzers ask
 * it of every value cgx hands to a v2 file.
 */
#ifndef CGX_TEST_V2_SYNTAX_H
#define CGX_TEST_V2_SYNTAX_H

#include <stddef.h>

/* NULL when cgroup2 takes @text (@len bytes) in @file, else why it would not. */
const char *v2_syntax_check(const char *file, const char *text, size_t len);

#endif
