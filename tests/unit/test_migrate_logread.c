// SPDX-License-Identifier: GPL-2.0-or-later
/* The deprecation log reader: good, truncated and garbage lines, and versions it refuses. */
#include "check.h"
#include "logread.h"

#include <errno.h>
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
	CHECK_EQ_INT(feed(&log, "{\"v\":2,\"time\":\"t\",\"kind\":\"approximate\"}\n"),
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

int main(void)
{
	test_counts_records_by_program_and_kind();
	test_skips_and_counts_truncated_and_garbage_lines();
	test_refuses_an_unknown_version();
	test_counts_unknown_kinds_as_other();
	return check_summary("migrate_logread");
}
