#!/usr/bin/env bats
# Concurrency: 16 clients doing mixed operations at once, then the invariant
# (faults.bats kills the daemon in the middle of such runs).

load ../lib/helpers
load ../lib/stress-clients

@test "16 clients, 10,000 mixed operations: no unexpected error, the fold holds, nothing leaks" {
	start_clients 16 625
	for pid in "${CLIENTS[@]}"; do wait "$pid"; done
	cat "$WORK"/errors.*
	[ -z "$(cat "$WORK"/errors.*)" ]
	check_fold_invariant "$HIER_LIST" $(all_sleepers)
	[ -z "$(remove_everything)" ]
}
