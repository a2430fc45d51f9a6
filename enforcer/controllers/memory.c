// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memory (mm/memcontrol-v1.c, mem_cgroup_legacy_files) on cgroup2:
 *   limit_in_bytes       -> memory.max
 *   memsw.limit_in_bytes -> memory.swap.max = memsw - limit (v1 refuses memsw < limit)
 *   soft_limit_in_bytes  -> memory.low (as runc and crun; libcgroup uses memory.high)
 *   usage, max_usage, failcnt, oom_control, stat <- memory.current, .peak, .events, .stat
 *   force_empty          -> memory.reclaim
 * swappiness, move_charge_at_immigrate, oom_kill_disable and the kmem
 * limits have no v2 equivalent: they keep their v1 read/write behaviour,
 * and do nothing.
 */
#include "../memevent.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE_SIZE_BYTES	 4096ULL
#define PAGE_COUNTER_MAX (0x7fffffffffffffffULL / PAGE_SIZE_BYTES)

static bool is_root(const struct v1_file_ctx *fc)
{
	return fc->dir == fc->ctx->tree.base;
}

/* page_counter_memparse(buf, "-1"): -EINVAL unless the whole buffer was taken. */
static int parse_pages(char *buf, unsigned long long *pages)
{
	const char *text = strstrip(buf), *end;
	unsigned long long bytes;

	if (!strcmp(text, "-1")) {
		*pages = PAGE_COUNTER_MAX;
		return 0;
	}
	bytes = memparse(text, &end);
	if (*end)
		return -EINVAL;
	*pages = bytes / PAGE_SIZE_BYTES < PAGE_COUNTER_MAX ? bytes / PAGE_SIZE_BYTES
							    : PAGE_COUNTER_MAX;
	return 0;
}

static unsigned long long stored_pages(const struct v1_file_ctx *fc, const char *name)
{
	const char *text = cgx_value_named(fc->ctx, fc->dir, fc->hier, name);

	return text ? strtoull(text, NULL, 10) / PAGE_SIZE_BYTES : PAGE_COUNTER_MAX;
}

static void pages_text(unsigned long long pages, char *v1, size_t v1_size, char *v2, size_t v2_size)
{
	snprintf(v1, v1_size, "%llu\n", pages * PAGE_SIZE_BYTES);
	if (pages == PAGE_COUNTER_MAX)
		snprintf(v2, v2_size, "max");
	else
		snprintf(v2, v2_size, "%llu", pages * PAGE_SIZE_BYTES);
}

/* v2 file @file of @dir; the v1 root reads the cgroup2 root's, the whole system's. */
static int dir_v2_read(struct cgx_ctx *ctx, struct v2_dir *dir, const char *file,
		       struct strbuf *out)
{
	if (dir == ctx->tree.base)
		return read_file_at(ctx->cgroup2_fd, file, out);
	return knob_read(ctx, dir, "memory", file, out);
}

static int v2_read(const struct v1_file_ctx *fc, const char *file, struct strbuf *out)
{
	return dir_v2_read(fc->ctx, fc->dir, file, out);
}

static unsigned long long v2_number(const struct v1_file_ctx *fc, const char *file)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	return v2_read(fc, file, &text) < 0 ? 0 : strtoull(text.buf, NULL, 10);
}

/* memory.swap.max follows memsw - limit; a kernel without swap accounting has no such file. */
static int sync_swap_max(const struct v1_file_ctx *fc, unsigned long long limit,
			 unsigned long long memsw)
{
	_cleanup_close_ int fd = cgx_dir_open(fc->ctx, fc->dir);
	char text[32];
	int r;

	if (fd < 0)
		return fd;
	if (memsw == PAGE_COUNTER_MAX)
		snprintf(text, sizeof(text), "max");
	else
		snprintf(text, sizeof(text), "%llu", (memsw - limit) * PAGE_SIZE_BYTES);
	r = write_file_at(fd, "memory.swap.max", text, strlen(text));
	return r == -ENOENT ? 0 : r;
}

/*
 * v2 file @file as a number for the group: its directory's and its leaves'
 * outside it, where members sit whose groups in other hierarchies keep them
 * out (v1 charges them to the group all the same). The root reads the
 * cgroup2 root's, which holds every leaf.
 */
static unsigned long long group_number(const struct v1_file_ctx *fc, const char *file)
{
	if (is_root(fc))
		return v2_number(fc, file);
	return group_stat(fc->ctx, fc->dir, fc->hier, "memory", file, NULL, STAT_HIERARCHICAL);
}

/* memory.current, with memory.swap.current for the memsw counters. */
static unsigned long long usage_bytes(const struct v1_file_ctx *fc, bool memsw)
{
	unsigned long long usage = group_number(fc, "memory.current");

	return memsw ? usage + group_number(fc, "memory.swap.current") : usage;
}

/*
 * Asks each of @dirs to give back @bytes, stopping at the first error but
 * EAGAIN (less than asked for went) and, with @past_einval, EINVAL.
 * -ENOENT: the kernel has no memory.reclaim (before 5.19). A directory
 * removed since it was opened (the lock was given up) is passed over: the
 * caller counts the usage again under the lock.
 */
static int reclaim_in(const struct group_dirs *dirs, unsigned long long bytes, bool past_einval)
{
	char text[32];
	int r = 0;

	snprintf(text, sizeof(text), "%llu", bytes);
	for (size_t i = 0; i < dirs->nr && (r == 0 || (past_einval && r == -EINVAL)); i++) {
		r = write_file_at(dirs->fd[i], "memory.reclaim", text, strlen(text));
		if (r == -EAGAIN || (r == -ENOENT && faccessat(dirs->fd[i], "memory.current", F_OK,
							       AT_SYMLINK_NOFOLLOW) < 0))
			r = 0;
	}
	return r;
}

/*
 * Reclaim takes as long as the kernel needs to write back and free what it
 * is asked for, seconds for a large group: it runs without the model lock
 * (cgx_kernel_begin()), on the group's directories opened before. @step is
 * called with the lock given up; then @fc->dir is found again, or the
 * group is gone (ENODEV).
 */
static int reclaim_unlocked(struct v1_file_ctx *fc,
			    int (*step)(const struct group_dirs *dirs, unsigned long long arg),
			    unsigned long long arg)
{
	_cleanup_group_dirs_ struct group_dirs dirs = {0};
	uint64_t group_id = fc->dir->group[fc->hier]->id;
	bool yielded;
	int r, found;

	if ((r = group_dirs_open(fc->ctx, fc->dir, fc->hier, &dirs)) < 0)
		return r;
	yielded = cgx_kernel_begin(fc->ctx);
	r = step(&dirs, arg);
	cgx_kernel_end(fc->ctx, yielded);
	if (yielded && (found = cgx_group_refind(fc->ctx, group_id, fc->hier, &fc->dir)) < 0)
		return found;
	return r;
}

/*
 * mem_cgroup_resize_max(): v1 takes a limit below the usage only once
 * reclaim has brought the usage under it, and otherwise fails with EBUSY,
 * keeping the old limit and every task. cgroup2's memory.max takes any
 * value and OOM-kills in the group until it fits, so a script lowering a
 * limit would kill what it limits: reclaim first, as v1 does, through
 * memory.reclaim. The usage may still grow between this check and the
 * memory.max write; v2 then reclaims, or kills, as for any charge.
 */
/* 0 once the usage of @dirs is at most @bytes, 1 when the kernel cannot reclaim on demand. */
static int reclaim_below_step(const struct group_dirs *dirs, unsigned long long bytes)
{
	unsigned long long usage;
	int r;

	/* MAX_RECLAIM_RETRIES: how often v1 lets reclaim make progress. */
	for (int tries = 0; tries < 16; tries++) {
		if ((usage = group_dirs_number(dirs, "memory.current")) <= bytes)
			return 0;
		r = reclaim_in(dirs, usage - bytes, false);
		if (r == -ENOENT)
			return 1; /* before 5.19: no way to reclaim first */
		if (r < 0)
			return r;
	}
	return group_dirs_number(dirs, "memory.current") <= bytes ? 0 : -EBUSY;
}

static int reclaim_below(struct v1_file_ctx *fc, unsigned long long bytes)
{
	int r;

	if (!cgx_has_controller(fc->ctx, "memory"))
		return 0; /* knob_set() says why not */
	/*
	 * The directories reclaimed were those of the group when the lock was
	 * given up; a leaf moved or removed meanwhile took its pages elsewhere.
	 * So the usage that decides is counted again, with the lock held.
	 */
	for (int rounds = 0; rounds < 3; rounds++) {
		if ((r = reclaim_unlocked(fc, reclaim_below_step, bytes)) != 0)
			return r < 0 ? r : 0;
		if (usage_bytes(fc, false) <= bytes)
			return 0;
	}
	return -EBUSY;
}

static int limit_write(const struct v1_file_ctx *request, char *buf, size_t len)
{
	struct v1_file_ctx fc = *request;
	unsigned long long pages, memsw;
	char v1[32], v2[32];
	int r;

	(void)len;
	if ((r = parse_pages(buf, &pages)) < 0)
		return r;
	if (is_root(&fc) || pages > stored_pages(&fc, "memory.memsw.limit_in_bytes"))
		return -EINVAL; /* the root has no limit; memsw must stay >= limit */
	if (pages != PAGE_COUNTER_MAX && (r = reclaim_below(&fc, pages * PAGE_SIZE_BYTES)) < 0)
		return r;
	/* Again with the lock taken back: another writer may have lowered memsw meanwhile. */
	if (pages > (memsw = stored_pages(&fc, "memory.memsw.limit_in_bytes")))
		return -EINVAL;
	pages_text(pages, v1, sizeof(v1), v2, sizeof(v2));
	if ((r = knob_set(&fc, "memory", "memory.max", v2, v1)) < 0)
		return r;
	return sync_swap_max(&fc, pages, memsw);
}

static int memsw_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long pages, limit = stored_pages(fc, "memory.limit_in_bytes");
	char v1[32], v2[32];
	int r;

	(void)len;
	if ((r = parse_pages(buf, &pages)) < 0)
		return r;
	if (is_root(fc) || pages < limit)
		return -EINVAL;
	pages_text(pages, v1, sizeof(v1), v2, sizeof(v2));
	if (pages != PAGE_COUNTER_MAX)
		snprintf(v2, sizeof(v2), "%llu", (pages - limit) * PAGE_SIZE_BYTES);
	return knob_set(fc, "memory", "memory.swap.max", v2, v1);
}

/*
 * mem_cgroup_write(): every RES_LIMIT file (limit, memsw, kmem, kmem.tcp)
 * of the root is EINVAL, once the value parsed ("Can't set limit on root").
 */
static int root_refuses_limit(const struct v1_file_ctx *fc, char *buf)
{
	unsigned long long pages;
	int r;

	if (!is_root(fc))
		return 0;
	return (r = parse_pages(buf, &pages)) < 0 ? r : -EINVAL;
}

/* kmem.tcp.limit_in_bytes: parsed and kept, as v1 keeps it; no v2 knob. */
static int stored_limit_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long pages;
	char v1[32], v2[32];
	int r;

	(void)len;
	if ((r = parse_pages(buf, &pages)) < 0)
		return r;
	pages_text(pages, v1, sizeof(v1), v2, sizeof(v2));
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, v1);
}

static int soft_limit_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long pages;
	char v1[32], v2[32];
	int r;

	/* The root's soft limit is kept, but the base's parent owns its memory.low. */
	if (is_root(fc))
		return stored_limit_write(fc, buf, len);
	if ((r = parse_pages(buf, &pages)) < 0)
		return r;
	pages_text(pages, v1, sizeof(v1), v2, sizeof(v2));
	return knob_set(fc, "memory", "memory.low", v2, v1);
}

static int tcp_limit_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	int r;

	if ((r = root_refuses_limit(fc, buf)) < 0)
		return r;
	return stored_limit_write(fc, buf, len);
}

/* kmem.limit_in_bytes: 6.1 parses it and ignores it (the limit is gone). */
static int ignored_limit_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long pages;
	int r;

	(void)len;
	if ((r = root_refuses_limit(fc, buf)) < 0)
		return r;
	return parse_pages(buf, &pages);
}

static int swappiness_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	char text[32];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	if (value > 200)
		return -EINVAL;
	snprintf(text, sizeof(text), "%llu\n", value);
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, text);
}

static int move_charge_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	char text[32];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	if (value & ~3ULL)
		return -EINVAL;
	snprintf(text, sizeof(text), "%llu\n", value);
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, text);
}

static int use_hierarchy_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	int r;

	(void)fc, (void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	return value == 1 ? 0 : -EINVAL; /* hierarchy is always on */
}

static int usage_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", usage_bytes(fc, false));
}

static int memsw_usage_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", usage_bytes(fc, true));
}

/*
 * mem_cgroup_reset(): any write sets max_usage to the usage. The
 * memory.peak of 6.1 never goes down (a reset per open file came in
 * 6.12), so a write keeps "PEAK USAGE" as they were then: a peak above
 * PEAK was reached since, and is the answer; otherwise the higher of
 * USAGE and the usage now stands in for it. A rise and fall since the
 * reset that stays below the old peak goes unseen.
 */
static unsigned long long max_usage(const struct v1_file_ctx *fc, bool memsw)
{
	const char *reset = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	unsigned long long peak = group_number(fc, "memory.peak"), then_peak, then_usage, now;

	if (!reset || sscanf(reset, "%llu %llu", &then_peak, &then_usage) != 2 || peak > then_peak)
		return peak;
	now = usage_bytes(fc, memsw);
	return now > then_usage ? now : then_usage;
}

static int max_usage_reset(const struct v1_file_ctx *fc, bool memsw)
{
	char text[64];

	snprintf(text, sizeof(text), "%llu %llu", group_number(fc, "memory.peak"),
		 usage_bytes(fc, memsw));
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, text);
}

static int max_usage_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", max_usage(fc, false));
}

static int max_usage_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)buf, (void)len;
	return max_usage_reset(fc, false);
}

static int memsw_max_usage_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", max_usage(fc, true));
}

static int memsw_max_usage_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)buf, (void)len;
	return max_usage_reset(fc, true);
}

/*
 * mem_cgroup_reset(): any write to a failcnt zeroes it. v2's event counts
 * cannot be reset, so the count at the write is kept as a baseline that
 * every read subtracts.
 */
static unsigned long long events_since_reset(const struct v1_file_ctx *fc, unsigned long long count)
{
	const char *baseline = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	unsigned long long base = baseline ? strtoull(baseline, NULL, 10) : 0;

	return count > base ? count - base : 0;
}

static int reset_events(const struct v1_file_ctx *fc, unsigned long long count)
{
	char baseline[32];

	snprintf(baseline, sizeof(baseline), "%llu", count);
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, baseline);
}

/*
 * v1 counts a failed charge on the group whose limit refused it, not on its
 * ancestors: the local "max" events of the directory the limit is on, and
 * of the leaves outside it that it is split over.
 */
static unsigned long long failures(const struct v1_file_ctx *fc)
{
	return group_stat(fc->ctx, fc->dir, fc->hier, "memory", "memory.events.local", "max",
			  STAT_OWN_LIMIT);
}

static int failcnt_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", events_since_reset(fc, failures(fc)));
}

static int failcnt_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)buf, (void)len;
	return reset_events(fc, failures(fc));
}

/*
 * The same for swap: memory.swap.events "fail", of the group's directories.
 * cgroup2 counts it up the tree and also when no swap slot is free, where
 * v1 counts the failures of the group's own memsw limit.
 */
static unsigned long long swap_failures(const struct v1_file_ctx *fc)
{
	return group_stat(fc->ctx, fc->dir, fc->hier, "memory", "memory.swap.events", "fail",
			  STAT_HIERARCHICAL);
}

static int memsw_failcnt_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return strbuf_addf(out, "%llu\n", events_since_reset(fc, swap_failures(fc)));
}

static int memsw_failcnt_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)buf, (void)len;
	return reset_events(fc, swap_failures(fc));
}

static int oom_control_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	if (is_root(fc) || value > 1)
		return -EINVAL;
	if (value)
		cgx_log(CGX_LOG_WARNING, "memory.oom_control oom_kill_disable has no cgroup2 "
					 "equivalent: kept, not enforced");
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, value ? "1\n" : "0\n");
}

/*
 * v1's oom_kill counts the kills of the group's own tasks (the victim's
 * memcg), not those of its descendants: the local counts of every leaf that
 * holds them (its tasks leaf when it has children, leaves outside it).
 */
static int oom_control_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const char *disabled = cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file);
	unsigned long long kills = group_stat(fc->ctx, fc->dir, fc->hier, "memory",
					      "memory.events.local", "oom_kill", STAT_OWN_TASKS);

	return strbuf_addf(out, "oom_kill_disable %d\nunder_oom 0\noom_kill %llu\n",
			   disabled && disabled[0] == '1', kills);
}

static int force_empty_step(const struct group_dirs *dirs, unsigned long long usage)
{
	int r = reclaim_in(dirs, usage, true);

	return r == -EINVAL ? 0 : r;
}

static int force_empty_write(const struct v1_file_ctx *request, char *buf, size_t len)
{
	struct v1_file_ctx fc = *request;

	(void)buf, (void)len;
	if (is_root(&fc))
		return -EINVAL;
	if (!cgx_has_controller(fc.ctx, "memory"))
		return 0;
	/* Reclaim all it can, where its members sit; what cannot go is not an error, as in v1. */
	return reclaim_unlocked(&fc, force_empty_step, usage_bytes(&fc, false));
}

/* v1 memory.stat keys from their v2 names; v1 lists local then total_ values. */
static const struct {
	const char *v1, *v2;
} stat_keys[] = {
	{"cache", "file"},
	{"rss", "anon"},
	{"rss_huge", "anon_thp"},
	{"shmem", "shmem"},
	{"mapped_file", "file_mapped"},
	{"dirty", "file_dirty"},
	{"writeback", "file_writeback"},
	{"workingset_refault_anon", "workingset_refault_anon"},
	{"workingset_refault_file", "workingset_refault_file"},
	{"swap", NULL},
	{"pgpgin", NULL},
	{"pgpgout", NULL},
	{"pgfault", "pgfault"},
	{"pgmajfault", "pgmajfault"},
	{"inactive_anon", "inactive_anon"},
	{"active_anon", "active_anon"},
	{"inactive_file", "inactive_file"},
	{"active_file", "active_file"},
	{"unevictable", "unevictable"},
};

static unsigned long long hierarchical_limit(const struct v1_file_ctx *fc, const char *name)
{
	unsigned long long limit = PAGE_COUNTER_MAX * PAGE_SIZE_BYTES;

	for (struct v2_dir *dir = fc->dir; dir && dir->parent; dir = dir->parent) {
		const char *text = cgx_value_named(fc->ctx, dir, fc->hier, name);
		unsigned long long value = text ? strtoull(text, NULL, 10) : limit;

		if (value < limit)
			limit = value;
	}
	return limit;
}

/*
 * memory.stat and memory.swap.current of group @dir of @hier: the whole
 * system's for the root, the group's directory and leaves outside it else.
 */
static void group_stat_values(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			      struct stat_sum *sum)
{
	_cleanup_strbuf_ struct strbuf stat = STRBUF_INIT, swap = STRBUF_INIT;

	if (dir != ctx->tree.base) {
		group_stat_read(ctx, dir, hier, "memory", "memory.stat", STAT_HIERARCHICAL, sum);
		group_stat_read(ctx, dir, hier, "memory", "memory.swap.current", STAT_HIERARCHICAL,
				sum);
		return;
	}
	/* The root has no memory.swap.current; a kernel without swap accounting neither. */
	if (dir_v2_read(ctx, dir, "memory.stat", &stat) == 0)
		stat_sum_add_text(sum, 0, "memory.stat", stat.buf, NULL);
	if (dir_v2_read(ctx, dir, "memory.swap.current", &swap) == 0)
		stat_sum_add_text(sum, 0, "memory.swap.current", swap.buf, NULL);
}

/* The stat_keys values of group @dir of @hier (the whole subtree), added to @values. */
static void add_stat_values(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			    unsigned long long values[])
{
	_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;

	group_stat_values(ctx, dir, hier, &sum);
	for (size_t i = 0; i < ARRAY_SIZE(stat_keys); i++) {
		if (!strcmp(stat_keys[i].v1, "swap"))
			values[i] += stat_sum_get(&sum, "memory.swap.current", NULL);
		else if (stat_keys[i].v2)
			values[i] += stat_sum_get(&sum, "memory.stat", stat_keys[i].v2);
	}
}

static int stat_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	unsigned long long total[ARRAY_SIZE(stat_keys)] = {0}, below[ARRAY_SIZE(stat_keys)] = {0};
	int r;

	add_stat_values(fc->ctx, fc->dir, fc->hier, total);
	/*
	 * v2 counts a directory's whole subtree; v1's own values
	 * (memcg_page_state_local()) leave the child groups out, each counted
	 * as its own statistics count it, leaves outside it included.
	 */
	for (struct v2_dir *child = cgx_group_next_child(fc->dir, fc->hier, NULL); child;
	     child = cgx_group_next_child(fc->dir, fc->hier, child))
		add_stat_values(fc->ctx, child, fc->hier, below);
	for (int hierarchical = 0; hierarchical < 2; hierarchical++) {
		for (size_t i = 0; i < ARRAY_SIZE(stat_keys); i++) {
			unsigned long long value = total[i];

			if (!hierarchical)
				value = value > below[i] ? value - below[i] : 0;
			if ((r = strbuf_addf(out, "%s%s %llu\n", hierarchical ? "total_" : "",
					     stat_keys[i].v1, value)) < 0)
				return r;
		}
		if (!hierarchical &&
		    (r = strbuf_addf(
			     out, "hierarchical_memory_limit %llu\nhierarchical_memsw_limit %llu\n",
			     hierarchical_limit(fc, "memory.limit_in_bytes"),
			     hierarchical_limit(fc, "memory.memsw.limit_in_bytes"))) < 0)
			return r;
	}
	return 0;
}

static int numa_stat_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;
	unsigned long long file, anon, unevictable;

	group_stat_values(fc->ctx, fc->dir, fc->hier, &sum);
	file = stat_sum_get(&sum, "memory.stat", "file") / PAGE_SIZE_BYTES;
	anon = stat_sum_get(&sum, "memory.stat", "anon") / PAGE_SIZE_BYTES;
	unevictable = stat_sum_get(&sum, "memory.stat", "unevictable") / PAGE_SIZE_BYTES;
	/* v2 keeps no per-node split here: node 0 carries it all. */
	return strbuf_addf(out,
			   "total=%llu N0=%llu\nfile=%llu N0=%llu\nanon=%llu N0=%llu\n"
			   "unevictable=%llu N0=%llu\nhierarchical_total=%llu N0=%llu\n"
			   "hierarchical_file=%llu N0=%llu\nhierarchical_anon=%llu N0=%llu\n"
			   "hierarchical_unevictable=%llu N0=%llu\n",
			   file + anon + unevictable, file + anon + unevictable, file, file, anon,
			   anon, unevictable, unevictable, file + anon + unevictable,
			   file + anon + unevictable, file, file, anon, anon, unevictable,
			   unevictable);
}

static int zero_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	(void)fc;
	return strbuf_add(out, "0\n", 2);
}

static int empty_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	(void)fc, (void)out;
	return 0;
}

static int bytes_convert(unsigned long long bytes, struct strbuf *out)
{
	if (bytes / PAGE_SIZE_BYTES >= PAGE_COUNTER_MAX)
		return strbuf_add(out, "max", 3);
	return strbuf_addf(out, "%llu", bytes / PAGE_SIZE_BYTES * PAGE_SIZE_BYTES);
}

static int limit_convert(const struct v1_values *values, const char *value, struct strbuf *out)
{
	(void)values;
	return bytes_convert(strtoull(value, NULL, 10), out);
}

static int memsw_convert(const struct v1_values *values, const char *value, struct strbuf *out)
{
	const char *limit_text = values->get(values, "memory.limit_in_bytes");
	unsigned long long memsw = strtoull(value, NULL, 10);
	unsigned long long limit = limit_text ? strtoull(limit_text, NULL, 10) : ~0ULL;

	if (memsw / PAGE_SIZE_BYTES >= PAGE_COUNTER_MAX || limit > memsw)
		return strbuf_add(out, "max", 3);
	return bytes_convert(memsw - limit, out);
}

/* The files memcg_write_event_control() takes a listener on, and what it listens for. */
static const struct {
	const char *name;
	enum memevent_kind kind;
} event_files[] = {
	{"memory.usage_in_bytes", MEMEVENT_USAGE},
	{"memory.oom_control", MEMEVENT_OOM},
	{"memory.pressure_level", MEMEVENT_PRESSURE},
	{"memory.memsw.usage_in_bytes", MEMEVENT_MEMSW},
};

/* simple_strtoul(s, &end, 10): digits only, no sign, no error; 0 digits read as 0. */
static unsigned long simple_strtoul(const char *s, char **end)
{
	unsigned long value = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		value = value * 10 + (unsigned long)(*s - '0');
	*end = (char *)s;
	return value;
}

/*
 * The inode number as the view last gave it, without asking the view: the
 * writer's file is on this very mount, and a getattr sent from inside this
 * write would wait for the lock the write holds.
 */
static bool same_group_file(const struct v1_file_ctx *fc, unsigned long fd)
{
	struct statx stx;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fd/%lu", (int)fc->caller->tid, fd);
	return statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_INO, &stx) == 0 &&
	       (uint64_t)stx.stx_ino >> 8 == fc->dir->group[fc->hier]->id;
}

/*
 * Whether the writer's descriptor @fd, whose /proc link is @target, is one
 * fdget() finds: none at all, or one opened with O_PATH, is EBADF.
 */
static bool fd_found(const struct v1_file_ctx *fc, unsigned long fd, const char *target)
{
	unsigned long long flags;

	return target[0] && !(proc_fdinfo_field(fc->caller->tid, fd, "flags", 8, &flags) == 0 &&
			      (flags & O_PATH));
}

/* The register_event() of each file: its ARGS parsed, then the writer's eventfd kept. */
static int event_register(const struct v1_file_ctx *fc, enum memevent_kind kind, unsigned long efd,
			  char *args)
{
	struct memevent_request request = {.kind = kind, .writer_efd = (int)efd};
	unsigned long long pages;
	int r;

	if (kind == MEMEVENT_USAGE || kind == MEMEVENT_MEMSW) {
		/* page_counter_memparse(args, "-1"): the threshold in pages. */
		if ((r = parse_pages(args, &pages)) < 0)
			return r;
		request.threshold = pages * PAGE_SIZE_BYTES;
	} else if (kind == MEMEVENT_PRESSURE && (r = memevent_parse_pressure(args, &request)) < 0) {
		return r;
	}
	if (efd > INT_MAX)
		return -EBADF;
	return memevent_register(fc, &request);
}

/*
 * memcg_write_event_control(): "EFD CFD [ARGS]", the writer's eventfd and
 * its open memory control file, parsed and checked as the kernel does,
 * errno for errno. The daemon takes its own reference to the eventfd
 * (memevent.c signals it); the control file only names the event.
 */
static int event_control_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	char efd_target[PATH_MAX], cfd_target[PATH_MAX];
	unsigned long efd, cfd;
	const char *name;
	char *end;

	(void)len;
	buf = strstrip(buf);
	efd = simple_strtoul(buf, &end);
	if (*end != ' ')
		return -EINVAL;
	buf = end + 1;
	cfd = simple_strtoul(buf, &end);
	if (*end != ' ' && *end != '\0')
		return -EINVAL;
	buf = *end ? end + 1 : end;
	proc_fd_target(fc->caller->tid, efd, efd_target, sizeof(efd_target));
	if (!fd_found(fc, efd, efd_target))
		return -EBADF;
	if (strcmp(efd_target, PROC_EVENTFD_LINK))
		return -EINVAL;
	proc_fd_target(fc->caller->tid, cfd, cfd_target, sizeof(cfd_target));
	if (!fd_found(fc, cfd, cfd_target))
		return -EBADF;
	name = strrchr(cfd_target, '/') ? strrchr(cfd_target, '/') + 1 : cfd_target;
	for (size_t i = 0; i < ARRAY_SIZE(event_files); i++) {
		if (strcmp(name, event_files[i].name))
			continue;
		/* The file must be this group's: a view's inode is its group's id << 8 | file. */
		if (!same_group_file(fc, cfd))
			return -EINVAL;
		return event_register(fc, event_files[i].kind, efd, buf);
	}
	return -EINVAL;
}

#define MAX_BYTES "9223372036854771712\n"
/* Why every memory.kmem.* counter and limit has no v2 file. */
#define KMEM_GONE                                                                                  \
	"kernel memory is always charged to memory.max in cgroup2; the separate kmem limit is "    \
	"gone"

static const struct v1_file memory_files[] = {
	{.name = "cgroup.event_control",
	 .mode = 0222,
	 .write = event_control_write,
	 .v2 = V2_EMULATED("cgx signals the eventfd: thresholds from memory.current read every "
			   "250 ms, OOM from memory.events, pressure from PSI triggers on "
			   "memory.pressure")},
	{.name = "memory.failcnt",
	 .mode = 0644,
	 .flags = V1F_RESET_POINT,
	 .read = failcnt_read,
	 .write = failcnt_write,
	 .v2 = V2_STATISTIC("memory.events")},
	{.name = "memory.force_empty",
	 .mode = 0200,
	 .write = force_empty_write,
	 .v2 = V2_CONVERTED(
		 "memory.reclaim", NULL,
		 "reclaims as much as it can; cgroup2 never moves charges to the parent")},
	{.name = "memory.kmem.failcnt",
	 .mode = 0644,
	 .read = zero_read,
	 .write = v1_write_accepted,
	 .v2 = V2_NONE(KMEM_GONE)},
	{.name = "memory.kmem.limit_in_bytes",
	 .mode = 0644,
	 .default_value = MAX_BYTES,
	 .write = ignored_limit_write,
	 .v2 = V2_NONE(KMEM_GONE)},
	{.name = "memory.kmem.max_usage_in_bytes",
	 .mode = 0644,
	 .read = zero_read,
	 .write = v1_write_accepted,
	 .v2 = V2_NONE(KMEM_GONE)},
	{.name = "memory.kmem.slabinfo",
	 .mode = 0444,
	 .read = empty_read,
	 .v2 = V2_NONE("memory.stat slab, slab_reclaimable, slab_unreclaimable")},
	{.name = "memory.kmem.tcp.failcnt",
	 .mode = 0644,
	 .read = zero_read,
	 .write = v1_write_accepted,
	 .v2 = V2_NONE(KMEM_GONE)},
	{.name = "memory.kmem.tcp.limit_in_bytes",
	 .mode = 0644,
	 .default_value = MAX_BYTES,
	 .write = tcp_limit_write,
	 .v2 = V2_NONE("socket memory is charged to memory.max in cgroup2; no separate tcp limit")},
	{.name = "memory.kmem.tcp.max_usage_in_bytes",
	 .mode = 0644,
	 .read = zero_read,
	 .write = v1_write_accepted,
	 .v2 = V2_NONE(KMEM_GONE)},
	{.name = "memory.kmem.tcp.usage_in_bytes",
	 .mode = 0444,
	 .read = zero_read,
	 .v2 = V2_STATISTIC("memory.stat")},
	{.name = "memory.kmem.usage_in_bytes",
	 .mode = 0444,
	 .read = zero_read,
	 .v2 = V2_STATISTIC("memory.stat")},
	{.name = "memory.limit_in_bytes",
	 .mode = 0644,
	 .default_value = MAX_BYTES,
	 .write = limit_write,
	 .v2 = V2_CONVERTED("memory.max", limit_convert,
			    "bytes rounded down to pages; -1 becomes max")},
	{.name = "memory.max_usage_in_bytes",
	 .mode = 0644,
	 .flags = V1F_RESET_POINT,
	 .read = max_usage_read,
	 .write = max_usage_write,
	 .v2 = V2_STATISTIC("memory.peak")},
	{.name = "memory.memsw.failcnt",
	 .mode = 0644,
	 .flags = V1F_RESET_POINT,
	 .read = memsw_failcnt_read,
	 .write = memsw_failcnt_write,
	 .v2 = V2_STATISTIC("memory.swap.events")},
	{.name = "memory.memsw.limit_in_bytes",
	 .mode = 0644,
	 .default_value = MAX_BYTES,
	 .write = memsw_write,
	 .v2 = V2_CONVERTED("memory.swap.max", memsw_convert,
			    "memory.swap.max = memsw - limit: cgroup2 limits swap on its own")},
	{.name = "memory.memsw.max_usage_in_bytes",
	 .mode = 0644,
	 .flags = V1F_RESET_POINT,
	 .read = memsw_max_usage_read,
	 .write = memsw_max_usage_write,
	 .v2 = V2_STATISTIC("memory.peak")},
	{.name = "memory.memsw.usage_in_bytes",
	 .mode = 0444,
	 .read = memsw_usage_read,
	 .v2 = V2_STATISTIC("memory.swap.current")},
	{.name = "memory.move_charge_at_immigrate",
	 .mode = 0644,
	 .default_value = "0\n",
	 .write = move_charge_write,
	 .v2 = V2_NONE("cgroup2 never moves charges; start the process in its final cgroup")},
	{.name = "memory.numa_stat",
	 .mode = 0444,
	 .read = numa_stat_read,
	 .v2 = V2_STATISTIC("memory.numa_stat")},
	{.name = "memory.oom_control",
	 .mode = 0644,
	 .flags = V1F_INHERIT, /* mem_cgroup_css_alloc() copies the parent's oom_kill_disable */
	 .read = oom_control_read,
	 .write = oom_control_write,
	 .v2 = V2_APPROX("memory.oom.group", NULL,
			 "oom_kill_disable has no equivalent; memory.oom.group kills the whole "
			 "cgroup; watch memory.events oom_kill")},
	{.name = "memory.pressure_level",
	 .mode = 0,
	 .v2 = V2_EMULATED("PSI triggers on memory.pressure")},
	{.name = "memory.soft_limit_in_bytes",
	 .mode = 0644,
	 .default_value = MAX_BYTES,
	 .write = soft_limit_write,
	 .v2 = V2_APPROX("memory.low", limit_convert,
			 "a best-effort protection, as runc and crun map it; libcgroup maps it to "
			 "memory.high")},
	{.name = "memory.stat", .mode = 0444, .read = stat_read, .v2 = V2_STATISTIC("memory.stat")},
	{.name = "memory.swappiness",
	 .mode = 0644,
	 .flags = V1F_INHERIT, /* mem_cgroup_css_alloc() copies the parent's */
	 .default_value = "60\n",
	 .write = swappiness_write,
	 .v2 = V2_NONE("per-cgroup swappiness is gone: use memory.swap.max or memory.reclaim with "
		       "swappiness=")},
	{.name = "memory.usage_in_bytes",
	 .mode = 0444,
	 .read = usage_read,
	 .v2 = V2_STATISTIC("memory.current")},
	{.name = "memory.use_hierarchy",
	 .mode = 0644,
	 .default_value = "1\n",
	 .write = use_hierarchy_write,
	 .v2 = V2_NONE("cgroup2 is always hierarchical")},
};

const struct v1_controller v1_memory = {
	.name = "memory",
	.files = memory_files,
	.nr_files = ARRAY_SIZE(memory_files),
};
