#!/usr/bin/env bats
# pids files on the host. This hybrid host binds pids to v1, so the v2 base
# usually lacks the controller: then writes must fail loudly, never silently.

load ../lib/helpers

setup() {
	common_setup
	mkdir "$MNT/pids/p"
}

teardown() {
	common_teardown
}

has_v2_pids() {
	grep -qw pids "$CG2/$BASE/cgroup.controllers"
}

@test "pids files have the kernel's modes and defaults in child groups only" {
	[ ! -e "$MNT/pids/pids.max" ]
	[ "$(stat -c %a "$MNT/pids/p/pids.max")" = 644 ]
	[ "$(cat "$MNT/pids/p/pids.max")" = max ]
	[ "$(cat "$MNT/pids/p/pids.current")" = 0 ]
	[ "$(cat "$MNT/pids/p/pids.events")" = "max 0" ]
	[ "$(cat "$MNT/pids/p/pids.peak")" = 0 ]
}

@test "bad pids.max values get the kernel's errno whatever the v2 side" {
	[ "$(write_result "$MNT/pids/p/pids.max" -1)" = "Invalid argument" ]
	[ "$(write_result "$MNT/pids/p/pids.max" abc)" = "Invalid argument" ]
	[ "$(write_result "$MNT/pids/p/pids.max" 4194305)" = "Invalid argument" ]
	[ "$(write_result "$MNT/pids/p/pids.max" 99999999999999999999)" = "Numerical result out of range" ]
	[ "$(cat "$MNT/pids/p/pids.max")" = max ]
}

@test "a good pids.max reaches v2, or fails with EOPNOTSUPP when v2 has no pids controller" {
	if has_v2_pids; then
		[ "$(write_result "$MNT/pids/p/pids.max" 10)" = ok ]
		[ "$(cat "$CG2/$BASE/p/pids.max")" = 10 ]
		[ "$(cat "$MNT/pids/p/pids.max")" = 10 ]
	else
		[ "$(write_result "$MNT/pids/p/pids.max" 10)" = "Operation not supported" ]
		[ "$(cat "$MNT/pids/p/pids.max")" = max ]
	fi
}

@test "pids.current counts the tasks of a group and its descendants" {
	mkdir "$MNT/pids/p/c"
	spawn_sleeper
	echo "$pid" >"$MNT/pids/p/tasks"
	spawn_sleeper
	echo "$pid" >"$MNT/pids/p/c/tasks"
	[ "$(cat "$MNT/pids/p/pids.current")" = 2 ]
	[ "$(cat "$MNT/pids/p/c/pids.current")" = 1 ]
}
