#!/usr/bin/env bats
# The v1 rules of who may move whom, checked by cgxfs on the caller's behalf.

load ../lib/helpers

setup_file() {
	test_user_make
}

setup() {
	common_setup
	test_user_ids
}

teardown() {
	common_teardown
}

# Root puts process $1 into the view (a group of perf_event, a hierarchy these
# tests leave alone): a process outside the base comes in only where cgroup2
# would let the writer move it (tests/bats/delegation.bats); these tests are
# about v1's rules between processes the view already holds.
enter_view() {
	mkdir -p "$MNT/perf_event/in-view"
	echo "$1" >"$MNT/perf_event/in-view/tasks"
}

@test "a non-root user cannot write tasks without write permission on it" {
	mkdir "$MNT/cpu,cpuacct/locked"
	spawn_sleeper
	[ "$(user_write_result "$MNT/cpu,cpuacct/locked/tasks" "$pid")" = "Permission denied" ]
	[ -z "$(cat "$MNT/cpu,cpuacct/locked/tasks")" ]
}

@test "a delegated user is refused root's process and allowed its own" {
	mkdir "$MNT/cpu,cpuacct/deleg"
	chown "$TEST_USER" "$MNT/cpu,cpuacct/deleg" "$MNT/cpu,cpuacct/deleg/tasks" \
		"$MNT/cpu,cpuacct/deleg/cgroup.procs"
	spawn_sleeper
	root_pid=$pid
	# exec: $! must be the user's sleep itself, not a root subshell around it.
	(exec setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups sleep 1000 \
		</dev/null >/dev/null 2>&1) &
	user_pid=$!
	SLEEPERS="$SLEEPERS $user_pid"
	enter_view "$root_pid"
	enter_view "$user_pid"
	[ "$(user_write_result "$MNT/cpu,cpuacct/deleg/tasks" "$root_pid")" = "Permission denied" ]
	[ "$(user_write_result "$MNT/cpu,cpuacct/deleg/cgroup.procs" "$root_pid")" = "Permission denied" ]
	! grep -qx "$root_pid" "$MNT/cpu,cpuacct/deleg/tasks"
	[ "$(user_write_result "$MNT/cpu,cpuacct/deleg/tasks" "$user_pid")" = ok ]
	[ "$(cat "$MNT/cpu,cpuacct/deleg/tasks")" = "$user_pid" ]
}

@test "a delegated user may make groups where it owns the directory" {
	mkdir "$MNT/memory/deleg"
	chown "$TEST_USER" "$MNT/memory/deleg"
	as_user mkdir "$MNT/memory/deleg/sub"
	[ "$(stat -c %u "$MNT/memory/deleg/sub")" = "$TEST_UID" ]
	[ "$(stat -c %u "$MNT/memory/deleg/sub/tasks")" = "$TEST_UID" ]
	run as_user mkdir "$MNT/memory/nope"
	[[ "$output" == *"Permission denied"* ]]
}

@test "release_agent is refused to a non-root writer" {
	chmod 666 "$MNT/cpu,cpuacct/release_agent"
	[ "$(user_write_result "$MNT/cpu,cpuacct/release_agent" /tmp/agent)" = "Operation not permitted" ]
	[ "$(cat "$MNT/cpu,cpuacct/release_agent")" = "" ]
}

# The rest pins answers of tests/differential/permission-matrix.sh, where a
# v1 kernel gave them, on the host.

# A sleep whose real and effective uids are $1 and $2 (saved = effective), in $pid.
spawn_sleeper_as() {
	(exec setpriv --ruid "$1" --euid "$2" --regid "$2" --clear-groups sleep 1000 \
		</dev/null >/dev/null 2>&1) &
	pid=$!
	SLEEPERS="${SLEEPERS:-} $pid"
	for _ in $(seq 50); do
		[ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$(command -v sleep)")" ] && return
		sleep 0.1
	done
}

@test "a target's real or saved uid lets a user move it, its effective uid alone does not matter" {
	other=$((TEST_UID + 1))
	mkdir "$MNT/cpu,cpuacct/deleg"
	chown "$TEST_USER" "$MNT/cpu,cpuacct/deleg/tasks"
	spawn_sleeper_as "$other" "$TEST_UID"
	saved_is_mine=$pid
	spawn_sleeper_as "$TEST_UID" "$other"
	real_is_mine=$pid
	spawn_sleeper_as "$other" "$other"
	not_mine=$pid
	for p in "$saved_is_mine" "$real_is_mine" "$not_mine"; do enter_view "$p"; done
	[ "$(user_write_result "$MNT/cpu,cpuacct/deleg/tasks" "$saved_is_mine")" = ok ]
	[ "$(user_write_result "$MNT/cpu,cpuacct/deleg/tasks" "$real_is_mine")" = ok ]
	[ "$(user_write_result "$MNT/cpu,cpuacct/deleg/tasks" "$not_mine")" = "Permission denied" ]
	[ "$(sort -n "$MNT/cpu,cpuacct/deleg/tasks" | tr '\n' ' ')" = \
		"$(printf '%s\n' "$saved_is_mine" "$real_is_mine" | sort -n | tr '\n' ' ')" ]
}

nocap() {
	setpriv --inh-caps=-all --bounding-set=-all "$@"
}

@test "root without capabilities moves anyone (v1 checks euid 0) but may not set release_agent" {
	mkdir "$MNT/memory/g"
	spawn_sleeper_as "$TEST_UID" "$TEST_UID"
	nocap bash -c "echo $pid > '$MNT/memory/g/tasks'"
	[ "$(cat "$MNT/memory/g/tasks")" = "$pid" ]
	run nocap bash -c "echo /bin/true > '$MNT/memory/release_agent'"
	[[ $output == *"Operation not permitted"* ]]
	[ "$(cat "$MNT/memory/release_agent")" = "" ]
}

@test "release_agent checks its opener's CAP_SYS_ADMIN (file_ns_capable), not its writer's" {
	exec 5>"$MNT/memory/release_agent"
	nocap bash -c 'echo /bin/agent >&5'
	exec 5>&-
	[ "$(cat "$MNT/memory/release_agent")" = /bin/agent ]
	# Opened without the capability: refused at the write, as the kernel does.
	run nocap bash -c "exec 5>'$MNT/memory/release_agent' && echo /bin/other >&5"
	[[ $output == *"Operation not permitted"* ]]
	[ "$(cat "$MNT/memory/release_agent")" = /bin/agent ]
}

@test "mode bits bind root only without CAP_DAC_OVERRIDE" {
	mkdir "$MNT/memory/g"
	chmod 000 "$MNT/memory/g/notify_on_release"
	echo 1 >"$MNT/memory/g/notify_on_release"
	[ "$(cat "$MNT/memory/g/notify_on_release")" = 1 ]
	run nocap cat "$MNT/memory/g/notify_on_release"
	[[ $output == *"Permission denied"* ]]
	run setpriv --inh-caps=-all --bounding-set=-dac_override,-dac_read_search \
		bash -c "echo 0 > '$MNT/memory/g/notify_on_release'"
	[[ $output == *"Permission denied"* ]]
	[ "$(cat "$MNT/memory/g/notify_on_release")" = 1 ]
	# the owner may still chmod it back without any capability
	nocap chmod 644 "$MNT/memory/g/notify_on_release"
	[ "$(stat -c %a "$MNT/memory/g/notify_on_release")" = 644 ]
}
