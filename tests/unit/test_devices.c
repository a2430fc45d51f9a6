// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The devices controller as security/device_cgroup.c (6.1) behaves: the rule
 * parser with its EINVAL cases, the allow/deny/list logic with its EPERM
 * cases and propagation, the stored form, and the device program against
 * the kernel's own check, instruction by instruction.
 */
#include "bpf_devices.h"
#include "check.h"

#include <linux/bpf.h>
#include <stddef.h>
#include <string.h>

static int parse(const char *text, struct devcg_rule *rule)
{
	return devcg_rule_parse(text, rule);
}

/* The rule @text parsed: -errno, or 0 with the fields compared. */
static void check_rule(const char *text, short type, uint32_t major, uint32_t minor, short access)
{
	struct devcg_rule rule;
	int r = parse(text, &rule);

	if (r != 0)
		fprintf(stderr, "rule \"%s\" refused: %d\n", text, r);
	CHECK_EQ_INT(r, 0);
	CHECK(!rule.all);
	CHECK_EQ_INT(rule.ex.type, type);
	CHECK_EQ_INT(rule.ex.major, major);
	CHECK_EQ_INT(rule.ex.minor, minor);
	CHECK_EQ_INT(rule.ex.access, access);
}

static void check_einval(const char *text)
{
	struct devcg_rule rule;
	int r = parse(text, &rule);

	if (r != -EINVAL)
		fprintf(stderr, "rule \"%s\" gave %d, expected -EINVAL\n", text, r);
	CHECK_EQ_INT(r, -EINVAL);
}

static const short RWM = DEVCG_ACC_READ | DEVCG_ACC_WRITE | DEVCG_ACC_MKNOD;

static void test_rules_parse_as_devcgroup_update_access(void)
{
	check_rule("c 1:3 rwm", DEVCG_DEV_CHAR, 1, 3, RWM);
	check_rule("b 8:0 r", DEVCG_DEV_BLOCK, 8, 0, DEVCG_ACC_READ);
	check_rule("c *:* m", DEVCG_DEV_CHAR, DEVCG_ANY, DEVCG_ANY, DEVCG_ACC_MKNOD);
	check_rule("c 1:3 mwr", DEVCG_DEV_CHAR, 1, 3, RWM);
	/* The whole write is stripped first; one white space of any kind separates. */
	check_rule("c 1:3 rw\n", DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ | DEVCG_ACC_WRITE);
	check_rule("  c 1:3 w  \n", DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_WRITE);
	check_rule("c\t1:3\tr", DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ);
	check_rule("c 1:3\xa0r", DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ); /* the kernel's isspace */
	/* At most three access characters are read; what follows them is not. */
	check_rule("c 1:3 rwmx", DEVCG_DEV_CHAR, 1, 3, RWM);
	check_rule("c 1:3 rrr", DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ);
	check_rule("c 1:3 r\nx", DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ);
	check_rule("c 1:3 \nr", DEVCG_DEV_CHAR, 1, 3, 0);
	/* u32 numbers: ~0 is the wildcard; eleven digits are read, zeros included. */
	check_rule("c 4294967295:0 r", DEVCG_DEV_CHAR, DEVCG_ANY, 0, DEVCG_ACC_READ);
	check_rule("c 00000000001:7 r", DEVCG_DEV_CHAR, 1, 7, DEVCG_ACC_READ);
	check_rule("b 259:4294967294 w", DEVCG_DEV_BLOCK, 259, 4294967294u, DEVCG_ACC_WRITE);
}

static void test_a_sets_the_default_whatever_follows(void)
{
	struct devcg_rule rule;

	CHECK_EQ_INT(parse("a", &rule), 0);
	CHECK(rule.all);
	CHECK_EQ_INT(parse("a *:* rwm\n", &rule), 0);
	CHECK(rule.all);
	CHECK_EQ_INT(parse("abc", &rule), 0);
	CHECK(rule.all);
}

static void test_bad_rules_are_einval(void)
{
	check_einval("");
	check_einval("\n");
	check_einval("bogus");
	check_einval("x 1:3 rwm");
	check_einval("C 1:3 rwm");
	check_einval("c1:3 rwm");
	check_einval("c 1:3");
	check_einval("c 1:3 ");
	check_einval("c 1 rwm");
	check_einval("c 1:3:4 rwm");
	check_einval("c 1:3  rwm"); /* a second space is an access character */
	check_einval("c 1:3 rwx");
	check_einval("c 1:3 R");
	check_einval("c a:3 rwm");
	check_einval("c 1:b rwm");
	check_einval("c -1:3 rwm");
	check_einval("c +1:3 rwm");
	check_einval("c 0x1:3 rwm");
	check_einval("c 4294967296:1 rwm"); /* kstrtou32 -ERANGE */
	check_einval("c 1:99999999999 rwm");
	check_einval("c 000000000001:3 r"); /* a twelfth digit is where ':' must be */
	check_einval("c **:3 r");
	check_einval("c :3 r");
}

static void rule_of(const char *text, struct devcg_rule *rule)
{
	CHECK_EQ_INT(parse(text, rule), 0);
}

/* @text written to devices.allow (@allow) or devices.deny of @group: the errno. */
static int write_rule(struct devcg_list *group, const struct devcg_list *parent, bool children,
		      bool allow, const char *text)
{
	struct devcg_rule rule;
	bool propagate;

	rule_of(text, &rule);
	return devcg_update(group, parent, children, allow, &rule, &propagate);
}

static bool shows(const struct devcg_list *list, const char *expected)
{
	_cleanup_strbuf_ struct strbuf out = STRBUF_INIT;
	bool same;

	CHECK_EQ_INT(devcg_list_show(list, &out), 0);
	same = !strcmp(out.buf ? out.buf : "", expected);
	if (!same)
		fprintf(stderr, "devices.list \"%s\", expected \"%s\"\n", out.buf ? out.buf : "",
			expected);
	return same;
}

static void test_a_new_group_allows_everything(void)
{
	struct devcg_list list = DEVCG_LIST_INIT;

	CHECK(shows(&list, "a *:* rwm\n"));
	CHECK(devcg_list_allows_all(&list));
	CHECK(devcg_may_access(&list, DEVCG_DEV_BLOCK, 8, 0, DEVCG_ACC_WRITE));
}

static void test_deny_under_default_allow_adds_a_hidden_exception(void)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;

	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "c 1:3 w"), 0);
	/* devcgroup_seq_show shows only "a *:* rwm" under default allow. */
	CHECK(shows(&list, "a *:* rwm\n"));
	CHECK(!devcg_list_allows_all(&list));
	CHECK(devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	CHECK(!devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_WRITE));
	/* A partial match refuses the whole request. */
	CHECK(!devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ | DEVCG_ACC_WRITE));
	CHECK(devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 5, DEVCG_ACC_WRITE));
	CHECK(devcg_may_access(&list, DEVCG_DEV_BLOCK, 1, 3, DEVCG_ACC_WRITE));
	/* devices.allow takes it away again, quietly. */
	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 1:3 rwm"), 0);
	CHECK(devcg_list_allows_all(&list));
	CHECK_EQ_INT(list.nr, 0);
}

static void test_allow_under_default_allow_removes_only_the_same_device(void)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;

	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "c 1:3 rwm"), 0);
	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 1:* rwm"), 0);
	CHECK_EQ_INT(list.nr, 1);
	CHECK(!devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 1:3 r"), 0);
	CHECK_EQ_INT(list.ex[0].access, DEVCG_ACC_WRITE | DEVCG_ACC_MKNOD);
	CHECK(devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
}

static void test_a_deny_clears_exceptions_and_lists_nothing(void)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;

	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "c 1:3 rwm"), 0);
	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "a"), 0);
	CHECK(!list.allow);
	CHECK_EQ_INT(list.nr, 0);
	CHECK(shows(&list, ""));
	CHECK(!devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	CHECK(!devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 5, 0));
}

static void test_default_deny_lists_and_merges_allowed_devices(void)
{
	_cleanup_devcg_list_ struct devcg_list list = {.allow = false};

	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 1:3 r"), 0);
	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "b *:* m"), 0);
	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 1:3 w"), 0);
	CHECK(shows(&list, "c 1:3 rw\nb *:* m\n"));
	CHECK(devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ | DEVCG_ACC_WRITE));
	CHECK(!devcg_may_access(&list, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_MKNOD));
	CHECK(devcg_may_access(&list, DEVCG_DEV_BLOCK, 8, 1, DEVCG_ACC_MKNOD));
	CHECK(!devcg_may_access(&list, DEVCG_DEV_BLOCK, 8, 1, DEVCG_ACC_READ));
	/* devices.deny under default deny takes access away from the very same device only. */
	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "c 1:* w"), 0);
	CHECK(shows(&list, "c 1:3 rw\nb *:* m\n"));
	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "c 1:3 w"), 0);
	CHECK(shows(&list, "c 1:3 r\nb *:* m\n"));
	CHECK_EQ_INT(write_rule(&list, NULL, false, false, "c 1:3 r"), 0);
	CHECK(shows(&list, "b *:* m\n"));
}

static void test_a_wildcard_prints_as_a_star(void)
{
	_cleanup_devcg_list_ struct devcg_list list = {.allow = false};

	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 4294967295:5 rwm"), 0);
	CHECK_EQ_INT(write_rule(&list, NULL, false, true, "c 1:3 \nr"), 0);
	CHECK(shows(&list, "c *:5 rwm\nc 1:3 \n"));
}

static void test_a_changes_the_default_only_without_children(void)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;

	CHECK_EQ_INT(write_rule(&list, NULL, true, false, "a"), -EINVAL);
	CHECK_EQ_INT(write_rule(&list, NULL, true, true, "a"), -EINVAL);
	CHECK(list.allow);
	/* Rules for single devices are fine with children. */
	CHECK_EQ_INT(write_rule(&list, NULL, true, false, "c 1:3 r"), 0);
}

static void test_allow_all_needs_a_parent_that_allows_all(void)
{
	_cleanup_devcg_list_ struct devcg_list parent = DEVCG_LIST_INIT;
	_cleanup_devcg_list_ struct devcg_list child = {.allow = false};

	CHECK_EQ_INT(write_rule(&parent, NULL, true, false, "c 1:3 rwm"), 0);
	/* "a" comes back as the parent is: allow, less the parent's exceptions. */
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "a"), 0);
	CHECK(child.allow);
	CHECK_EQ_INT(child.nr, 1);
	CHECK(!devcg_may_access(&child, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	/* Under a default-deny parent it is refused. */
	parent.allow = false;
	parent.nr = 0;
	child.allow = false;
	child.nr = 0;
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "a"), -EPERM);
	CHECK(!child.allow);
	/* The root has no parent to ask. */
	CHECK_EQ_INT(write_rule(&child, NULL, false, true, "a"), 0);
	CHECK(devcg_list_allows_all(&child));
}

static void test_a_child_gets_no_more_than_a_default_deny_parent(void)
{
	_cleanup_devcg_list_ struct devcg_list parent = {.allow = false};
	_cleanup_devcg_list_ struct devcg_list child = {.allow = false};

	CHECK_EQ_INT(write_rule(&parent, NULL, false, true, "c 1:3 rw"), 0);
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "c 1:3 r"), 0);
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "c 1:3 rwm"), -EPERM);
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "c 1:5 r"), -EPERM);
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "c 1:* r"), -EPERM);
	CHECK(shows(&child, "c 1:3 r\n"));
	/* Taking away is always allowed. */
	CHECK_EQ_INT(write_rule(&child, &parent, false, false, "c 9:9 rwm"), 0);
}

static void test_a_child_gets_nothing_a_default_allow_parent_denies(void)
{
	_cleanup_devcg_list_ struct devcg_list parent = DEVCG_LIST_INIT;
	_cleanup_devcg_list_ struct devcg_list deny_child = {.allow = false};
	_cleanup_devcg_list_ struct devcg_list allow_child = DEVCG_LIST_INIT;

	CHECK_EQ_INT(write_rule(&parent, NULL, false, false, "c 1:3 w"), 0);
	/* verify_new_ex: no overlap at all with the parent's exceptions. */
	CHECK_EQ_INT(write_rule(&deny_child, &parent, false, true, "c 1:3 r"), 0);
	CHECK_EQ_INT(write_rule(&deny_child, &parent, false, true, "c 1:3 w"), -EPERM);
	CHECK_EQ_INT(write_rule(&deny_child, &parent, false, true, "c *:* rw"), -EPERM);
	CHECK_EQ_INT(write_rule(&deny_child, &parent, false, true, "b *:* rw"), 0);
	/* parent_allows_removal: a default-allow child cannot drop what the parent denies. */
	CHECK_EQ_INT(devcg_list_copy(&allow_child, &parent), 0);
	CHECK_EQ_INT(write_rule(&allow_child, &parent, false, true, "c 1:3 w"), -EPERM);
	CHECK_EQ_INT(allow_child.nr, 1);
	CHECK_EQ_INT(write_rule(&allow_child, &parent, false, false, "c 1:5 r"), 0);
	CHECK_EQ_INT(write_rule(&allow_child, &parent, false, true, "c 1:5 r"), 0);
	CHECK_EQ_INT(allow_child.nr, 1);
}

/* The kernel's propagation: descendants in pre-order, each against its updated parent. */
static void propagate(struct devcg_list *origin, const struct devcg_list *origin_parent, bool allow,
		      const char *text, struct devcg_list **desc, struct devcg_list **desc_parent,
		      unsigned int nr)
{
	struct devcg_rule rule;
	bool again;

	rule_of(text, &rule);
	CHECK_EQ_INT(devcg_update(origin, origin_parent, nr > 0, allow, &rule, &again), 0);
	CHECK(again == !allow);
	for (unsigned int i = 0; again && i < nr; i++)
		CHECK_EQ_INT(devcg_propagate(desc[i], desc_parent[i], origin->allow, &rule.ex), 0);
}

static void test_a_deny_reaches_every_default_allow_descendant(void)
{
	_cleanup_devcg_list_ struct devcg_list parent = DEVCG_LIST_INIT;
	_cleanup_devcg_list_ struct devcg_list child = DEVCG_LIST_INIT;
	_cleanup_devcg_list_ struct devcg_list grandchild = DEVCG_LIST_INIT;
	struct devcg_list *desc[] = {&child, &grandchild}, *up[] = {&parent, &child};

	propagate(&parent, NULL, false, "c 1:3 rwm", desc, up, 2);
	CHECK(!devcg_may_access(&child, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	CHECK(!devcg_may_access(&grandchild, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	CHECK(devcg_may_access(&grandchild, DEVCG_DEV_CHAR, 1, 5, DEVCG_ACC_READ));
	/* An allow is not propagated: the children keep the restriction. */
	propagate(&parent, NULL, true, "c 1:3 rwm", desc, up, 2);
	CHECK(devcg_may_access(&parent, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
	CHECK(!devcg_may_access(&child, DEVCG_DEV_CHAR, 1, 3, DEVCG_ACC_READ));
}

static void test_children_lose_what_a_default_deny_parent_loses(void)
{
	_cleanup_devcg_list_ struct devcg_list parent = {.allow = false};
	_cleanup_devcg_list_ struct devcg_list child = {.allow = false};
	struct devcg_list *desc[] = {&child}, *up[] = {&parent};

	CHECK_EQ_INT(write_rule(&parent, NULL, false, true, "c 1:3 rwm"), 0);
	CHECK_EQ_INT(write_rule(&parent, NULL, false, true, "c 1:5 rwm"), 0);
	CHECK_EQ_INT(devcg_list_copy(&child, &parent), 0); /* devcgroup_online */
	propagate(&parent, NULL, false, "c 1:3 w", desc, up, 1);
	CHECK(shows(&parent, "c 1:3 rm\nc 1:5 rwm\n"));
	CHECK(shows(&child, "c 1:3 rm\nc 1:5 rwm\n"));
}

static void test_revalidation_drops_what_the_parent_no_longer_grants(void)
{
	_cleanup_devcg_list_ struct devcg_list parent = DEVCG_LIST_INIT;
	_cleanup_devcg_list_ struct devcg_list child = {.allow = false};
	struct devcg_list *desc[] = {&child}, *up[] = {&parent};

	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "c 1:3 rwm"), 0);
	CHECK_EQ_INT(write_rule(&child, &parent, false, true, "c 4:1 r"), 0);
	/* The parent denies a range: the child's exact exception overlapping it goes. */
	propagate(&parent, NULL, false, "c 1:* w", desc, up, 1);
	CHECK(shows(&child, "c 4:1 r\n"));
}

static void check_stored(const char *text, int expected_r)
{
	_cleanup_devcg_list_ struct devcg_list list = DEVCG_LIST_INIT;
	_cleanup_strbuf_ struct strbuf again = STRBUF_INIT;
	int r = devcg_list_parse(text, &list);

	if (r != expected_r)
		fprintf(stderr, "stored \"%s\" gave %d\n", text, r);
	CHECK_EQ_INT(r, expected_r);
	if (r < 0)
		return;
	CHECK_EQ_INT(devcg_list_format(&list, &again), 0);
	CHECK(!strcmp(again.buf, text));
}

static void test_the_stored_form_round_trips_and_is_never_empty(void)
{
	_cleanup_devcg_list_ struct devcg_list deny_all = {.allow = false};
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	check_stored(DEVCG_STORED_ALLOW_ALL, 0);
	check_stored("default allow\nc 1:3 w\n", 0);
	check_stored("default deny\n", 0);
	check_stored("default deny\nc 1:3 rwm\nb *:* m\nc 4294967294:* \n", 0);
	check_stored("", -EINVAL);
	check_stored("a *:* rwm\n", -EINVAL);
	check_stored("default deny\nx 1:3 r\n", -EINVAL);
	check_stored("default deny\nc 1:3 rr\n", -EINVAL);
	check_stored("default deny\nc 1:3 r", -EINVAL);
	CHECK_EQ_INT(devcg_list_format(&deny_all, &text), 0);
	CHECK(!strcmp(text.buf, "default deny\n"));
}

/* Just enough of an eBPF interpreter for the instructions devcg_prog_build emits. */
static int run_program(const struct bpf_insn *prog, unsigned int nr,
		       const struct bpf_cgroup_dev_ctx *ctx, bool *ok)
{
	uint64_t reg[11] = {0};

	*ok = false;
	for (unsigned int pc = 0; pc < nr; pc++) {
		const struct bpf_insn *i = &prog[pc];
		uint64_t imm = (uint64_t)(int64_t)i->imm;
		bool jump = false;

		switch (i->code) {
		case BPF_LDX | BPF_MEM | BPF_W:
			if (i->src_reg != 1 || i->off < 0 || i->off + 4 > (int)sizeof(*ctx))
				return -1;
			reg[i->dst_reg] = *(const uint32_t *)((const char *)ctx + i->off);
			break;
		case BPF_ALU64 | BPF_MOV | BPF_X:
			reg[i->dst_reg] = reg[i->src_reg];
			break;
		case BPF_ALU64 | BPF_MOV | BPF_K:
			reg[i->dst_reg] = imm;
			break;
		case BPF_ALU64 | BPF_AND | BPF_K:
			reg[i->dst_reg] &= imm;
			break;
		case BPF_ALU64 | BPF_RSH | BPF_K:
			reg[i->dst_reg] >>= i->imm;
			break;
		case BPF_JMP32 | BPF_JNE | BPF_K:
			jump = (uint32_t)reg[i->dst_reg] != (uint32_t)i->imm;
			break;
		case BPF_JMP | BPF_JNE | BPF_K:
			jump = reg[i->dst_reg] != imm;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			jump = reg[i->dst_reg] == imm;
			break;
		case BPF_JMP | BPF_EXIT:
			*ok = true;
			return (int)reg[0];
		default:
			return -1;
		}
		if (jump) {
			if (i->off <= 0 || pc + 1 + i->off > nr)
				return -1; /* forward jumps only, inside the program */
			pc += i->off;
		}
	}
	return -1;
}

/* Every request on a grid of devices against devcg_may_access. */
static void check_program_matches(const struct devcg_list *list)
{
	static const uint32_t numbers[] = {0, 1, 3, 5, 8, 4294967294u};
	_cleanup_free_ void *insns = NULL;
	unsigned int nr = 0, mismatches = 0;

	CHECK_EQ_INT(devcg_prog_build(list, &insns, &nr), 0);
	CHECK(nr >= 8);
	for (short type = DEVCG_DEV_BLOCK; type <= DEVCG_DEV_CHAR; type++)
		for (size_t a = 0; a < ARRAY_SIZE(numbers); a++)
			for (size_t b = 0; b < ARRAY_SIZE(numbers); b++)
				for (short access = 0; access <= DEVCG_ACC_MASK; access++) {
					struct bpf_cgroup_dev_ctx ctx = {
						.access_type = (uint32_t)access << 16 | type,
						.major = numbers[a],
						.minor = numbers[b],
					};
					bool ok;
					int verdict = run_program(insns, nr, &ctx, &ok);
					bool kernel = devcg_may_access(list, type, numbers[a],
								       numbers[b], access);

					mismatches += !ok || verdict != (int)kernel;
				}
	if (mismatches)
		fprintf(stderr, "program differs from the kernel's check %u times\n", mismatches);
	CHECK_EQ_INT(mismatches, 0);
}

static void test_the_program_decides_as_the_kernel_check(void)
{
	static const char *const rules[] = {
		"c 1:3 w", "b *:* m", "c *:5 rw", "c 1:* r", "b 8:4294967294 rwm", "c 1:3 \nr"};
	_cleanup_devcg_list_ struct devcg_list allow = DEVCG_LIST_INIT;
	_cleanup_devcg_list_ struct devcg_list deny = {.allow = false};

	check_program_matches(&allow);
	check_program_matches(&deny);
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		CHECK_EQ_INT(write_rule(&allow, NULL, false, false, rules[i]), 0);
		CHECK_EQ_INT(write_rule(&deny, NULL, false, true, rules[i]), 0);
		check_program_matches(&allow);
		check_program_matches(&deny);
	}
}

static void test_the_program_reads_the_context_the_kernel_fills(void)
{
	_cleanup_devcg_list_ struct devcg_list list = {.allow = false};
	_cleanup_free_ void *insns = NULL;
	const struct bpf_insn *prog;
	unsigned int nr;

	CHECK_EQ_INT(devcg_prog_build(&list, &insns, &nr), 0);
	prog = insns;
	/* Deny all: the loads, then r0 = 0 and exit. */
	CHECK_EQ_INT(nr, 8);
	CHECK_EQ_INT(prog[0].off, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	CHECK_EQ_INT(prog[4].off, offsetof(struct bpf_cgroup_dev_ctx, major));
	CHECK_EQ_INT(prog[5].off, offsetof(struct bpf_cgroup_dev_ctx, minor));
	CHECK_EQ_INT(prog[6].imm, 0);
	CHECK_EQ_INT(prog[7].code, BPF_JMP | BPF_EXIT);
	CHECK_EQ_INT(DEVCG_ACC_READ, BPF_DEVCG_ACC_READ);
	CHECK_EQ_INT(DEVCG_ACC_WRITE, BPF_DEVCG_ACC_WRITE);
	CHECK_EQ_INT(DEVCG_ACC_MKNOD, BPF_DEVCG_ACC_MKNOD);
	CHECK_EQ_INT(DEVCG_DEV_BLOCK, BPF_DEVCG_DEV_BLOCK);
	CHECK_EQ_INT(DEVCG_DEV_CHAR, BPF_DEVCG_DEV_CHAR);
}

int main(void)
{
	test_rules_parse_as_devcgroup_update_access();
	test_a_sets_the_default_whatever_follows();
	test_bad_rules_are_einval();
	test_a_new_group_allows_everything();
	test_deny_under_default_allow_adds_a_hidden_exception();
	test_allow_under_default_allow_removes_only_the_same_device();
	test_a_deny_clears_exceptions_and_lists_nothing();
	test_default_deny_lists_and_merges_allowed_devices();
	test_a_wildcard_prints_as_a_star();
	test_a_changes_the_default_only_without_children();
	test_allow_all_needs_a_parent_that_allows_all();
	test_a_child_gets_no_more_than_a_default_deny_parent();
	test_a_child_gets_nothing_a_default_allow_parent_denies();
	test_a_deny_reaches_every_default_allow_descendant();
	test_children_lose_what_a_default_deny_parent_loses();
	test_revalidation_drops_what_the_parent_no_longer_grants();
	test_the_stored_form_round_trips_and_is_never_empty();
	test_the_program_decides_as_the_kernel_check();
	test_the_program_reads_the_context_the_kernel_fills();
	return check_summary("devices");
}
