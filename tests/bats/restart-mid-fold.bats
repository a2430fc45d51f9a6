#!/usr/bin/env bats
# kill -9 of the daemon while processes are being moved between divergent
# groups: after a restart every process sits in one leaf whose recorded
# tuple is what the view's tasks files say, in every hierarchy.

load helpers

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

# The invariant: each sleeper is in exactly one group per hierarchy, and that
# group is the coordinate its leaf's trusted.cgx.tuple records.
check_invariant() {
	local pid h group recorded leaf
	for pid in $SLEEPERS; do
		leaf=$CG2$(v2_path_of "$pid")
		[[ $leaf == "$CG2/$BASE"* ]] || { echo "$pid outside the base: $leaf"; return 1; }
		# A directory the daemon knows as a leaf, not one it lost track of.
		getfattr -n trusted.cgx.tuple "$leaf" >/dev/null 2>&1 ||
			{ echo "$pid in $leaf, which records no tuple"; return 1; }
		for h in "${HIERS[@]}"; do
			group=$(cd "$MNT/$h" && grep -lx "$pid" $(find . -name tasks) | sed 's|^\.||; s|/tasks$||')
			[ "$(wc -l <<<"$group")" = 1 ] || { echo "$pid in $h: $group"; return 1; }
			recorded=$(getfattr --only-values -n trusted.cgx.tuple "$leaf" 2>/dev/null |
				sed -n "s|^$h:||p")
			[ "${group:-/}" = "${recorded:-/}" ] ||
				{ echo "$pid in $h: view ${group:-/}, leaf $leaf ${recorded:-/}"; return 1; }
		done
	done
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
