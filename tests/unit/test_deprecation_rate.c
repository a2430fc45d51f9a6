// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deprecation log's rate limit and text bounds: which records get a
 * line and a syslog warning, what is folded, which slot a key takes when
 * the table is full, and how hostile text is kept.
 */
#include "check.h"
#include "deprecation_rate.h"
#include "deprecation_text.h"

#include <string.h>

static struct deprecation_rate_table table;

static struct deprecation_rate *start(const struct deprecation_rate_key *key, long long now_ms)
{
	struct deprecation_rate *slot = deprecation_rate_slot(&table, key);

	if (deprecation_rate_due(slot, key, now_ms))
		deprecation_rate_start(slot, key, now_ms, "/usr/bin/prog", "prog");
	return slot;
}

static void test_a_window_writes_a_burst_and_folds_the_rest(void)
{
	const struct deprecation_rate_key key = {1000, 2, 0xabc};
	struct deprecation_rate *slot;
	unsigned int written = 0, said = 0;

	memset(&table, 0, sizeof(table));
	for (int i = 0; i < 100; i++) {
		unsigned int may;

		slot = start(&key, 1000 + i);
		may = deprecation_rate_take(slot, 1000 + i, i == 20 ? "first" : "later");
		written += !!(may & DEPRECATION_RATE_WRITE);
		said += !!(may & DEPRECATION_RATE_SYSLOG);
		/* Syslog's warnings are among the lines, never without one. */
		CHECK(!(may & DEPRECATION_RATE_SYSLOG) || (may & DEPRECATION_RATE_WRITE));
	}
	CHECK_EQ_INT(written, DEPRECATION_LOG_BURST);
	CHECK_EQ_INT(said, DEPRECATION_SYSLOG_BURST);
	CHECK_EQ_INT(slot->folded, 100 - DEPRECATION_LOG_BURST);
	CHECK_EQ_INT(slot->held_back, 100 - DEPRECATION_SYSLOG_BURST);
	CHECK(!strcmp(slot->first_folded, "first"));
	CHECK(!strcmp(slot->last_folded, "later"));
	/* One slot for one key, whatever the number of records. */
	CHECK(deprecation_rate_slot(&table, &key) == slot);
	CHECK(!deprecation_rate_due(slot, &key, 1000 + DEPRECATION_RATE_WINDOW_MS - 1));
	CHECK(deprecation_rate_due(slot, &key, 1000 + DEPRECATION_RATE_WINDOW_MS));
	CHECK(deprecation_rate_expired(slot, 1000 + DEPRECATION_RATE_WINDOW_MS));
	/* A new window starts empty. */
	slot = start(&key, 1000 + DEPRECATION_RATE_WINDOW_MS);
	CHECK_EQ_INT(slot->folded, 0);
	CHECK_EQ_INT(deprecation_rate_take(slot, 1000 + DEPRECATION_RATE_WINDOW_MS, "t"),
		     DEPRECATION_RATE_WRITE | DEPRECATION_RATE_SYSLOG);
}

static void test_each_uid_program_and_kind_has_its_own_window(void)
{
	const struct deprecation_rate_key keys[] = {
		{1000, 2, 1}, {1001, 2, 1}, {1000, 3, 1}, {1000, 2, 2}};
	struct deprecation_rate *slots[4];

	memset(&table, 0, sizeof(table));
	for (unsigned int k = 0; k < 4; k++) {
		slots[k] = start(&keys[k], 5);
		for (int i = 0; i < DEPRECATION_LOG_BURST; i++)
			deprecation_rate_take(slots[k], 5, "t");
	}
	for (unsigned int k = 0; k < 4; k++) {
		CHECK(deprecation_rate_slot(&table, &keys[k]) == slots[k]);
		CHECK_EQ_INT(deprecation_rate_take(slots[k], 6, "t"), 0);
		for (unsigned int j = 0; j < k; j++)
			CHECK(slots[j] != slots[k]);
	}
}

static void test_a_full_table_gives_the_slot_used_longest_ago(void)
{
	struct deprecation_rate_key key = {0, 0, 0};
	struct deprecation_rate *slot, *oldest = NULL;

	memset(&table, 0, sizeof(table));
	/* A caller going through ten times as many program names as there are slots. */
	for (unsigned int i = 0; i < 10 * DEPRECATION_RATE_SLOTS; i++) {
		key.program_hash = i + 1;
		slot = deprecation_rate_slot(&table, &key);
		CHECK(slot >= table.slot && slot < table.slot + DEPRECATION_RATE_SLOTS);
		if (deprecation_rate_due(slot, &key, 1000 + i))
			deprecation_rate_start(slot, &key, 1000 + i, "p", "c");
		deprecation_rate_take(slot, 1000 + i, "t");
	}
	/* The keys kept are the last DEPRECATION_RATE_SLOTS. */
	key.program_hash = 10 * DEPRECATION_RATE_SLOTS - DEPRECATION_RATE_SLOTS + 1;
	oldest = deprecation_rate_slot(&table, &key);
	CHECK_EQ_INT(oldest->key.program_hash, key.program_hash);
	key.program_hash = 1;
	slot = deprecation_rate_slot(&table, &key);
	CHECK(slot == oldest);
	CHECK(deprecation_rate_due(slot, &key, 1000));
	/* A free slot goes before the oldest used one. */
	table.slot[7].used = false;
	CHECK(deprecation_rate_slot(&table, &key) == &table.slot[7]);
}

static void test_text_is_valid_utf8_within_its_bound(void)
{
	char out[64];
	bool cut;

	/* Control characters and quotes cost what json-c writes for them. */
	CHECK_EQ_INT(log_text_copy(out, sizeof(out), "a\n\"\x01", 4, SIZE_MAX, &cut),
		     1 + 2 + 2 + 6);
	CHECK(!cut && !strcmp(out, "a\n\"\x01"));
	/* A byte that is no UTF-8 becomes U+FFFD; good sequences stay. */
	log_text_copy(out, sizeof(out),
		      "\xff"
		      "a\xc3\xa9"
		      "\xc0\xaf"
		      "\xed\xa0\x80"
		      "\xf4\x90\x80\x80",
		      13, SIZE_MAX, &cut);
	CHECK(!cut);
	CHECK(!strcmp(out, "\xef\xbf\xbd"
			   "a\xc3\xa9"
			   "\xef\xbf\xbd\xef\xbf\xbd"
			   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
	/* Cut at a whole character, by the JSON budget or by the buffer. */
	CHECK_EQ_INT(log_text_copy(out, sizeof(out),
				   "ab\xc3\xa9"
				   "cd",
				   6, 3, &cut),
		     2);
	CHECK(cut && !strcmp(out, "ab"));
	CHECK_EQ_INT(log_text_copy(out, sizeof(out), "\x01\x01", 2, 11, &cut), 6);
	CHECK(cut && !strcmp(out, "\x01"));
	log_text_copy(out, 4, "ab\xc3\xa9", 4, SIZE_MAX, &cut);
	CHECK(cut && !strcmp(out, "ab"));
	log_text_copy(out, sizeof(out), "", 0, 0, &cut);
	CHECK(!cut && !out[0]);
}

static void test_a_uid_budget_bounds_the_bytes_of_every_program(void)
{
	struct deprecation_uid_budget *budget, *other;
	unsigned long long charged = 0;
	int refused = 0;

	memset(&table, 0, sizeof(table));
	budget = deprecation_uid_slot(&table, 1000);
	CHECK(deprecation_uid_due(budget, 1000, 5));
	deprecation_uid_start(budget, 1000, 5);
	/* Lines of 5000 bytes: whole ones up to the budget, then none. */
	for (int i = 0; i < 100; i++) {
		if (deprecation_uid_charge(budget, 5000, 5 + i)) {
			charged += 5000;
			CHECK_EQ_INT(refused, 0);
		} else {
			refused++;
			deprecation_uid_fold(budget, 3, 1, 100000 + i, i == 99 ? "last" : "t");
		}
	}
	CHECK(charged <= DEPRECATION_UID_BYTES);
	CHECK(charged > DEPRECATION_UID_BYTES - 5000);
	CHECK_EQ_INT(budget->overflow[3], refused);
	CHECK(!strcmp(budget->last_overflow, "last"));
	/* Its summary names the real uid of the first record folded. */
	CHECK_EQ_INT(budget->first_uid, 100000 + (100 - refused));
	/* Another uid has a budget of its own; the same uid finds its own again. */
	other = deprecation_uid_slot(&table, 1001);
	CHECK(other != budget);
	CHECK(deprecation_uid_slot(&table, 1000) == budget);
	/* The window closes, and the next starts with the whole budget. */
	CHECK(!deprecation_uid_due(budget, 1000, 5 + DEPRECATION_RATE_WINDOW_MS - 1));
	CHECK(deprecation_uid_expired(budget, 5 + DEPRECATION_RATE_WINDOW_MS));
	deprecation_uid_start(budget, 1000, 5 + DEPRECATION_RATE_WINDOW_MS);
	CHECK_EQ_INT(budget->overflow[3], 0);
	CHECK(deprecation_uid_charge(budget, DEPRECATION_UID_BYTES,
				     6 + DEPRECATION_RATE_WINDOW_MS));
	CHECK(!deprecation_uid_charge(budget, 1, 6 + DEPRECATION_RATE_WINDOW_MS));
	/* A full table gives the budget used longest ago. */
	memset(&table, 0, sizeof(table));
	for (uid_t uid = 0; uid < DEPRECATION_UID_SLOTS; uid++)
		deprecation_uid_start(deprecation_uid_slot(&table, uid), uid, 100 + uid);
	budget = deprecation_uid_slot(&table, 5000);
	CHECK(budget->used && budget->uid == 0);
}

static void test_syslog_text_spells_out_control_characters(void)
{
	char out[16], wide[32];

	log_text_printable(wide, sizeof(wide), "a\nb\x1b[c\x7f");
	CHECK(!strcmp(wide, "a\\x0ab\\x1b[c\\x7f"));
	log_text_printable(out, sizeof(out), "0123456789abcdefghij");
	CHECK(!strcmp(out, "0123456789ab..."));
	/* No character cut in two before the dots. */
	log_text_printable(out, sizeof(out), "0123456789a\xc3\xa9zzzz");
	CHECK(!strcmp(out, "0123456789a..."));
	log_text_printable(out, sizeof(out), "0123456789a\x01");
	CHECK(!strcmp(out, "0123456789a\\x01"));
	log_text_printable(out, sizeof(out), "0123456789ab\x01");
	CHECK(!strcmp(out, "0123456789ab..."));
}

int main(void)
{
	test_a_window_writes_a_burst_and_folds_the_rest();
	test_each_uid_program_and_kind_has_its_own_window();
	test_a_full_table_gives_the_slot_used_longest_ago();
	test_a_uid_budget_bounds_the_bytes_of_every_program();
	test_text_is_valid_utf8_within_its_bound();
	test_syslog_text_spells_out_control_characters();
	return check_summary("deprecation_rate");
}
