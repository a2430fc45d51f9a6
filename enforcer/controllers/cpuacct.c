// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuacct (kernel/sched/cpuacct.c) from cgroup2's cpu.stat, which every v2
 * directory has, controller or not. v2 keeps no per-CPU split: the
 * per-CPU files carry the whole usage on the first CPU (the sums hold).
 * Writing 0 to cpuacct.usage resets the counters in v1; v2 cannot, so the
 * usage at the reset is kept as a baseline ("total user system" in ns) and
 * every read subtracts it.
 */
#include "../knob.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#define USER_HZ 100

struct cpu_usage {
	unsigned long long total, user, system; /* ns */
};

static int usage_of(const struct v1_file_ctx *fc, struct cpu_usage *usage, bool raw)
{
	_cleanup_stat_sum_ struct stat_sum stat = STAT_SUM_INIT;
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	struct cpu_usage base = {0};
	const char *baseline;
	int r;

	/* The v1 root accounts for the whole system: the cgroup2 root's cpu.stat. */
	if (fc->dir == fc->ctx->tree.base) {
		if ((r = read_file_at(fc->ctx->cgroup2_fd, "cpu.stat", &text)) < 0 ||
		    (r = stat_sum_add_text(&stat, 0, "cpu.stat", text.buf, NULL)) < 0)
			return r;
	} else if ((r = group_stat_read(fc->ctx, fc->dir, fc->hier, NULL, "cpu.stat",
					STAT_HIERARCHICAL, &stat)) < 0) {
		return r;
	}
	usage->total = stat_sum_get(&stat, "cpu.stat", "usage_usec") * 1000;
	usage->user = stat_sum_get(&stat, "cpu.stat", "user_usec") * 1000;
	usage->system = stat_sum_get(&stat, "cpu.stat", "system_usec") * 1000;
	baseline = cgx_value_named(fc->ctx, fc->dir, fc->hier, "cpuacct.usage");
	if (!raw && baseline &&
	    sscanf(baseline, "%llu %llu %llu", &base.total, &base.user, &base.system) == 3) {
		usage->total -= base.total < usage->total ? base.total : usage->total;
		usage->user -= base.user < usage->user ? base.user : usage->user;
		usage->system -= base.system < usage->system ? base.system : usage->system;
	}
	return 0;
}

/* Fixed at boot: read once (handlers run under the model lock). */
static int possible_cpus(void)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	static int possible;
	const char *dash;

	if (possible)
		return possible;
	if (read_file_at(AT_FDCWD, "/sys/devices/system/cpu/possible", &text) < 0)
		return 1;
	dash = strrchr(text.buf, '-');
	possible = dash ? atoi(dash + 1) + 1 : atoi(text.buf) + 1;
	return possible;
}

static int print_one(const struct v1_file_ctx *fc, struct strbuf *out, int which)
{
	struct cpu_usage usage;
	int r = usage_of(fc, &usage, false);
	unsigned long long values[] = {usage.total, usage.user, usage.system};

	return r < 0 ? r : strbuf_addf(out, "%llu\n", values[which]);
}

static int usage_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return print_one(fc, out, 0);
}

static int usage_user_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return print_one(fc, out, 1);
}

static int usage_sys_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return print_one(fc, out, 2);
}

/* cpuusage_write(): only 0 is taken, and it resets. */
static int usage_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	struct cpu_usage now;
	char baseline[96];
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	if (value)
		return -EINVAL;
	if ((r = usage_of(fc, &now, true)) < 0)
		return r;
	snprintf(baseline, sizeof(baseline), "%llu %llu %llu", now.total, now.user, now.system);
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, baseline);
}

static int percpu_read(const struct v1_file_ctx *fc, struct strbuf *out, int which)
{
	struct cpu_usage usage;
	int r = usage_of(fc, &usage, false), cpus = possible_cpus();
	unsigned long long values[] = {usage.total, usage.user, usage.system};

	if (r < 0)
		return r;
	for (int cpu = 0; cpu < cpus; cpu++)
		if ((r = strbuf_addf(out, "%llu ", cpu ? 0ULL : values[which])) < 0)
			return r;
	return strbuf_add(out, "\n", 1);
}

static int percpu_total_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return percpu_read(fc, out, 0);
}

static int percpu_user_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return percpu_read(fc, out, 1);
}

static int percpu_sys_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return percpu_read(fc, out, 2);
}

static int usage_all_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	struct cpu_usage usage;
	int r = usage_of(fc, &usage, false), cpus = possible_cpus();

	if (r < 0 || (r = strbuf_addf(out, "cpu user system\n")) < 0)
		return r;
	for (int cpu = 0; cpu < cpus; cpu++)
		if ((r = strbuf_addf(out, "%d %llu %llu\n", cpu, cpu ? 0ULL : usage.user,
				     cpu ? 0ULL : usage.system)) < 0)
			return r;
	return 0;
}

/* cpuacct.stat is in USER_HZ ticks. */
static int stat_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	struct cpu_usage usage;
	int r = usage_of(fc, &usage, false);
	unsigned long long tick_ns = 1000000000ULL / USER_HZ;

	return r < 0 ? r
		     : strbuf_addf(out, "user %llu\nsystem %llu\n", usage.user / tick_ns,
				   usage.system / tick_ns);
}

static const struct v1_file cpuacct_files[] = {
	{.name = "cpuacct.stat", .mode = 0444, .read = stat_read, .v2 = V2_STATISTIC("cpu.stat")},
	{.name = "cpuacct.usage",
	 .mode = 0644,
	 .flags = V1F_RESET_POINT,
	 .read = usage_read,
	 .write = usage_write,
	 .v2 = V2_STATISTIC("cpu.stat")},
	{.name = "cpuacct.usage_all",
	 .mode = 0444,
	 .read = usage_all_read,
	 .v2 = V2_STATISTIC("cpu.stat")},
	{.name = "cpuacct.usage_percpu",
	 .mode = 0444,
	 .read = percpu_total_read,
	 .v2 = V2_APPROX("cpu.stat", NULL,
			 "cgroup2 keeps no per-CPU usage: all of it is shown on CPU 0")},
	{.name = "cpuacct.usage_percpu_sys",
	 .mode = 0444,
	 .read = percpu_sys_read,
	 .v2 = V2_APPROX("cpu.stat", NULL,
			 "cgroup2 keeps no per-CPU usage: all of it is shown on CPU 0")},
	{.name = "cpuacct.usage_percpu_user",
	 .mode = 0444,
	 .read = percpu_user_read,
	 .v2 = V2_APPROX("cpu.stat", NULL,
			 "cgroup2 keeps no per-CPU usage: all of it is shown on CPU 0")},
	{.name = "cpuacct.usage_sys",
	 .mode = 0444,
	 .read = usage_sys_read,
	 .v2 = V2_STATISTIC("cpu.stat")},
	{.name = "cpuacct.usage_user",
	 .mode = 0444,
	 .read = usage_user_read,
	 .v2 = V2_STATISTIC("cpu.stat")},
};

const struct v1_controller v1_cpuacct = {
	.name = "cpuacct",
	.files = cpuacct_files,
	.nr_files = ARRAY_SIZE(cpuacct_files),
};
