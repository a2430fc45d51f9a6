#!/usr/bin/env bats
# The per-user bounds of the daemon count users, not uids: a user with a
# subordinate range (/etc/subuid, newuidmap: rootless containers) acts as
# thousands of uids through a user namespace, and each of them is still that
# user (enforcer/proc_account.h). The deprecation log's byte budget
# (docs/deprecation-log.md, "Bounds") and the listeners of
# cgroup.event_control (cgxfs(8), MEMORY EVENTS) hold across them; one user
# alone never fills the descriptors every user shares; a removed group's
# registrations stop counting at rmdir; each user's refusals are named.

load ../lib/helpers
load ../lib/listener

FLOOD=$BATS_TEST_DIRNAME/event-flood.py
TEST_USER2=cgxtest2
# The subordinate range given to the test user, outside the ranges of this host's users.
SUBID_LINE=cgxtest:400000:65536
# Inner uids 1.. of the namespace are 400001.. outside.
INNER_BASE=400000

setup_file() {
	test_user_make
	id -u "$TEST_USER2" >/dev/null 2>&1 || useradd --system --no-create-home "$TEST_USER2"
	command -v newuidmap >/dev/null || skip "no newuidmap (uidmap)"
	for f in /etc/subuid /etc/subgid; do
		grep -qx "$SUBID_LINE" "$f" 2>/dev/null && continue
		echo "$SUBID_LINE" >>"$f"
		touch "$BATS_FILE_TMPDIR/added-${f##*/}"
	done
}

teardown_file() {
	for f in /etc/subuid /etc/subgid; do
		[ -e "$BATS_FILE_TMPDIR/added-${f##*/}" ] && sed -i "\|^$SUBID_LINE\$|d" "$f"
	done
	return 0
}

setup() {
	common_setup
	test_user_ids
	USER2_UID=$(id -u "$TEST_USER2")
	M=$MNT/memory
	OUT=$(mktemp -d /tmp/cgx-userns.XXXXXX)
	chmod 777 "$OUT"
	: >"$OUT/pids"
	chmod 666 "$OUT/pids"
}

teardown() {
	[ -n "${BASE:-}" ] || return 0
	# Every flooder wrote its pid; the namespace's processes are in our pid namespace.
	for pid in $(cat "$OUT/pids" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
	for pid in ${BACKGROUND:-}; do kill -9 "$pid" 2>/dev/null || true; done
	common_teardown
	rm -rf "$OUT"
}

daemon_pid() {
	pgrep -f -- "--base $BASE " | head -n1
}

# COMMAND run by the test user as root of a user namespace that maps 1000
# of its subordinate uids (inner 1.. as $INNER_BASE+1..), as podman would.
in_userns() {
	as_user unshare --map-root-user --map-users=$((INNER_BASE + 1)),1,1000 \
		--map-groups=$((INNER_BASE + 1)),1,1000 "$@"
}

# inner_floods COUNT ARGS...: event-flood.py ARGS run by inner uids 1..COUNT
# of the namespace, each in the background until it answered ($OUT/innerN).
inner_floods() {
	local count=$1
	shift
	# shellcheck disable=SC2016
	in_userns bash -c '
		count=$1 out=$2 flood=$3
		shift 3
		for u in $(seq "$count"); do
			setpriv --reuid="$u" --regid="$u" --clear-groups \
				/usr/bin/python3 "$flood" "$@" >"$out/inner$u" 2>&1 </dev/null &
			echo $! >>"$out/pids"
		done' _ "$count" "$OUT" "$FLOOD" "$@" 3>&-
	for u in $(seq "$count"); do
		for _ in $(seq 600); do [ -s "$OUT/inner$u" ] && break; sleep 0.1; done
		[ -s "$OUT/inner$u" ] || return 1
	done
}

# flood NAME UID ARGS...: event-flood.py ARGS run by UID (outside any namespace) until answered.
flood() {
	local name=$1 uid=$2
	shift 2
	setpriv --reuid="$uid" --regid="$uid" --clear-groups /usr/bin/python3 "$FLOOD" "$@" \
		>"$OUT/$name" 2>&1 3>&- </dev/null &
	echo $! >>"$OUT/pids"
	for _ in $(seq 600); do [ -s "$OUT/$name" ] && return 0; sleep 0.1; done
	cat "$OUT/$name"
	return 1
}

# "ok N" and "ENOMEM N" of the outputs $@, added up: "ENOMEM n ok m".
answers() {
	cat "$@" | awk '{ for (i = 1; i < NF; i += 2) n[$i] += $(i + 1) }
		END { printf "ENOMEM %d ok %d\n", n["ENOMEM"], n["ok"] }'
}

log_size() {
	stat -c %s "$DEPRECATION_LOG" 2>/dev/null || echo 0
}

counter() {
	awk -v k="$1" '$1 == k {print $2}' "$MNT/cgx.deprecations"
}

@test "40 uids of one user's namespace flooding for 10 s grow the log within one user's budget" {
	mkdir "$MNT/net_cls,net_prio/deleg"
	local file=$MNT/net_cls,net_prio/deleg/net_cls.classid before after records
	chmod 755 "$MNT/net_cls,net_prio/deleg"
	chmod 666 "$file"
	before=$(log_size)
	# Each inner uid runs a script of its own name (a rate window each) that
	# writes in a loop with a command line of about 1 MiB: a line of the log
	# is then about 4.5 KB, and 256 KiB some 60 lines of the 40 * 20 the
	# windows would write.
	# shellcheck disable=SC2016
	printf 'end=$((SECONDS + 10))\nwhile ((SECONDS < end)); do echo 1 >"$1"; done 2>/dev/null\n' \
		>"$OUT/w.sh"
	for u in $(seq 40); do ln -s w.sh "$OUT/w$u.sh"; done
	big=$(head -c 130000 /dev/zero | tr '\0' x)
	# shellcheck disable=SC2016
	in_userns bash -c '
		file=$1 big=$2 out=$3
		for u in $(seq 40); do
			setpriv --reuid="$u" --regid="$u" --clear-groups bash "$out/w$u.sh" \
				"$file" "$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big" &
		done
		wait' _ "$file" "$big" "$OUT" 3>&-
	after=$(log_size)
	records=$(counter no-v2-equivalent)
	echo "# $records records by 40 inner uids, log $before -> $after bytes" >&3
	# One user's budget (256 KiB a window) and its short summary lines; the
	# run may span two windows on a slow machine.
	[ $((after - before)) -le $((1024 * 1024)) ]
	[ "$records" -gt 40 ]
	[ "$(counter log_folded)" -gt 0 ]
	[ "$(counter log_lost)" = 0 ]
	# The records name the inner uid as the kernel outside sees it, and the user they count against.
	[ "$(jq -s '[.[] | select(.pid) | .uid] | unique | length' "$DEPRECATION_LOG")" -gt 1 ]
	[ "$(jq -s "[.[] | select(.pid) | select(.uid <= $INNER_BASE or .uid > $INNER_BASE + 40)] | length" \
		"$DEPRECATION_LOG")" = 0 ]
	[ "$(jq -s '[.[] | select(.pid) | .account] | unique' -c "$DEPRECATION_LOG")" = "[$TEST_UID]" ]
	stop_cgxfs
	# Once written out, the file stands for every record.
	[ "$(jq -s '[.[] | select(.kind != "log-capped") | if .folded then .folded else 1 end] | add' \
		"$DEPRECATION_LOG")" = "$records" ]
}

@test "a user's listeners cap at --listeners-per-uid across its namespace's uids, with ENOMEM" {
	restart_daemon --listeners-per-uid 6
	# Five inner uids of the test user, four registrations each: six of twenty are taken.
	inner_floods 5 distinct 4 "$M"
	[ "$(answers "$OUT"/inner*)" = "ENOMEM 14 ok 6" ]
	# The user itself, outside the namespace, is the same user at its limit.
	flood outside "$TEST_UID" distinct 1 "$M"
	[ "$(cat "$OUT/outside")" = "ENOMEM 1" ]
	# Another user registers as before.
	flood other "$USER2_UID" distinct 3 "$M"
	[ "$(cat "$OUT/other")" = "ok 3" ]
	[ "$(python3 - "$M" <<-'PY'
		import os, sys
		efd, cfd = os.eventfd(0), os.open(f"{sys.argv[1]}/memory.usage_in_bytes", os.O_RDONLY)
		with open(f"{sys.argv[1]}/cgroup.event_control", "w") as f:
		    f.write(f"{efd} {cfd} 1G")
		print("ok")
	PY
	)" = ok ]
	grep -q "listener of uid 4000[0-9]* (user $TEST_UID) refused (ENOMEM): it holds 6" \
		"$LOGDIR/daemon.log"
}

@test "one user alone takes at most an eighth of the listeners' descriptors: another still registers" {
	LIMIT=--nofile=1024:1024 restart_daemon
	# (1024 - 256) / 2 descriptors for users other than root, an eighth a
	# user: 48, or 24 registrations at two descriptors each.
	inner_floods 4 distinct 50 "$M"
	[ "$(answers "$OUT"/inner*)" = "ENOMEM 176 ok 24" ]
	flood second "$USER2_UID" distinct 50 "$M"
	[ "$(cat "$OUT/second")" = "ENOMEM 26 ok 24" ]
	# A third user, and root, are not starved by the two.
	flood third 1003 distinct 3 "$M"
	[ "$(cat "$OUT/third")" = "ok 3" ]
	grep -q "(user $TEST_UID) refused (ENOMEM): its listeners hold 48 descriptors, its share" \
		"$LOGDIR/daemon.log"
}

@test "a removed group's registrations stop counting at rmdir: 200 cycles never get ENOMEM" {
	restart_daemon --listeners-per-uid 3
	mkdir "$M/deleg"
	chown "$TEST_USER" "$M/deleg"
	# mkdir, three registrations, close, rmdir: the process lives on, so only
	# the rmdir ends the registrations.
	as_user /usr/bin/python3 - "$M/deleg/g" >"$OUT/cycles" 2>&1 3>&- <<-'PY'
		import errno, os, sys
		group, answers = sys.argv[1], {}
		for cycle in range(200):
		    os.mkdir(group)
		    cfd = os.open(f"{group}/memory.usage_in_bytes", os.O_RDONLY)
		    control = os.open(f"{group}/cgroup.event_control", os.O_WRONLY)
		    efds = [os.eventfd(0) for _ in range(3)]
		    for efd in efds:
		        try:
		            os.write(control, f"{efd} {cfd} 1G".encode())
		            name = "ok"
		        except OSError as e:
		            name = errno.errorcode[e.errno]
		        answers[name] = answers.get(name, 0) + 1
		    for fd in efds + [cfd, control]:
		        os.close(fd)
		    os.rmdir(group)
		print(" ".join(f"{k} {v}" for k, v in sorted(answers.items())))
	PY
	[ "$(cat "$OUT/cycles")" = "ok 600" ]
}

@test "the refusal log names each user's first refusals, whoever refuses most" {
	restart_daemon --listeners-per-uid 1
	# The test user's inner uids are refused 300 times first.
	inner_floods 3 same 100 "$M"
	[ "$(answers "$OUT"/inner*)" = "ENOMEM 299 ok 1" ]
	flood second "$USER2_UID" same 5 "$M"
	[ "$(cat "$OUT/second")" = "ENOMEM 4 ok 1" ]
	grep -q "(user $TEST_UID) refused (ENOMEM)" "$LOGDIR/daemon.log"
	grep -q "listener of uid $USER2_UID refused (ENOMEM)" "$LOGDIR/daemon.log"
	# Each user's lines are few: the rest are counted, not written.
	[ "$(grep -c "(user $TEST_UID) refused" "$LOGDIR/daemon.log")" -le 3 ]
}
