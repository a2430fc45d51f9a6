// SPDX-License-Identifier: GPL-2.0-or-later
/* The split of an aggregate limit over the directories that carry its group. */
#include "check.h"
#include "group.h"

static unsigned long long sum(const unsigned long long *parts, size_t nr)
{
	unsigned long long total = 0;

	for (size_t i = 0; i < nr; i++)
		total += parts[i];
	return total;
}

static const struct split_rule pids = {.unit = 1, .floor = 1, .least = 0, .idle_floor = 0};
static const struct split_rule memory = {
	.unit = 4096, .floor = 4096, .least = 0, .idle_floor = 4096};
static const struct split_rule cpu = {
	.by_rate = true, .unit = 1, .floor = 1000, .least = 1000, .idle_floor = 1000};

int main(void)
{
	unsigned long long parts[5];

	/* pids.max 6, nothing used: an even split, the remainder to the first. */
	aggregate_split(&pids, (unsigned long long[]){0, 0}, NULL, 2, 6, parts);
	CHECK_EQ_INT(parts[0], 3);
	CHECK_EQ_INT(parts[1], 3);
	/* Usage 0, 3, 1 of 6: each keeps what it uses; the floor and the rest go first. */
	aggregate_split(&pids, (unsigned long long[]){0, 3, 1}, NULL, 3, 6, parts);
	CHECK_EQ_INT(parts[0], 2);
	CHECK_EQ_INT(parts[1], 3);
	CHECK_EQ_INT(parts[2], 1);
	CHECK_EQ_INT(sum(parts, 3), 6);
	/* Over the limit already (a limit lowered): in proportion, never past it. */
	aggregate_split(&pids, (unsigned long long[]){8, 4}, NULL, 2, 6, parts);
	CHECK_EQ_INT(parts[0], 4);
	CHECK_EQ_INT(parts[1], 2);
	/*
	 * Five members of pids.max 3, each in its own leaf: no floor of one
	 * task each, the parts add up to the limit (v1 refuses every fork).
	 */
	aggregate_split(&pids, (unsigned long long[]){1, 1, 1, 1, 1}, NULL, 5, 3, parts);
	CHECK_EQ_INT(sum(parts, 5), 3);
	CHECK(parts[0] <= 1 && parts[4] <= 1);
	/* Room for the floors: each part keeps at least one task, the rest is shared. */
	aggregate_split(&pids, (unsigned long long[]){1, 1, 1}, NULL, 3, 5, parts);
	CHECK_EQ_INT(sum(parts, 3), 5);
	CHECK(parts[0] >= 1 && parts[1] >= 1 && parts[2] >= 1);
	/* memory.max: whole pages, at least one, adding up to at most the limit. */
	aggregate_split(&memory, (unsigned long long[]){600000, 0, 300000}, NULL, 3, 1 << 20,
			parts);
	CHECK(parts[0] % 4096 == 0 && parts[1] % 4096 == 0 && parts[2] % 4096 == 0);
	CHECK(sum(parts, 3) <= 1 << 20);
	CHECK(sum(parts, 3) > (1 << 20) - 3 * 4096);
	CHECK(parts[0] > parts[2] && parts[2] > parts[1]);
	/* Each part reserves a half share: a newcomer gets room at once. */
	CHECK(parts[1] >= (1 << 20) / 6 - 4096);
	/* cpu.max 50 ms: half evenly, half by rate; an idle part keeps its reserve. */
	aggregate_split(&cpu, (unsigned long long[]){99000, 0}, NULL, 2, 50000, parts);
	CHECK_EQ_INT(sum(parts, 2), 50000);
	CHECK_EQ_INT(parts[1], 12500);
	CHECK_EQ_INT(parts[0], 37500);
	/* Both idle: halves. */
	aggregate_split(&cpu, (unsigned long long[]){0, 0}, NULL, 2, 50000, parts);
	CHECK_EQ_INT(parts[0], 25000);
	CHECK_EQ_INT(parts[1], 25000);
	/* Floors that cannot all fit are kept: the one case a sum passes the limit. */
	aggregate_split(&cpu, (unsigned long long[]){0, 0, 0}, NULL, 3, 2000, parts);
	CHECK_EQ_INT(parts[2], 1000);
	/*
	 * A leaf no process is in any more, kept for the pages still charged
	 * to the group (slurm's step_1, 32M): it cannot grow, so it holds what
	 * it has and the directory where the processes are gets the rest, not
	 * a half (v1 killed at the limit, cgxfs at 16M).
	 */
	aggregate_split(&memory, (unsigned long long[]){65536, 4096}, (bool[]){false, true}, 2,
			32 << 20, parts);
	CHECK_EQ_INT(parts[1], 4096);
	CHECK_EQ_INT(parts[0], (32 << 20) - 4096);
	/* What it holds in whole pages, at least the floor; a rate's idle part, the floor. */
	aggregate_split(&memory, (unsigned long long[]){0, 0, 8000}, (bool[]){false, true, true}, 3,
			1 << 20, parts);
	CHECK_EQ_INT(parts[1], 4096);
	CHECK_EQ_INT(parts[2], 8192);
	CHECK_EQ_INT(parts[0], (1 << 20) - 3 * 4096);
	aggregate_split(&cpu, (unsigned long long[]){0, 99000}, (bool[]){false, true}, 2, 50000,
			parts);
	CHECK_EQ_INT(parts[1], 1000);
	CHECK_EQ_INT(parts[0], 49000);
	/*
	 * An empty leaf holds no task: pids.max 8 over the container's leaf and
	 * three leaves runc exec passed through, the container keeps all 8.
	 */
	aggregate_split(&pids, (unsigned long long[]){3, 0, 0, 0},
			(bool[]){false, true, true, true}, 4, 8, parts);
	CHECK_EQ_INT(parts[0], 8);
	CHECK_EQ_INT(parts[1] + parts[2] + parts[3], 0);
	return check_summary("aggregate");
}
