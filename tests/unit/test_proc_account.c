// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whom the daemon's per-user bounds charge (proc_account.h): the real uid in
 * the initial user namespace, the owner of the outermost namespace below it
 * otherwise; only uid 0 of the initial namespace is root.
 */
#include "check.h"
#include "proc_account.h"

#include <errno.h>
#include <unistd.h>

static const struct userns_link init = {1, 100, 0};

static void test_the_initial_namespace_charges_the_real_uid(void)
{
	struct proc_account account;

	CHECK_EQ_INT(proc_account_of_chain(1001, &init, 1, &init, &account), 0);
	CHECK_EQ_INT(account.uid, 1001);
	CHECK(!account.root);
	CHECK_EQ_INT(proc_account_of_chain(0, &init, 1, &init, &account), 0);
	CHECK_EQ_INT(account.uid, 0);
	CHECK(account.root);
}

static void test_a_namespace_charges_its_owner_whatever_uid_it_maps(void)
{
	/* A rootless container of user 1001: its root is 100000 outside, its uid 5 100005. */
	const struct userns_link chain[] = {{1, 200, 1001}, init};
	struct proc_account account;

	CHECK_EQ_INT(proc_account_of_chain(100005, chain, 2, &init, &account), 0);
	CHECK_EQ_INT(account.uid, 1001);
	CHECK(!account.root);
	/* uid 0 mapped to itself (root made the namespace) is no root of the daemon's. */
	const struct userns_link by_root[] = {{1, 300, 0}, init};

	CHECK_EQ_INT(proc_account_of_chain(0, by_root, 2, &init, &account), 0);
	CHECK_EQ_INT(account.uid, 0);
	CHECK(!account.root);
}

static void test_nested_namespaces_charge_the_outermost_owner(void)
{
	/* 1001's namespace holds one its uid 100005 made, which holds another. */
	const struct userns_link chain[] = {
		{1, 400, 100007}, {1, 300, 100005}, {1, 200, 1001}, init};
	struct proc_account account;

	CHECK_EQ_INT(proc_account_of_chain(100042, chain, 4, &init, &account), 0);
	CHECK_EQ_INT(account.uid, 1001);
	CHECK(!account.root);
}

static void test_a_chain_that_misses_the_initial_namespace_is_einval(void)
{
	const struct userns_link chain[] = {{1, 400, 5}, {2, 100, 0}};
	struct proc_account account;

	CHECK_EQ_INT(proc_account_of_chain(5, chain, 2, &init, &account), -EINVAL);
}

static void test_this_process_is_charged_to_its_own_uid(void)
{
	struct proc_account account;

	/* The test runs in the namespace it takes for the initial one. */
	CHECK_EQ_INT(proc_account_read(getpid(), &account), 0);
	CHECK_EQ_INT(account.uid, getuid());
	CHECK(account.root == (getuid() == 0));
	/* No such process: the shared bucket of the gone. */
	CHECK(proc_account_read(0x3fffffff, &account) < 0);
	CHECK_EQ_INT(account.uid, PROC_ACCOUNT_GONE);
}

int main(void)
{
	test_the_initial_namespace_charges_the_real_uid();
	test_a_namespace_charges_its_owner_whatever_uid_it_maps();
	test_nested_namespaces_charge_the_outermost_owner();
	test_a_chain_that_misses_the_initial_namespace_is_einval();
	test_this_process_is_charged_to_its_own_uid();
	return check_summary("proc_account");
}
