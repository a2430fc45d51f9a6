// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blkio throttling (block/blk-throttle.c, throtl_legacy_files) on cgroup2's
 * io.max, and its statistics from io.stat. v1 keeps one file per limit
 * ("MAJ:MIN VALUE" lines); v2 one line per device with rbps/wbps/riops/wiops.
 * v2's io.stat is hierarchical and has no sync/async split: the v1 per-group
 * and _recursive files read the same numbers, all counted as Async.
 */
#include "../knob.h"
#include "../parse.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const struct {
	const char *v1, *v2;
} limit_keys[] = {
	{"blkio.throttle.read_bps_device", "rbps"},
	{"blkio.throttle.write_bps_device", "wbps"},
	{"blkio.throttle.read_iops_device", "riops"},
	{"blkio.throttle.write_iops_device", "wiops"},
};

static const char *v2_key_of(const char *v1_name)
{
	for (size_t i = 0; i < ARRAY_SIZE(limit_keys); i++)
		if (!strcmp(limit_keys[i].v1, v1_name))
			return limit_keys[i].v2;
	return NULL;
}

/* blkcg_conf_get_disk(): a whole disk, or ENODEV (partitions are not throttled). */
static int check_disk(unsigned int major, unsigned int minor)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major, minor);
	if (stat(path, &st) < 0)
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", major, minor);
	return stat(path, &st) == 0 ? -ENODEV : 0;
}

/* The stored "MAJ:MIN VALUE" lines with @device set to @value (0 removes it). */
static int update_lines(const char *old, const char *device, unsigned long long value,
			struct strbuf *out)
{
	size_t device_len = strlen(device);
	bool written = false;
	int r;

	for (const char *line = old ? old : ""; *line;) {
		size_t len = strcspn(line, "\n");

		if (!strncmp(line, device, device_len) && line[device_len] == ' ') {
			if (value && !written &&
			    (r = strbuf_addf(out, "%s %llu\n", device, value)) < 0)
				return r;
			written = true;
		} else if ((r = strbuf_add(out, line, len)) < 0 ||
			   (r = strbuf_add(out, "\n", 1)) < 0) {
			return r;
		}
		line += len + (line[len] == '\n');
	}
	if (value && !written)
		return strbuf_addf(out, "%s %llu\n", device, value);
	return strbuf_add(out, "", 0);
}

static int limit_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	const char *v1_name = fc->ctx->hiers.hier[fc->hier].files[fc->file]->name;
	_cleanup_strbuf_ struct strbuf lines = STRBUF_INIT;
	unsigned long long major, minor, value;
	const char *c = buf;
	char device[32], v2[96];
	int r;

	(void)len;
	/* blkcg_conf_get_disk()'s "%u:%u%n", then tg_set_conf()'s "%llu": the kernel's sscanf. */
	if (kscan_ull(&c, &major) < 0 || *c++ != ':' || kscan_ull(&c, &minor) < 0 ||
	    !isspace((unsigned char)*c))
		return -EINVAL;
	major = (unsigned int)major;
	minor = (unsigned int)minor;
	if ((r = check_disk(major, minor)) < 0)
		return r;
	if (kscan_ull(&c, &value) < 0)
		return -EINVAL;
	snprintf(device, sizeof(device), "%llu:%llu", major, minor);
	if ((r = update_lines(cgx_value_get(fc->ctx, fc->dir, fc->hier, fc->file), device, value,
			      &lines)) < 0)
		return r;
	/*
	 * 0 lifts the limit (U64_MAX in v1, max in v2). io.max takes no 1
	 * (tg_set_limit() sets a key only for values above 1, and EINVAL
	 * otherwise) where v1 throttles to 1 byte or 1 I/O a second: 2 is the
	 * nearest cgroup2 has.
	 */
	if (value)
		snprintf(v2, sizeof(v2), "%s %s=%llu", device, v2_key_of(v1_name),
			 value < 2 ? 2 : value);
	else
		snprintf(v2, sizeof(v2), "%s %s=max", device, v2_key_of(v1_name));
	return knob_set(fc, "io", "io.max", v2, lines.buf);
}

struct io_totals {
	unsigned long long read, write, discard;
};

/*
 * Per device from io.stat, of the group's directory and its leaves outside
 * it (keys "io.stat MAJ:MIN/rbytes"): bytes (rbytes, wbytes, dbytes) or ios
 * (rios, wios, dios), each device once, in the order first seen.
 */
static int stats_read(const struct v1_file_ctx *fc, struct strbuf *out, bool bytes)
{
	_cleanup_stat_sum_ struct stat_sum stat = STAT_SUM_INIT;
	unsigned long long sum = 0;
	int r;

	if (cgx_has_controller(fc->ctx, "io") &&
	    (r = group_stat_read(fc->ctx, fc->dir, fc->hier, "io", "io.stat", STAT_HIERARCHICAL,
				 &stat)) < 0)
		return r;
	for (size_t i = 0; i < stat.nr; i++) {
		const char *key = stat.v[i].key + strlen("io.stat "), *slash = strchr(key, '/');
		char device[32], name[64];
		struct io_totals t = {0};
		bool seen = false;

		if (!slash || (size_t)(slash - key) >= sizeof(device))
			continue;
		snprintf(device, sizeof(device), "%.*s", (int)(slash - key), key);
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strncmp(stat.v[j].key + strlen("io.stat "), key, slash - key + 1);
		if (seen)
			continue;
		snprintf(name, sizeof(name), "%s/%s", device, bytes ? "rbytes" : "rios");
		t.read = stat_sum_get(&stat, "io.stat", name);
		snprintf(name, sizeof(name), "%s/%s", device, bytes ? "wbytes" : "wios");
		t.write = stat_sum_get(&stat, "io.stat", name);
		snprintf(name, sizeof(name), "%s/%s", device, bytes ? "dbytes" : "dios");
		t.discard = stat_sum_get(&stat, "io.stat", name);
		r = strbuf_addf(out,
				"%s Read %llu\n%s Write %llu\n%s Sync 0\n%s Async %llu\n"
				"%s Discard %llu\n%s Total %llu\n",
				device, t.read, device, t.write, device, device, t.read + t.write,
				device, t.discard, device, t.read + t.write + t.discard);
		if (r < 0)
			return r;
		sum += t.read + t.write + t.discard;
	}
	return strbuf_addf(out, "Total %llu\n", sum);
}

static int service_bytes_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return stats_read(fc, out, true);
}

static int serviced_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return stats_read(fc, out, false);
}

/* Each "MAJ:MIN value" line of a throttle file as an io.max line with key @key. */
static int throttle_convert(const char *value, const char *key, struct strbuf *out)
{
	for (const char *line = value; *line;) {
		size_t len = strcspn(line, "\n");
		unsigned long long limit;
		char device[32];
		int r;

		if (sscanf(line, "%31s %llu", device, &limit) == 2) {
			r = limit ? strbuf_addf(out, "%s%s %s=%llu", out->len ? "\n" : "", device,
						key, limit)
				  : strbuf_addf(out, "%s%s %s=max", out->len ? "\n" : "", device,
						key);
			if (r < 0)
				return r;
		}
		line += len + (line[len] == '\n');
	}
	return 0;
}

#define THROTTLE_CONVERT(name, key)                                                                \
	static int name(const struct v1_values *values, const char *value, struct strbuf *out)     \
	{                                                                                          \
		(void)values;                                                                      \
		return throttle_convert(value, key, out);                                          \
	}
THROTTLE_CONVERT(read_bps_convert, "rbps")
THROTTLE_CONVERT(read_iops_convert, "riops")
THROTTLE_CONVERT(write_bps_convert, "wbps")
THROTTLE_CONVERT(write_iops_convert, "wiops")

static const struct v1_file blkio_files[] = {
	{.name = "blkio.reset_stats",
	 .mode = 0200,
	 .write = v1_write_accepted,
	 .v2 = V2_RESET("io.stat")},
	{.name = "blkio.throttle.io_service_bytes",
	 .mode = 0444,
	 .read = service_bytes_read,
	 .v2 = V2_STATISTIC("io.stat")},
	{.name = "blkio.throttle.io_service_bytes_recursive",
	 .mode = 0444,
	 .read = service_bytes_read,
	 .v2 = V2_STATISTIC("io.stat")},
	{.name = "blkio.throttle.io_serviced",
	 .mode = 0444,
	 .read = serviced_read,
	 .v2 = V2_STATISTIC("io.stat")},
	{.name = "blkio.throttle.io_serviced_recursive",
	 .mode = 0444,
	 .read = serviced_read,
	 .v2 = V2_STATISTIC("io.stat")},
	{.name = "blkio.throttle.read_bps_device",
	 .mode = 0644,
	 .flags = V1F_ROOT_KNOB, /* v1 throttles the root group too */
	 .default_value = "",
	 .write = limit_write,
	 .v2 = V2_CONVERTED(
		 "io.max", read_bps_convert,
		 "one \"MAJ:MIN key=value\" line per device; 0 becomes max, 1 becomes 2")},
	{.name = "blkio.throttle.read_iops_device",
	 .mode = 0644,
	 .flags = V1F_ROOT_KNOB, /* v1 throttles the root group too */
	 .default_value = "",
	 .write = limit_write,
	 .v2 = V2_CONVERTED(
		 "io.max", read_iops_convert,
		 "one \"MAJ:MIN key=value\" line per device; 0 becomes max, 1 becomes 2")},
	{.name = "blkio.throttle.write_bps_device",
	 .mode = 0644,
	 .flags = V1F_ROOT_KNOB, /* v1 throttles the root group too */
	 .default_value = "",
	 .write = limit_write,
	 .v2 = V2_CONVERTED(
		 "io.max", write_bps_convert,
		 "one \"MAJ:MIN key=value\" line per device; 0 becomes max, 1 becomes 2")},
	{.name = "blkio.throttle.write_iops_device",
	 .mode = 0644,
	 .flags = V1F_ROOT_KNOB, /* v1 throttles the root group too */
	 .default_value = "",
	 .write = limit_write,
	 .v2 = V2_CONVERTED(
		 "io.max", write_iops_convert,
		 "one \"MAJ:MIN key=value\" line per device; 0 becomes max, 1 becomes 2")},
};

const struct v1_controller v1_blkio = {
	.name = "blkio",
	.files = blkio_files,
	.nr_files = ARRAY_SIZE(blkio_files),
};
