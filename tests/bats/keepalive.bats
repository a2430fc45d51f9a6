#!/usr/bin/env bats
# cgxfs --supervise: the keeper holds the FUSE connection and restarts the
# daemon on it. Processes inside the view (a cwd, open files) see no error
# across kill -9 of the daemon: requests wait for the next daemon.

load ../lib/helpers
load ../lib/listener

LISTENER=${LISTENER:-$(dirname "$CGXFS")/../examples/memory-threshold-listener}

setup() {
	common_setup
	# The plain daemon common_setup started gives way to a keeper on the same base.
	stop_cgxfs
	start_cgxfs --supervise
	KEEPER=$(pgrep -f -- "--base $BASE .*--supervise")
	[ -n "$KEEPER" ]
	mkdir "$MNT/memory/g" "$MNT/memory/g/sub"
}

teardown() {
	kill_listeners
	[ -n "${HOLDER:-}" ] && kill -9 "$HOLDER" 2>/dev/null || true
	[ -n "${STRACE:-}" ] && kill -9 "$STRACE" 2>/dev/null || true
	[ -n "${KEEPER:-}" ] && kill -CONT "$KEEPER" 2>/dev/null || true
	common_teardown
}

daemon_pid() {
	pgrep -P "$KEEPER"
}

# kill -9 of the daemon; the keeper starts another on the same connection.
kill_daemon() {
	local pid
	pid=$(daemon_pid)
	[ -n "$pid" ]
	kill -9 "$pid"
}

# A process whose cwd is $MNT/memory/g, with notify_on_release open for
# reading and writing; it answers commands on fd 7 through fd 8.
start_holder() {
	mkfifo "$LOGDIR/to-holder" "$LOGDIR/from-holder"
	(cd "$MNT/memory/g" && exec python3 -u -c '
import os, sys
r = os.open("notify_on_release", os.O_RDONLY)
w = os.open("notify_on_release", os.O_WRONLY)
for line in sys.stdin:
    cmd, _, arg = line.strip().partition(" ")
    try:
        if cmd == "read":
            print(os.pread(r, 4096, 0).decode().strip())
        elif cmd == "write":
            os.write(w, arg.encode())
            print("ok")
        elif cmd == "ls":
            print(" ".join(sorted(os.listdir("."))))
        elif cmd == "ino":
            print(os.stat(".").st_ino)
    except OSError as e:
        print("error: " + e.strerror)
' <"$LOGDIR/to-holder" >"$LOGDIR/from-holder" 2>"$LOGDIR/holder.err") &
	HOLDER=$!
	exec 7>"$LOGDIR/to-holder" 8<"$LOGDIR/from-holder"
}

ask() {
	echo "$*" >&7
	read -r -u 8 reply
	echo "$reply"
}

@test "a cwd and open files inside the view work across twenty kill -9 of the daemon" {
	local ino round value before
	start_holder
	ino=$(ask ino)
	[ "$ino" = "$(stat -c %i "$MNT/memory/g")" ]
	for round in $(seq 20); do
		before=$(daemon_pid)
		kill_daemon
		value=$((round % 2))
		# Sent at once: the daemon may still be dead, the requests wait for the next.
		[ "$(ask write $value)" = ok ]
		[ "$(ask read)" = "$value" ]
		[ "$(cat "$MNT/memory/g/notify_on_release")" = "$value" ]
		[ "$(ask ino)" = "$ino" ]
		[ "$(daemon_pid)" != "$before" ]
	done
	# The cwd lists the group: its files and its child.
	run ask ls
	[[ " $output " == *" notify_on_release "* ]]
	[[ " $output " == *" sub "* ]]
	[[ " $output " == *" tasks "* ]]
	! grep -r "Transport endpoint" "$LOGDIR"
	[ ! -s "$LOGDIR/holder.err" ]
}

@test "a request made while no daemon runs waits and is answered by the next one" {
	echo 1 >"$MNT/memory/g/notify_on_release"
	# The keeper stopped: the daemon killed now is not replaced until it goes on.
	kill -STOP "$KEEPER"
	kill_daemon
	cat "$MNT/memory/g/notify_on_release" >"$LOGDIR/out" 2>"$LOGDIR/err" &
	local reader=$!
	sleep 1
	# Still waiting, with nothing read and no error.
	kill -0 "$reader"
	[ ! -s "$LOGDIR/out" ] && [ ! -s "$LOGDIR/err" ]
	kill -CONT "$KEEPER"
	wait "$reader"
	[ "$(cat "$LOGDIR/out")" = 1 ]
	[ ! -s "$LOGDIR/err" ]
}

@test "a request the killed daemon read but never answered is sent again to the next one" {
	command -v strace >/dev/null || skip "no strace"
	# FUSE_NOTIFY_RESEND came with Linux 6.9; before, such a request waits for ever.
	local major minor
	IFS=. read -r major minor _ <<<"$(uname -r)"
	((major > 6 || (major == 6 && minor >= 9))) || skip "Linux $(uname -r) cannot resend a request"
	echo 1 >"$MNT/memory/g/notify_on_release"
	local daemon reader
	daemon=$(daemon_pid)
	# Every reply of the daemon is held back five seconds at writev's entry.
	strace -f -p "$daemon" -e trace=writev -e inject=writev:delay_enter=5000000 \
		-o "$LOGDIR/strace" 2>/dev/null &
	STRACE=$!
	# Attached once the daemon is traced.
	for _ in $(seq 50); do
		[ "$(awk '/^TracerPid/ {print $2}' "/proc/$daemon/status")" = "$STRACE" ] && break
		sleep 0.1
	done
	cat "$MNT/memory/g/notify_on_release" >"$LOGDIR/out" 2>"$LOGDIR/err" &
	reader=$!
	sleep 1
	# Read by the daemon, its answer not written yet.
	kill -0 "$reader"
	[ ! -s "$LOGDIR/out" ]
	kill -9 "$daemon"
	# The next daemon has the kernel send it again (FUSE_NOTIFY_RESEND).
	timeout 30 tail --pid="$reader" -f /dev/null
	wait "$reader"
	[ "$(cat "$LOGDIR/out")" = 1 ]
	[ ! -s "$LOGDIR/err" ]
}

@test "the view keeps its state and inode numbers across a replaced daemon (SIGUSR2)" {
	local ino before
	echo 1 >"$MNT/memory/g/notify_on_release"
	ino=$(stat -c %i "$MNT/memory/g/sub")
	before=$(daemon_pid)
	kill -USR2 "$KEEPER"
	for _ in $(seq 100); do
		[ -n "$(daemon_pid)" ] && [ "$(daemon_pid)" != "$before" ] && break
		sleep 0.1
	done
	[ "$(daemon_pid)" != "$before" ]
	[ "$(cat "$MNT/memory/g/notify_on_release")" = 1 ]
	[ "$(stat -c %i "$MNT/memory/g/sub")" = "$ino" ]
	# The same without a keeper: a new mount shows the group under the same inode.
	kill -TERM "$KEEPER"
	for _ in $(seq 50); do kill -0 "$KEEPER" 2>/dev/null || break; sleep 0.1; done
	start_cgxfs
	KEEPER=
	[ "$(stat -c %i "$MNT/memory/g/sub")" = "$ino" ]
}

@test "SIGTERM to the keeper unmounts the view and ends keeper and daemon" {
	local daemon
	daemon=$(daemon_pid)
	kill -TERM "$KEEPER"
	for _ in $(seq 50); do kill -0 "$KEEPER" 2>/dev/null || break; sleep 0.1; done
	! kill -0 "$KEEPER" 2>/dev/null
	! kill -0 "$daemon" 2>/dev/null
	[ -z "$(findmnt -n "$MNT")" ]
	KEEPER=
	# The base keeps the groups for the next start.
	[ -d "$CG2/$BASE/g/sub" ]
}

@test "a daemon that cannot start makes --supervise fail and leaves no mount" {
	run "$CGXFS" --cgroup2 /nonexistent --base "$BASE" --log "" --supervise "$LOGDIR"
	[ "$status" -ne 0 ]
	[ -z "$(findmnt -n "$LOGDIR")" ]
}

# Stands in for systemd: the notify socket, the store, LISTEN_FDS at the restart.
fake_fdstore() {
	kill -TERM "$KEEPER"
	for _ in $(seq 50); do kill -0 "$KEEPER" 2>/dev/null || break; sleep 0.1; done
	KEEPER=
	run python3 "$BATS_TEST_DIRNAME/fake_fdstore.py" "$1" "$CGXFS" "$CG2" "$BASE" "$MNT" "$LOGDIR"
	echo "$output"
	umount -l "$MNT"
	[ "$status" -eq 0 ]
	grep -qx "stored fuse fuse-init" <<<"$output"
}

@test "--fdstore hands the connection to systemd's store and a restart takes it back" {
	fake_fdstore reuse
	grep -qx "after restart 1 True" <<<"$output"
	# Taken up, not stored again: the store holds one of each.
	grep -qx "messages READY=1 MAINPID=[0-9]*" <<<"$output"
	grep -qx "store fuse fuse-init" <<<"$output"
	! grep -q "Transport endpoint" <<<"$output"
}

@test "--fdstore: a store left with a gone connection's files is emptied before the new ones go in" {
	fake_fdstore stale
	# Removed by name first, then the new mount's files, then ready.
	grep -qx "messages FDSTOREREMOVE=1 FDNAME=fuse | FDSTOREREMOVE=1 FDNAME=fuse-init | FDSTORE=1 FDNAME=fuse | FDSTORE=1 FDNAME=fuse-init | READY=1 MAINPID=[0-9]*" <<<"$output"
	grep -qx "store fuse fuse-init" <<<"$output"
	# The FUSE_INIT handed down is closed: only the new mount's is held.
	grep -qx "daemon memfds 1 old one held False" <<<"$output"
	grep -qx "answers True" <<<"$output"
	! grep -q "cannot resend" <<<"$output"
}

# The eventfds the daemon holds: its own, and one per listener.
daemon_eventfds() {
	local n=0 fd
	for fd in /proc/"$(daemon_pid)"/fd/*; do
		[ "$(readlink "$fd")" = "anon_inode:[eventfd]" ] && n=$((n + 1))
	done
	echo "$n"
}

@test "an event_control listener is taken up by the next daemon and woken by rmdir" {
	[ -x "$LISTENER" ] || skip "no $LISTENER"
	OUT=$LOGDIR
	local before own
	own=$(daemon_eventfds)
	listen usage "$MNT/memory/g/memory.usage_in_bytes" 1G
	[ "$(daemon_eventfds)" = $((own + 1)) ]
	before=$(daemon_pid)
	kill_daemon
	# The next daemon answers, and holds the listener's eventfd again.
	ls "$MNT/memory/g" >/dev/null
	[ "$(daemon_pid)" != "$before" ]
	[ "$(daemon_eventfds)" = $((own + 1)) ]
	[ -z "$(events_of usage)" ]
	rmdir "$MNT/memory/g/sub" "$MNT/memory/g"
	woken_by_removal usage
	[ "$(events_of usage)" = "$(printf 'event 1\nremoved')" ]
}
