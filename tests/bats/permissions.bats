#!/usr/bin/env bats
# The v1 rules of who may move whom, checked by cgxfs on the caller's behalf.

load helpers

TEST_USER=cgxtest

setup_file() {
	id -u "$TEST_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$TEST_USER"
}

setup() {
	common_setup
	TEST_UID=$(id -u "$TEST_USER")
	TEST_GID=$(id -g "$TEST_USER")
}

teardown() {
	common_teardown
}

as_user() {
	setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups "$@"
}

user_write_result() {
	local out
	out=$(as_user bash -c "echo '$2' > '$1'" 2>&1) && { echo ok; return; }
	echo "${out##*: }"
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
