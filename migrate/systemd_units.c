// SPDX-License-Identifier: GPL-2.0-or-later
/* systemd's names for a v2 layout: the unit of a directory, the property of a v2 file. */
#include "systemd_units.h"

#include "out_common.h"
#include "unit_name.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static void comment(FILE *out, const char *text)
{
	char line[1024];

	fprintf(out, "%s", v1_text_oneline(text, line, sizeof(line)));
}

/*
 * The unit a group was made for, by its last component: a legacy-mode
 * systemd (as in a container's v1 view: /ct/system.slice/svc.service)
 * names each unit's group after it. That unit on a unified systemd takes
 * the property in a drop-in of its own.
 */
bool systemd_own_unit(const char *path, char *unit, size_t size)
{
	const char *last = strrchr(path, '/');

	return last && unit_name_of_path(last, unit, size) && !strcmp(unit, last + 1);
}

/*
 * The unit whose drop-in takes @path's settings: its own unit, else a
 * slice named for the path, escaped as systemd-escape does ('/'
 * separates, the rest is \xNN).
 */
static void escaped_path(FILE *out, const char *path, size_t len)
{
	for (const char *c = path + 1; c < path + len; c++) {
		bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9') || *c == ':' || *c == '_' ||
			     (*c == '.' && c[-1] != '/');

		if (*c == '/')
			fputc('-', out);
		else if (plain)
			fputc(*c, out);
		else
			fprintf(out, "\\x%02x", (unsigned char)*c);
	}
}

void systemd_unit_name(FILE *out, const char *path)
{
	char unit[UNIT_NAME_SIZE];

	if (systemd_own_unit(path, unit, sizeof(unit))) {
		fputs(unit, out);
		return;
	}
	escaped_path(out, path, strlen(path));
	fputs(".slice", out);
}

size_t systemd_container_prefix(const char *path)
{
	const char *end = path + strlen(path);
	char component[UNIT_NAME_SIZE];

	/* Back over the chain of unit names the path ends in. */
	while (end > path) {
		const char *slash = end - 1;
		size_t len;

		while (slash > path && *slash != '/')
			slash--;
		len = (size_t)(end - slash - 1);
		if (len >= sizeof(component))
			break;
		memcpy(component, slash + 1, len);
		component[len] = '\0';
		if (!unit_name_section(component))
			break;
		end = slash;
	}
	/* All units: the host's own; none: no unit at all. */
	return end == path || end == path + strlen(path) ? 0 : (size_t)(end - path);
}

void systemd_unit_dir(FILE *out, const char *path)
{
	size_t prefix = systemd_container_prefix(path);

	if (!prefix) {
		fputs("\"$dir\"", out);
		return;
	}
	fputs("\"$containers\"/'", out);
	escaped_path(out, path, prefix);
	fputc('\'', out);
}

/* The drop-in section of the unit systemd_unit_name() names for @path. */
const char *systemd_unit_section(const char *path)
{
	char unit[UNIT_NAME_SIZE];

	return systemd_own_unit(path, unit, sizeof(unit)) ? unit_name_section(unit) : "Slice";
}

/* The slice property of one v2 line, or a comment when systemd has none. */
void systemd_property(FILE *out, const char *file, const char *line)
{
	static const struct {
		const char *file, *property;
	} direct[] = {
		{"cpu.weight", "CPUWeight"},	      {"memory.max", "MemoryMax"},
		{"memory.low", "MemoryLow"},	      {"memory.high", "MemoryHigh"},
		{"memory.swap.max", "MemorySwapMax"}, {"io.weight", "IOWeight"},
		{"io.bfq.weight", "IOWeight"},	      {"pids.max", "TasksMax"},
		{"cpuset.cpus", "AllowedCPUs"},	      {"cpuset.mems", "AllowedMemoryNodes"},
	};
	static const struct {
		const char *key, *property;
	} io_keys[] = {
		{"rbps", "IOReadBandwidthMax"},
		{"wbps", "IOWriteBandwidthMax"},
		{"riops", "IOReadIOPSMax"},
		{"wiops", "IOWriteIOPSMax"},
	};
	long long quota, period;
	char device[64], key[16], value[64];

	for (size_t i = 0; i < ARRAY_SIZE(direct); i++)
		if (!strcmp(file, direct[i].file)) {
			fprintf(out, "%s=%s\n", direct[i].property,
				strcmp(line, "max") ? line : "infinity");
			return;
		}
	if (!strcmp(file, "cpu.max")) {
		if (sscanf(line, "%lld %lld", &quota, &period) == 2 && period > 0)
			fprintf(out, "CPUQuota=%lld%%\nCPUQuotaPeriodSec=%lldus\n",
				quota * 100 / period, period);
		else
			fputs("CPUQuota=\n", out);
		return;
	}
	if (!strcmp(file, "cpu.idle") && !strcmp(line, "1")) {
		fputs("CPUWeight=idle\n", out);
		return;
	}
	if (!strcmp(file, "io.max") &&
	    sscanf(line, "%63s %15[a-z]=%63s", device, key, value) == 3) {
		for (size_t i = 0; i < ARRAY_SIZE(io_keys); i++)
			if (!strcmp(key, io_keys[i].key)) {
				fprintf(out, "%s=/dev/block/%s %s\n", io_keys[i].property, device,
					strcmp(value, "max") ? value : "infinity");
				return;
			}
	}
	if (!strcmp(file, "cgroup.freeze")) {
		fputs("# frozen in v1: systemctl freeze this slice's units\n", out);
		return;
	}
	fprintf(out, "# no slice property for %s=", file);
	comment(out, line);
	fputs(": write it to the slice's cgroup directory\n", out);
}
