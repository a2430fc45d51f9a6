#!/usr/bin/env bats
# The v2 tree changed behind the daemon's back (issue 8): directories of the
# base removed and processes moved by another tool. The daemon repairs its
# mirror, logs it, and loses no group or value; it never goes down.

load ../lib/helpers

setup() {
	scratch_setup
	start_in_foreground
}

teardown() {
	common_teardown
}

# In the foreground, so that its log lines land in $LOGDIR/daemon.log.
start_in_foreground() {
	"$CGXFS" --cgroup2 "$CG2" --base "$BASE" --log "$DEPRECATION_LOG" -f "$MNT" \
		>>"$LOGDIR/daemon.log" 2>&1 3>&- &
	for _ in $(seq 100); do [ -e "$MNT/cpu,cpuacct/tasks" ] && return 0; sleep 0.1; done
	cat "$LOGDIR/daemon.log"
	return 1
}

# What another tool does: every process out to the base, every directory below it removed.
empty_the_base_by_hand() {
	local p d
	for p in $(find "$CG2/$BASE" -mindepth 2 -name cgroup.procs -exec cat {} +); do
		echo "$p" >"$CG2/$BASE/cgroup.procs"
	done
	find "$CG2/$BASE" -mindepth 1 -depth -type d | while read -r d; do rmdir "$d"; done
	[ -z "$(find "$CG2/$BASE" -mindepth 1 -type d)" ]
}

@test "groups whose v2 directories another tool removed come back with their values, and work" {
	local C=$MNT/cpu,cpuacct
	mkdir "$C/a" "$C/a/sub" "$MNT/memory/m"
	echo 1 >"$C/a/notify_on_release"
	echo 1 >"$C/a/sub/cgroup.clone_children"
	chmod 700 "$C/a/sub"
	chmod 600 "$C/a/sub/tasks"
	spawn_sleeper
	echo "$pid" >"$C/a/tasks"
	echo "$pid" >"$MNT/memory/m/tasks"
	[ -d "$CG2/$BASE/m/@cpu=a" ]   # divergent: the leaf lies under m

	empty_the_base_by_hand

	# The next access finds a directory gone and asks for the repair, which
	# the watcher makes within a second or two.
	cat "$C/a/tasks" >/dev/null 2>&1 || true
	for _ in $(seq 50); do [ -d "$CG2/$BASE/a/sub" ] && [ -d "$CG2/$BASE/m" ] && break; sleep 0.1; done
	[ -d "$CG2/$BASE/a/sub" ]
	[ -d "$CG2/$BASE/m" ]
	# The leaf held only the process, which another tool took away: it stays gone.
	[ ! -d "$CG2/$BASE/m/@cpu=a" ]
	[ "$(cat "$C/a/notify_on_release")" = 1 ]
	[ "$(cat "$C/a/sub/cgroup.clone_children")" = 1 ]
	[ "$(stat -c %a "$C/a/sub")" = 700 ]
	[ "$(stat -c %a "$C/a/sub/tasks")" = 600 ]
	# Where the other tool put the process is where the view shows it: the roots.
	[ -z "$(cat "$C/a/tasks")" ]
	[ -z "$(cat "$MNT/memory/m/tasks")" ]
	grep -qx "$pid" "$C/tasks"
	grep -q "removed behind cgxfs's back: made again" "$LOGDIR/daemon.log"

	# The groups work as before: a move makes their leaf again (a has a child: its @tasks).
	echo "$pid" >"$C/a/tasks"
	[ "$(cat "$C/a/tasks")" = "$pid" ]
	[ "$(v2_path_of "$pid")" = "/$BASE/a/@tasks" ]
	# And a restart finds them, with their values: the records were written again.
	stop_cgxfs
	start_in_foreground
	[ "$(cat "$C/a/notify_on_release")" = 1 ]
	[ "$(cat "$C/a/sub/cgroup.clone_children")" = 1 ]
	[ -d "$MNT/memory/m" ]
	[ "$(stat -c %a "$C/a/sub/tasks")" = 600 ]
	[ "$(cat "$C/a/tasks")" = "$pid" ]
}

@test "without any access, the periodic check repairs the mirror too" {
	mkdir "$MNT/freezer/f"
	echo 1 >"$MNT/freezer/f/notify_on_release"
	empty_the_base_by_hand
	for _ in $(seq 150); do [ -d "$CG2/$BASE/f" ] && break; sleep 0.1; done
	[ -d "$CG2/$BASE/f" ]
	getfattr -d -m trusted.cgx "$CG2/$BASE/f" | grep -q trusted.cgx
	[ "$(cat "$MNT/freezer/f/notify_on_release")" = 1 ]
}

@test "a process another tool moved into a group's directory counts as in the roots, and moves on from there" {
	local C=$MNT/cpu,cpuacct
	mkdir "$C/a" "$C/b"
	spawn_sleeper
	echo "$pid" >"$C/a/tasks"
	echo "$pid" >"$CG2/$BASE/b/cgroup.procs"   # behind the daemon's back
	# b's directory is no leaf, so it records no tuple: the process is in no
	# group of the view, as one the daemon never moved (tasks.c).
	[ -z "$(cat "$C/a/tasks")" ]
	[ -z "$(cat "$C/b/tasks")" ]
	grep -qx "$pid" "$C/tasks"
	echo "$pid" >"$C/a/tasks"
	[ "$(cat "$C/a/tasks")" = "$pid" ]
	[ -z "$(cat "$C/b/tasks")" ]
	pgrep -f -- "--base $BASE " >/dev/null
}

@test "a group whose name another tool's directory holds in the base is made, under a hashed name" {
	local C=$MNT/cpu,cpuacct
	mkdir "$CG2/$BASE/foreign"
	# Not a group: the view lists nothing of it, and v1 would make the group.
	[ ! -e "$C/foreign" ]
	mkdir "$C/foreign"
	echo 1 >"$C/foreign/notify_on_release"
	spawn_sleeper
	echo "$pid" >"$C/foreign/tasks"
	[ "$(cat "$C/foreign/tasks")" = "$pid" ]
	# The other tool's directory is left as it was, empty and without records.
	[ -z "$(cat "$CG2/$BASE/foreign/cgroup.procs")" ]
	[ -z "$(getfattr --absolute-names -d -m trusted.cgx "$CG2/$BASE/foreign" 2>/dev/null)" ]
	[[ $(v2_path_of "$pid") == "/$BASE/@@~"* ]]
	stop_cgxfs
	start_cgxfs
	[ "$(cat "$C/foreign/tasks")" = "$pid" ]
	[ "$(cat "$C/foreign/notify_on_release")" = 1 ]
}

# A thorough pass of the watcher, now: a group's directory removed by hand and
# a write that finds it gone (reconcile.c), waited for until it is back.
thorough_pass() {
	[ -d "$MNT/cpu,cpuacct/trigger" ] || mkdir "$MNT/cpu,cpuacct/trigger"
	rmdir "$CG2/$BASE/trigger"
	echo 0 >"$MNT/cpu,cpuacct/trigger/notify_on_release" 2>/dev/null || true
	for _ in $(seq 100); do [ -d "$CG2/$BASE/trigger" ] && return 0; sleep 0.1; done
	return 1
}

@test "a directory another tool removed and made again under its name gets its records back" {
	local C=$MNT/cpu,cpuacct
	mkdir "$C/g"
	echo 1 >"$C/g/notify_on_release"
	# At once: the mkdir knows the inode, no pass has to learn it first.
	rmdir "$CG2/$BASE/g"
	mkdir "$CG2/$BASE/g"
	[ -z "$(getfattr --absolute-names -d -m trusted.cgx "$CG2/$BASE/g" 2>/dev/null)" ]
	thorough_pass
	getfattr --absolute-names -d -m trusted.cgx "$CG2/$BASE/g" | grep -q trusted.cgx
	[ "$(cat "$C/g/notify_on_release")" = 1 ]
	stop_cgxfs
	start_cgxfs
	# Right after a start: the load knows it too.
	rmdir "$CG2/$BASE/g"
	mkdir "$CG2/$BASE/g"
	thorough_pass
	getfattr --absolute-names -d -m trusted.cgx "$CG2/$BASE/g" | grep -q trusted.cgx
	stop_cgxfs
	start_cgxfs
	[ "$(cat "$C/g/notify_on_release")" = 1 ]
	spawn_sleeper
	echo "$pid" >"$C/g/tasks"
	[ "$(cat "$C/g/tasks")" = "$pid" ]
}

@test "another tool's subdirectory in a group's directory keeps no removal elsewhere unrepaired" {
	local C=$MNT/cpu,cpuacct
	mkdir "$C/k" "$C/w"
	mkdir "$CG2/$BASE/k/foo" # not the daemon's: k's count differs from the mirror's for good
	rmdir "$CG2/$BASE/w"
	thorough_pass
	[ -d "$CG2/$BASE/w" ]
	[ -d "$CG2/$BASE/k/foo" ]
	rmdir "$CG2/$BASE/k/foo"
}

@test "a group made under the name of another tool's directory that a start kept (not empty) gets a hashed directory" {
	local C=$MNT/cpu,cpuacct
	mkdir "$CG2/$BASE/busy"
	spawn_sleeper
	echo "$pid" >"$CG2/$BASE/busy/cgroup.procs"
	stop_cgxfs
	start_cgxfs
	mkdir "$C/busy"
	[ -z "$(cat "$C/busy/tasks")" ]
	[ -z "$(getfattr --absolute-names -d -m trusted.cgx "$CG2/$BASE/busy" 2>/dev/null)" ]
	spawn_sleeper
	echo "$pid" >"$C/busy/tasks"
	[ "$(cat "$C/busy/tasks")" = "$pid" ]
	[[ $(v2_path_of "$pid") == "/$BASE/@@~"* ]]
	rmdir "$C/busy" 2>/dev/null || { echo "$pid" >"$C/tasks"; rmdir "$C/busy"; }
	[ -d "$CG2/$BASE/busy" ]
}
