#!/usr/bin/env bats
# Concurrency: 16 clients doing mixed operations at once, then the invariant,
# the daemon's records (check_fold_invariant) and what cgroup2 must hold for the
# view's v1 state (tests/gen/check.py); faults.bats kills the daemon in the
# middle of such runs.

load ../lib/helpers
load ../lib/stress-clients
load ../gen/invariant

@test "16 clients, 10,000 mixed operations: no unexpected error, the fold holds, nothing leaks" {
	start_clients 16 625
	for pid in "${CLIENTS[@]}"; do wait "$pid"; done
	cat "$WORK"/errors.*
	[ -z "$(cat "$WORK"/errors.*)" ]
	check_fold_invariant "$HIER_LIST" $(all_sleepers)
	gen_invariant $(all_sleepers)
	[ -z "$(remove_everything)" ]
}
