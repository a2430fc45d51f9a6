// SPDX-License-Identifier: GPL-2.0-or-later
/* Which v1 values are settings, and what the table's converters make of them. */
#include "check.h"
#include "values.h"

#include <string.h>

static struct cgx_hier_set hiers;

static const struct mig_setting *find(const struct mig_group *group, const char *file)
{
	for (unsigned int i = 0; i < group->nr_settings; i++)
		if (!strcmp(group->settings[i].row->name, file))
			return &group->settings[i];
	return NULL;
}

static void release(struct mig_group *group)
{
	for (unsigned int i = 0; i < group->nr_settings; i++) {
		free(group->settings[i].value);
		free(group->settings[i].v2_value);
	}
	free(group->settings);
	memset(group, 0, sizeof(*group));
}

static void test_cpu_values_convert_through_the_table(void)
{
	const char *const pairs[] = {"cpu.shares",
				     "512\n",
				     "cpu.cfs_quota_us",
				     "50000\n",
				     "cpu.cfs_period_us",
				     "100000\n",
				     "cpu.idle",
				     "0\n",
				     NULL};
	struct group_values values = {0};
	struct mig_group group = {0};
	const struct mig_setting *s;
	char weight[32];

	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[0], pairs), 0);
	CHECK_EQ_INT(group_settings(&values, NULL, false, &group), 0);
	/* 512 differs from 1024; the period is its default; cpu.idle is 0. */
	CHECK_EQ_INT(group.nr_settings, 2);
	CHECK((s = find(&group, "cpu.shares")) != NULL);
	snprintf(weight, sizeof(weight), "%llu", cpu_shares_to_weight(512));
	CHECK(s && !strcmp(s->v2_value, weight) && s->fate == FATE_EXACT);
	CHECK(s && !strcmp(s->value, "512"));
	/* cpu.max needs the quota and the period: the converter looks the period up. */
	CHECK((s = find(&group, "cpu.cfs_quota_us")) != NULL);
	CHECK(s && !strcmp(s->v2_value, "50000 100000"));
	release(&group);
	group_values_release(&values);
}

static void test_no_v2_equivalent_keeps_the_note(void)
{
	const char *const pairs[] = {"net_cls.classid", "0x100001\n", NULL};
	struct group_values values = {0}, parent = {0};
	const char *const parent_pairs[] = {"net_cls.classid", "0\n", NULL};
	struct mig_group group = {0};
	const struct mig_setting *s;

	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[1], pairs), 0);
	CHECK_EQ_INT(group_values_set(&parent, &hiers.hier[1], parent_pairs), 0);
	CHECK_EQ_INT(group_settings(&values, &parent, false, &group), 0);
	CHECK((s = find(&group, "net_cls.classid")) != NULL);
	CHECK(s && s->fate == FATE_LOST && !s->v2_value);
	CHECK(s && s->row->v2.note && strstr(s->row->v2.note, "cgroupv2"));
	release(&group);
	group_values_release(&values);

	/* An inherited value the group did not change is not its setting. */
	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[1], parent_pairs), 0);
	group_values_release(&parent);
	CHECK_EQ_INT(group_values_set(&parent, &hiers.hier[1], parent_pairs), 0);
	CHECK_EQ_INT(group_settings(&values, &parent, false, &group), 0);
	CHECK_EQ_INT(group.nr_settings, 0);
	group_values_release(&values);
	group_values_release(&parent);
}

static void test_root_values_of_the_kernel_are_not_settings(void)
{
	/* The root cpuset is exclusive by the kernel's own doing. */
	const char *const pairs[] = {"cpuset.cpu_exclusive", "1\n", "cpuset.cpus", "0-3\n",
				     "notify_on_release",    "1\n", NULL};
	struct group_values values = {0};
	struct mig_group group = {0};

	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[2], pairs), 0);
	CHECK_EQ_INT(group_settings(&values, NULL, true, &group), 0);
	CHECK_EQ_INT(group.nr_settings, 1);
	CHECK(find(&group, "notify_on_release") != NULL);
	release(&group);
	group_values_release(&values);
}

static void test_root_swappiness_is_the_sysctl_and_groups_start_with_it(void)
{
	const char *const tuned[] = {"memory.swappiness", "30\n", NULL};
	const char *const changed[] = {"memory.swappiness", "60\n", NULL};
	struct group_values root = {0}, values = {0};
	struct mig_group group = {0};
	const struct mig_setting *s;

	/* vm.swappiness=30: the root's memory.swappiness, not a setting of the root group. */
	CHECK_EQ_INT(group_values_set(&root, &hiers.hier[3], tuned), 0);
	CHECK_EQ_INT(group_settings(&root, NULL, true, &group), 0);
	CHECK_EQ_INT(group.nr_settings, 0);
	/* A group made then starts with 30: nothing to carry. */
	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[3], tuned), 0);
	CHECK_EQ_INT(group_settings(&values, &root, false, &group), 0);
	CHECK_EQ_INT(group.nr_settings, 0);
	group_values_release(&values);
	/* One set to 60, the table's default, did change it: lost in cgroup2. */
	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[3], changed), 0);
	CHECK_EQ_INT(group_settings(&values, &root, false, &group), 0);
	CHECK((s = find(&group, "memory.swappiness")) != NULL);
	CHECK(s && !strcmp(s->value, "60") && s->fate == FATE_LOST);
	release(&group);
	group_values_release(&values);
	group_values_release(&root);
}

static void test_a_limit_is_a_setting_unless_it_is_none(void)
{
	/* A new group starts with no limit, whatever its parent's: "max" per resource. */
	const char *const limited[] = {"misc.max", "sev 5\nsev_es max\n", NULL};
	const char *const none[] = {"misc.max", "sev max\nsev_es max\n", NULL};
	const char *const no_resource[] = {"misc.max", "", NULL};
	struct group_values parent = {0}, values = {0};
	struct mig_group group = {0};
	const struct mig_setting *s;

	CHECK_EQ_INT(group_values_set(&parent, &hiers.hier[4], limited), 0);
	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[4], none), 0);
	CHECK_EQ_INT(group_settings(&values, &parent, false, &group), 0);
	CHECK_EQ_INT(group.nr_settings, 0);
	group_values_release(&values);
	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[4], no_resource), 0);
	CHECK_EQ_INT(group_settings(&values, NULL, false, &group), 0);
	CHECK_EQ_INT(group.nr_settings, 0);
	group_values_release(&values);
	/* The same limit as the parent's was written: the kernel would have started it at max. */
	CHECK_EQ_INT(group_values_set(&values, &hiers.hier[4], limited), 0);
	CHECK_EQ_INT(group_settings(&values, &parent, false, &group), 0);
	CHECK((s = find(&group, "misc.max")) != NULL);
	CHECK(s && !strcmp(s->v2_value, "sev 5\nsev_es max") && s->fate == FATE_EXACT);
	release(&group);
	group_values_release(&values);
	group_values_release(&parent);
}

static void test_text_equality(void)
{
	CHECK(v1_text_equal("1024\n", "1024\n"));
	CHECK(v1_text_equal("  max ", "max\n"));
	CHECK(!v1_text_equal("512\n", "1024\n"));
	CHECK(v1_text_equal("", "\n"));
	/* net_prio.ifpriomap lists interfaces at 0 when nothing is set. */
	CHECK(v1_text_equal("lo 0\neth0 0\n", ""));
	CHECK(!v1_text_equal("lo 0\neth0 5\n", ""));
}

int main(void)
{
	if (hier_set_parse(&hiers, "cpu,cpuacct;net_cls,net_prio;cpuset;memory;misc") < 0)
		return 1;
	test_cpu_values_convert_through_the_table();
	test_no_v2_equivalent_keeps_the_note();
	test_root_values_of_the_kernel_are_not_settings();
	test_root_swappiness_is_the_sysctl_and_groups_start_with_it();
	test_a_limit_is_a_setting_unless_it_is_none();
	test_text_equality();
	hier_set_release(&hiers);
	return check_summary("migrate_values");
}
