// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's kstrtox rules, as the reference probes of a 6.1 kernel answered them. */
#include "check.h"
#include "parse.h"

#include <errno.h>
#include <string.h>

static int ull(const char *s, unsigned long long *v)
{
	return kstrtoull(s, 0, v);
}

static int pid_of(const char *text, int *pid)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s", text);
	return kstrtoint_strict_pid(buf, pid);
}

int main(void)
{
	unsigned long long v = 0;
	long long sv = 0;
	int i = 0;

	/* cpu.shares '512' and '512\n' are taken; ' 700', '700 ', '12x', '' and '-1' are EINVAL. */
	CHECK_EQ_INT(ull("512", &v), 0);
	CHECK_EQ_INT(v, 512);
	CHECK_EQ_INT(ull("512\n", &v), 0);
	CHECK_EQ_INT(ull(" 700", &v), -EINVAL);
	CHECK_EQ_INT(ull("700 ", &v), -EINVAL);
	CHECK_EQ_INT(ull("12x", &v), -EINVAL);
	CHECK_EQ_INT(ull("", &v), -EINVAL);
	CHECK_EQ_INT(ull("\n", &v), -EINVAL);
	CHECK_EQ_INT(ull("-1", &v), -EINVAL);
	CHECK_EQ_INT(ull("512\n\n", &v), -EINVAL);
	/* Base 0: hex and octal prefixes, a leading '+'. */
	CHECK_EQ_INT(ull("0x200", &v), 0);
	CHECK_EQ_INT(v, 512);
	CHECK_EQ_INT(ull("010", &v), 0);
	CHECK_EQ_INT(v, 8);
	CHECK_EQ_INT(ull("08", &v), -EINVAL);
	CHECK_EQ_INT(ull("+7", &v), 0);
	CHECK_EQ_INT(v, 7);
	CHECK_EQ_INT(ull("0", &v), 0);
	CHECK_EQ_INT(v, 0);
	/* Overflow is ERANGE, not EINVAL. */
	CHECK_EQ_INT(ull("18446744073709551615", &v), 0);
	CHECK_EQ_INT(ull("18446744073709551616", &v), -ERANGE);

	CHECK_EQ_INT(kstrtoll("-9223372036854775808", 0, &sv), 0);
	CHECK(sv == (-9223372036854775807LL - 1));
	CHECK_EQ_INT(kstrtoll("9223372036854775808", 0, &sv), -ERANGE);
	CHECK_EQ_INT(kstrtoint("2147483648", 0, &i), -ERANGE);
	CHECK_EQ_INT(kstrtoint("-5", 0, &i), 0);
	CHECK_EQ_INT(i, -5);

	/* tasks: stripped, base 0, negative and overflow are EINVAL. */
	CHECK_EQ_INT(pid_of(" 42 \n", &i), 0);
	CHECK_EQ_INT(i, 42);
	CHECK_EQ_INT(pid_of("0x10", &i), 0);
	CHECK_EQ_INT(i, 16);
	CHECK_EQ_INT(pid_of("abc", &i), -EINVAL);
	CHECK_EQ_INT(pid_of("-5", &i), -EINVAL);
	CHECK_EQ_INT(pid_of("", &i), -EINVAL);
	CHECK_EQ_INT(pid_of("99999999999", &i), -EINVAL);
	CHECK_EQ_INT(pid_of("1 2", &i), -EINVAL);

	/* The kernel's sscanf %llu: no sign, spaces skipped, stops at a non-digit. */
	const char *scan = " 42:7 x";
	CHECK_EQ_INT(kscan_ull(&scan, &v), 0);
	CHECK_EQ_INT(v, 42);
	CHECK(*scan == ':');
	scan = "-1";
	CHECK_EQ_INT(kscan_ull(&scan, &v), -EINVAL);
	scan = "+5";
	CHECK_EQ_INT(kscan_ull(&scan, &v), -EINVAL);
	scan = "";
	CHECK_EQ_INT(kscan_ull(&scan, &v), -EINVAL);

	char text[] = "  \t/bin/true \n";
	CHECK(!strcmp(strstrip(text), "/bin/true"));
	return check_summary("parse");
}
