#!/usr/bin/env bats
# A user floods cgroup.event_control with 100,000 registration attempts (new
# eventfds, duplicates, other thresholds on one eventfd) while root makes,
# renames and removes groups, moves a process and reads: every one of root's
# operations succeeds, and the daemon's descriptors and memory stay
# bounded by the per-uid limit: a second flood as large as the first, after
# the first one's listeners went, leaves no more behind.

load ../lib/helpers

FLOOD=$BATS_TEST_DIRNAME/event-flood.py
ATTEMPTS=100000
USER_UID=1001

setup() {
	# Under ASan freed memory waits in a quarantine of 256 MiB by default:
	# the flood would fill it, on a machine whose guests run alongside.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4
	scratch_setup
	PROM=$LOGDIR/cgx.prom
	start_cgxfs --metrics "$PROM"
	M=$MNT/memory
	OUT=$(mktemp -d /tmp/cgx-soak.XXXXXX)
	FLOODER=
}

teardown() {
	# Skipped before a base was named: remove_base would take "/" for it.
	[ -n "${BASE:-}" ] || return 0
	[ -n "$FLOODER" ] && kill -9 "$FLOODER" 2>/dev/null || true
	common_teardown
	rm -rf "$OUT"
}

daemon_pid() {
	pgrep -f -- "--base $BASE " | head -n1
}

daemon_fd_count() {
	ls /proc/"$(daemon_pid)"/fd | wc -l
}

daemon_rss_kb() {
	awk '/^VmRSS:/ { print $2 }' /proc/"$(daemon_pid)"/status
}

daemon_threads() {
	awk '/^Threads:/ { print $2 }' /proc/"$(daemon_pid)"/status
}

# The daemon's heap in kB (cgx_heap_bytes) from a metrics file written after now.
daemon_heap_kb() {
	local since
	since=$(date +%s.%N)
	for _ in $(seq 150); do
		[ -f "$PROM" ] && [ "$(stat -c %.9Y "$PROM")" \> "$since" ] && break
		sleep 0.1
	done
	# A stale file would compare the heap with itself.
	[ "$(stat -c %.9Y "$PROM")" \> "$since" ] || return 1
	awk '$1 == "cgx_heap_bytes" { print int($2 / 1024) }' "$PROM"
}

# What root does while the flood runs; each step must succeed (bats stops at the first that fails).
root_round() {
	local n=$1
	mkdir "$M/r$n"
	mv "$M/r$n" "$M/s$n"
	echo "$pid" >"$M/s$n/tasks"
	[ "$(cat "$M/s$n/tasks")" = "$pid" ]
	[ "$(cat "$M/s$n/memory.limit_in_bytes")" = 9223372036854771712 ]
	echo "$pid" >"$M/tasks"
	rmdir "$M/s$n"
}

# flood_while_root_works NAME: ATTEMPTS/2 attempts by the user in the background,
# root_round after root_round until they are answered; checks every attempt got
# an answer: taken (at most the per-uid limit) or ENOMEM.
flood_while_root_works() {
	local name=$1 total
	setpriv --reuid="$USER_UID" --regid="$USER_UID" --clear-groups \
		/usr/bin/python3 "$FLOOD" soak $((ATTEMPTS / 2)) "$M" >"$OUT/$name" 2>&1 3>&- &
	FLOODER=$!
	while [ ! -s "$OUT/$name" ]; do
		rounds=$((rounds + 1))
		root_round "$rounds"
		kill -0 "$FLOODER"
	done
	echo "$name: $(cat "$OUT/$name"); root rounds so far: $rounds"
	total=$(awk '{ for (i = 1; i < NF; i += 2) if ($i !~ /^own-/) n += $(i + 1) } END { print n }' \
		"$OUT/$name")
	[ "$total" = $((ATTEMPTS / 2)) ]
	[[ "$(cat "$OUT/$name")" =~ ok\ ([0-9]+) ]]
	[ "${BASH_REMATCH[1]}" -le 1024 ]
	grep -q "ENOMEM [1-9]" "$OUT/$name"
}

# The flooder killed, its listeners go: the daemon is back to $1 descriptors.
flooder_gone() {
	kill -9 "$FLOODER"
	for _ in $(seq 100); do [ "$(daemon_fd_count)" -le "$1" ] && break; sleep 0.1; done
	[ "$(daemon_fd_count)" -le "$1" ]
}

# What the daemon keeps is its heap (RSS also counts what the allocator
# caches, and under ASan its quarantine of freed memory, both of which grow
# with how many workers free at once). A worker thread libfuse starts in
# the second half holds a receive buffer of just over 1 MiB of its own.
@test "100,000 registration attempts by a user leave root's operations working and the daemon bounded" {
	local fds rss first_heap first_threads heap threads rounds=0
	fds=$(daemon_fd_count)
	rss=$(daemon_rss_kb)
	spawn_sleeper
	flood_while_root_works first
	# At most two descriptors a listener (eventfd, pidfd), 1024 listeners a uid.
	[ "$(daemon_fd_count)" -le $((fds + 2 * 1024)) ]
	first_heap=$(daemon_heap_kb)
	# 0: an allocator the daemon cannot ask (a sanitizer other than ASan).
	[ "$first_heap" -gt 0 ]
	first_threads=$(daemon_threads)
	echo "daemon: $fds fds, RSS $rss kB at start; $(daemon_fd_count) fds," \
		"heap $first_heap kB, RSS $(daemon_rss_kb) kB, $first_threads threads after"
	flooder_gone "$fds"
	# The same again, from the start: what the first half left, it left for good.
	flood_while_root_works second
	[ "$(daemon_fd_count)" -le $((fds + 2 * 1024)) ]
	heap=$(daemon_heap_kb)
	threads=$(daemon_threads)
	echo "daemon: $(daemon_fd_count) fds, heap $heap kB, RSS $(daemon_rss_kb) kB," \
		"$threads threads after the second half"
	[ "$heap" -le $((first_heap + 512 + (threads - first_threads) * 1040)) ]
	root_round after
	flooder_gone "$fds"
	[ -z "$(getfattr -d -m 'trusted.cgx.listener/' "$CG2/$BASE" 2>/dev/null)" ]
}
