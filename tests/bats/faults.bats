#!/usr/bin/env bats
# Faults: kill -9 of the daemon in the middle of concurrent clients' work,
# then a restart: every group and membership is kept, cgroup2 holds what the
# view's v1 state implies (tests/gen/check.py) after each restart, no dead
# mount is left.

load ../lib/helpers
load ../lib/stress-clients
load ../gen/invariant

# Thirty rounds in CI (each kills at a random point of new clients' work);
# CGX_FAULT_ROUNDS=N runs more.
@test "thirty kill -9 in the middle of the stress: each restart keeps every group and membership" {
	for round in $(seq "${CGX_FAULT_ROUNDS:-30}"); do
		rm -f "$WORK"/sleepers.*
		start_clients 4 200
		sleep 0.$((RANDOM % 9 + 1))
		kill_daemon_hard
		for pid in "${CLIENTS[@]}"; do kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
		# What the view showed is what it shows after the restart.
		start_cgxfs
		local before after
		before=$(for h in $HIER_LIST; do (cd "$MNT/$h" && find . -type d | sort); done)
		check_fold_invariant "$HIER_LIST" $(all_sleepers)
		gen_invariant $(all_sleepers)
		all_sleepers | xargs -r kill -9 2>/dev/null || true
		kill_daemon_hard
		start_cgxfs
		after=$(for h in $HIER_LIST; do (cd "$MNT/$h" && find . -type d | sort); done)
		[ "$before" = "$after" ]
		gen_invariant
		# No dead mount left behind: the mount point answers.
		[ -e "$MNT/cpu,cpuacct/tasks" ]
	done
	[ -z "$(remove_everything)" ]
}
