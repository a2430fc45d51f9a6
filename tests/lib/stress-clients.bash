# Shared by stress.bats and faults.bats (loaded after helpers): clients of
# tests/lib/stress-client.sh on the view, their sleepers, and the clean-up check.

CLIENT=$BATS_TEST_DIRNAME/../lib/stress-client.sh
HIER_LIST="cpu,cpuacct memory net_cls,net_prio freezer pids"

setup() {
	common_setup
	WORK=$(mktemp -d /tmp/cgx-stress.XXXXXX)
}

teardown() {
	for f in "$WORK"/sleepers.*; do
		[ -e "$f" ] && kill -9 $(cat "$f") 2>/dev/null
	done
	# Only this test's clients (they name its mount point): the other suite
	# of clients may be running at the same time (ctest -j).
	pkill -9 -f "$CLIENT $MNT " 2>/dev/null || true
	common_teardown
	rm -rf "$WORK"
}

# Starts $1 clients of $2 operations each; their pids in CLIENTS.
start_clients() {
	CLIENTS=()
	for ((c = 0; c < $1; c++)); do
		"$CLIENT" "$MNT" "$c" "$2" "$WORK/sleepers.$c" >"$WORK/errors.$c" 2>&1 3>&- &
		CLIENTS+=($!)
	done
}

all_sleepers() {
	cat "$WORK"/sleepers.* 2>/dev/null | tr ' ' '\n'
}

# Every group removed through the view, deepest first; then nothing of ours is left in v2.
remove_everything() {
	all_sleepers | xargs -r kill -9 2>/dev/null || true
	sleep 0.5
	for h in $HIER_LIST; do
		(cd "$MNT/$h" && find . -mindepth 1 -type d | sort -r | xargs -r rmdir)
	done
	find "$CG2/$BASE" -mindepth 1 -type d
}
