#!/usr/bin/env bats
# cgxfs core on the host's real cgroup2 mount: view, groups, moves, errors, restart.

load ../lib/helpers
load ../gen/invariant

setup() {
	common_setup
}

teardown() {
	common_teardown
}

@test "the mount root lists the classic hierarchies and their symlinks" {
	run ls "$MNT"
	[ "$status" -eq 0 ]
	for h in cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event \
		hugetlb pids rdma misc systemd; do
		[[ " ${lines[*]} " == *" $h "* ]]
	done
	[ "$(readlink "$MNT/cpu")" = "cpu,cpuacct" ]
	[ "$(readlink "$MNT/net_prio")" = "net_cls,net_prio" ]
}

@test "a hierarchy root has the kernel's core files and modes" {
	cd "$MNT/cpu,cpuacct"
	[ "$(stat -c '%a %s' tasks)" = "644 0" ]
	[ "$(stat -c '%a' cgroup.procs)" = "644" ]
	[ "$(stat -c '%a' cgroup.sane_behavior)" = "444" ]
	[ "$(stat -c '%a' release_agent)" = "644" ]
	[ "$(cat cgroup.sane_behavior)" = "0" ]
	[ "$(cat notify_on_release)" = "0" ]
	[ "$(cat cgroup.clone_children)" = "0" ]
	# The root lists every process that no group holds, this shell among them.
	grep -qx "$$" cgroup.procs
	grep -qx 1 tasks
}

@test "a child group has the core files but not the root-only ones" {
	# A named hierarchy has no controller: its groups hold the core files alone.
	mkdir "$MNT/systemd/g" "$MNT/cpu,cpuacct/g"
	run ls "$MNT/systemd/g"
	[ "${lines[*]}" = "cgroup.clone_children cgroup.procs notify_on_release tasks" ]
	[ "$(stat -c '%a %F %h' "$MNT/cpu,cpuacct/g")" = "755 directory 2" ]
	[ "$(stat -c '%h' "$MNT/cpu,cpuacct")" -ge 3 ]
}

@test "mkdir of an existing group or a file name fails with EEXIST" {
	mkdir "$MNT/memory/g"
	run mkdir "$MNT/memory/g"
	[[ "$output" == *"File exists"* ]]
	run mkdir "$MNT/memory/tasks"
	[[ "$output" == *"File exists"* ]]
	run mkdir "$MNT/memory/a
b"
	[[ "$output" == *"Invalid argument"* ]]
	mkdir "$MNT/memory/a b"
	[ -d "$CG2/$BASE/a b" ]
}

@test "a group is one v2 directory shared by the hierarchies that have it" {
	mkdir "$MNT/cpu,cpuacct/web" "$MNT/memory/web"
	[ -d "$CG2/$BASE/web" ]
	# Owner, group, mode, creator, then the group's id (its inode number's basis).
	[[ "$(getfattr --only-values -n trusted.cgx.group/memory "$CG2/$BASE/web")" =~ ^"0 0 755 0 0 "[1-9][0-9]*$ ]]
	[ "$(ls -d "$CG2/$BASE"/*/ | wc -l)" -eq 1 ]
}

@test "a moved process sits in its group's v2 directory and is listed in tasks" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/a"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/@cpu=a" ] || [ "$(v2_path_of "$pid")" = "/$BASE/a" ]
	[ "$(cat "$MNT/cpu,cpuacct/a/tasks")" = "$pid" ]
	[ "$(cat "$MNT/cpu,cpuacct/a/cgroup.procs")" = "$pid" ]
	! grep -qx "$pid" "$MNT/cpu,cpuacct/tasks"
	grep -qx "$pid" "$MNT/memory/tasks"
}

@test "a thread's id written to tasks or cgroup.procs moves its whole process" {
	perl -Mthreads -e 'threads->create(sub { sleep 1000 })->detach; sleep 1000' </dev/null >/dev/null 2>&1 &
	pid=$!
	SLEEPERS="${SLEEPERS:-} $pid"
	local tid
	for _ in $(seq 50); do
		tid=$(ls "/proc/$pid/task" | grep -vx "$pid" | head -1)
		[ -n "$tid" ] && break
		sleep 0.1
	done
	[ -n "$tid" ]
	mkdir "$MNT/memory/t" "$MNT/memory/p"
	echo "$tid" >"$MNT/memory/t/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/t" ]
	[ "$(v2_path_of "$tid")" = "/$BASE/t" ]
	[ "$(sort -n "$MNT/memory/t/tasks")" = "$(printf '%s\n' "$pid" "$tid" | sort -n)" ]
	echo "$tid" >"$MNT/memory/p/cgroup.procs"
	[ "$(cat "$MNT/memory/p/cgroup.procs")" = "$pid" ]
	[ -z "$(cat "$MNT/memory/t/tasks")" ]
}

@test "groups that agree across hierarchies fold to the v1 path itself" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/job" "$MNT/memory/job"
	echo "$pid" >"$MNT/cpu,cpuacct/job/tasks"
	echo "$pid" >"$MNT/memory/job/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/job" ]
	[ "$(getfattr --only-values -n trusted.cgx.tuple "$CG2/$BASE/job")" = "$(printf 'cpu,cpuacct:/job\nmemory:/job')" ]
}

@test "a process in different groups per hierarchy sits in exactly one leaf" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/memory/b"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	echo "$pid" >"$MNT/memory/b/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/b/@cpu=a" ]
	[ "$(cat "$MNT/cpu,cpuacct/a/tasks")" = "$pid" ]
	[ "$(cat "$MNT/memory/b/tasks")" = "$pid" ]
	[ "$(grep -rlx "$pid" "$CG2/$BASE" --include=cgroup.procs | wc -l)" -eq 1 ]
}

@test "the leaf a move empties is kept for a moment and retired by the watcher" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/cpu,cpuacct/b" "$MNT/memory/m"
	echo "$pid" >"$MNT/memory/m/tasks"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/m/@cpu=a" ]
	echo "$pid" >"$MNT/cpu,cpuacct/b/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/m/@cpu=b" ]
	# Back and forth: the leaf it left is still made, and takes it again.
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/m/@cpu=a" ]
	[ "$(cat "$MNT/cpu,cpuacct/a/tasks")" = "$pid" ]
	[ -z "$(cat "$MNT/cpu,cpuacct/b/tasks")" ]
	# Left alone, the emptied one goes at the watcher's next pass (a second apart).
	for _ in $(seq 50); do [ -d "$CG2/$BASE/m/@cpu=b" ] || break; sleep 0.1; done
	[ ! -d "$CG2/$BASE/m/@cpu=b" ]
	[ -d "$CG2/$BASE/m/@cpu=a" ]
	gen_invariant "$pid"
}

@test "a group whose leaf a move emptied gets a child group with no tasks leaf" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/cpu,cpuacct/b"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/a" ]
	echo "$pid" >"$MNT/cpu,cpuacct/b/tasks"
	# /a still records cpu:/a, whose leaf it was, until the watcher's pass; a child comes first.
	mkdir "$MNT/cpu,cpuacct/a/c"
	[ -d "$CG2/$BASE/a/c" ]
	[ ! -e "$CG2/$BASE/a/@tasks" ]
	run getfattr --only-values -n trusted.cgx.tuple "$CG2/$BASE/a"
	[ "$status" -ne 0 ]
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/a/@tasks" ]
	[ "$(cat "$MNT/cpu,cpuacct/a/tasks")" = "$pid" ]
	gen_invariant "$pid"
}

@test "children forked after a move are members without the daemon seeing the fork" {
	mkdir "$MNT/pids/p"
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	bash -c 'read; sleep 1000 & echo $! ; wait' <"$BATS_TEST_TMPDIR/fifo" >"$BATS_TEST_TMPDIR/child" &
	parent=$!
	SLEEPERS="$parent"
	echo "$parent" >"$MNT/pids/p/cgroup.procs"
	echo go >"$BATS_TEST_TMPDIR/fifo"
	for _ in $(seq 50); do [ -s "$BATS_TEST_TMPDIR/child" ] && break; sleep 0.1; done
	child=$(cat "$BATS_TEST_TMPDIR/child")
	SLEEPERS="$parent $child"
	[ -n "$child" ]
	grep -qx "$parent" "$MNT/pids/p/cgroup.procs"
	grep -qx "$child" "$MNT/pids/p/cgroup.procs"
	grep -qx "$child" "$MNT/pids/p/tasks"
}

@test "writing 0 moves the writer itself" {
	mkdir "$MNT/freezer/self"
	run bash -c "echo 0 > '$MNT/freezer/self/tasks'; sed -n 's/^0:://p' /proc/\$\$/cgroup"
	[ "$status" -eq 0 ]
	# freezer:/self is the only group on that path: the fold is exact there.
	[ "$output" = "/$BASE/self" ]
}

@test "bad pids get the kernel's errno and move nothing" {
	mkdir "$MNT/cpu,cpuacct/bad"
	[ "$(write_result "$MNT/cpu,cpuacct/bad/tasks" abc)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpu,cpuacct/bad/tasks" -5)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpu,cpuacct/bad/tasks" "")" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpu,cpuacct/bad/tasks" 99999999)" = "No such process" ]
	[ "$(write_result "$MNT/cpu,cpuacct/bad/cgroup.procs" 99999999)" = "No such process" ]
	# kthreadd stays in the root, whatever else would refuse it (a cpuset without CPUs).
	[ "$(write_result "$MNT/cpu,cpuacct/bad/tasks" 2)" = "Invalid argument" ]
	mkdir "$MNT/cpuset/none"
	[ "$(write_result "$MNT/cpuset/none/tasks" 2)" = "Invalid argument" ]
	[ "$(write_result "$MNT/cpuset/none/tasks" $$)" = "No space left on device" ]
	[ -z "$(cat "$MNT/cpu,cpuacct/bad/tasks")" ]
	[ -z "$(ls -A "$CG2/$BASE/bad" | grep '^@' || true)" ]
	! getfattr -d -m 'trusted.cgx.origin' "$CG2/$BASE" 2>/dev/null | grep -q origin
}

@test "notify_on_release and clone_children take write_u64 values and are inherited" {
	f=$MNT/cpu,cpuacct/notify_on_release
	[ "$(write_result "$f" 1)" = ok ]
	[ "$(cat "$f")" = 1 ]
	[ "$(write_result "$f" 2)" = ok ]
	[ "$(cat "$f")" = 1 ]
	[ "$(write_result "$f" -1)" = "Invalid argument" ]
	[ "$(write_result "$f" abc)" = "Invalid argument" ]
	[ "$(cat "$f")" = 1 ]
	mkdir "$MNT/cpu,cpuacct/kid"
	[ "$(cat "$MNT/cpu,cpuacct/kid/notify_on_release")" = 1 ]
	[ "$(write_result "$MNT/cpu,cpuacct/kid/notify_on_release" 0)" = ok ]
	[ "$(cat "$MNT/cpu,cpuacct/kid/notify_on_release")" = 0 ]
	[ "$(write_result "$MNT/cpu,cpuacct/cgroup.sane_behavior" 1)" = "Invalid argument" ]
}

@test "release_agent is kept at the root for root" {
	[ "$(write_result "$MNT/cpu,cpuacct/release_agent" /bin/true)" = ok ]
	[ "$(cat "$MNT/cpu,cpuacct/release_agent")" = /bin/true ]
	[ "$(cat "$MNT/memory/release_agent")" = "" ]
	[ ! -e "$MNT/memory/x/release_agent" ]
}

@test "rmdir of a group with tasks or children is EBUSY; then it goes from v2 too" {
	spawn_sleeper
	mkdir -p "$MNT/memory/busy/child"
	run rmdir "$MNT/memory/busy"
	[[ "$output" == *"Device or resource busy"* ]]
	rmdir "$MNT/memory/busy/child"
	echo "$pid" >"$MNT/memory/busy/tasks"
	run rmdir "$MNT/memory/busy"
	[[ "$output" == *"Device or resource busy"* ]]
	echo "$pid" >"$MNT/memory/tasks"
	rmdir "$MNT/memory/busy"
	[ ! -e "$MNT/memory/busy" ]
	[ ! -e "$CG2/$BASE/busy" ]
}

@test "a process written back to every root returns to the cgroup it came from" {
	spawn_sleeper
	origin=$(v2_path_of "$pid")
	mkdir "$MNT/pids/tmp"
	echo "$pid" >"$MNT/pids/tmp/tasks"
	[ "$(v2_path_of "$pid")" != "$origin" ]
	echo "$pid" >"$MNT/pids/tasks"
	[ "$(v2_path_of "$pid")" = "$origin" ]
	grep -qx "$pid" "$MNT/pids/tasks"
}

@test "a group's own tasks move to a leaf child when it gets a child group" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/outer"
	echo "$pid" >"$MNT/cpu,cpuacct/outer/tasks"
	mkdir "$MNT/cpu,cpuacct/outer/inner"
	[ "$(v2_path_of "$pid")" = "/$BASE/@cpu=outer" ] || [ "$(v2_path_of "$pid")" = "/$BASE/outer/@tasks" ]
	[ "$(cat "$MNT/cpu,cpuacct/outer/tasks")" = "$pid" ]
	[ -z "$(cat "$MNT/cpu,cpuacct/outer/inner/tasks")" ]
}

@test "a group's own tasks come back from its leaf child when its last child group goes" {
	# cpusets.rst's my_cpuset: the shell in it, then mkdir and rmdir my_sub_cs.
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/outer"
	echo "$pid" >"$MNT/cpu,cpuacct/outer/tasks"
	mkdir "$MNT/cpu,cpuacct/outer/inner"
	[ "$(v2_path_of "$pid")" = "/$BASE/outer/@tasks" ]
	rmdir "$MNT/cpu,cpuacct/outer/inner"
	[ "$(v2_path_of "$pid")" = "/$BASE/outer" ]
	[ ! -e "$CG2/$BASE/outer/@tasks" ]
	[ ! -e "$CG2/$BASE/outer/inner" ]
	[ "$(cat "$MNT/cpu,cpuacct/outer/tasks")" = "$pid" ]
}

@test "files cannot be created, removed or linked, as in the kernel" {
	mkdir "$MNT/devices/d"
	run touch "$MNT/devices/d/newfile"
	[[ "$output" == *"Permission denied"* ]]
	run rm -f "$MNT/devices/d/tasks"
	[[ "$output" == *"Operation not permitted"* ]]
	run ln -s x "$MNT/devices/d/lnk"
	[[ "$output" == *"Operation not permitted"* ]]
	run ln "$MNT/devices/d/tasks" "$MNT/devices/d/hard"
	[[ "$output" == *"Operation not permitted"* ]]
}

@test "chown and chmod of groups and files persist" {
	mkdir "$MNT/cpu,cpuacct/own"
	chown 65534:65534 "$MNT/cpu,cpuacct/own"
	chmod 700 "$MNT/cpu,cpuacct/own/tasks"
	[ "$(stat -c '%u %g %a' "$MNT/cpu,cpuacct/own")" = "65534 65534 755" ]
	[ "$(stat -c '%a %u' "$MNT/cpu,cpuacct/own/tasks")" = "700 0" ]
	stop_cgxfs
	start_cgxfs
	[ "$(stat -c '%u %g %a' "$MNT/cpu,cpuacct/own")" = "65534 65534 755" ]
	[ "$(stat -c '%a' "$MNT/cpu,cpuacct/own/tasks")" = "700" ]
}

@test "kill -9 of the daemon loses no group, membership or value" {
	spawn_sleeper
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/memory/b"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	echo "$pid" >"$MNT/memory/b/tasks"
	echo 1 >"$MNT/memory/b/notify_on_release"
	kill_daemon_hard
	start_cgxfs
	[ "$(cat "$MNT/cpu,cpuacct/a/tasks")" = "$pid" ]
	[ "$(cat "$MNT/memory/b/tasks")" = "$pid" ]
	[ "$(cat "$MNT/memory/b/notify_on_release")" = 1 ]
	[ "$(v2_path_of "$pid")" = "/$BASE/b/@cpu=a" ]
	! grep -qx "$pid" "$MNT/memory/tasks"
}

@test "a dead mount of a killed daemon is replaced on restart" {
	kill_daemon_hard
	mount -t tmpfs none "$MNT" 2>/dev/null && umount "$MNT"
	start_cgxfs
	[ -e "$MNT/cpu,cpuacct/tasks" ]
}

@test "a second daemon on the same base is refused, and leaves the first's groups alone" {
	local second
	spawn_sleeper
	mkdir "$MNT/memory/kept"
	echo "$pid" >"$MNT/memory/kept/tasks"
	second=$(mktemp -d /tmp/cgx-second.XXXXXX)
	run "$CGXFS" --cgroup2 "$CG2" --base "$BASE" --log "$LOGDIR/second.jsonl" "$second"
	# Cleaned up before anything is asserted: a mount here would outlive the test.
	fusermount3 -u "$second" 2>/dev/null || true
	rmdir "$second"
	[ "$status" -eq 1 ]
	[[ "$output" == *"base $CG2/$BASE is served by another cgxfs, or holds the base of one"* ]]
	[ "$(cat "$MNT/memory/kept/tasks")" = "$pid" ]
	# The lock goes with the daemon, even one killed with -9.
	kill_daemon_hard
	start_cgxfs
	[ "$(cat "$MNT/memory/kept/tasks")" = "$pid" ]
}

@test "a daemon on a base inside a served one, or around it, is refused" {
	local second
	spawn_sleeper
	mkdir "$MNT/memory/a" "$MNT/memory/a/b" "$MNT/cpu,cpuacct/other"
	echo "$pid" >"$MNT/memory/a/b/tasks"
	echo "$pid" >"$MNT/cpu,cpuacct/other/tasks"
	leaf=$(v2_path_of "$pid")
	second=$(mktemp -d /tmp/cgx-second.XXXXXX)
	for inner in "$BASE/other" "$BASE/a" "$BASE/a/b"; do
		run "$CGXFS" --cgroup2 "$CG2" --base "$inner" --log "$LOGDIR/second.jsonl" "$second"
		fusermount3 -u "$second" 2>/dev/null || true
		echo "$inner: $status $output"
		[ "$status" -eq 1 ]
		[[ "$output" == *"base $CG2/$inner lies inside $CG2/$BASE, which another cgxfs serves"* ]]
	done
	rmdir "$second"
	[ "$(v2_path_of "$pid")" = "$leaf" ]
	[ "$(cat "$MNT/memory/a/b/tasks")" = "$pid" ]
	[ "$(cat "$MNT/cpu,cpuacct/other/tasks")" = "$pid" ]
	# And around: the first daemon again, on the base of one serving inside it.
	stop_cgxfs
	outer=$BASE
	BASE=$outer/inner
	start_cgxfs
	run "$CGXFS" --cgroup2 "$CG2" --base "$outer" --log "$LOGDIR/outer.jsonl" "$MNT.outer"
	fusermount3 -u "$MNT.outer" 2>/dev/null || true
	stop_cgxfs
	BASE=$outer
	[ "$status" -eq 1 ]
	[[ "$output" == *"base $CG2/$outer is served by another cgxfs, or holds the base of one"* ]]
}

@test "bad options get a clear message and exit non-zero" {
	run "$CGXFS" --cgroup2 "$CG2" --base "" "$MNT.none"
	[ "$status" -ne 0 ]
	[[ "$output" == *"never its root"* ]]
	run "$CGXFS" --cgroup2 "$CG2" --base "$BASE" --hierarchies "cpu;cpu" "$MNT.none"
	[ "$status" -ne 0 ]
	[[ "$output" == *"hierarchy"* ]]
	run "$CGXFS" --version
	[[ "$output" == "cgxfs "* ]]
}

@test "a hierarchy root directory is 0555 as kernfs makes it" {
	[ "$(stat -c %a "$MNT/memory")" = 555 ]
	mkdir "$MNT/memory/child"
	[ "$(stat -c %a "$MNT/memory/child")" = 755 ]
}

@test "rename of a group within its parent carries its tasks, values and children" {
	spawn_sleeper
	mkdir -p "$MNT/cpu,cpuacct/old/kid" "$MNT/memory/old"
	echo 1 >"$MNT/cpu,cpuacct/old/notify_on_release"
	echo "$pid" >"$MNT/cpu,cpuacct/old/tasks"
	mv "$MNT/cpu,cpuacct/old" "$MNT/cpu,cpuacct/new"
	[ ! -e "$MNT/cpu,cpuacct/old" ]
	[ -d "$MNT/cpu,cpuacct/new/kid" ]
	[ "$(cat "$MNT/cpu,cpuacct/new/tasks")" = "$pid" ]
	[ "$(cat "$MNT/cpu,cpuacct/new/notify_on_release")" = 1 ]
	# memory keeps its own group at the old path.
	[ -d "$MNT/memory/old" ]
	[ "$(v2_path_of "$pid")" = "/$BASE/new/@tasks" ]
	stop_cgxfs
	start_cgxfs
	[ "$(cat "$MNT/cpu,cpuacct/new/tasks")" = "$pid" ]
	[ -d "$MNT/cpu,cpuacct/new/kid" ]
}

# cgx-gen seed 6 (tests/gen/regressions/relocate-uaf-after-rename): v1 hierarchies
# are independent, so a name another hierarchy uses at that place is free here.
@test "rename onto a name other hierarchies' groups hold folds into their directory" {
	local sched="$MNT/none,name=sched" np="$MNT/net_cls,net_prio" cpu="$MNT/cpu,cpuacct"
	mkdir "$sched" "$sched/b" "$cpu/c" "$np/c" "$sched/b/a"
	spawn_sleeper
	mv "$sched/b" "$sched/a"
	echo "$pid" >"$sched/a/a/tasks"
	echo "$pid" >"$np/c/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/a/a/@net_cls=c" ]
	mv "$np/c" "$np/a"
	[ ! -e "$np/c" ]
	[ -d "$cpu/c" ]
	[ "$(cat "$np/a/tasks")" = "$pid" ]
	[ "$(cat "$sched/a/a/tasks")" = "$pid" ]
	# Both hierarchies now agree on /a/a and /a: the exact directory, no divergent leaf left.
	[ "$(v2_path_of "$pid")" = "/$BASE/a/a" ]
	[ -z "$(find "$CG2/$BASE/a" -mindepth 1 -maxdepth 2 -type d -name '@*')" ]
	# The next change of shape relocates again; the daemon serves it.
	mkdir "$sched/db"
	[ -d "$CG2/$BASE/db" ]
	[ "$(cat "$sched/a/a/tasks")" = "$pid" ]
	gen_invariant "$pid"
}

@test "rename gets the kernel's errno for files, other parents and existing names" {
	mkdir -p "$MNT/pids/g/sub" "$MNT/pids/g/taken"
	run mv "$MNT/pids/g/tasks" "$MNT/pids/g/tasks2"
	[[ "$output" == *"Not a directory"* ]]
	run mv -T "$MNT/pids/g/sub" "$MNT/pids/sub3"
	[[ "$output" == *"Input/output error"* ]]
	run mv -T "$MNT/pids/g/sub" "$MNT/pids/g/taken"
	[ "$status" -ne 0 ]
	[ -d "$MNT/pids/g/sub" ]
}

# rename(2) itself: mv answers EXDEV by copying, which would hide it.
rename_errno() {
	python3 -c 'import errno, os, sys
try:
	os.rename(sys.argv[1], sys.argv[2])
	print("done")
except OSError as e:
	print(errno.errorcode[e.errno])' "$1" "$2"
}

@test "rename to another hierarchy or out of the view is EXDEV, as between two v1 mounts" {
	mkdir "$MNT/pids/g" "$MNT/memory/m"
	[ "$(rename_errno "$MNT/pids/g" "$MNT/memory/g")" = EXDEV ]
	[ "$(rename_errno "$MNT/pids/g" "$MNT/memory/m/g")" = EXDEV ]
	[ "$(rename_errno "$MNT/pids/g" "$MNT/g")" = EXDEV ]
	[ "$(rename_errno "$MNT/pids/g/tasks" "$MNT/memory/tasks")" = EXDEV ]
	[ "$(rename_errno "$MNT/memory" "$MNT/pids/memory")" = EXDEV ]
	[ -d "$MNT/pids/g" ] && [ ! -e "$MNT/memory/g" ] && [ ! -e "$MNT/g" ]
	# Within a hierarchy the kernel's own answers stay: another parent is EIO.
	[ "$(rename_errno "$MNT/pids/g" "$MNT/pids/g2")" = done ]
	mkdir "$MNT/memory/m/n"
	[ "$(rename_errno "$MNT/memory/m/n" "$MNT/memory/n")" = EIO ]
}

@test "a pid written from another pid namespace is read in the writer's namespace" {
	mkdir "$MNT/cpu,cpuacct/ns"
	# Inside the new namespace, 1 is the unshared shell, not the host's init.
	run unshare --pid --fork --mount-proc bash -c "echo 1 > '$MNT/cpu,cpuacct/ns/tasks' && echo moved"
	[ "$output" = moved ]
	! grep -qx 1 "$MNT/cpu,cpuacct/ns/tasks"
	[ "$(sed -n 's/^0:://p' /proc/1/cgroup)" != "/$BASE/ns" ]
	run unshare --pid --fork --mount-proc bash -c "echo 424242 > '$MNT/cpu,cpuacct/ns/tasks'"
	[[ "$output" == *"No such process"* ]]
}

@test "tasks and cgroup.procs read from another pid namespace give its numbers and hide the rest" {
	mkdir "$MNT/cpu,cpuacct/ns"
	sleep 1000 &
	local outside=$!
	echo "$outside" >"$MNT/cpu,cpuacct/ns/cgroup.procs"
	# The shell is 1 in its namespace; the sleep outside it has no number there.
	run unshare --pid --fork --mount-proc bash -c "
		echo 1 >'$MNT/cpu,cpuacct/ns/cgroup.procs'
		sleep 1000 & echo \$! >'$MNT/cpu,cpuacct/ns/tasks'
		mapfile -t procs <'$MNT/cpu,cpuacct/ns/cgroup.procs'; echo procs \${procs[*]}
		mapfile -t tasks <'$MNT/cpu,cpuacct/ns/tasks'; echo tasks \${tasks[*]}
		echo root-has-1 \$(grep -cx 1 '$MNT/cpu,cpuacct/cgroup.procs')
		kill %1"
	kill "$outside"
	echo "$output"
	[ "${lines[0]}" = "procs 1 2" ]
	[ "${lines[1]}" = "tasks 1 2" ]
	[ "${lines[2]}" = "root-has-1 0" ]
	# Outside, the daemon's numbers as before.
	! grep -qx 1 "$MNT/cpu,cpuacct/ns/cgroup.procs"
}

@test "a file kept open across the removal of its group fails its reads, the daemon lives" {
	mkdir "$MNT/pids/gone"
	# fd 7: bats keeps fd 3 for its own output.
	exec 7<"$MNT/pids/gone/tasks"
	rmdir "$MNT/pids/gone"
	run cat <&7
	exec 7<&-
	[ "$status" -ne 0 ]
	[ -e "$MNT/pids/tasks" ]
	grep -qx 1 "$MNT/pids/tasks"
}

@test "a group directory lists its entries in kernfs's order, as the kernel's own cgroup2 does" {
	# The oracle: the groups' own v2 directories, listed by the kernel's kernfs.
	local names="t t2 tasks2 db web a b c alpha z9 long-group-name-17" n kernel view
	for n in $names; do
		mkdir "$MNT/memory/$n"
		[ -d "$CG2/$BASE/$n" ]
	done
	kernel=$(ls -f "$CG2/$BASE" | grep -xF "${names// /$'\n'}" | tr '\n' ' ')
	view=$(ls -f "$MNT/memory" | grep -xF "${names// /$'\n'}" | tr '\n' ' ')
	echo "kernel: $kernel"
	echo "view:   $view"
	[ "$view" = "$kernel" ]
	[ "$view" != "$(printf '%s\n' $names | sort | tr '\n' ' ')" ]
	# Files and groups are one list; the root's first three files as a v1 kernel lists them.
	[ "$(ls -f "$MNT/memory" | grep -v '^\.' | grep -vxF "${names// /$'\n'}" | head -n3 | tr '\n' ' ')" = \
		"cgroup.procs memory.use_hierarchy memory.kmem.tcp.usage_in_bytes " ]
}
