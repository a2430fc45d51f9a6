# Shared set-up of the host suites: a scratch base under the host's real
# cgroup2 mount, a scratch mount point, and cleanup by trap even on failure.

CGXFS=${CGXFS:-$BATS_TEST_DIRNAME/../../build/bin/cgxfs}

cgroup2_mount() {
	findmnt -n -t cgroup2 -o TARGET | head -n1
}

# Starts cgxfs on $MNT over $CG2/$BASE; extra arguments go to cgxfs.
start_cgxfs() {
	"$CGXFS" --cgroup2 "$CG2" --base "$BASE" --log "$DEPRECATION_LOG" "$@" "$MNT"
}

stop_cgxfs() {
	if mountpoint -q "$MNT" 2>/dev/null || [ -n "$(findmnt -n "$MNT" 2>/dev/null)" ]; then
		fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null || true
	fi
	# The daemon leaves once unmounted; wait so that a restart starts clean.
	for _ in $(seq 50); do
		pgrep -f -- "--base $BASE " >/dev/null || return 0
		sleep 0.1
	done
	pkill -9 -f -- "--base $BASE " || true
}

kill_daemon_hard() {
	pkill -9 -f -- "--base $BASE " || true
	for _ in $(seq 50); do
		pgrep -f -- "--base $BASE " >/dev/null || break
		sleep 0.1
	done
	umount -l "$MNT" 2>/dev/null || true
}

# Removes every scratch cgroup under the base, depth first, killing what is in them.
remove_base() {
	# A suite whose setup skipped before scratch_setup has no base: never "$CG2/$BASE" = "/".
	[ -n "${CG2:-}" ] && [ -n "${BASE:-}" ] || return 0
	local base=$CG2/$BASE
	[ -d "$base" ] || return 0
	if [ "$(stat -f -c %T "$base")" != cgroup2fs ]; then
		echo "remove_base: $base is no cgroup2 directory, left alone" >&2
		return 1
	fi
	echo 1 >"$base/cgroup.kill" 2>/dev/null || true
	for _ in $(seq 50); do
		[ "$(cat "$base/cgroup.events" 2>/dev/null | awk '/populated/ {print $2}')" = 0 ] && break
		sleep 0.1
	done
	# A cgroup whose last task just died may refuse rmdir for a moment.
	for _ in $(seq 50); do
		find "$base" -depth -type d -exec rmdir {} \; 2>/dev/null || true
		[ -d "$base" ] || return 0
		sleep 0.1
	done
	echo "scratch base $base left behind" >&2
}

# The scratch names of a test (base, mount point, logs), without a daemon.
scratch_setup() {
	CG2=$(cgroup2_mount)
	[ -n "$CG2" ] || skip "no cgroup2 mount on this host"
	BASE=cgx-test-$$-$RANDOM
	MNT=$(mktemp -d /tmp/cgxfs-mnt.XXXXXX)
	# Never the host's /var/log: each test keeps its own deprecation log.
	LOGDIR=$(mktemp -d /tmp/cgxfs-log.XXXXXX)
	DEPRECATION_LOG=$LOGDIR/deprecations.jsonl
	export CG2 BASE MNT LOGDIR DEPRECATION_LOG
}

common_setup() {
	scratch_setup
	start_cgxfs
}

common_teardown() {
	# A test's cwd inside the mount would keep it busy and break find below.
	cd /
	for pid in ${SLEEPERS:-}; do kill -9 "$pid" 2>/dev/null || true; done
	stop_cgxfs
	remove_base
	rmdir "$MNT" 2>/dev/null || true
	umount "$LOGDIR" 2>/dev/null || true
	rm -rf "$LOGDIR"
}

# An unprivileged user of the suites that check who may do what: made once
# (setup_file), its ids in TEST_UID and TEST_GID (test_user_ids).
TEST_USER=cgxtest

test_user_make() {
	id -u "$TEST_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$TEST_USER"
}

test_user_ids() {
	TEST_UID=$(id -u "$TEST_USER")
	TEST_GID=$(id -g "$TEST_USER")
}

as_user() {
	setpriv --reuid="$TEST_UID" --regid="$TEST_GID" --clear-groups "$@"
}

# What `echo VALUE > FILE` as the test user reports: "ok" or the errno text.
user_write_result() {
	local out
	out=$(as_user bash -c "echo '$2' > '$1'" 2>&1) && { echo ok; return; }
	echo "${out##*: }"
}

# A long sleep, its pid in $pid, killed by teardown. Not run in $(...): the
# substitution would wait for the sleep's end.
spawn_sleeper() {
	sleep 1000 </dev/null >/dev/null 2>&1 &
	pid=$!
	SLEEPERS="${SLEEPERS:-} $pid"
}

# What `echo VALUE > FILE` reports: "ok" or the errno text, as the kernel probes print it.
write_result() {
	local out
	out=$(bash -c "echo '$2' > '$1'" 2>&1) && { echo ok; return; }
	echo "${out##*: }"
}

v2_path_of() {
	sed -n 's/^0:://p' "/proc/$1/cgroup"
}

# The fold's invariant for processes $2... over hierarchies $1 (space separated):
# each is in a leaf of the base that records a tuple, in exactly one group per
# hierarchy, and that group is the one the tuple names.
check_fold_invariant() {
	local hiers=$1 pid h group recorded leaf
	shift
	for pid in "$@"; do
		[ -d "/proc/$pid" ] || continue
		leaf=$CG2$(v2_path_of "$pid")
		# Outside the base only when back in every root: it went home (docs/design.md §3, rule 6).
		if [[ $leaf != "$CG2/$BASE"* ]]; then
			for h in $hiers; do
				grep -qx "$pid" "$MNT/$h/tasks" ||
					{ echo "$pid outside the base ($leaf) but not in $h's root"; return 1; }
			done
			continue
		fi
		getfattr -n trusted.cgx.tuple "$leaf" >/dev/null 2>&1 ||
			{ echo "$pid in $leaf, which records no tuple"; return 1; }
		for h in $hiers; do
			group=$(cd "$MNT/$h" && grep -lx "$pid" $(find . -name tasks) | sed 's|^\.||; s|/tasks$||')
			[ "$(wc -l <<<"$group")" = 1 ] || { echo "$pid in $h: $group"; return 1; }
			recorded=$(getfattr --only-values -n trusted.cgx.tuple "$leaf" 2>/dev/null |
				sed -n "s|^$h:||p")
			[ "${group:-/}" = "${recorded:-/}" ] ||
				{ echo "$pid in $h: view ${group:-/}, leaf $leaf ${recorded:-/}"; return 1; }
		done
	done
}
