#!/usr/bin/env bats
# kill -9 of the daemon while processes are being moved between divergent
# groups: after a restart every process sits in one leaf whose recorded
# tuple is what the view's tasks files say, in every hierarchy.

load ../lib/helpers

setup() {
	common_setup
	HIERS=("cpu,cpuacct" "memory" "net_cls,net_prio")
	for h in "${HIERS[@]}"; do mkdir "$MNT/$h/a" "$MNT/$h/b" "$MNT/$h/a/c"; done
	for _ in 1 2 3 4; do spawn_sleeper; done
}

teardown() {
	[ -n "${MOVER:-}" ] && kill -9 "$MOVER" 2>/dev/null || true
	common_teardown
}

# Moves the sleepers at random between the groups of the three hierarchies, until killed.
start_mover() {
	bash -c 'groups=(/ /a /b /a/c); hiers=("cpu,cpuacct" memory "net_cls,net_prio")
		while :; do
			for pid in $2; do
				h=${hiers[RANDOM % 3]}; g=${groups[RANDOM % 4]}
				echo "$pid" > "$1/$h$g/tasks" 2>/dev/null
			done
		done' _ "$MNT" "$SLEEPERS" 3>&- &
	MOVER=$!
}

check_invariant() {
	check_fold_invariant "${HIERS[*]}" $SLEEPERS
}

@test "five kill -9 in the middle of moves leave every process in the leaf of its tuple" {
	for round in 1 2 3 4 5; do
		start_mover
		sleep 0.$((RANDOM % 9 + 1))
		kill_daemon_hard
		kill -9 "$MOVER"
		wait "$MOVER" 2>/dev/null || true
		MOVER=
		start_cgxfs
		check_invariant
	done
	# The view works on: a last move lands where it says.
	local pid=${SLEEPERS# }
	pid=${pid%% *}
	echo "$pid" >"$MNT/memory/b/tasks"
	grep -qx "$pid" "$MNT/memory/b/tasks"
	check_invariant
}
