#!/usr/bin/env bats
# The deprecation log under a hostile flood (docs/deprecation-log.md, "Bounds"):
# an unprivileged user delegated a group in name=systemd moves itself between
# two subgroups in a tight loop with a ~1 MiB command line. The log stays
# small, the counters stay exact, and root's operations keep working.

load ../lib/helpers

TEST_USER=cgxtest

setup_file() {
	id -u "$TEST_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$TEST_USER"
}

setup() {
	common_setup
	TEST_UID=$(id -u "$TEST_USER")
	TEST_GID=$(id -g "$TEST_USER")
	WORK=$(mktemp -d /tmp/cgx-flood.XXXXXX)
	chmod 755 "$WORK"
}

teardown() {
	common_teardown
	rm -rf "$WORK"
}

as_user() {
	setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups "$@"
}

daemon_pid() {
	pgrep -f -- "--base $BASE " | head -n1
}

counter() {
	awk -v k="$1" '$1 == k {print $2}' "$MNT/cgx.deprecations"
}

log_size() {
	stat -c %s "$DEPRECATION_LOG" 2>/dev/null || echo 0
}

rss_kib() {
	awk '/^VmRSS:/ {print $2}' "/proc/$(daemon_pid)/status"
}

# The events the log file stands for: one per record line, plus what each summary folded.
log_events() {
	jq -s '[.[] | select(.kind != "log-capped") | if .folded then .folded else 1 end] | add // 0' \
		"$DEPRECATION_LOG"
}

# A group of name=systemd given to the user, with two subgroups it made itself.
delegate() {
	mkdir "$MNT/systemd/deleg"
	chown "$TEST_USER" "$MNT/systemd/deleg" "$MNT/systemd/deleg/tasks" \
		"$MNT/systemd/deleg/cgroup.procs"
	as_user mkdir "$MNT/systemd/deleg/a" "$MNT/systemd/deleg/b"
}

# The user's flood for $1 seconds: a bash whose command line holds eight
# arguments of 127 KiB (MAX_ARG_STRLEN is 128 KiB) moves itself between a and
# b as fast as it can. Writes the number of moves the kernel took to $WORK/moves.
# Root first puts it in the delegated group, as a session's manager would: a
# process from a cgroup outside the base moves in only as cgroup2's
# delegation rule allows (tests/bats/delegation.bats).
flood() {
	local big
	big=$(head -c 130000 /dev/zero | tr '\0' x)
	: >"$WORK/moves"
	chown "$TEST_USER" "$WORK/moves"
	# shellcheck disable=SC2016
	as_user bash -c '
		while [ ! -e "$3.go" ]; do sleep 0.01; done
		dir=$1 end=$((SECONDS + $2)) moves=0
		while ((SECONDS < end)); do
			echo $$ >"$dir/a/tasks" && moves=$((moves + 1))
			echo $$ >"$dir/b/tasks" && moves=$((moves + 1))
		done 2>/dev/null
		echo $moves >"$3"' flood "$MNT/systemd/deleg" "$1" "$WORK/moves" \
		"$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big" &
	local flooder=$!
	echo "$flooder" >"$MNT/systemd/deleg/tasks"
	touch "$WORK/moves.go"
	wait "$flooder"
}

@test "a 10 s flood of moves with a 1 MiB command line grows the log by at most 1 MiB" {
	delegate
	local size_before rss_before named_before
	size_before=$(log_size)
	rss_before=$(rss_kib)
	named_before=$(counter named-hierarchy)
	flood 10
	local moves size_after rss_after
	moves=$(cat "$WORK/moves")
	size_after=$(log_size)
	rss_after=$(rss_kib)
	echo "# moves $moves, log $size_before -> $size_after bytes, daemon RSS $rss_before -> $rss_after KiB" >&3
	[ "$moves" -gt 100 ]
	[ $((size_after - size_before)) -le $((1024 * 1024)) ]
	# Every move is counted, written or folded (and root's, which put the flooder in).
	[ "$(counter named-hierarchy)" = $((named_before + moves + 1)) ]
	[ "$(counter log_folded)" -gt 0 ]
	[ "$(counter log_lost)" = 0 ]
	[ "$(counter log_dropped)" = 0 ]
	# The command line is cut, and says so.
	local last
	last=$(tail -n1 "$DEPRECATION_LOG")
	[ "$(jq -c .truncated <<<"$last")" = '["cmdline"]' ]
	[ "$(jq -r '.cmdline | join(" ") | length' <<<"$last")" -le 4096 ]
	[ "$(jq -r '.cmdline[0:2] | join(" ")' <<<"$last")" = "bash -c" ]
	[ "$(jq -r .program <<<"$last")" = "$(readlink -f "$(command -v bash)")" ]
	[ "$(jq -r .uid <<<"$last")" = "$TEST_UID" ]
	# What is folded is written when the daemon ends: the file then adds up to the counter.
	local total
	total=$(awk '$1 !~ /^(log|syslog)_/ {sum += $2} END {print sum}' "$MNT/cgx.deprecations")
	stop_cgxfs
	[ "$(log_events)" = "$total" ]
	[ "$(jq -r 'select(.folded) | .kind' "$DEPRECATION_LOG" | sort -u)" = named-hierarchy ]
}

@test "during a 60 s flood, root's mkdir, move and read keep working" {
	delegate
	flood 60 &
	local flooder=$! i=0
	spawn_sleeper
	while kill -0 "$flooder" 2>/dev/null; do
		i=$((i + 1))
		mkdir "$MNT/cpu,cpuacct/r$i"
		echo "$pid" >"$MNT/cpu,cpuacct/r$i/tasks"
		[ "$(cat "$MNT/cpu,cpuacct/r$i/tasks")" = "$pid" ]
		[ "$(v2_path_of "$pid")" = "/$BASE/r$i" ]
		[ "$(cat "$MNT/cpu,cpuacct/r$i/cpu.shares")" = 1024 ]
	done
	wait "$flooder"
	echo "# root made $i groups and moves, the user $(cat "$WORK/moves") moves; log $(log_size) bytes, RSS $(rss_kib) KiB" >&3
	[ "$i" -gt 0 ]
	[ "$(cat "$WORK/moves")" -gt 100 ]
	[ "$(log_size)" -le $((2 * 1024 * 1024)) ]
}

# A new program name per process (the script path comes from argv) gets a
# window of its own each; the uid's budget bounds them all together.
@test "a user cycling through more program names than the table has slots: the log stays within the uid's budget, counts add up" {
	mkdir "$MNT/net_cls,net_prio/deleg"
	local file=$MNT/net_cls,net_prio/deleg/net_cls.classid i
	chown "$TEST_USER" "$MNT/net_cls,net_prio/deleg" "$file"
	# 300 names (the table has 256 slots) of one script, each run writing 4 times.
	printf 'for i in 1 2 3 4; do echo 1 > "$1"; done\n' >"$WORK/w.sh"
	for i in $(seq 300); do ln -s w.sh "$WORK/w$i.sh"; done
	local rss_before started windows
	rss_before=$(rss_kib)
	started=$SECONDS
	as_user bash -c 'for i in $(seq 300); do bash "$1/w$i.sh" "$2"; done' _ "$WORK" "$file"
	# The budget is per 60 s window: a slow machine may see the run span two.
	windows=$((1 + (SECONDS - started) / 60))
	echo "# log $(log_size) bytes in $((SECONDS - started)) s, daemon RSS $rss_before -> $(rss_kib) KiB" >&3
	[ "$(counter no-v2-equivalent)" = 1200 ]
	[ "$(counter log_lost)" = 0 ]
	[ "$(counter log_dropped)" = 0 ]
	# The lines of 1200 records would take more than 256 KiB: past it, they are folded.
	[ "$(counter log_folded)" -gt 0 ]
	[ "$(log_size)" -le $((windows * 256 * 1024)) ]
	stop_cgxfs
	# The uid's folded count is one short line a kind and window, under the program "*".
	[ "$(log_size)" -le $((windows * (256 * 1024 + 1024))) ]
	[ "$(jq -c 'select(.program == "*") | [.kind, .uid]' "$DEPRECATION_LOG" | sort -u)" = \
		"[\"no-v2-equivalent\",$TEST_UID]" ]
	[ "$(log_events)" = 1200 ]
}
