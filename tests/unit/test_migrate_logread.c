// SPDX-License-Identifier: GPL-2.0-or-later
/* The deprecation log reader: good, truncated and garbage lines, and versions it refuses. */
#include "check.h"
#include "logread.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

static const char good_multi[] =
	"{\"v\":1,\"time\":\"2026-12-03T11:30:00.123Z\",\"kind\":\"multi-hierarchy-process\","
	"\"tuple\":{\"cpu,cpuacct\":\"/a\",\"memory\":\"/b\"},\"pid\":10,\"ppid\":1,\"uid\":0,"
	"\"comm\":\"sh\",\"exe\":\"/bin/dash\",\"cmdline\":[\"sh\",\"x.sh\"],\"script\":\"/opt/"
	"x.sh\"}";
static const char good_none[] =
	"{\"v\":1,\"time\":\"2026-12-03T11:31:00.000Z\",\"kind\":\"no-v2-equivalent\","
	"\"hierarchy\":\"memory\",\"group\":\"/b\",\"file\":\"memory.swappiness\",\"value\":\"10\","
	"\"pid\":11,\"ppid\":1,\"uid\":0,\"comm\":\"tune\",\"exe\":\"/usr/bin/"
	"tune\",\"cmdline\":[]}";

static int feed(struct log_summary *log, const char *text)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int r = log_read_stream(log, in);

	fclose(in);
	log_summary_finish(log);
	return r;
}

static void test_counts_records_by_program_and_kind(void)
{
	struct log_summary log;
	char text[4096];

	snprintf(text, sizeof(text), "%s\n%s\n%s\n", good_multi, good_multi, good_none);
	log_summary_init(&log, "t");
	CHECK_EQ_INT(feed(&log, text), 0);
	CHECK_EQ_INT(log.records, 3);
	CHECK_EQ_INT(log.corrupt, 0);
	CHECK_EQ_INT(log.by_kind[LOG_MULTI_HIERARCHY], 2);
	CHECK_EQ_INT(log.by_kind[LOG_NO_V2], 1);
	CHECK_EQ_INT(log.nr_uses, 2);
	/* Most frequent first; the script names the program, not the shell. */
	CHECK(!strcmp(log.uses[0]->program, "/opt/x.sh"));
	CHECK_EQ_INT(log.uses[0]->count, 2);
	CHECK_EQ_INT(log.uses[0]->nr_examples, 1);
	CHECK(!strcmp(log.uses[0]->examples[0], "cpu,cpuacct:/a memory:/b"));
	CHECK_EQ_INT(log.uses[0]->nr_hierarchies, 2);
	CHECK(!strcmp(log.uses[1]->program, "/usr/bin/tune"));
	CHECK(!strcmp(log.uses[1]->examples[0], "memory:/b memory.swappiness=10"));
	log_summary_release(&log);
}

static void test_skips_and_counts_truncated_and_garbage_lines(void)
{
	struct log_summary log;
	char text[8192];
	size_t half = sizeof(good_none) / 2;

	/* Truncated mid-record (a full disk), garbage, valid JSON that is no record, a record
	 * without its v, trailing text, a NUL inside, and a last line without its newline. */
	snprintf(text, sizeof(text),
		 "%.*s\n"
		 "not json at all\n"
		 "[1,2,3]\n"
		 "\"a string\"\n"
		 "{\"time\":\"t\",\"kind\":\"approximate\"}\n"
		 "{\"v\":\"1\",\"time\":\"t\",\"kind\":\"approximate\"}\n"
		 "{\"v\":1,\"time\":\"t\"}\n"
		 "%s trailing\n"
		 "\n"
		 "%s",
		 (int)half, good_none, good_multi, good_multi);
	log_summary_init(&log, "t");
	CHECK_EQ_INT(feed(&log, text), 0);
	CHECK_EQ_INT(log.lines, 10);
	CHECK_EQ_INT(log.blank, 1);
	CHECK_EQ_INT(log.corrupt, 8);
	CHECK_EQ_INT(log.first_corrupt_line, 1);
	CHECK_EQ_INT(log.records, 1);
	log_summary_release(&log);

	char with_nul[] = "{\"v\":1,\"time\":\"t\",\"kind\":\"x\"}\0junk";

	log_summary_init(&log, "t");
	CHECK_EQ_INT(log_read_line(&log, with_nul, sizeof(with_nul) - 1, 1), 0);
	CHECK_EQ_INT(log.corrupt, 1);
	log_summary_release(&log);
}

static void test_refuses_an_unknown_version(void)
{
	struct log_summary log;

	log_summary_init(&log, "t");
	CHECK_EQ_INT(feed(&log, "{\"v\":3,\"time\":\"t\",\"kind\":\"approximate\"}\n"),
		     -EPROTONOSUPPORT);
	log_summary_release(&log);
	log_summary_init(&log, "t");
	CHECK_EQ_INT(feed(&log, "{\"v\":0,\"time\":\"t\",\"kind\":\"approximate\"}\n"),
		     -EPROTONOSUPPORT);
	log_summary_release(&log);
}

static void test_counts_unknown_kinds_as_other(void)
{
	struct log_summary log;

	log_summary_init(&log, "t");
	CHECK_EQ_INT(
		feed(&log, "{\"v\":1,\"time\":\"t\",\"kind\":\"future-kind\",\"comm\":\"c\"}\n"),
		0);
	CHECK_EQ_INT(log.by_kind[LOG_OTHER], 1);
	CHECK(!strcmp(log.uses[0]->program, "c"));
	log_summary_release(&log);
}

/* What cgxfs writes since the rate limit: a record, then a summary of 98 more folded. */
static const char v2_record[] =
	"{\"v\":2,\"time\":\"2026-12-03T11:30:00.500Z\",\"kind\":\"named-hierarchy\","
	"\"hierarchy\":\"name=systemd\",\"group\":\"/a\",\"file\":\"tasks\",\"pid\":12,"
	"\"ppid\":1,\"uid\":1000,\"comm\":\"bash\",\"exe\":\"/usr/bin/bash\","
	"\"cmdline\":[\"bash\",\"-c\",\"xxx\"],\"program\":\"/usr/bin/bash\","
	"\"truncated\":[\"cmdline\"]}";
static const char v2_summary[] =
	"{\"v\":2,\"time\":\"2026-12-03T11:31:00.000Z\",\"kind\":\"named-hierarchy\","
	"\"folded\":98,\"first_time\":\"2026-12-03T11:30:01.000Z\","
	"\"last_time\":\"2026-12-03T11:30:59.000Z\",\"uid\":1000,\"comm\":\"bash\","
	"\"program\":\"/usr/bin/bash\"}";

static void test_counts_what_a_summary_folded(void)
{
	struct log_summary log;
	char text[4096];

	snprintf(text, sizeof(text), "%s\n%s\n%s\n", good_multi, v2_record, v2_summary);
	log_summary_init(&log, "t");
	CHECK_EQ_INT(feed(&log, text), 0);
	CHECK_EQ_INT(log.records, 3);
	CHECK_EQ_INT(log.folded, 98);
	CHECK_EQ_INT(log.by_kind[LOG_NAMED_HIERARCHY], 99);
	CHECK_EQ_INT(log.by_kind[LOG_MULTI_HIERARCHY], 1);
	/* The record and its summary are one use: the program the daemon named. */
	CHECK_EQ_INT(log.nr_uses, 2);
	CHECK(!strcmp(log.uses[0]->program, "/usr/bin/bash"));
	CHECK_EQ_INT(log.uses[0]->count, 99);
	CHECK(!strcmp(log.uses[0]->first_time, "2026-12-03T11:30:00.500Z"));
	CHECK(!strcmp(log.uses[0]->last_time, "2026-12-03T11:30:59.000Z"));
	CHECK(!strcmp(log.uses[0]->examples[0], "name=systemd:/a tasks"));
	log_summary_release(&log);
}

static void test_a_capped_file_and_bad_counts(void)
{
	struct log_summary log;

	log_summary_init(&log, "t");
	CHECK_EQ_INT(feed(&log,
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"log-capped\",\"max\":16384}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":0}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":-5}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":\"7\"}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":1.5}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":"
			  "9223372036854775807}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":"
			  "9223372036854775807}\n"
			  "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\",\"folded\":"
			  "9223372036854775807}\n"),
		     0);
	CHECK_EQ_INT(log.lines, 8);
	CHECK_EQ_INT(log.capped, 1);
	CHECK_EQ_INT(log.corrupt, 4);
	CHECK_EQ_INT(log.records, 3);
	/* A count past what the reader holds stays at its most. */
	CHECK(log.by_kind[LOG_APPROXIMATE] == ULONG_MAX);
	CHECK(log.folded == ULONG_MAX);
	log_summary_release(&log);
}

int main(void)
{
	test_counts_records_by_program_and_kind();
	test_skips_and_counts_truncated_and_garbage_lines();
	test_refuses_an_unknown_version();
	test_counts_unknown_kinds_as_other();
	test_counts_what_a_summary_folded();
	test_a_capped_file_and_bad_counts();
	return check_summary("migrate_logread");
}
