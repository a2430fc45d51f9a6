#!/usr/bin/env bats
# Concurrency and faults: 16 clients doing mixed operations at once, then the
# invariant; kill -9 of the daemon in the middle of such runs, then restart.

load helpers

CLIENT=$BATS_TEST_DIRNAME/../stress/client.sh
HIER_LIST="cpu,cpuacct memory net_cls,net_prio freezer pids"

setup() {
	common_setup
	WORK=$(mktemp -d /tmp/cgx-stress.XXXXXX)
}

teardown() {
	for f in "$WORK"/sleepers.*; do
		[ -e "$f" ] && kill -9 $(cat "$f") 2>/dev/null
	done
	pkill -9 -f "$CLIENT" 2>/dev/null || true
	common_teardown
	rm -rf "$WORK"
}

# Starts $1 clients of $2 operations each; their pids in CLIENTS.
start_clients() {
	CLIENTS=()
	for ((c = 0; c < $1; c++)); do
		"$CLIENT" "$MNT" "$c" "$2" "$WORK/sleepers.$c" >"$WORK/errors.$c" 2>&1 3>&- &
		CLIENTS+=($!)
	done
}

all_sleepers() {
	cat "$WORK"/sleepers.* 2>/dev/null | tr ' ' '\n'
}

# Every group removed through the view, deepest first; then nothing of ours is left in v2.
remove_everything() {
	all_sleepers | xargs -r kill -9 2>/dev/null || true
	sleep 0.5
	for h in $HIER_LIST; do
		(cd "$MNT/$h" && find . -mindepth 1 -type d | sort -r | xargs -r rmdir)
	done
	find "$CG2/$BASE" -mindepth 1 -type d
}

@test "16 clients, 10,000 mixed operations: no unexpected error, the fold holds, nothing leaks" {
	start_clients 16 625
	for pid in "${CLIENTS[@]}"; do wait "$pid"; done
	cat "$WORK"/errors.*
	[ -z "$(cat "$WORK"/errors.*)" ]
	check_fold_invariant "$HIER_LIST" $(all_sleepers)
	[ -z "$(remove_everything)" ]
}

@test "twenty kill -9 in the middle of the stress: each restart keeps every group and membership" {
	for round in $(seq 20); do
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
		all_sleepers | xargs -r kill -9 2>/dev/null || true
		kill_daemon_hard
		start_cgxfs
		after=$(for h in $HIER_LIST; do (cd "$MNT/$h" && find . -type d | sort); done)
		[ "$before" = "$after" ]
		# No dead mount left behind: the mount point answers.
		[ -e "$MNT/cpu,cpuacct/tasks" ]
	done
	[ -z "$(remove_everything)" ]
}
