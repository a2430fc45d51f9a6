#!/usr/bin/env bats
# The deprecation log (docs/deprecation-log.md): which uses are recorded,
# with what, the counters file, syslog's rate limit, SIGHUP, a full disk.

load helpers

setup() {
	common_setup
	SCRIPTS=$(mktemp -d /tmp/cgx-scripts.XXXXXX)
}

teardown() {
	common_teardown
	rm -rf "$SCRIPTS"
}

daemon_pid() {
	pgrep -f -- "--base $BASE " | head -n1
}

# The count of kind $1 in the counters file.
counter() {
	awk -v k="$1" '$1 == k {print $2}' "$MNT/cgx.deprecations"
}

records() {
	jq -c "select(.kind == \"$1\")" "$DEPRECATION_LOG"
}

@test "the university example: one record per multi-hierarchy process, naming its script" {
	# cpu by role, net_cls by program: the classic case v1 allowed and v2 does not.
	cat >"$SCRIPTS/university.sh" <<-'EOF'
		mnt=$1
		mkdir "$mnt/cpu,cpuacct/students" "$mnt/cpu,cpuacct/faculty"
		mkdir "$mnt/net_cls,net_prio/browsers" "$mnt/net_cls,net_prio/torrent"
		echo "$2" > "$mnt/cpu,cpuacct/students/tasks"
		echo "$2" > "$mnt/net_cls,net_prio/browsers/tasks"
		echo "$3" > "$mnt/cpu,cpuacct/faculty/tasks"
		echo "$3" > "$mnt/net_cls,net_prio/torrent/tasks"
		echo $$ > "$4"
	EOF
	spawn_sleeper
	local student=$pid
	spawn_sleeper
	local teacher=$pid
	(cd "$SCRIPTS" && bash university.sh "$MNT" "$student" "$teacher" "$SCRIPTS/pid")
	local script_pid
	script_pid=$(cat "$SCRIPTS/pid")

	[ "$(records multi-hierarchy-process | wc -l)" = 2 ]
	[ "$(counter multi-hierarchy-process)" = 2 ]
	local student_record
	student_record=$(records multi-hierarchy-process | head -n1)
	[ "$(jq -r .v <<<"$student_record")" = 1 ]
	[ "$(jq -r .pid <<<"$student_record")" = "$script_pid" ]
	[ "$(jq -r .ppid <<<"$student_record")" -gt 1 ]
	[ "$(jq -r .uid <<<"$student_record")" = 0 ]
	[ "$(jq -r .comm <<<"$student_record")" = bash ]
	[ "$(jq -r .exe <<<"$student_record")" = "$(readlink -f "$(command -v bash)")" ]
	[ "$(jq -r .script <<<"$student_record")" = "$SCRIPTS/university.sh" ]
	[ "$(jq -r '.cmdline | join(" ")' <<<"$student_record")" = "bash university.sh $MNT $student $teacher $SCRIPTS/pid" ]
	[ "$(jq -c .tuple <<<"$student_record")" = '{"cpu,cpuacct":"/students","net_cls,net_prio":"/browsers"}' ]
	[ "$(jq -r .hierarchy <<<"$student_record")" = "net_cls,net_prio" ]
	[ "$(jq -r .group <<<"$student_record")" = /browsers ]
	# The v2 directory named is the one the kernel has the process in.
	[ "$(jq -r .v2_path <<<"$student_record")" = "$(v2_path_of "$student")" ]
	[[ "$(jq -r .time <<<"$student_record")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z$ ]]

	# Each group one hierarchy has and the other, in use, has not: once per pair.
	[ "$(records divergent-tree | jq -r '.hierarchy + ":" + .group' | sort | tr '\n' ' ')" = \
		"cpu,cpuacct:/faculty cpu,cpuacct:/students net_cls,net_prio:/browsers net_cls,net_prio:/torrent " ]
	[ "$(counter divergent-tree)" = 4 ]
	[ "$(counter named-hierarchy)" = 0 ]
	[ "$(counter log_lost)" = 0 ]
}

@test "the same groups in every hierarchy are no deprecation, and leave no log file" {
	mkdir "$MNT/cpu,cpuacct/job" "$MNT/memory/job" "$MNT/pids/job"
	spawn_sleeper
	for h in cpu,cpuacct memory pids; do
		echo "$pid" >"$MNT/$h/job/tasks"
	done
	[ ! -e "$DEPRECATION_LOG" ]
	[ "$(awk '{sum += $2} END {print sum}' "$MNT/cgx.deprecations")" = 0 ]
}

@test "a write with no v2 equivalent is recorded with its file, value and group" {
	mkdir "$MNT/net_cls,net_prio/web"
	[ "$(write_result "$MNT/net_cls,net_prio/web/net_cls.classid" 0x100001)" = ok ]
	[ "$(cat "$MNT/net_cls,net_prio/web/net_cls.classid")" = 1048577 ]
	local record
	record=$(records no-v2-equivalent)
	[ "$(wc -l <<<"$record")" = 1 ]
	[ "$(jq -r .file <<<"$record")" = net_cls.classid ]
	[ "$(jq -r .value <<<"$record")" = 0x100001 ]
	[ "$(jq -r .group <<<"$record")" = /web ]
	[ "$(jq -r .hierarchy <<<"$record")" = "net_cls,net_prio" ]
	[[ "$(jq -r .detail <<<"$record")" == *nftables* ]]
	# A refused write is no use: nothing is recorded.
	[ "$(write_result "$MNT/net_cls,net_prio/web/net_cls.classid" abc)" = "Invalid argument" ]
	[ "$(counter no-v2-equivalent)" = 1 ]
}

@test "a named hierarchy's groups and tasks are recorded" {
	mkdir "$MNT/systemd/jobs"
	spawn_sleeper
	echo "$pid" >"$MNT/systemd/jobs/tasks"
	[ "$(counter named-hierarchy)" = 2 ]
	[ "$(records named-hierarchy | jq -r '.hierarchy + " " + .group + " " + .comm' | sort | tr '\n' ';')" = \
		"name=systemd /jobs bash;name=systemd /jobs mkdir;" ]
}

@test "cgx.deprecations and cgx.limits are read-only, unlisted files at the mount root" {
	[ -f "$MNT/cgx.deprecations" ]
	[ "$(stat -c %a "$MNT/cgx.deprecations")" = 444 ]
	# Found by name, not listed: the root lists what a v1 host's does.
	! ls -a "$MNT" | grep -q '^cgx\.' 
	[ ! -e "$MNT/cpu,cpuacct/cgx.deprecations" ]
	[ "$(write_result "$MNT/cgx.deprecations" 1)" = "Permission denied" ]
	# Its sibling cgx.limits lists limits set; this host delegates no controller.
	[ "$(stat -c %a "$MNT/cgx.limits")" = 444 ]
	[ -z "$(cat "$MNT/cgx.limits")" ]
	[ "$(write_result "$MNT/cgx.limits" 1)" = "Permission denied" ]
	[ "$(cut -d' ' -f1 "$MNT/cgx.deprecations" | tr '\n' ' ')" = \
		"multi-hierarchy-process divergent-tree named-hierarchy runtime-hierarchy no-v2-equivalent approximate delegation-refused log_lost syslog_suppressed " ]
}

@test "a loop of 10,000 writes is logged in full but rate-limited in syslog" {
	mkdir "$MNT/net_cls,net_prio/loop"
	local file=$MNT/net_cls,net_prio/loop/net_cls.classid
	bash -c 'for ((i = 0; i < 10000; i++)); do echo 0x10001 > "$1"; done' _ "$file"
	[ "$(wc -l <"$DEPRECATION_LOG")" = 10000 ]
	[ "$(counter no-v2-equivalent)" = 10000 ]
	# Five per program, kind and minute reach syslog; the rest are counted.
	[ "$(counter syslog_suppressed)" = 9995 ]
	[ "$(jq -r .value "$DEPRECATION_LOG" | sort -u)" = 0x10001 ]
}

@test "SIGHUP reopens the log after it was rotated" {
	mkdir "$MNT/net_cls,net_prio/r"
	echo 1 >"$MNT/net_cls,net_prio/r/net_cls.classid"
	mv "$DEPRECATION_LOG" "$DEPRECATION_LOG.1"
	echo 2 >"$MNT/net_cls,net_prio/r/net_cls.classid"
	kill -HUP "$(daemon_pid)"
	# The watcher reopens within its next wake-up; the mount answers meanwhile.
	for _ in $(seq 50); do
		echo 3 >"$MNT/net_cls,net_prio/r/net_cls.classid"
		[ -s "$DEPRECATION_LOG" ] && break
		sleep 0.1
	done
	[ "$(jq -r .value "$DEPRECATION_LOG.1" | head -n2 | tr '\n' ' ')" = "1 2 " ]
	[ "$(jq -r .value "$DEPRECATION_LOG" | sort -u)" = 3 ]
	# The daemon lives on: SIGHUP is no longer FUSE's "exit".
	[ -n "$(daemon_pid)" ]
	[ "$(cat "$MNT/net_cls,net_prio/r/net_cls.classid")" = 3 ]
}

@test "a full log file system loses records, counted, and no operation" {
	mount -t tmpfs -o size=16k cgx-test-log "$LOGDIR"
	dd if=/dev/zero of="$LOGDIR/fill" bs=4k 2>/dev/null || true
	mkdir "$MNT/net_cls,net_prio/full"
	for v in 1 2 3; do
		[ "$(write_result "$MNT/net_cls,net_prio/full/net_cls.classid" "$v")" = ok ]
	done
	[ "$(cat "$MNT/net_cls,net_prio/full/net_cls.classid")" = 3 ]
	[ "$(counter no-v2-equivalent)" = 3 ]
	[ "$(counter log_lost)" = 3 ]
	# Room again: records are written from here on.
	rm "$LOGDIR/fill"
	echo 4 >"$MNT/net_cls,net_prio/full/net_cls.classid"
	[ "$(jq -r .value "$DEPRECATION_LOG")" = 4 ]
	[ "$(counter log_lost)" = 3 ]
}
