// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the parsers a v1 write or the daemon's own state
 * goes through. The first byte picks the parser, the rest is its text.
 * Beyond "no crash": what a parser accepts, its formatter prints back into
 * something the parser takes again and reads the same.
 */
#include "bpf_devices.h"
#include "cpulist.h"
#include "hierarchy.h"
#include "parse.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void numbers(char *text)
{
	unsigned long long ull;
	long long ll;
	int i, pid;

	kstrtoull(text, 0, &ull);
	kstrtoll(text, 0, &ll);
	kstrtoint(text, 10, &i);
	kstrtoint_strict_pid(text, &pid);
}

static void cpulists(const char *text)
{
	_cleanup_strbuf_ struct strbuf printed = STRBUF_INIT, again = STRBUF_INIT;
	struct cpulist list, reread;

	if (cpulist_parse(text, 64, &list) < 0)
		return;
	if (cpulist_format(&list, &printed) < 0 || cpulist_parse(printed.buf, 64, &reread) < 0 ||
	    cpulist_format(&reread, &again) < 0 || strcmp(printed.buf, again.buf))
		abort();
}

static void device_rules(const char *text)
{
	_cleanup_strbuf_ struct strbuf printed = STRBUF_INIT, again = STRBUF_INIT;
	struct devcg_list list = {0}, reread = {0};
	struct devcg_rule rule;
	void *insns = NULL;
	unsigned int nr_insns;

	devcg_rule_parse(text, &rule);
	if (devcg_list_parse(text, &list) == 0) {
		if (devcg_list_format(&list, &printed) < 0 ||
		    devcg_list_parse(printed.buf, &reread) < 0 ||
		    devcg_list_format(&reread, &again) < 0 || strcmp(printed.buf, again.buf))
			abort();
		if (devcg_prog_build(&list, &insns, &nr_insns) == 0)
			free(insns);
	}
	devcg_list_release(&list);
	devcg_list_release(&reread);
}

static void hierarchies(const char *text)
{
	_cleanup_strbuf_ struct strbuf kept = STRBUF_INIT;
	struct cgx_hier_set set, again;

	if (hier_set_parse(&set, text) == 0) {
		if (hier_set_format(&set, &kept) < 0 ||
		    hier_set_parse_stored(&again, kept.buf) < 0 || again.nr != set.nr)
			abort();
		hier_set_release(&again);
		hier_set_release(&set);
	}
	if (hier_set_parse_stored(&set, text) == 0)
		hier_set_release(&set);
	if (hier_set_parse(&set, "cpu;memory") == 0) {
		hier_set_add(&set, text);
		hier_set_primary(&set, text);
		hier_set_release(&set);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 1)
		return 0;
	if (!(text = strndup((const char *)data + 1, size - 1)))
		return 0;
	switch (data[0] % 4) {
	case 0:
		numbers(text);
		break;
	case 1:
		cpulists(text);
		break;
	case 2:
		device_rules(text);
		break;
	case 3:
		hierarchies(text);
		break;
	}
	free(text);
	return 0;
}
