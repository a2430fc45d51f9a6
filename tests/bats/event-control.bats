#!/usr/bin/env bats
# cgroup.event_control on the host: registrations are parsed as
# memcg_write_event_control() parses them, the daemon keeps its own reference
# to the writer's eventfd (pidfd_getfd), and rmdir wakes every listener. The
# host has no memory controller in cgroup2, so thresholds never fire here
# (tests/vm/suites/v2-memory-events.bats covers those); PSI exists, so a
# pressure listener gets its trigger.

load ../lib/helpers
load ../lib/listener

LISTENER=${LISTENER:-$(dirname "$CGXFS")/../examples/memory-threshold-listener}

setup() {
	[ -x "$LISTENER" ] || skip "no $LISTENER"
	common_setup
	M=$MNT/memory
	OUT=$(mktemp -d /tmp/cgx-listen.XXXXXX)
}

teardown() {
	kill_listeners
	common_teardown
	rm -rf "$OUT"
}

daemon_pid() {
	pgrep -f -- "--base $BASE " | head -n1
}

# The daemon's descriptors whose target matches $1.
daemon_fds() {
	local n=0 fd
	for fd in /proc/"$(daemon_pid)"/fd/*; do
		[[ $(readlink "$fd") == $1 ]] && n=$((n + 1))
	done
	echo "$n"
}

@test "a threshold listener registers and the daemon holds its eventfd" {
	mkdir "$M/g"
	before=$(daemon_fds 'anon_inode:\[eventfd\]')
	listen usage "$M/g/memory.usage_in_bytes" 100M
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = $((before + 1)) ]
}

# The daemon holds eventfds matching its count before, within three seconds.
eventfds_back_to() {
	for _ in $(seq 30); do
		[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = "$1" ] && return
		sleep 0.1
	done
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = "$1" ]
}

@test "the eventfd is held until rmdir while its listener lives" {
	mkdir "$M/g"
	before=$(daemon_fds 'anon_inode:\[eventfd\]')
	listen usage "$M/g/memory.usage_in_bytes" 1G
	sleep 0.5
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = $((before + 1)) ]
	rmdir "$M/g"
	woken_by_removal usage
	# Released once the listener was woken, a moment after rmdir returned.
	eventfds_back_to "$before"
}

@test "a registration ends when no process holds its eventfd, as v1's last close ends it" {
	mkdir "$M/g"
	before=$(daemon_fds 'anon_inode:\[eventfd\]')
	# register's writer exits at once, its eventfd with it: nothing keeps the registration.
	[ "$(register "$M/g" memory.usage_in_bytes 1G)" = ok ]
	eventfds_back_to "$before"
	# A child that inherited the eventfd keeps it after the writer is gone.
	holder=$(python3 - "$M/g" 3>&- <<-'PY'
		import os, sys, time
		efd = os.eventfd(0)
		cfd = os.open(f"{sys.argv[1]}/memory.usage_in_bytes", os.O_RDONLY)
		with open(f"{sys.argv[1]}/cgroup.event_control", "w") as f:
		    f.write(f"{efd} {cfd} 1G")
		child = os.fork()
		if child == 0:
		    os.setsid()
		    for fd in range(3):
		        os.close(fd)
		    time.sleep(1000)
		    os._exit(0)
		print(child)
	PY
	)
	[ -n "$holder" ]
	LISTENERS="${LISTENERS:-} $holder"
	sleep 1
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = $((before + 1)) ]
	kill -9 "$holder"
	eventfds_back_to "$before"
}

@test "rmdir wakes a threshold listener, which then finds the group gone" {
	mkdir "$M/g"
	listen usage "$M/g/memory.usage_in_bytes" 1G
	rmdir "$M/g"
	woken_by_removal usage
	[ "$(events_of usage)" = "$(printf 'event 1\nremoved')" ]
	[ ! -e "$M/g/memory.usage_in_bytes" ]
}

@test "a pressure listener gets a PSI trigger on the group's memory.pressure, dropped on rmdir" {
	[ -e "$CG2/$BASE/memory.pressure" ] || skip "no PSI in cgroup2 here"
	mkdir "$M/g"
	listen pressure "$M/g/memory.pressure_level" medium,hierarchy
	[ "$(daemon_fds "$CG2/$BASE/g/memory.pressure")" = 1 ]
	rmdir "$M/g"
	woken_by_removal pressure
	[ "$(daemon_fds "$CG2/$BASE/g/memory.pressure")" = 0 ]
}

@test "rmdir wakes only the listeners of the removed group" {
	mkdir "$M/g" "$M/h"
	listen g "$M/g/memory.usage_in_bytes" 1G
	listen h "$M/h/memory.usage_in_bytes" 1G
	rmdir "$M/g"
	woken_by_removal g
	sleep 0.5
	[ -z "$(events_of h)" ]
	rmdir "$M/h"
	woken_by_removal h
}

@test "a renamed group keeps its listeners" {
	mkdir "$M/g"
	listen usage "$M/g/memory.usage_in_bytes" 1G
	mv "$M/g" "$M/renamed"
	sleep 0.5
	[ -z "$(events_of usage)" ]
	rmdir "$M/renamed"
	woken_by_removal usage
}

@test "thresholds parse as page_counter_memparse: suffixes and -1, nothing else" {
	mkdir "$M/g"
	[ "$(register "$M/g" memory.usage_in_bytes 64M)" = ok ]
	[ "$(register "$M/g" memory.usage_in_bytes -1)" = ok ]
	[ "$(register "$M/g" memory.usage_in_bytes '')" = ok ]
	[ "$(register "$M/g" memory.usage_in_bytes 12x)" = "Invalid argument" ]
	[ "$(register "$M/g" memory.usage_in_bytes -2)" = "Invalid argument" ]
}

@test "pressure levels parse as vmpressure_register_event: LEVEL[,MODE] within 19 bytes" {
	[ -e "$CG2/$BASE/memory.pressure" ] || skip "no PSI in cgroup2 here"
	mkdir "$M/g"
	[ "$(register "$M/g" memory.pressure_level low)" = ok ]
	[ "$(register "$M/g" memory.pressure_level critical,local)" = ok ]
	[ "$(register "$M/g" memory.pressure_level medium,default,ignored)" = ok ]
	[ "$(register "$M/g" memory.pressure_level critical,hierarchy)" = ok ]
	[ "$(register "$M/g" memory.pressure_level critical,hierarchyX)" = "Invalid argument" ]
	[ "$(register "$M/g" memory.pressure_level high)" = "Invalid argument" ]
	[ "$(register "$M/g" memory.pressure_level low,)" = "Invalid argument" ]
	[ "$(register "$M/g" memory.pressure_level '')" = "Invalid argument" ]
}

@test "an OOM listener is refused with EOPNOTSUPP where cgroup2 has no memory controller" {
	grep -qw memory "$CG2/$BASE/cgroup.controllers" && skip "cgroup2 has memory here"
	mkdir "$M/g"
	[ "$(register "$M/g" memory.oom_control '')" = "Operation not supported" ]
}
