// SPDX-License-Identifier: GPL-2.0-or-later
/* The systemd unit a cgroup path names, as records and migration drop-ins use it. */
#include "check.h"
#include "unit_name.h"

#include <string.h>

static void check_unit(const char *path, const char *want)
{
	char unit[UNIT_NAME_SIZE];
	bool found = unit_name_of_path(path, unit, sizeof(unit));

	CHECK_EQ_INT(found, want != NULL);
	CHECK_EQ_STR(unit, want ? want : "");
}

static void test_the_innermost_unit(void)
{
	check_unit("/system.slice/svc.service", "svc.service");
	check_unit("/ct/system.slice/svc.service/@tasks", "svc.service");
	check_unit("/cgx/ct/init.scope/@cpu=a;memory=b", "init.scope");
	check_unit("/user.slice/user-1000.slice/session-2.scope", "session-2.scope");
	check_unit("/machine.slice/systemd-nspawn@ct.service/payload", "systemd-nspawn@ct.service");
	check_unit("/system.slice", "system.slice");
	check_unit("/-.mount/x", "-.mount");
	check_unit("/system.slice/dev-sda2.swap", "dev-sda2.swap");
	check_unit("/system.slice/ssh.socket", "ssh.socket");
}

static void test_no_unit(void)
{
	check_unit("/", NULL);
	check_unit("", NULL);
	check_unit("/students/alice", NULL);
	/* Not a type with a group, no prefix, or characters systemd refuses. */
	check_unit("/a/multi-user.target", NULL);
	check_unit("/a/.service", NULL);
	check_unit("/a/my job.service", NULL);
	check_unit("/a/x\x1b[2J.service", NULL);
}

static void test_sections(void)
{
	CHECK_EQ_STR(unit_name_section("svc.service"), "Service");
	CHECK_EQ_STR(unit_name_section("user.slice"), "Slice");
	CHECK_EQ_STR(unit_name_section("run-r1.scope"), "Scope");
	CHECK(unit_name_section("students") == NULL);
}

static void test_a_unit_too_long_for_the_buffer(void)
{
	char unit[8];

	CHECK(!unit_name_of_path("/system.slice/longer.service", unit, sizeof(unit)));
	CHECK_EQ_STR(unit, "");
}

int main(void)
{
	test_the_innermost_unit();
	test_no_unit();
	test_sections();
	test_a_unit_too_long_for_the_buffer();
	return check_summary("unit_name");
}
