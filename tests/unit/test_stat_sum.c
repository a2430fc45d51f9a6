// SPDX-License-Identifier: GPL-2.0-or-later
/* Statistics summed over directories, and the record of what removed leaves carried. */
#include "check.h"
#include "stat_sum.h"

#include <errno.h>
#include <string.h>

static void test_files_of_every_shape_add_up(void)
{
	_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;

	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "memory.current", "4096\n", NULL), 0);
	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "memory.current", "8192\n", NULL), 0);
	CHECK_EQ_INT(stat_sum_get(&sum, "memory.current", NULL), 12288);
	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "memory.events.local",
				       "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n", NULL),
		     0);
	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "memory.events.local", "max 2\noom_kill 4\n", NULL),
		     0);
	CHECK_EQ_INT(stat_sum_get(&sum, "memory.events.local", "max"), 5);
	CHECK_EQ_INT(stat_sum_get(&sum, "memory.events.local", "oom_kill"), 5);
	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "io.stat",
				       "8:0 rbytes=4096 wbytes=512 rios=1 wios=1 dbytes=0 dios=0\n"
				       "253:1 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n",
				       NULL),
		     0);
	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "io.stat", "8:0 rbytes=4 wbytes=0\n", NULL), 0);
	CHECK_EQ_INT(stat_sum_get(&sum, "io.stat", "8:0/rbytes"), 4100);
	CHECK_EQ_INT(stat_sum_get(&sum, "io.stat", "253:1/dios"), 6);
	/* "max" is no number; a missing key reads 0. */
	CHECK_EQ_INT(stat_sum_add_text(&sum, 0, "pids.max", "max\n", NULL), 0);
	CHECK_EQ_INT(stat_sum_get(&sum, "pids.max", NULL), 0);
	CHECK_EQ_INT(stat_sum_get(&sum, "memory.events.local", "nothing"), 0);
}

static void test_only_the_keys_asked_for(void)
{
	_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;
	static const char *const counters[] = {"pgfault", NULL};

	CHECK_EQ_INT(
		stat_sum_add_text(&sum, 'h', "memory.stat", "anon 4096\npgfault 7\n", counters), 0);
	CHECK_EQ_INT(sum.nr, 1);
	CHECK(!strcmp(sum.v[0].key, "h memory.stat pgfault"));
}

static void test_a_carried_peak_is_the_larger(void)
{
	_cleanup_stat_sum_ struct stat_sum record = STAT_SUM_INIT, live = STAT_SUM_INIT;

	stat_sum_add_text(&record, 'h', "memory.peak", "9000\n", NULL);
	stat_sum_add_text(&record, 'h', "cpu.stat", "usage_usec 10\n", NULL);
	stat_sum_add_text(&record, 't', "cpu.stat", "usage_usec 99\n", NULL);
	stat_sum_add_text(&live, 0, "memory.peak", "4000\n", NULL);
	stat_sum_add_text(&live, 0, "cpu.stat", "usage_usec 5\n", NULL);
	CHECK_EQ_INT(stat_sum_add_scope(&live, &record, 'h', "memory.peak"), 0);
	CHECK_EQ_INT(stat_sum_add_scope(&live, &record, 'h', "cpu.stat"), 0);
	CHECK_EQ_INT(stat_sum_get(&live, "memory.peak", NULL), 9000);
	CHECK_EQ_INT(stat_sum_get(&live, "cpu.stat", "usage_usec"), 15); /* not the 't' line */
}

static void fold_one(struct carry_record *rec, const char *text, unsigned long long ino,
		     const char *path)
{
	_cleanup_stat_sum_ struct stat_sum add = STAT_SUM_INIT;

	stat_sum_add_text(&add, 't', "memory.events.local", text, NULL);
	stat_sum_add_text(&add, 'h', "memory.peak", "500\n", NULL);
	CHECK_EQ_INT(carry_fold(rec, &add, ino, path), 0);
}

static unsigned long long kills(const struct carry_record *rec)
{
	_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;

	stat_sum_add_scope(&sum, &rec->carried, 't', "memory.events.local");
	return stat_sum_get(&sum, "memory.events.local", "oom_kill");
}

static void test_a_fold_is_void_until_settled(void)
{
	_cleanup_carry_ struct carry_record rec = {0}, again = {0};
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	fold_one(&rec, "oom_kill 2\n", 41, "@memory=a");
	fold_one(&rec, "oom_kill 3\n", 42, "p/@memory=b c"); /* settles the first as final */
	CHECK_EQ_INT(kills(&rec), 5);
	CHECK_EQ_INT(rec.last_ino, 42);
	/* Written, read back by a restarted daemon: the same. */
	CHECK_EQ_INT(carry_format(&rec, &text), 0);
	CHECK_EQ_INT(carry_parse(text.buf, &again), 0);
	CHECK_EQ_INT(again.last_ino, 42);
	CHECK(again.last_path && !strcmp(again.last_path, "p/@memory=b c"));
	CHECK_EQ_INT(kills(&again), 5);
	/* The leaf was still there: its fold goes, and the first one stays. */
	carry_undo_last(&again);
	CHECK_EQ_INT(kills(&again), 2);
	CHECK(!again.last_path);
	/* The peak line the second fold did not raise keeps the first's value. */
	{
		_cleanup_stat_sum_ struct stat_sum sum = STAT_SUM_INIT;

		stat_sum_add_scope(&sum, &again.carried, 'h', "memory.peak");
		CHECK_EQ_INT(stat_sum_get(&sum, "memory.peak", NULL), 500);
	}
}

static void test_a_damaged_record_is_refused(void)
{
	_cleanup_carry_ struct carry_record rec = {0};

	CHECK_EQ_INT(carry_parse("t memory.events.local oom_kill x\n", &rec), -EINVAL);
	carry_release(&rec);
	CHECK_EQ_INT(carry_parse("@last 12\n", &rec), -EINVAL);
	carry_release(&rec);
	CHECK_EQ_INT(carry_parse("", &rec), 0);
	CHECK_EQ_INT(rec.carried.nr, 0);
}

/* A past (upper-case scope) survives its record's text and is taken away, never below 0. */
static void test_a_past_is_taken_away(void)
{
	_cleanup_carry_ struct carry_record rec = {0}, again = {0};
	_cleanup_stat_sum_ struct stat_sum add = STAT_SUM_INIT, live = STAT_SUM_INIT;
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	stat_sum_add_text(&add, 'h', "cpu.stat", "usage_usec 100\nuser_usec 7\n", NULL);
	stat_sum_add_text(&add, 'H', "cpu.stat", "usage_usec 30\nuser_usec 50\n", NULL);
	CHECK_EQ_INT(carry_fold(&rec, &add, 0, ""), 0);
	carry_keep_last(&rec);
	CHECK_EQ_INT(carry_format(&rec, &text), 0);
	CHECK_EQ_INT(carry_parse(text.buf, &again), 0);
	stat_sum_add_text(&live, 0, "cpu.stat", "usage_usec 50\nuser_usec 20\n", NULL);
	CHECK_EQ_INT(stat_sum_add_scope(&live, &again.carried, 'h', "cpu.stat"), 0);
	stat_sum_sub_scope(&live, &again.carried, 'H', "cpu.stat");
	CHECK_EQ_INT(stat_sum_get(&live, "cpu.stat", "usage_usec"), 120);
	CHECK_EQ_INT(stat_sum_get(&live, "cpu.stat", "user_usec"), 0);
}

int main(void)
{
	test_files_of_every_shape_add_up();
	test_only_the_keys_asked_for();
	test_a_carried_peak_is_the_larger();
	test_a_fold_is_void_until_settled();
	test_a_damaged_record_is_refused();
	test_a_past_is_taken_away();
	return check_summary("stat_sum");
}
