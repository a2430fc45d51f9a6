#!/usr/bin/env bats
# cgroup.event_control on the host: registrations are parsed as
# memcg_write_event_control() parses them, the daemon keeps its own reference
# to the writer's eventfd (pidfd_getfd), and rmdir wakes every listener. The
# host has no memory controller in cgroup2, so thresholds never fire here
# (tests/vm/suites/v2-memory-events.bats covers those); PSI exists, so a
# pressure listener gets its trigger. Registrations cost the daemon
# descriptors where v1's cost kernel memory: a uid's are limited, duplicates
# are held once, and root's requests keep a reserve (tests/bats/soak.bats
# floods it).

load ../lib/helpers
load ../lib/listener

LISTENER=${LISTENER:-$(dirname "$CGXFS")/../examples/memory-threshold-listener}
FLOOD=$BATS_TEST_DIRNAME/event-flood.py

setup() {
	[ -x "$LISTENER" ] || skip "no $LISTENER"
	common_setup
	M=$MNT/memory
	OUT=$(mktemp -d /tmp/cgx-listen.XXXXXX)
}

teardown() {
	# Skipped before scratch_setup named a base: there is nothing to take
	# away, and remove_base would take "$CG2/$BASE" = "/" for it.
	[ -n "${BASE:-}" ] || return 0
	kill_listeners
	common_teardown
	rm -rf "$OUT"
}

# The daemon: under --supervise, the keeper's ($KEEPER) child.
daemon_pid() {
	if [ -n "${KEEPER:-}" ]; then
		pgrep -P "$KEEPER"
	else
		pgrep -f -- "--base $BASE " | head -n1
	fi
}

daemon_fd_count() {
	ls /proc/"$(daemon_pid)"/fd | wc -l
}

# flood NAME UID MODE COUNT GROUP [THRESHOLD]: event-flood.py run by UID in the
# background (its pid in $flood_pid, killed by teardown) until it made its
# attempts; "ok N ENOMEM N ..." in $OUT/NAME.
flood() {
	local name=$1 uid=$2
	shift 2
	setpriv --reuid="$uid" --regid="$uid" --clear-groups /usr/bin/python3 "$FLOOD" "$@" \
		>"$OUT/$name" 2>&1 3>&- &
	flood_pid=$!
	LISTENERS="${LISTENERS:-} $!"
	for _ in $(seq 600); do [ -s "$OUT/$name" ] && return 0; sleep 0.1; done
	cat "$OUT/$name"
	return 1
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

@test "cgxfs raises its soft limit of open files to the hard limit" {
	LIMIT=--nofile=1024:4096 restart_daemon
	[ "$(awk '/^Max open files/ { print $4, $5 }' /proc/"$(daemon_pid)"/limits)" = "4096 4096" ]
}

@test "506 registrations of a user at 1024 descriptors leave root's mkdir, move and read working" {
	LIMIT=--nofile=1024:1024 restart_daemon
	flood attack 1001 distinct 506 "$M"
	# Listeners of users other than root hold at most half of what the
	# reserve of 256 leaves, one user an eighth of that, at two descriptors
	# each (the eventfd and a pidfd).
	[ "$(cat "$OUT/attack")" = "ENOMEM $((506 - (1024 - 256) / 2 / 8 / 2)) ok $(((1024 - 256) / 2 / 8 / 2))" ]
	[ "$(daemon_fd_count)" -le $(((1024 - 256) / 2 + 32)) ]
	mkdir "$M/after"
	mv "$M/after" "$M/renamed"
	spawn_sleeper
	echo "$pid" >"$M/renamed/tasks"
	[ "$(cat "$M/renamed/tasks")" = "$pid" ]
	grep -qx "$pid" "$CG2/$BASE/renamed/cgroup.procs"
	[ "$(cat "$M/renamed/memory.limit_in_bytes")" = 9223372036854771712 ]
	# Root's listeners have the other half.
	[ "$(register "$M/renamed" memory.usage_in_bytes 1G)" = ok ]
	grep -q "listener of uid 1001 refused (ENOMEM)" "$LOGDIR/daemon.log"
}

@test "a registration repeated 1000 times holds one eventfd and one pidfd" {
	mkdir "$M/g"
	fds=$(daemon_fd_count)
	flood once 1001 same 1 "$M/g"
	[ "$(cat "$OUT/once")" = "ok 1" ]
	[ "$(daemon_fd_count)" = $((fds + 2)) ]
	flood again 1001 same 1000 "$M/g"
	[ "$(cat "$OUT/again")" = "ok 1000" ]
	# The second flood's eventfd is another: its 1000 registrations are one listener.
	[ "$(daemon_fd_count)" = $((fds + 4)) ]
}

@test "rmdir signals a listener once for each time it registered, as v1's duplicate events fire" {
	mkdir "$M/g"
	python3 - "$M/g" >"$OUT/signals" 3>&- <<-'PY' &
		import os, select, sys, time
		group = sys.argv[1]
		efd = os.eventfd(0, os.EFD_NONBLOCK)
		cfd = os.open(f"{group}/memory.usage_in_bytes", os.O_RDONLY)
		control = os.open(f"{group}/cgroup.event_control", os.O_WRONLY)
		for _ in range(100):
		    os.write(control, f"{efd} {cfd} 1G".encode())
		os.write(control, f"{efd} {cfd} 3G".encode())
		print("registered", flush=True)
		total, deadline = 0, time.monotonic() + 30
		while total < 101 and time.monotonic() < deadline:
		    select.select([efd], [], [], 1)
		    try:
		        total += os.eventfd_read(efd)
		    except BlockingIOError:
		        pass
		print(total)
	PY
	LISTENERS="${LISTENERS:-} $!"
	holder=$!
	for _ in $(seq 100); do [ -s "$OUT/signals" ] && break; sleep 0.1; done
	[ "$(head -n1 "$OUT/signals")" = registered ]
	rmdir "$M/g"
	wait "$holder"
	# 100 for the repeated registration, 1 for the other threshold on the same eventfd.
	[ "$(tail -n1 "$OUT/signals")" = 101 ]
}

@test "past --listeners-per-uid a uid gets ENOMEM, logged, while other uids and root register" {
	restart_daemon --listeners-per-uid 3
	flood first 1001 distinct 5 "$M"
	[ "$(cat "$OUT/first")" = "ENOMEM 2 ok 3" ]
	first=$flood_pid
	# A duplicate is a registration too.
	flood dup 1001 same 2 "$M"
	[ "$(cat "$OUT/dup")" = "ENOMEM 2" ]
	flood other 1002 distinct 3 "$M"
	[ "$(cat "$OUT/other")" = "ok 3" ]
	[ "$(register "$M" memory.usage_in_bytes 1G)" = ok ]
	grep -q "listener of uid 1001 refused (ENOMEM): it holds 3, the most --listeners-per-uid allows" \
		"$LOGDIR/daemon.log"
	! grep -q "uid 1002 refused" "$LOGDIR/daemon.log"
	# Once no process holds its eventfds, the uid's registrations are given back.
	before=$(daemon_fds 'anon_inode:\[eventfd\]')
	kill -9 "$first"
	eventfds_back_to $((before - 3))
	flood later 1001 distinct 3 "$M"
	[ "$(cat "$OUT/later")" = "ok 3" ]
}

@test "refused registrations are logged three lines a minute a user, not one each" {
	restart_daemon --listeners-per-uid 1
	flood many 1001 same 300 "$M"
	[ "$(cat "$OUT/many")" = "ENOMEM 299 ok 1" ]
	[ "$(grep -c "refused (ENOMEM)" "$LOGDIR/daemon.log")" = 3 ]
	# The warning that thresholds cannot fire here comes once, not per registration.
	flood more 1002 distinct 20 "$M"
	[ "$(grep -c "memory controller is not available" "$LOGDIR/daemon.log")" -le 1 ]
}

@test "a descriptor opened with O_PATH is EBADF, for the control file as for the eventfd" {
	mkdir "$M/g"
	run python3 - "$M/g" <<-'PY'
		import os, sys
		group = sys.argv[1]
		efd = os.eventfd(0)
		cfd = os.open(f"{group}/memory.usage_in_bytes", os.O_RDONLY)
		cfd_path = os.open(f"{group}/memory.usage_in_bytes", os.O_PATH)
		efd_path = os.open(f"/proc/self/fd/{efd}", os.O_PATH)
		control = os.open(f"{group}/cgroup.event_control", os.O_WRONLY)
		for e, c in ((efd, cfd_path), (efd_path, cfd), (efd, cfd)):
		    try:
		        os.write(control, f"{e} {c} 1G".encode())
		        print("ok")
		    except OSError as err:
		        print(os.strerror(err.errno))
	PY
	[ "$output" = "$(printf 'Bad file descriptor\nBad file descriptor\nok')" ]
}

@test "a daemon started again takes registrations up within the per-uid limit, dropping the rest" {
	restart_daemon --listeners-per-uid 4
	own=$(daemon_fds 'anon_inode:\[eventfd\]')
	flood four 1001 distinct 4 "$M"
	[ "$(cat "$OUT/four")" = "ok 4" ]
	kill_daemon_hard
	restart_daemon --listeners-per-uid 2
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = $((own + 2)) ]
	[ "$(getfattr -d -m 'trusted.cgx.listener/' "$CG2/$BASE" 2>/dev/null | grep -c listener/)" = 2 ]
	grep -q "2 listeners (2 registrations) taken up again" "$LOGDIR/daemon.log"
	flood fifth 1001 distinct 1 "$M"
	[ "$(cat "$OUT/fifth")" = "ENOMEM 1" ]
}

@test "under --supervise the next daemon takes registrations up, duplicates folded, and the limit holds" {
	stop_cgxfs
	start_cgxfs --supervise --listeners-per-uid 3
	KEEPER=$(pgrep -f -- "--base $BASE .*--supervise")
	daemon=$(daemon_pid)
	own=$(daemon_fds 'anon_inode:\[eventfd\]')
	flood twice 1001 same 2 "$M"
	flood once 1001 distinct 1 "$M"
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = $((own + 2)) ]
	kill -9 "$daemon"
	for _ in $(seq 100); do
		next=$(daemon_pid)
		[ -n "$next" ] && [ "$next" != "$daemon" ] && [ -e "$M/tasks" ] && break
		sleep 0.1
	done
	[ "$(daemon_fds 'anon_inode:\[eventfd\]')" = $((own + 2)) ]
	flood fourth 1001 distinct 1 "$M"
	[ "$(cat "$OUT/fourth")" = "ENOMEM 1" ]
	[ "$(register "$M" memory.usage_in_bytes 1G)" = ok ]
}

@test "a listener whose eventfd counter is full does not stop the daemon at rmdir" {
	mkdir "$M/g"
	before=$(daemon_fds 'anon_inode:\[eventfd\]')
	python3 - "$M/g" >"$OUT/full" 3>&- <<-'PY' &
		import os, sys, time
		group = sys.argv[1]
		efd = os.eventfd(0)  # blocking: a write past the top waits for a read
		os.eventfd_write(efd, 2**64 - 2)
		cfd = os.open(f"{group}/memory.usage_in_bytes", os.O_RDONLY)
		with open(f"{group}/cgroup.event_control", "w") as f:
		    f.write(f"{efd} {cfd} 1G")
		print("registered", flush=True)
		time.sleep(1000)
	PY
	LISTENERS="${LISTENERS:-} $!"
	for _ in $(seq 100); do [ -s "$OUT/full" ] && break; sleep 0.1; done
	[ "$(cat "$OUT/full")" = registered ]
	rmdir "$M/g"
	# Woken and dropped, the counter left at its top as eventfd_signal() leaves it.
	eventfds_back_to "$before"
	timeout 10 mkdir "$M/h"
}
