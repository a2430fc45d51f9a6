#!/usr/bin/env bats
# freezer.state on cgroup2's cgroup.freeze: real processes on the host's cgroup2 mount.

load ../lib/helpers

setup() {
	common_setup
}

teardown() {
	# Thaw before killing, so that the scratch base empties.
	for f in "$MNT"/freezer/*/freezer.state; do echo THAWED >"$f" 2>/dev/null || true; done
	common_teardown
}

leaf_of() {
	echo "$CG2$(sed -n 's/^0:://p' "/proc/$1/cgroup")"
}

@test "freezer files exist in child groups only, with the kernel's modes and defaults" {
	[ ! -e "$MNT/freezer/freezer.state" ]
	mkdir "$MNT/freezer/f"
	[ "$(stat -c %a "$MNT/freezer/f/freezer.state")" = 644 ]
	[ "$(stat -c %a "$MNT/freezer/f/freezer.self_freezing")" = 444 ]
	[ "$(cat "$MNT/freezer/f/freezer.state")" = THAWED ]
	[ "$(cat "$MNT/freezer/f/freezer.self_freezing")" = 0 ]
	[ "$(cat "$MNT/freezer/f/freezer.parent_freezing")" = 0 ]
}

@test "FROZEN freezes the group's processes in v2 and THAWED thaws them" {
	mkdir "$MNT/freezer/f"
	spawn_sleeper
	echo "$pid" >"$MNT/freezer/f/tasks"
	echo FROZEN >"$MNT/freezer/f/freezer.state"
	for _ in $(seq 50); do [ "$(cat "$MNT/freezer/f/freezer.state")" = FROZEN ] && break; sleep 0.1; done
	[ "$(cat "$MNT/freezer/f/freezer.state")" = FROZEN ]
	grep -qx "frozen 1" "$(leaf_of "$pid")/cgroup.events"
	[ "$(cat "$MNT/freezer/f/freezer.self_freezing")" = 1 ]
	echo THAWED >"$MNT/freezer/f/freezer.state"
	[ "$(cat "$MNT/freezer/f/freezer.state")" = THAWED ]
	for _ in $(seq 50); do grep -qx "frozen 0" "$(leaf_of "$pid")/cgroup.events" && break; sleep 0.1; done
	grep -qx "frozen 0" "$(leaf_of "$pid")/cgroup.events"
}

@test "freezing a parent freezes its children and a process moved in later" {
	mkdir -p "$MNT/freezer/p/c"
	echo FROZEN >"$MNT/freezer/p/freezer.state"
	[ "$(cat "$MNT/freezer/p/c/freezer.parent_freezing")" = 1 ]
	[ "$(cat "$MNT/freezer/p/c/freezer.self_freezing")" = 0 ]
	[ "$(cat "$MNT/freezer/p/c/freezer.state")" = FROZEN ]
	spawn_sleeper
	echo "$pid" >"$MNT/freezer/p/c/tasks"
	for _ in $(seq 50); do grep -qx "frozen 1" "$(leaf_of "$pid")/cgroup.events" && break; sleep 0.1; done
	grep -qx "frozen 1" "$(leaf_of "$pid")/cgroup.events"
	echo THAWED >"$MNT/freezer/p/freezer.state"
	[ "$(cat "$MNT/freezer/p/c/freezer.state")" = THAWED ]
}

@test "freezer.state takes only THAWED or FROZEN, stripped, as freezer_write" {
	mkdir "$MNT/freezer/f"
	[ "$(write_result "$MNT/freezer/f/freezer.state" FREEZING)" = "Invalid argument" ]
	[ "$(write_result "$MNT/freezer/f/freezer.state" frozen)" = "Invalid argument" ]
	[ "$(write_result "$MNT/freezer/f/freezer.state" bogus)" = "Invalid argument" ]
	[ "$(cat "$MNT/freezer/f/freezer.state")" = THAWED ]
	[ "$(write_result "$MNT/freezer/f/freezer.state" " FROZEN ")" = ok ]
	[ "$(cat "$MNT/freezer/f/freezer.state")" = FROZEN ]
	[ "$(write_result "$MNT/freezer/f/freezer.self_freezing" 1)" = "Invalid argument" ]
}

@test "a frozen group stays frozen across kill -9 and restart of the daemon" {
	mkdir "$MNT/freezer/f"
	spawn_sleeper
	echo "$pid" >"$MNT/freezer/f/tasks"
	echo FROZEN >"$MNT/freezer/f/freezer.state"
	kill_daemon_hard
	start_cgxfs
	[ "$(cat "$MNT/freezer/f/freezer.self_freezing")" = 1 ]
	for _ in $(seq 50); do [ "$(cat "$MNT/freezer/f/freezer.state")" = FROZEN ] && break; sleep 0.1; done
	[ "$(cat "$MNT/freezer/f/freezer.state")" = FROZEN ]
}
