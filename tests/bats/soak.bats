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
	# Under ASan freed memory waits in a quarantine of 256 MiB by default,
	# and in one of 1 MiB per thread before that, which would hide what the
	# daemon keeps: small ones, so RSS tells. With requests answered outside
	# the model lock, more of the 16 workers free memory at once: the
	# per-thread ones alone took the second half 4.8 MiB over the first.
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=4:thread_local_quarantine_size_kb=64
	common_setup
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

@test "100,000 registration attempts by a user leave root's operations working and the daemon bounded" {
	local fds rss first_rss rounds=0
	fds=$(daemon_fd_count)
	rss=$(daemon_rss_kb)
	spawn_sleeper
	flood_while_root_works first
	# At most two descriptors a listener (eventfd, pidfd), 1024 listeners a uid.
	[ "$(daemon_fd_count)" -le $((fds + 2 * 1024)) ]
	first_rss=$(daemon_rss_kb)
	echo "daemon: $fds fds, RSS $rss kB at start; $(daemon_fd_count) fds, $first_rss kB after"
	flooder_gone "$fds"
	# The same again, from the start: what the first half left, it left for good.
	flood_while_root_works second
	[ "$(daemon_fd_count)" -le $((fds + 2 * 1024)) ]
	echo "daemon: $(daemon_fd_count) fds, $(daemon_rss_kb) kB after the second half"
	[ "$(daemon_rss_kb)" -le $((first_rss + 4 * 1024)) ]
	root_round after
	flooder_gone "$fds"
	[ -z "$(getfattr -d -m 'trusted.cgx.listener/' "$CG2/$BASE" 2>/dev/null)" ]
}
