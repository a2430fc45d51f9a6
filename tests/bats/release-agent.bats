#!/usr/bin/env bats
# notify_on_release and release_agent: the agent runs with the group's path
# when a flagged group loses its last task and child (cgroup.events
# "populated 0" in v2), as root, with the kernel's environment.

load ../lib/helpers

setup() {
	common_setup
	AGENT_DIR=$(mktemp -d /tmp/cgx-agent.XXXXXX)
	# Records each call: its argument, environment, cwd and uid.
	cat >"$AGENT_DIR/agent" <<-EOF
		#!/bin/sh
		echo "\$* HOME=\$HOME PATH=\$PATH cwd=\$(pwd) uid=\$(id -u)" >> $AGENT_DIR/calls
	EOF
	chmod 755 "$AGENT_DIR/agent"
	H=$MNT/cpu,cpuacct
}

teardown() {
	common_teardown
	rm -rf "$AGENT_DIR"
}

# The agent's calls once $1 of them have come (the daemon checks within a second).
wait_calls() {
	for _ in $(seq 50); do
		[ -e "$AGENT_DIR/calls" ] && [ "$(wc -l <"$AGENT_DIR/calls")" -ge "$1" ] && break
		sleep 0.1
	done
	cat "$AGENT_DIR/calls" 2>/dev/null || true
}

@test "a flagged group whose last task exits runs the agent with its path" {
	echo "$AGENT_DIR/agent" >"$H/release_agent"
	mkdir "$H/g"
	echo 1 >"$H/g/notify_on_release"
	spawn_sleeper
	echo "$pid" >"$H/g/tasks"
	sleep 1.5
	[ ! -e "$AGENT_DIR/calls" ]
	kill -9 "$pid"
	[ "$(wait_calls 1)" = "/g HOME=/ PATH=/sbin:/bin:/usr/sbin:/usr/bin cwd=/ uid=0" ]
	# Once per emptying: nothing more while it stays empty.
	sleep 1.5
	[ "$(wc -l <"$AGENT_DIR/calls")" = 1 ]
}

@test "a task moved out, and a last child removed, release too; unflagged groups never" {
	echo "$AGENT_DIR/agent" >"$H/release_agent"
	mkdir -p "$H/p/c" "$H/quiet"
	echo 1 >"$H/p/notify_on_release"
	# Inherited at mkdir, as the kernel does: p/c is flagged; quiet is not.
	mkdir "$H/p/moved"
	[ "$(cat "$H/p/moved/notify_on_release")" = 1 ]
	spawn_sleeper
	echo "$pid" >"$H/p/moved/tasks"
	echo "$pid" >"$H/quiet/tasks"
	[ "$(wait_calls 1)" = "/p/moved HOME=/ PATH=/sbin:/bin:/usr/sbin:/usr/bin cwd=/ uid=0" ]
	rmdir "$H/p/moved" "$H/p/c"
	wait_calls 3 >/dev/null
	# p/c never held a task: its rmdir is no release; p lost its last child.
	[ "$(cut -d' ' -f1 "$AGENT_DIR/calls" | tr '\n' ' ')" = "/p/moved /p " ]
	kill -9 "$pid"
	sleep 1.5
	[ "$(wc -l <"$AGENT_DIR/calls")" = 2 ]
}

@test "a group that held its task across a restart releases when it empties at once" {
	echo "$AGENT_DIR/agent" >"$H/release_agent"
	mkdir "$H/kept" "$H/idle"
	echo 1 >"$H/kept/notify_on_release"
	echo 1 >"$H/idle/notify_on_release"
	spawn_sleeper
	echo "$pid" >"$H/kept/tasks"
	stop_cgxfs
	start_cgxfs
	# Moved out before the new daemon's watcher has looked: still a release.
	echo "$pid" >"$H/tasks"
	[ "$(wait_calls 1 | cut -d' ' -f1)" = /kept ]
	# idle was empty before the restart: it never filled, so it never releases.
	sleep 1.5
	[ "$(cut -d' ' -f1 "$AGENT_DIR/calls")" = /kept ]
}

@test "no agent, no call; an agent set in one hierarchy serves only that one" {
	mkdir "$H/g" "$MNT/pids/g"
	echo 1 >"$H/g/notify_on_release"
	echo 1 >"$MNT/pids/g/notify_on_release"
	spawn_sleeper
	echo "$pid" >"$MNT/pids/g/tasks"
	echo "$AGENT_DIR/agent" >"$H/release_agent"
	kill -9 "$pid"
	sleep 1.5
	[ ! -e "$AGENT_DIR/calls" ]
}

@test "release_agent needs CAP_SYS_ADMIN, also from root" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	run setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin -- \
		bash -c "echo $AGENT_DIR/agent > '$H/release_agent'"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
	[ "$(cat "$H/release_agent")" = "" ]
}
