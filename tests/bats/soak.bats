#!/usr/bin/env bats
# A user floods cgroup.event_control with 100,000 registration attempts (new
# eventfds, duplicates, other thresholds on one eventfd) while root makes,
# renames and removes groups, moves a process and reads: every one of root's
# operations succeeds, and the daemon's descriptors, memory and log stay
# bounded by the per-uid limit however long the flood goes on.

load helpers

FLOOD=$BATS_TEST_DIRNAME/event-flood.py
ATTEMPTS=100000
USER_UID=1001

setup() {
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

@test "100,000 registration attempts by a user leave root's operations working and the daemon bounded" {
	local fds rss rounds=0 total
	fds=$(daemon_fd_count)
	rss=$(daemon_rss_kb)
	spawn_sleeper
	setpriv --reuid="$USER_UID" --regid="$USER_UID" --clear-groups \
		/usr/bin/python3 "$FLOOD" soak "$ATTEMPTS" "$M" >"$OUT/flood" 2>&1 3>&- &
	FLOODER=$!
	while [ ! -s "$OUT/flood" ]; do
		rounds=$((rounds + 1))
		root_round "$rounds"
		kill -0 "$FLOODER"
	done
	echo "root rounds during the flood: $rounds; flood: $(cat "$OUT/flood")"
	echo "daemon fds $fds -> $(daemon_fd_count), RSS ${rss} kB -> $(daemon_rss_kb) kB"
	[ "$rounds" -ge 1 ]
	# Every attempt was answered: taken (at most the per-uid limit) or ENOMEM.
	total=$(awk '{ for (i = 1; i < NF; i += 2) if ($i !~ /^own-/) n += $(i + 1) } END { print n }' "$OUT/flood")
	[ "$total" = "$ATTEMPTS" ]
	[[ "$(cat "$OUT/flood")" =~ ok\ ([0-9]+) ]]
	[ "${BASH_REMATCH[1]}" -le 1024 ]
	grep -q "ENOMEM [1-9]" "$OUT/flood"
	# At most two descriptors a listener (eventfd, pidfd), 1024 listeners a uid.
	[ "$(daemon_fd_count)" -le $((fds + 2 * 1024)) ]
	[ "$(daemon_rss_kb)" -le $((rss + 16 * 1024)) ]
	root_round after
	# The flooder gone, its listeners go and the daemon is back where it started.
	kill -9 "$FLOODER"
	for _ in $(seq 100); do [ "$(daemon_fd_count)" -le "$fds" ] && break; sleep 0.1; done
	[ "$(daemon_fd_count)" -le "$fds" ]
	[ -z "$(getfattr -d -m 'trusted.cgx.listener/' "$CG2/$BASE" 2>/dev/null)" ]
}
