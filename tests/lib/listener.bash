# Drives the build's examples/memory-threshold-listener from bats: shared by the
# host suite event-control.bats and the guest suite v2-memory-events.bats.
# Needs LISTENER (the binary) and OUT (a directory for its outputs).

# listen NAME ARGS...: a listener in the background, its pid in $NAME_pid, once it
# registered (or fails the test). Not in $(...): the job would be the subshell's.
listen() {
	local name=$1
	shift
	"$LISTENER" -t "${LISTEN_TIMEOUT:-30}" "$@" >"$OUT/$name" 2>&1 3>&- &
	LISTENERS="${LISTENERS:-} $!"
	eval "${name}_pid=$!"
	for _ in $(seq 200); do [ -s "$OUT/$name" ] && break; sleep 0.1; done
	[ "$(head -n1 "$OUT/$name")" = registered ] || { cat "$OUT/$name"; return 1; }
}

# What listener NAME printed after "registered", one line each.
events_of() {
	tail -n +2 "$OUT/$1"
}

# The signals listener NAME read, added up.
signals_of() {
	events_of "$1" | awk '$1 == "event" { n += $2 } END { print n + 0 }'
}

# Listener NAME has ended on the wake-up of its group's rmdir.
woken_by_removal() {
	local pid
	eval "pid=\$${1}_pid"
	wait "$pid" || { cat "$OUT/$1"; return 1; }
	[ "$(events_of "$1" | tail -n1)" = removed ]
}

# What a write of "EFD CFD ARGS" to GROUP's cgroup.event_control reports ("ok" or
# the errno text), EFD an eventfd and CFD GROUP's file FILE: register GROUP FILE ARGS.
register() {
	python3 - "$@" <<-'PY'
		import os, sys
		group, file, args = sys.argv[1:]
		efd, cfd = os.eventfd(0), os.open(f"{group}/{file}", os.O_RDONLY)
		try:
		    with open(f"{group}/cgroup.event_control", "w") as f:
		        f.write(f"{efd} {cfd} {args}")
		    print("ok")
		except OSError as e:
		    print(os.strerror(e.errno))
	PY
}

# The host suites' daemon ($M its memory hierarchy) again, in the foreground with its log in $LOGDIR/daemon.log,
# under `prlimit $LIMIT` when LIMIT is set; the arguments go to cgxfs.
restart_daemon() {
	stop_cgxfs
	${LIMIT:+prlimit $LIMIT} "$CGXFS" --cgroup2 "$CG2" --base "$BASE" \
		--log "$DEPRECATION_LOG" -f "$@" "$MNT" >>"$LOGDIR/daemon.log" 2>&1 3>&- &
	for _ in $(seq 100); do [ -e "$M/tasks" ] && return 0; sleep 0.1; done
	cat "$LOGDIR/daemon.log"
	return 1
}

kill_listeners() {
	for pid in ${LISTENERS:-}; do kill -9 "$pid" 2>/dev/null || true; done
}
