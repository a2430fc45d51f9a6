#!/usr/bin/env bats
# Mounting and unmounting: the default mount point under /sys/fs, daemon life.

load ../lib/helpers

setup() {
	CG2=$(cgroup2_mount)
	[ -n "$CG2" ] || skip "no cgroup2 mount on this host"
	BASE=cgx-test-$$-$RANDOM
	export CG2 BASE
}

teardown() {
	cd /
	# A daemon left in a failed test's private namespace is ended too.
	pkill -f -- "--base $BASE " 2>/dev/null || true
	sleep 0.2
	remove_base
}

@test "the default mount point is made under /sys/fs with every entry kept, and taken away" {
	[ ! -e /sys/fs/cgroup-compat ]
	# Only ever inside a private mount namespace: the host's /sys/fs is left alone.
	run unshare -m --propagation private bash -c '
		before=$(ls /sys/fs | sort | tr "\n" " ")
		"$0" --cgroup2 "$1" --base "$2" --log "" || exit 10
		ls /sys/fs/cgroup-compat/cpu,cpuacct/tasks >/dev/null || exit 11
		after=$(ls /sys/fs | grep -v "^cgroup-compat$" | sort | tr "\n" " ")
		[ "$before" = "$after" ] || { echo "entries changed: $before / $after"; exit 12; }
		[ "$(stat -f -c %T /sys/fs/cgroup)" = "$3" ] || exit 13
		ls /sys/fs/cgroup | grep -q . || exit 14
		fusermount3 -u /sys/fs/cgroup-compat || exit 15
		for i in $(seq 50); do [ -e /sys/fs/cgroup-compat ] || break; sleep 0.1; done
		[ ! -e /sys/fs/cgroup-compat ] || exit 16
		[ "$(stat -f -c %T /sys/fs)" = sysfs ] || exit 17
		echo done' "$CGXFS" "$CG2" "$BASE" "$(stat -f -c %T /sys/fs/cgroup)"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = done ]
	[ ! -e /sys/fs/cgroup-compat ]
}

@test "SIGTERM unmounts and ends the daemon" {
	MNT=$(mktemp -d /tmp/cgxfs-mnt.XXXXXX)
	start_cgxfs
	pid=$(pgrep -f -- "--base $BASE ")
	[ -n "$pid" ]
	kill -TERM "$pid"
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	! kill -0 "$pid" 2>/dev/null
	! grep -q " $MNT " /proc/mounts
	rmdir "$MNT"
}

@test "without a cgroup2 mount given or found the error says what to do" {
	run "$CGXFS" --cgroup2 /nonexistent --base "$BASE" /tmp/nowhere
	[ "$status" -ne 0 ]
	[[ "$output" == *"/nonexistent"* ]]
}

@test "with NOTIFY_SOCKET, the daemon says READY=1 and its pid once the view answers" {
	local mnt sock
	mnt=$(mktemp -d /tmp/cgxfs-mnt.XXXXXX)
	sock=$mnt.notify
	# A service manager's end of sd_notify: one datagram, then whether the view answered.
	python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
message = s.recv(256).decode()
print(message.replace("\n", ";"), os.path.exists(sys.argv[2] + "/cpu,cpuacct/tasks"))' \
		"$sock" "$mnt" >"$mnt.got" 3>&- &
	local listener=$!
	for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
	NOTIFY_SOCKET=$sock "$CGXFS" --cgroup2 "$CG2" --base "$BASE" --log "" -f "$mnt" 3>&- &
	local daemon=$!
	wait "$listener"
	[ "$(cat "$mnt.got")" = "READY=1;MAINPID=$daemon True" ]
	fusermount3 -u "$mnt"
	wait "$daemon"
	rm -f "$sock" "$mnt.got"
	rmdir "$mnt"
}
