// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu (kernel/sched/core.c, cpu_legacy_files) on cgroup2's cpu.weight,
 * cpu.max, cpu.max.burst and cpu.idle. Writes validate as the kernel's v1
 * does, before anything reaches v2; reads return the v1 value written.
 */
#include "../knob.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MIN_SHARES     2ULL
#define MAX_SHARES     262144ULL
#define MIN_PERIOD_US  1000LL		 /* min_cfs_quota_period: 1 ms */
#define MAX_PERIOD_US  1000000LL	 /* max_cfs_quota_period: 1 s */
#define MAX_RUNTIME_US ((1LL << 44) - 1) /* max_cfs_runtime: MAX_BW microseconds */
#define RUNTIME_INF    (-1LL)
#define BW_SHIFT       20

/*
 * cpu.shares -> cpu.weight, the mapping runc and crun adopted in 2025
 * (a quadratic in log2 space): 2 -> 1, 1024 -> 100, 262144 -> 10000. The
 * older linear 1 + (s - 2) * 9999 / 262142 turned the default 1024 into 39.
 */
unsigned long long cpu_shares_to_weight(unsigned long long shares)
{
	double l = log2((double)shares);
	double weight = ceil(pow(10.0, (l * l + 125.0 * l) / 612.0 - 7.0 / 34.0));

	if (weight < 1)
		return 1;
	return weight > 10000 ? 10000 : (unsigned long long)weight;
}

/*
 * A value cfs_set() stored: within the kernel's bounds, unless the state on
 * the v2 tree was corrupted (by a crash, a disk, another program). Then it
 * reads as the file's default, as if never written: a period of 0 would be
 * a division by zero in cfs_ratio().
 */
static long long stored_ll(const struct v1_file_ctx *fc, struct v2_dir *dir, const char *name)
{
	static const struct {
		const char *name;
		long long min, max;
	} bounds[] = {
		{"cpu.cfs_quota_us", MIN_PERIOD_US, MAX_RUNTIME_US},
		{"cpu.cfs_period_us", MIN_PERIOD_US, MAX_PERIOD_US},
		{"cpu.cfs_burst_us", 0, MAX_RUNTIME_US},
	};
	const struct cgx_hier *hier = &fc->ctx->hiers.hier[fc->hier];
	const char *text = cgx_value_named(fc->ctx, dir, fc->hier, name);
	int file = v1_file_find(hier, name);
	long long value;
	char *end;

	if (file < 0)
		return 0;
	for (size_t i = 0; text && i < ARRAY_SIZE(bounds); i++) {
		if (strcmp(name, bounds[i].name))
			continue;
		errno = 0;
		value = strtoll(text, &end, 10);
		if (!errno && end != text && (!*end || !strcmp(end, "\n")) &&
		    ((value >= bounds[i].min && value <= bounds[i].max) ||
		     (value == RUNTIME_INF && !strcmp(name, "cpu.cfs_quota_us"))))
			return value;
	}
	return strtoll(hier->files[file]->default_value, NULL, 10);
}

/* to_ratio(): the bandwidth of quota/period, RUNTIME_INF for no limit. */
static long long cfs_ratio(long long quota, long long period)
{
	if (quota == RUNTIME_INF)
		return RUNTIME_INF;
	return (long long)(((unsigned long long)quota << BW_SHIFT) / (unsigned long long)period);
}

/*
 * tg_cfs_schedulable_down() of v1: a group may not get more bandwidth than
 * its parent; a group without quota inherits the parent's.
 */
static int cfs_check_subtree(const struct v1_file_ctx *fc, struct v2_dir *dir, long long parent,
			     struct v2_dir *changed, long long quota, long long period)
{
	long long ratio;

	if (dir != changed) {
		quota = stored_ll(fc, dir, "cpu.cfs_quota_us");
		period = stored_ll(fc, dir, "cpu.cfs_period_us");
	}
	ratio = cfs_ratio(quota, period);
	if (ratio == RUNTIME_INF)
		ratio = parent;
	else if (parent != RUNTIME_INF && ratio > parent)
		return -EINVAL;
	v2_dir_for_each_child (child, dir) {
		int r;

		if (child->group[fc->hier] &&
		    (r = cfs_check_subtree(fc, child, ratio, changed, quota, period)) < 0)
			return r;
	}
	return 0;
}

static long long cfs_parent_ratio(const struct v1_file_ctx *fc)
{
	long long ratio = RUNTIME_INF;
	struct v2_dir *chain[256];
	unsigned int n = 0;

	for (struct v2_dir *d = fc->dir->parent; d && d->parent && n < 256; d = d->parent)
		if (d->group[fc->hier])
			chain[n++] = d;
	while (n--) {
		long long r = cfs_ratio(stored_ll(fc, chain[n], "cpu.cfs_quota_us"),
					stored_ll(fc, chain[n], "cpu.cfs_period_us"));

		if (r != RUNTIME_INF)
			ratio = r;
	}
	return ratio;
}

/* tg_set_cfs_bandwidth()'s checks, then cpu.max; @which is the file being written. */
static int cfs_set(const struct v1_file_ctx *fc, long long quota, long long period, long long burst,
		   const char *v1_text)
{
	char v2[64];
	int r;

	if (fc->dir == fc->ctx->tree.base)
		return -EINVAL; /* the root task group's bandwidth is not ours to change */
	if ((quota != RUNTIME_INF && quota < MIN_PERIOD_US) || period < MIN_PERIOD_US ||
	    period > MAX_PERIOD_US)
		return -EINVAL;
	if (quota != RUNTIME_INF &&
	    (quota > MAX_RUNTIME_US || burst > quota || burst + quota > MAX_RUNTIME_US))
		return -EINVAL;
	if ((r = cfs_check_subtree(fc, fc->dir, cfs_parent_ratio(fc), fc->dir, quota, period)) < 0)
		return r;
	if (!strcmp(fc->ctx->hiers.hier[fc->hier].files[fc->file]->name, "cpu.cfs_burst_us")) {
		snprintf(v2, sizeof(v2), "%lld", burst);
		return knob_set(fc, "cpu", "cpu.max.burst", v2, v1_text);
	}
	if (quota == RUNTIME_INF)
		snprintf(v2, sizeof(v2), "max %lld", period);
	else
		snprintf(v2, sizeof(v2), "%lld %lld", quota, period);
	return knob_set(fc, "cpu", "cpu.max", v2, v1_text);
}

static int quota_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	long long quota;
	char text[32];
	int r;

	(void)len;
	if ((r = kstrtoll(buf, 0, &quota)) < 0)
		return r;
	if (quota < 0)
		quota = RUNTIME_INF; /* any negative quota means none */
	snprintf(text, sizeof(text), "%lld\n", quota);
	return cfs_set(fc, quota, stored_ll(fc, fc->dir, "cpu.cfs_period_us"),
		       stored_ll(fc, fc->dir, "cpu.cfs_burst_us"), text);
}

static int period_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long period;
	char text[32];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &period)) < 0)
		return r;
	if (period > (unsigned long long)MAX_PERIOD_US)
		return -EINVAL;
	snprintf(text, sizeof(text), "%llu\n", period);
	return cfs_set(fc, stored_ll(fc, fc->dir, "cpu.cfs_quota_us"), (long long)period,
		       stored_ll(fc, fc->dir, "cpu.cfs_burst_us"), text);
}

static int burst_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long burst;
	char text[32];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &burst)) < 0)
		return r;
	if (burst > (unsigned long long)MAX_RUNTIME_US)
		return -EINVAL;
	snprintf(text, sizeof(text), "%llu\n", burst);
	return cfs_set(fc, stored_ll(fc, fc->dir, "cpu.cfs_quota_us"),
		       stored_ll(fc, fc->dir, "cpu.cfs_period_us"), (long long)burst, text);
}

/* Whether the group was made idle (cpu.idle 1): its shares are then fixed. */
static bool group_is_idle(const struct v1_file_ctx *fc)
{
	const char *text = cgx_value_named(fc->ctx, fc->dir, fc->hier, "cpu.idle");

	return text && text[0] == '1';
}

/* What cgroup2's cpu.idle of the group's directory says; -errno when it cannot be read. */
static int kernel_idle(const struct v1_file_ctx *fc)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	int r = knob_read(fc->ctx, fc->dir, "cpu", "cpu.idle", &text);

	return r < 0 ? r : text.buf && text.buf[0] == '1';
}

static int shares_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long shares;
	char v1[32], v2[32];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &shares)) < 0)
		return r;
	if (fc->dir == fc->ctx->tree.base)
		return -EINVAL; /* "We can't change the weight of the root cgroup." */
	if (group_is_idle(fc))
		return -EINVAL; /* sched_group_set_shares(): an idle group's weight is fixed */
	/* sched_group_set_shares() clamps rather than refuses. */
	shares = shares < MIN_SHARES ? MIN_SHARES : shares > MAX_SHARES ? MAX_SHARES : shares;
	snprintf(v1, sizeof(v1), "%llu\n", shares);
	snprintf(v2, sizeof(v2), "%llu", cpu_shares_to_weight(shares));
	return knob_set(fc, "cpu", "cpu.weight", v2, v1);
}

/*
 * sched_group_set_idle(): an idle group gets the least weight
 * (WEIGHT_IDLEPRIO, cpu.shares reads 3) and leaving idle resets it to the
 * default 1024, whatever was written before; writing the state the group
 * is already in changes nothing. cgroup2 does the same to cpu.weight by
 * itself, so only what cpu.shares reads is recorded here, first, and put
 * back when the kernel refuses.
 */
static int idle_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	_cleanup_free_ char *old_shares = NULL;
	const char *stored;
	long long idle;
	int r;

	(void)len;
	if ((r = kstrtoll(buf, 0, &idle)) < 0)
		return r;
	if (idle < 0 || idle > 1 || fc->dir == fc->ctx->tree.base)
		return -EINVAL;
	/*
	 * Nothing to change only when the kernel agrees with the record: a
	 * rename replays the record onto a new directory, which is not idle.
	 */
	if (!!idle == group_is_idle(fc) && kernel_idle(fc) == !!idle)
		return 0;
	stored = cgx_value_named(fc->ctx, fc->dir, fc->hier, "cpu.shares");
	if (stored && !(old_shares = strdup(stored)))
		return -ENOMEM;
	if ((r = cgx_value_set_named(fc->ctx, fc->dir, fc->hier, "cpu.shares",
				     idle ? "3\n" : "1024\n")) < 0)
		return r;
	if ((r = knob_set(fc, "cpu", "cpu.idle", idle ? "1" : "0", idle ? "1\n" : "0\n")) < 0)
		cgx_value_set_named(fc->ctx, fc->dir, fc->hier, "cpu.shares",
				    old_shares ? old_shares : "1024\n");
	return r;
}

static int stat_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	_cleanup_strbuf_ struct strbuf v2 = STRBUF_INIT;
	const char *text = "";

	/* Without the cpu controller in v2 nothing is throttled: the counters are 0. */
	if (knob_read(fc->ctx, fc->dir, "cpu", "cpu.stat", &v2) == 0)
		text = v2.buf;
	return strbuf_addf(out,
			   "nr_periods %llu\nnr_throttled %llu\nthrottled_time %llu\n"
			   "nr_bursts %llu\nburst_time %llu\n",
			   v2_stat_key(text, "nr_periods"), v2_stat_key(text, "nr_throttled"),
			   v2_stat_key(text, "throttled_usec") * 1000,
			   v2_stat_key(text, "nr_bursts"), v2_stat_key(text, "burst_usec") * 1000);
}

static int shares_convert(const struct v1_values *values, const char *value, struct strbuf *out)
{
	unsigned long long shares = strtoull(value, NULL, 10);

	(void)values;
	shares = shares < MIN_SHARES ? MIN_SHARES : shares > MAX_SHARES ? MAX_SHARES : shares;
	return strbuf_addf(out, "%llu", cpu_shares_to_weight(shares));
}

/* cpu.max from the group's quota and period, whichever of the two @value is. */
static int max_convert(const struct v1_values *values, const char *value, struct strbuf *out)
{
	const char *quota = values->get(values, "cpu.cfs_quota_us");
	const char *period = values->get(values, "cpu.cfs_period_us");

	(void)value;
	if (!quota || strtoll(quota, NULL, 10) < 0)
		return strbuf_addf(out, "max %lld", period ? strtoll(period, NULL, 10) : 100000LL);
	return strbuf_addf(out, "%lld %lld", strtoll(quota, NULL, 10),
			   period ? strtoll(period, NULL, 10) : 100000LL);
}

static const struct v1_file cpu_files[] = {
	{.name = "cpu.cfs_burst_us",
	 .mode = 0644,
	 .default_value = "0\n",
	 .write = burst_write,
	 .v2 = V2_SAME("cpu.max.burst")},
	{.name = "cpu.cfs_period_us",
	 .mode = 0644,
	 .default_value = "100000\n",
	 .write = period_write,
	 .v2 = V2_CONVERTED("cpu.max", max_convert, "\"$quota $period\", or \"max $period\"")},
	{.name = "cpu.cfs_quota_us",
	 .mode = 0644,
	 .default_value = "-1\n",
	 .write = quota_write,
	 .v2 = V2_CONVERTED("cpu.max", max_convert, "\"$quota $period\"; -1 becomes \"max\"")},
	{.name = "cpu.idle",
	 .mode = 0644,
	 .default_value = "0\n",
	 .write = idle_write,
	 .v2 = V2_SAME("cpu.idle")},
	{.name = "cpu.shares",
	 .mode = 0644,
	 .default_value = "1024\n",
	 .write = shares_write,
	 .v2 = V2_CONVERTED("cpu.weight", shares_convert,
			    "the 2025 runc/crun formula: 2 -> 1, 1024 -> 100, 262144 -> 10000")},
	{.name = "cpu.stat", .mode = 0444, .read = stat_read, .v2 = V2_STATISTIC("cpu.stat")},
};

const struct v1_controller v1_cpu = {
	.name = "cpu",
	.files = cpu_files,
	.nr_files = ARRAY_SIZE(cpu_files),
};
