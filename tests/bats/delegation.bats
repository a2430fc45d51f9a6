#!/usr/bin/env bats
# A v1 delegation meets cgroup2's: a process whose cgroup2 cgroup lies
# outside the base (a user's slice, here a scratch sibling of the base, the
# "jail") comes into the view, and goes back to it, only for a writer that
# cgroup2 would let move it there (write access to the cgroup.procs of the
# common ancestor, and of the destination outside the base), or for one with
# CAP_SYS_ADMIN. v1 would move it: in v1 a freezer-only delegation changes no
# memory or pids membership, in the view the move changes its one cgroup2
# cgroup and so every limit it had.

load ../lib/helpers

OTHER_GID=4242

setup_file() {
	test_user_make
}

setup() {
	scratch_setup
	test_user_ids
	# The base and the jail under one scratch parent, so that their common
	# ancestor is a cgroup of the test's (the cgroup2 root is the host's).
	PARENT=cgx-deleg-$$-$RANDOM
	BASE=$PARENT/base
	JAIL=$CG2/$PARENT/jail
	mkdir -p "$CG2/$PARENT" "$JAIL"
	start_cgxfs
	G1=$MNT/freezer/g1
	mkdir "$G1"
	# Root delegates freezer:/g1 alone, as v1 delegation does.
	chown "$TEST_USER" "$G1" "$G1/tasks" "$G1/cgroup.procs"
}

teardown() {
	common_teardown
	for p in $(cat "$JAIL/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
	for _ in $(seq 50); do [ -z "$(cat "$JAIL/cgroup.procs" 2>/dev/null)" ] && break; sleep 0.1; done
	rmdir "$JAIL" "$CG2/$PARENT" 2>/dev/null || true
}

# A sleep of the test user in the jail, its pid in $pid.
spawn_jailed() {
	(exec setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups sleep 1000 \
		</dev/null >/dev/null 2>&1) &
	pid=$!
	SLEEPERS="${SLEEPERS:-} $pid"
	for _ in $(seq 50); do
		[ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$(command -v sleep)")" ] && break
		sleep 0.1
	done
	echo "$pid" >"$JAIL/cgroup.procs"
	[ "$(v2_path_of "$pid")" = "/$PARENT/jail" ]
}

records_of() {
	cat "$DEPRECATION_LOG" 2>/dev/null | grep -c "\"kind\":\"$1\"" || true
}

@test "a freezer-only delegation cannot pull a process out of its cgroup2 cgroup outside the base" {
	spawn_jailed
	for f in tasks cgroup.procs; do
		[ "$(user_write_result "$G1/$f" "$pid")" = "Permission denied" ] || { echo "$f"; false; }
		[ "$(v2_path_of "$pid")" = "/$PARENT/jail" ]
	done
	[ -z "$(cat "$G1/tasks")" ]
	grep -qx "$pid" "$MNT/freezer/tasks"
	# Said why, in the log and its counter: the cgroup.procs it would need.
	[ "$(records_of delegation-refused)" = 2 ]
	grep '"kind":"delegation-refused"' "$DEPRECATION_LOG" | head -n1 | grep -q "\"group\":\"/g1\""
	grep '"kind":"delegation-refused"' "$DEPRECATION_LOG" |
		grep -qF "not moved from cgroup2 /$PARENT/jail to /$BASE: cgroup2 lets only a writer of /$PARENT/cgroup.procs"
	[ "$(awk '$1 == "delegation-refused" {print $2}' "$MNT/cgx.deprecations")" = 2 ]
}

@test "a process moving itself in from outside the base is refused the same" {
	# The user's shell waits until root has put it in the jail, then writes 0.
	(exec setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups bash -c \
		'until grep -q "/jail$" /proc/self/cgroup; do sleep 0.05; done
		echo 0 2>/dev/null >"$1"; echo "status $?"; cat /proc/self/cgroup' _ "$G1/tasks" \
		</dev/null >"$LOGDIR/self.out" 2>&1) &
	shell=$!
	echo "$shell" >"$JAIL/cgroup.procs"
	wait "$shell"
	grep -qx "status 1" "$LOGDIR/self.out"
	grep -qx "0::/$PARENT/jail" "$LOGDIR/self.out"
	[ "$(records_of delegation-refused)" = 1 ]
}

@test "a writer of the common ancestor's cgroup.procs moves it in, as cgroup2 would" {
	spawn_jailed
	chown "$TEST_USER" "$CG2/$PARENT/cgroup.procs"
	[ "$(user_write_result "$G1/tasks" "$pid")" = ok ]
	[ "$(cat "$G1/tasks")" = "$pid" ]
	[ "$(v2_path_of "$pid")" = "/$BASE/g1" ]
	[ "$(records_of delegation-refused)" = 0 ]
}

@test "a group's write bit on the common ancestor counts only for an opener in that group" {
	spawn_jailed
	chgrp "$OTHER_GID" "$CG2/$PARENT/cgroup.procs"
	chmod 664 "$CG2/$PARENT/cgroup.procs"
	[ "$(user_write_result "$G1/tasks" "$pid")" = "Permission denied" ]
	run setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --groups "$OTHER_GID" \
		bash -c "echo $pid > '$G1/tasks'"
	[ "$status" = 0 ]
	[ "$(v2_path_of "$pid")" = "/$BASE/g1" ]
}

# Writes pid $2 to $1 through a descriptor that uid $3 opened and handed to root.
write_through_users_descriptor() {
	python3 - "$@" <<'PY'
import os, socket, sys
path, pid, uid, gid = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
parent, child_end = socket.socketpair(socket.AF_UNIX)
child = os.fork()
if child == 0:
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    socket.send_fds(child_end, [b"x"], [os.open(path, os.O_WRONLY)])
    os._exit(0)
_, fds, _, _ = socket.recv_fds(parent, 1, 1)
os.waitpid(child, 0)
try:
    os.write(fds[0], pid.encode())
    print("ok")
except OSError as e:
    print(e.strerror)
PY
}

@test "the opener's credentials count, not the writer's" {
	spawn_jailed
	# Opened by the user, written by root: refused, as cgroup2 checks the open's credentials.
	[ "$(write_through_users_descriptor "$G1/tasks" "$pid" "$TEST_UID" "$TEST_GID")" = "Permission denied" ]
	[ "$(v2_path_of "$pid")" = "/$PARENT/jail" ]
	# Opened by root (CAP_SYS_ADMIN), written by the user: moved.
	exec 5>"$G1/tasks"
	as_user bash -c "echo $pid >&5"
	exec 5>&-
	[ "$(v2_path_of "$pid")" = "/$BASE/g1" ]
}

@test "root, with CAP_SYS_ADMIN, moves it in from anywhere" {
	spawn_jailed
	echo "$pid" >"$G1/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/g1" ]
	[ "$(records_of delegation-refused)" = 0 ]
}

@test "written back to the roots by a user, it stays in the base; root's write sends it home" {
	spawn_jailed
	echo "$pid" >"$G1/tasks"
	chmod 666 "$MNT/freezer/tasks"
	# v1 lets the user move its own process to the root; cgroup2 would not let
	# it move the process back into the jail, whose ancestor it may not write.
	[ "$(user_write_result "$MNT/freezer/tasks" "$pid")" = ok ]
	[ -z "$(cat "$G1/tasks")" ]
	grep -qx "$pid" "$MNT/freezer/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/@tasks" ]
	grep '"kind":"delegation-refused"' "$DEPRECATION_LOG" |
		grep -qF "stays in the base: not moved from cgroup2 /$BASE/g1 to /$PARENT/jail"
	# Root may: the same write, a no-op in v1, completes the way home.
	echo "$pid" >"$MNT/freezer/tasks"
	[ "$(v2_path_of "$pid")" = "/$PARENT/jail" ]
	grep -qx "$pid" "$MNT/freezer/tasks"
}

@test "the way back needs the destination's cgroup.procs too, not only the common ancestor's" {
	spawn_jailed
	echo "$pid" >"$G1/tasks"
	chmod 666 "$MNT/freezer/tasks"
	chown "$TEST_USER" "$CG2/$PARENT/cgroup.procs"
	# The ancestor is the user's, the jail is not: it stays in the base.
	[ "$(user_write_result "$MNT/freezer/tasks" "$pid")" = ok ]
	[ "$(v2_path_of "$pid")" = "/$BASE/@tasks" ]
	grep '"kind":"delegation-refused"' "$DEPRECATION_LOG" | grep -qF "/$PARENT/jail/cgroup.procs"
	# With the jail delegated as well, the user's write takes it home.
	chown "$TEST_USER" "$JAIL/cgroup.procs"
	[ "$(user_write_result "$MNT/freezer/tasks" "$pid")" = ok ]
	[ "$(v2_path_of "$pid")" = "/$PARENT/jail" ]
}

@test "a process already in the view moves by v1's rules alone" {
	spawn_jailed
	mkdir "$MNT/freezer/other"
	echo "$pid" >"$MNT/freezer/other/tasks"
	[ "$(user_write_result "$G1/tasks" "$pid")" = ok ]
	[ "$(v2_path_of "$pid")" = "/$BASE/g1" ]
	[ "$(records_of delegation-refused)" = 0 ]
}

@test "a process another tool put in the base moves by v1's rules and keeps its way home" {
	spawn_jailed
	mkdir "$MNT/freezer/other"
	echo "$pid" >"$MNT/freezer/other/tasks"
	# Behind the daemon's back, into g1's directory: no leaf, so the roots.
	echo "$pid" >"$CG2/$BASE/g1/cgroup.procs"
	grep -qx "$pid" "$MNT/freezer/tasks"
	# Inside the base the daemon decides, by v1's rules alone.
	[ "$(user_write_result "$G1/tasks" "$pid")" = ok ]
	[ "$(cat "$G1/tasks")" = "$pid" ]
	[ "$(records_of delegation-refused)" = 0 ]
	# Home is still the jail, not the directory the other tool used.
	echo "$pid" >"$MNT/freezer/tasks"
	[ "$(v2_path_of "$pid")" = "/$PARENT/jail" ]
}
