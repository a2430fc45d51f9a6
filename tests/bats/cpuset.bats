#!/usr/bin/env bats
# cpuset files on the host: the v1 rules hold whether or not the v2 base has
# the cpuset controller (this hybrid host binds it to v1).

load ../lib/helpers

setup() {
	common_setup
	mkdir "$MNT/cpuset/c"
}

teardown() {
	common_teardown
}

has_v2_cpuset() {
	grep -qw cpuset "$CG2/$BASE/cgroup.controllers"
}

online() {
	cat /sys/devices/system/cpu/online
}

@test "the root cpuset follows the machine, a child starts empty" {
	[ "$(cat "$MNT/cpuset/cpuset.cpus")" = "$(online)" ]
	[ "$(cat "$MNT/cpuset/cpuset.effective_cpus")" = "$(online)" ]
	[ "$(cat "$MNT/cpuset/cpuset.cpu_exclusive")" = 1 ]
	[ "$(cat "$MNT/cpuset/cpuset.memory_pressure_enabled")" = 0 ]
	[ "$(cat "$MNT/cpuset/c/cpuset.cpus")" = "" ]
	[ "$(cat "$MNT/cpuset/c/cpuset.mems")" = "" ]
	[ "$(cat "$MNT/cpuset/c/cpuset.cpu_exclusive")" = 0 ]
	[ "$(cat "$MNT/cpuset/c/cpuset.sched_load_balance")" = 1 ]
	[ "$(cat "$MNT/cpuset/c/cpuset.sched_relax_domain_level")" = -1 ]
	[ ! -e "$MNT/cpuset/c/cpuset.memory_pressure_enabled" ]
	[ "$(stat -c %a "$MNT/cpuset/c/cpuset.effective_cpus")" = 444 ]
}

@test "the root's lists are read-only: EACCES" {
	[ "$(write_result "$MNT/cpuset/cpuset.cpus" 0)" = "Permission denied" ]
	[ "$(write_result "$MNT/cpuset/cpuset.mems" 0)" = "Permission denied" ]
}

@test "bad lists get the kernel's errno and change nothing" {
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" abc)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" 3-1)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" 99999)" = "Numerical result out of range" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" 99999999999)" = "Value too large for defined data type" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.mems" 1024)" = "Numerical result out of range" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.mems" 1000)" = "Invalid argument" ]
	[ "$(cat "$MNT/cpuset/c/cpuset.cpus")" = "" ]
}

@test "an empty cpuset refuses tasks with ENOSPC" {
	spawn_sleeper
	[ "$(write_result "$MNT/cpuset/c/tasks" "$pid")" = "No space left on device" ]
	[ "$(cat "$MNT/cpuset/c/tasks")" = "" ]
	grep -qx "$pid" "$MNT/cpuset/tasks"
}

@test "writing an empty list to an empty cpuset is a no-op, as in v1" {
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" "")" = ok ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.mems" " ")" = ok ]
}

@test "cpus reach the v2 leaf, or fail with EOPNOTSUPP without the v2 controller" {
	if has_v2_cpuset; then
		[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" 0)" = ok ]
		[ "$(write_result "$MNT/cpuset/c/cpuset.mems" 0)" = ok ]
		[ "$(cat "$MNT/cpuset/c/cpuset.cpus")" = 0 ]
		spawn_sleeper
		echo "$pid" >"$MNT/cpuset/c/tasks"
		[ "$(cat "$CG2/$BASE/$(v2_path_of "$pid" | sed "s|.*/$BASE/||")/cpuset.cpus")" = 0 ]
	else
		[ "$(write_result "$MNT/cpuset/c/cpuset.cpus" 0)" = "Operation not supported" ]
		[ "$(cat "$MNT/cpuset/c/cpuset.cpus")" = "" ]
	fi
}

@test "flags take any number and read 0 or 1" {
	[ "$(write_result "$MNT/cpuset/c/cpuset.memory_migrate" 5)" = ok ]
	[ "$(cat "$MNT/cpuset/c/cpuset.memory_migrate")" = 1 ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.memory_migrate" 0)" = ok ]
	[ "$(cat "$MNT/cpuset/c/cpuset.memory_migrate")" = 0 ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.memory_migrate" -1)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.sched_relax_domain_level" -2)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpuset/c/cpuset.sched_relax_domain_level" 1)" = ok ]
	[ "$(cat "$MNT/cpuset/c/cpuset.sched_relax_domain_level")" = 1 ]
}

@test "a child may not be exclusive when its parent is not: EACCES" {
	mkdir "$MNT/cpuset/c/d"
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpu_exclusive" 1)" = ok ]
	[ "$(write_result "$MNT/cpuset/c/d/cpuset.cpu_exclusive" 1)" = ok ]
	# The parent cannot drop what a child still has.
	[ "$(write_result "$MNT/cpuset/c/cpuset.cpu_exclusive" 0)" = "Device or resource busy" ]
	mkdir "$MNT/cpuset/e"
	mkdir "$MNT/cpuset/e/f"
	[ "$(write_result "$MNT/cpuset/e/f/cpuset.mem_exclusive" 1)" = "Permission denied" ]
}

@test "clone_children copies the parent's cpuset into a new child" {
	echo 1 >"$MNT/cpuset/cgroup.clone_children"
	mkdir "$MNT/cpuset/cloned"
	[ "$(cat "$MNT/cpuset/cloned/cpuset.cpus")" = "$(online)" ]
	[ "$(cat "$MNT/cpuset/cloned/cpuset.mems")" = "$(cat "$MNT/cpuset/cpuset.mems")" ]
	[ "$(cat "$MNT/cpuset/cloned/cgroup.clone_children")" = 1 ]
	echo 0 >"$MNT/cpuset/cgroup.clone_children"
	mkdir "$MNT/cpuset/plain"
	[ "$(cat "$MNT/cpuset/plain/cpuset.cpus")" = "" ]
}
