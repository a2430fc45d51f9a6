#!/usr/bin/env bats
# Hierarchies made and removed while mounted: mkdir and rmdir at the mount
# root do what `mount -t cgroup -o SPEC` and its last umount did.

load ../lib/helpers

setup() {
	common_setup
}

teardown() {
	common_teardown
}

mkdir_result() {
	local out
	out=$(mkdir "$1" 2>&1) && { echo ok; return; }
	echo "${out##*: }"
}

rmdir_result() {
	local out
	out=$(rmdir "$1" 2>&1) && { echo ok; return; }
	echo "${out##*: }"
}

@test "mkdir none,name=jobs makes a named hierarchy with the core files and every process" {
	[ "$(mkdir_result "$MNT/none,name=jobs")" = ok ]
	ls "$MNT" | grep -qx "none,name=jobs"
	[ "$(stat -c %a "$MNT/none,name=jobs")" = 555 ]
	[ "$(ls "$MNT/none,name=jobs" | tr '\n' ' ')" = \
		"cgroup.clone_children cgroup.procs cgroup.sane_behavior notify_on_release release_agent tasks " ]
	grep -qx "$$" "$MNT/none,name=jobs/cgroup.procs"
	mkdir "$MNT/none,name=jobs/build"
	spawn_sleeper
	echo "$pid" >"$MNT/none,name=jobs/build/tasks"
	[ "$(cat "$MNT/none,name=jobs/build/tasks")" = "$pid" ]
	! grep -qx "$pid" "$MNT/none,name=jobs/tasks"
	[ "$(jq -r 'select(.kind == "runtime-hierarchy") | .hierarchy' "$DEPRECATION_LOG")" = name=jobs ]
}

@test "a bad spec is EINVAL, a bound controller or name EBUSY, as mount(2) answers" {
	[ "$(mkdir_result "$MNT/foo")" = "Invalid argument" ]
	[ "$(mkdir_result "$MNT/none")" = "Invalid argument" ]
	[ "$(mkdir_result "$MNT/none,cpu")" = "Invalid argument" ]
	[ "$(mkdir_result "$MNT/name=a,name=b")" = "Invalid argument" ]
	# cgroup1_root_to_use(): a name alone finds a hierarchy, never makes one.
	[ "$(mkdir_result "$MNT/name=jobs")" = "Invalid argument" ]
	[ "$(mkdir_result "$MNT/name=bad/x")" = "No such file or directory" ]
	[ "$(mkdir_result "$MNT/cpu,memory")" = "Device or resource busy" ]
	[ "$(mkdir_result "$MNT/cpuacct,cpu")" = "Device or resource busy" ]
	[ "$(mkdir_result "$MNT/name=systemd")" = "Device or resource busy" ]
	[ "$(mkdir_result "$MNT/cpu")" = "File exists" ]
	[ "$(mkdir_result "$MNT/none,name=spare")" = ok ]
	[ "$(mkdir_result "$MNT/name=spare")" = "Device or resource busy" ]
	# Nothing half-made: only the good one is there.
	[ "$(ls "$MNT" | grep -c -e '^foo$' -e '^none' -e '^name=')" = 1 ]
}

@test "rmdir of a hierarchy is EBUSY while it has groups; its controllers are free after" {
	mkdir "$MNT/none,name=jobs" "$MNT/none,name=jobs/g"
	[ "$(rmdir_result "$MNT/none,name=jobs")" = "Device or resource busy" ]
	rmdir "$MNT/none,name=jobs/g"
	[ "$(rmdir_result "$MNT/none,name=jobs")" = ok ]
	! ls "$MNT" | grep -qx "none,name=jobs"

	rmdir "$MNT/memory" "$MNT/cpu,cpuacct"
	[ ! -e "$MNT/cpu" ]
	[ "$(mkdir_result "$MNT/cpu,memory")" = ok ]
	[ -e "$MNT/cpu,memory/cpu.shares" ]
	[ -e "$MNT/cpu,memory/memory.limit_in_bytes" ]
	[ ! -e "$MNT/cpu,memory/cpuacct.usage" ]
	[ "$(readlink "$MNT/cpu")" = "cpu,memory" ]
	[ "$(readlink "$MNT/memory")" = "cpu,memory" ]
	# The groups of the other hierarchies kept their places.
	mkdir "$MNT/pids/p"
	[ "$(cat "$MNT/pids/p/pids.max")" = max ]
}

@test "hierarchies made at run time come back after kill -9, with their groups and tasks" {
	mkdir "$MNT/none,name=jobs" "$MNT/none,name=jobs/build"
	rmdir "$MNT/devices"
	spawn_sleeper
	echo "$pid" >"$MNT/none,name=jobs/build/tasks"
	kill_daemon_hard
	start_cgxfs
	ls "$MNT" | grep -qx "none,name=jobs"
	! ls "$MNT" | grep -qx devices
	[ "$(cat "$MNT/none,name=jobs/build/tasks")" = "$pid" ]
	# --hierarchies given again replaces what the base kept.
	stop_cgxfs
	start_cgxfs --hierarchies 'cpu,cpuacct;name=jobs'
	[ "$(find "$MNT" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' ')" = "cpu,cpuacct jobs " ]
	stop_cgxfs
	start_cgxfs
	[ "$(find "$MNT" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' ')" = "cpu,cpuacct jobs " ]
}

@test "making a hierarchy needs CAP_SYS_ADMIN, also from root" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	run setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- mkdir "$MNT/none,name=jobs"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
	run setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- rmdir "$MNT/pids"
	[[ "$output" == *"Operation not permitted"* ]]
	[ -d "$MNT/pids" ]
}
