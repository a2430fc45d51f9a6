// SPDX-License-Identifier: GPL-2.0-or-later
/* cpu.shares -> cpu.weight: the points runc and crun publish for their 2025 mapping. */
#include "check.h"
#include "v1_files.h"

int main(void)
{
	CHECK_EQ_INT(cpu_shares_to_weight(2), 1);
	CHECK_EQ_INT(cpu_shares_to_weight(1024), 100);
	CHECK_EQ_INT(cpu_shares_to_weight(262144), 10000);
	/* Monotonic and within 1..10000 across the whole v1 range. */
	unsigned long long last = 0;
	int monotonic = 1, in_range = 1;
	for (unsigned long long s = 2; s <= 262144; s += 97) {
		unsigned long long w = cpu_shares_to_weight(s);

		monotonic &= w >= last;
		in_range &= w >= 1 && w <= 10000;
		last = w;
	}
	CHECK(monotonic);
	CHECK(in_range);
	CHECK(cpu_shares_to_weight(512) < 100 && cpu_shares_to_weight(2048) > 100);
	return check_summary("cpu_weight");
}
