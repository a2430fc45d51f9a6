#!/usr/bin/env bats
# The deprecation log (docs/deprecation-log.md): which uses are recorded,
# with what, the counters file, the rate limit of the file and syslog, the
# bounds of a line, the size cap, SIGHUP, a full disk.

load ../lib/helpers

MIGRATE=${CGX_MIGRATE:-$(dirname "$CGXFS")/cgx-migrate}

setup() {
	common_setup
	SCRIPTS=$(mktemp -d /tmp/cgx-scripts.XXXXXX)
}

teardown() {
	common_teardown
	rm -rf "$SCRIPTS"
	# A cgroup2 group a test made for a caller to run in, as a unit would.
	[ -z "${UNIT_CG:-}" ] || rmdir "$UNIT_CG" 2>/dev/null || true
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
	[ "$(jq -r .v <<<"$student_record")" = 2 ]
	[ "$(jq -r .pid <<<"$student_record")" = "$script_pid" ]
	[ "$(jq -r .ppid <<<"$student_record")" -gt 1 ]
	[ "$(jq -r .uid <<<"$student_record")" = 0 ]
	[ "$(jq -r .comm <<<"$student_record")" = bash ]
	[ "$(jq -r .exe <<<"$student_record")" = "$(readlink -f "$(command -v bash)")" ]
	[ "$(jq -r .script <<<"$student_record")" = "$SCRIPTS/university.sh" ]
	[ "$(jq -r .program <<<"$student_record")" = "$SCRIPTS/university.sh" ]
	# Nothing was cut.
	[ "$(jq -r .truncated <<<"$student_record")" = null ]
	[ "$(jq -r '.cmdline | join(" ")' <<<"$student_record")" = "bash university.sh $MNT $student $teacher $SCRIPTS/pid" ]
	[ "$(jq -c .tuple <<<"$student_record")" = '{"cpu,cpuacct":"/students","net_cls,net_prio":"/browsers"}' ]
	[ "$(jq -r .hierarchy <<<"$student_record")" = "net_cls,net_prio" ]
	[ "$(jq -r .group <<<"$student_record")" = /browsers ]
	# The v2 directory named is the one the kernel has the process in.
	[ "$(jq -r .v2_path <<<"$student_record")" = "$(v2_path_of "$student")" ]
	[[ "$(jq -r .time <<<"$student_record")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z$ ]]

	# Each group one hierarchy has and the other, in use, has not: once per group.
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

@test "a record names the systemd unit it concerns: its group's, else the caller's" {
	# A service manager in legacy mode makes a group per unit in name=systemd.
	mkdir "$MNT/systemd/system.slice" "$MNT/systemd/system.slice/svc.service"
	spawn_sleeper
	echo "$pid" >"$MNT/systemd/system.slice/svc.service/tasks"
	[ "$(records named-hierarchy | jq -r '.group + " " + (.file // "mkdir") + " " + .unit' | tr '\n' ';')" = \
		"/system.slice mkdir system.slice;/system.slice/svc.service mkdir svc.service;/system.slice/svc.service tasks svc.service;" ]
	# A group that names no unit: the caller's own, from its cgroup2 path.
	mkdir "$MNT/net_cls,net_prio/plain"
	UNIT_CG=$CG2/cgx-test-$$-caller.scope
	mkdir "$UNIT_CG"
	bash -c 'echo $$ >"$1/cgroup.procs" && echo 7 >"$2"' _ "$UNIT_CG" \
		"$MNT/net_cls,net_prio/plain/net_cls.classid"
	[ "$(records no-v2-equivalent | jq -r .unit)" = "cgx-test-$$-caller.scope" ]
	# Neither: no field.
	echo 8 >"$MNT/net_cls,net_prio/plain/net_cls.classid"
	[ "$(records no-v2-equivalent | jq -r 'select(.value == "8") | has("unit")')" = false ]
	# Each unit has its own rate window: 25 writes to each of two services' groups.
	mkdir -p "$MNT/net_cls,net_prio/a.service" "$MNT/net_cls,net_prio/b.service"
	bash -c 'for ((i = 0; i < 25; i++)); do echo 1 >"$1"; echo 1 >"$2"; done' _ \
		"$MNT/net_cls,net_prio/a.service/net_cls.classid" "$MNT/net_cls,net_prio/b.service/net_cls.classid"
	[ "$(records no-v2-equivalent | jq -r '.unit // empty' | sort | uniq -c | awk '{print $1 ":" $2}' | tr '\n' ' ')" = \
		"20:a.service 20:b.service 1:cgx-test-$$-caller.scope " ]
}

@test "a group that other hierarchies lack: one record naming them all" {
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/memory/b" "$MNT/pids/c" "$MNT/systemd/x"
	spawn_sleeper
	echo "$pid" >"$MNT/systemd/x/tasks"
	[ "$(counter divergent-tree)" = 1 ]
	local detail
	detail=$(records divergent-tree | jq -r 'select(.group == "/x") | .detail')
	[[ $detail == "name=systemd has a group /x that "*" have not: "* ]]
	for h in cpu,cpuacct memory pids; do [[ $detail == *" $h"[,\ ]* ]]; done
	# Once per group: the next process in it adds none.
	spawn_sleeper
	echo "$pid" >"$MNT/systemd/x/tasks"
	[ "$(counter divergent-tree)" = 1 ]
}

@test "groups on one line of descent are no multi-hierarchy use: one directory holds them" {
	mkdir -p "$MNT/cpu,cpuacct/ct" "$MNT/memory/ct/svc"
	spawn_sleeper
	echo "$pid" >"$MNT/cpu,cpuacct/ct/tasks"
	echo "$pid" >"$MNT/memory/ct/svc/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/ct/svc" ]
	[ "$(counter multi-hierarchy-process)" = 0 ]
	# Side by side they are.
	mkdir "$MNT/cpu,cpuacct/other"
	echo "$pid" >"$MNT/cpu,cpuacct/other/tasks"
	[ "$(counter multi-hierarchy-process)" = 1 ]
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
		"multi-hierarchy-process divergent-tree named-hierarchy runtime-hierarchy no-v2-equivalent approximate delegation-refused log_lost syslog_suppressed log_folded log_pending log_dropped journal_lost " ]
}

@test "a loop of 10,000 writes: 20 lines, the rest folded into a count that adds up" {
	mkdir "$MNT/net_cls,net_prio/loop"
	local file=$MNT/net_cls,net_prio/loop/net_cls.classid
	bash -c 'for ((i = 0; i < 10000; i++)); do echo 0x10001 > "$1"; done' _ "$file"
	# One (uid, program, kind): 20 lines a window, five of them to syslog.
	[ "$(wc -l <"$DEPRECATION_LOG")" = 20 ]
	[ "$(jq -r .value "$DEPRECATION_LOG" | sort -u)" = 0x10001 ]
	[ "$(counter no-v2-equivalent)" = 10000 ]
	[ "$(counter log_folded)" = 9980 ]
	[ "$(counter log_pending)" = 9980 ]
	[ "$(counter syslog_suppressed)" = 9995 ]
	# The window still open is written when the daemon ends.
	stop_cgxfs
	[ "$(wc -l <"$DEPRECATION_LOG")" = 21 ]
	local summary
	summary=$(tail -n1 "$DEPRECATION_LOG")
	[ "$(jq -r .folded <<<"$summary")" = 9980 ]
	[ "$(jq -r .kind <<<"$summary")" = no-v2-equivalent ]
	[ "$(jq -r .program <<<"$summary")" = "$(jq -r .program "$DEPRECATION_LOG" | head -n1)" ]
	[ "$(jq -r .uid <<<"$summary")" = 0 ]
	[ "$(jq -r '.first_time <= .last_time' <<<"$summary")" = true ]
	# cgx-migrate counts every write.
	"$MIGRATE" report --log "$DEPRECATION_LOG" --format json >"$SCRIPTS/r.json"
	[ "$(jq '.log.by_kind["no-v2-equivalent"]' "$SCRIPTS/r.json")" = 10000 ]
	[ "$(jq '.log.records' "$SCRIPTS/r.json")" = 21 ]
	[ "$(jq '.log.folded' "$SCRIPTS/r.json")" = 9980 ]
	[ "$(jq '.log.uses[0].count' "$SCRIPTS/r.json")" = 10000 ]
}

@test "the rate limit is per uid, program and kind" {
	mkdir "$MNT/net_cls,net_prio/keys" "$MNT/systemd/keys" "$MNT/systemd/keys/a" "$MNT/systemd/keys/b"
	local file=$MNT/net_cls,net_prio/keys/net_cls.classid
	# 30 writes each by bash and by dash, 30 moves by bash: three keys, 20 lines each.
	bash -c 'for ((i = 0; i < 30; i++)); do echo 1 > "$1"; done' _ "$file"
	dash -c 'i=0; while [ $i -lt 30 ]; do echo 2 > "$1"; i=$((i + 1)); done' _ "$file"
	bash -c 'for ((i = 0; i < 15; i++)); do echo $$ > "$1/a/tasks"; echo $$ > "$1/b/tasks"; done' \
		_ "$MNT/systemd/keys"
	[ "$(records no-v2-equivalent | jq -r .value | sort | uniq -c | awk '{print $1 ":" $2}' | tr '\n' ' ')" = "20:1 20:2 " ]
	[ "$(records named-hierarchy | jq -r .file | sort | uniq -c | awk '{print $1 ":" $2}' | tr '\n' ' ')" = "3:null 20:tasks " ]
	[ "$(counter named-hierarchy)" = 33 ]
	[ "$(counter log_folded)" = 30 ]
	[ "$(counter log_pending)" = 30 ]
	# Another uid has a window of its own.
	local uid=65534
	chown "$uid" "$MNT/net_cls,net_prio/keys" "$file"
	setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		bash -c 'for ((i = 0; i < 30; i++)); do echo 3 > "$1"; done' _ "$file"
	[ "$(records no-v2-equivalent | jq -r 'select(.uid == '"$uid"') | .value' | wc -l)" = 20 ]
	[ "$(counter log_folded)" = 40 ]
}

@test "a hostile program name is escaped and cut: control characters, invalid UTF-8, a long exe" {
	stop_cgxfs
	# In the foreground: the syslog warnings land in $LOGDIR/daemon.log.
	"$CGXFS" --cgroup2 "$CG2" --base "$BASE" --log "$DEPRECATION_LOG" -f "$MNT" \
		>>"$LOGDIR/daemon.log" 2>&1 3>&- &
	for _ in $(seq 100); do [ -e "$MNT/cpu,cpuacct/tasks" ] && break; sleep 0.1; done
	mkdir "$MNT/net_cls,net_prio/evil"
	local file=$MNT/net_cls,net_prio/evil/net_cls.classid
	# A name with an invalid byte, an escape sequence and a newline that would forge a line.
	local name bash_exe
	name=$(printf '\377v\001il\033[31m\nfake line')
	bash_exe=$(readlink -f "$(command -v bash)")
	cp "$bash_exe" "$SCRIPTS/$name"
	"$SCRIPTS/$name" -c 'echo 7 > "$1"' _ "$file"
	[ "$(cat "$file")" = 7 ]
	# One valid JSON line, no raw control character; the invalid byte is U+FFFD.
	[ "$(wc -l <"$DEPRECATION_LOG")" = 1 ]
	jq -e . "$DEPRECATION_LOG" >/dev/null
	! LC_ALL=C grep -q $'[\001\033\177\377]' "$DEPRECATION_LOG"
	local record shown
	record=$(cat "$DEPRECATION_LOG")
	shown=$(printf '\357\277\275v\001il\033[31m\nfake line')
	# comm as the kernel cut it: 15 bytes.
	[ "$(jq -r .comm <<<"$record")" = "$(printf '\357\277\275v\001il\033[31m\nfake')" ]
	[ "$(jq -r .exe <<<"$record")" = "$SCRIPTS/$shown" ]
	[ "$(jq -r .program <<<"$record")" = "$SCRIPTS/$shown" ]
	[ "$(jq -r .truncated <<<"$record")" = null ]
	# Syslog's warning spells the control characters out, on one line.
	grep -q 'deprecated: no-v2-equivalent by .*v\\x01il\\x1b\[31m\\x0afake line (pid' "$LOGDIR/daemon.log"
	[ "$(grep -c 'fake line' "$LOGDIR/daemon.log")" = 1 ]

	# The same program 3 KiB deep: its exe is cut to 1023 bytes, and says so.
	local dir=$SCRIPTS
	for _ in $(seq 12); do dir=$dir/$(printf 'd%.0s' $(seq 250)); done
	mkdir -p "$dir"
	cp "$bash_exe" "$dir/$name"
	"$dir/$name" -c 'echo 8 > "$1"' _ "$file"
	[ "$(cat "$file")" = 8 ]
	record=$(tail -n1 "$DEPRECATION_LOG")
	[ "$(jq -j .exe <<<"$record" | wc -c)" -le 1023 ]
	[ "$(jq -j .exe <<<"$record" | wc -c)" -ge 1000 ]
	[[ "$(jq -r .exe <<<"$record")" == "$SCRIPTS/ddd"* ]]
	[ "$(jq -c .truncated <<<"$record")" = '["exe"]' ]
	[ "$(jq -r .program <<<"$record")" = "$(jq -r .exe <<<"$record")" ]
}

@test "a command line is cut at 4 KiB and marked" {
	mkdir "$MNT/net_cls,net_prio/long"
	local big
	big=$(head -c 100000 /dev/zero | tr '\0' y)
	bash -c 'echo 1 > "$1"' _ "$MNT/net_cls,net_prio/long/net_cls.classid" "$big" "$big"
	local record
	record=$(cat "$DEPRECATION_LOG")
	[ "$(jq -c .truncated <<<"$record")" = '["cmdline"]' ]
	[ "$(jq -c .cmdline <<<"$record" | head -c -1 | wc -c)" -le 4096 ]
	[ "$(jq -r '.cmdline[0:3] | join(" ")' <<<"$record")" = 'bash -c echo 1 > "$1"' ]
	[[ "$(jq -r '.cmdline[5]' <<<"$record")" == yyyy* ]]
	[ "$(jq -r '.cmdline | length' <<<"$record")" = 6 ]
}

@test "past --log-max records are dropped, counted, and the operations done" {
	stop_cgxfs
	start_cgxfs --log-max 16K
	mkdir "$MNT/net_cls,net_prio/cap"
	local file=$MNT/net_cls,net_prio/cap/net_cls.classid i
	# Ten programs (scripts) of five writes each: 50 lines of about 700 bytes.
	for i in $(seq 10); do
		printf 'for v in 1 2 3 4 5; do echo $v > "$1"; done\n' >"$SCRIPTS/w$i.sh"
		bash "$SCRIPTS/w$i.sh" "$file"
		[ "$(cat "$file")" = 5 ]
	done
	[ "$(counter no-v2-equivalent)" = 50 ]
	local dropped
	dropped=$(counter log_dropped)
	[ "$dropped" -gt 0 ]
	[ "$(counter log_lost)" = 0 ]
	[ "$(counter log_folded)" = 0 ]
	# The cap holds, but for the one line that says it was reached.
	[ "$(head -n -1 "$DEPRECATION_LOG" | wc -c)" -le 16384 ]
	[ "$(tail -n1 "$DEPRECATION_LOG" | jq -r '.kind + " " + (.max | tostring)')" = "log-capped 16384" ]
	[ "$(records no-v2-equivalent | wc -l)" = $((50 - dropped)) ]
	# Rotated: records are written again, into the new file.
	mv "$DEPRECATION_LOG" "$DEPRECATION_LOG.1"
	kill -HUP "$(daemon_pid)"
	for _ in $(seq 50); do [ -e "$DEPRECATION_LOG" ] && break; sleep 0.1; done
	echo 9 >"$file"
	[ "$(jq -r .value "$DEPRECATION_LOG")" = 9 ]
	[ "$(counter log_dropped)" = "$dropped" ]
}

@test "SIGHUP reopens the log after it was rotated" {
	mkdir "$MNT/net_cls,net_prio/r"
	echo 1 >"$MNT/net_cls,net_prio/r/net_cls.classid"
	mv "$DEPRECATION_LOG" "$DEPRECATION_LOG.1"
	echo 2 >"$MNT/net_cls,net_prio/r/net_cls.classid"
	kill -HUP "$(daemon_pid)"
	# The watcher reopens within its next wake-up, which makes the new file.
	for _ in $(seq 50); do
		[ -e "$DEPRECATION_LOG" ] && break
		sleep 0.1
	done
	echo 3 >"$MNT/net_cls,net_prio/r/net_cls.classid"
	[ "$(jq -r .value "$DEPRECATION_LOG.1" | tr '\n' ' ')" = "1 2 " ]
	[ "$(jq -r .value "$DEPRECATION_LOG")" = 3 ]
	# The daemon lives on: SIGHUP is no longer FUSE's "exit".
	[ -n "$(daemon_pid)" ]
	[ "$(cat "$MNT/net_cls,net_prio/r/net_cls.classid")" = 3 ]
}

# Runs the script $1 in a mount namespace of its own whose /run is a tmpfs
# with journald's socket, where journal-sink.py writes the entries to the
# file $2 (the host's journal, if any, is never written to), and cgxfs
# --journal in the foreground on $MNT, its output in $LOGDIR/daemon.log.
# $2 "dead": the socket is there, nobody reads it (a journald that died);
# "--stuck": read by nobody, in a network namespace of its own where a
# datagram socket queues one datagram (a journald that hangs).
with_own_journal() {
	unshare -m -n --propagation private bash -ec '
		mount -t tmpfs tmpfs /run
		mkdir -p /run/systemd/journal
		[ "$2" != --stuck ] || sysctl -qw net.unix.max_dgram_qlen=1
		python3 "$3" /run/systemd/journal/socket "$2" &
		for _ in $(seq 100); do [ -S /run/systemd/journal/socket ] && break; sleep 0.1; done
		[ "$2" != dead ] || { kill %1; wait %1 || true; }
		"$4" --cgroup2 "$CG2" --base "$BASE" --log "$DEPRECATION_LOG" --journal -f "$MNT" \
			>"$LOGDIR/daemon.log" 2>&1 &
		daemon=$!
		for _ in $(seq 100); do [ -e "$MNT/cpu,cpuacct/tasks" ] && break; sleep 0.1; done
		bash -ec "$1" _ "$MNT"
		umount "$MNT"
		wait "$daemon"
		# The sink may still be reading what the daemon sent as it ended.
		for _ in $(seq 100); do
			[ ! -f "$2" ] || [ "$(wc -l <"$2")" -ge "$(wc -l <"$DEPRECATION_LOG")" ] && break
			sleep 0.1
		done
		[ "$2" = dead ] || kill %1
	' _ "$1" "$2" "$BATS_TEST_DIRNAME/../lib/journal-sink.py" "$CGXFS"
}

@test "journal: each line of the log is an entry with its kind's MESSAGE_ID and CGX_ fields" {
	stop_cgxfs
	local entries=$LOGDIR/journal.jsonl
	with_own_journal '
		mkdir "$1/net_cls,net_prio/web"
		for ((i = 0; i < 25; i++)); do echo 0x100001 >"$1/net_cls,net_prio/web/net_cls.classid"; done
		mkdir "$1/systemd/system.slice" "$1/systemd/system.slice/svc.service"
		cat "$1/cgx.deprecations" >"$LOGDIR/counters"
	' "$entries"
	[ "$(awk '$1 == "journal_lost" {print $2}' "$LOGDIR/counters")" = 0 ]
	# 20 records and the summary of 5 folded ones (written as the daemon ends), 2 named-hierarchy.
	[ "$(wc -l <"$DEPRECATION_LOG")" = 23 ]
	python3 - "$DEPRECATION_LOG" "$entries" <<-'EOF'
		import json, re, sys
		lines = [json.loads(l) for l in open(sys.argv[1])]
		entries = [json.loads(l) for l in open(sys.argv[2])]
		ids = {"no-v2-equivalent": "7ebaa0dcdf884b0489293126781bbf1f",
		       "named-hierarchy": "1a31cb9a02f94f009646a6acf5c5ecd0"}
		assert len(entries) == len(lines), (len(entries), len(lines))
		for line, entry in zip(lines, entries):
		    summary = "folded" in line
		    assert entry["MESSAGE_ID"] == ("38e6d4228b8d4ec9ae2e6faac25e24d4" if summary else ids[line["kind"]]), entry
		    assert entry["PRIORITY"] == ("5" if summary else "4"), entry
		    assert entry["SYSLOG_IDENTIFIER"] == "cgxfs", entry
		    assert entry["MESSAGE"].startswith("deprecated: "), entry
		    for key, value in line.items():
		        name = "CGX_" + re.sub("[^A-Z0-9]", "_", key.upper())
		        if key in ("v", "time"):
		            assert name not in entry, (name, entry)
		            continue
		        want = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
		        assert entry[name] == want, (name, entry[name], want)
		    assert len([k for k in entry if k.startswith("CGX_")]) == len(line) - 2, entry
		summary = [e for e in entries if "CGX_FOLDED" in e]
		assert len(summary) == 1 and summary[0]["CGX_FOLDED"] == "5", summary
		assert "5 more no-v2-equivalent records by" in summary[0]["MESSAGE"], summary
		units = [e["CGX_UNIT"] for e in entries if e["CGX_KIND"] == "named-hierarchy"]
		assert units == ["system.slice", "svc.service"], units
		record = entries[0]
		assert record["CGX_FILE"] == "net_cls.classid" and record["CGX_VALUE"] == "0x100001", record
		assert record["MESSAGE"].startswith("deprecated: no-v2-equivalent by "), record
		assert record["MESSAGE"].endswith("(pid %s, uid 0): %s" % (record["CGX_PID"], record["CGX_DETAIL"])), record
	EOF
	# The entries are the warnings: none went to syslog (stderr here) besides.
	! grep -q 'deprecated:' "$LOGDIR/daemon.log"
}

@test "journal: the lines a dead journald did not take are counted, and said once" {
	stop_cgxfs
	with_own_journal '
		mkdir "$1/net_cls,net_prio/web"
		for ((i = 0; i < 3; i++)); do echo 7 >"$1/net_cls,net_prio/web/net_cls.classid"; done
		# Sent by a thread of their own: counted as the sends fail.
		for _ in $(seq 100); do
			cat "$1/cgx.deprecations" >"$LOGDIR/counters"
			grep -qx "journal_lost 3" "$LOGDIR/counters" && break
			sleep 0.1
		done
	' dead
	[ "$(wc -l <"$DEPRECATION_LOG")" = 3 ]
	[ "$(awk '$1 == "journal_lost" {print $2}' "$LOGDIR/counters")" = 3 ]
	[ "$(awk '$1 == "log_lost" {print $2}' "$LOGDIR/counters")" = 0 ]
	[ "$(grep -c 'journal: deprecation records are lost from here' "$LOGDIR/daemon.log")" = 1 ]
}

@test "journal: a journald that hangs holds up no request; what it cannot take is lost, counted" {
	stop_cgxfs
	# 15 units of 20 lines each (their own rate windows): 300 lines for a
	# journald that takes none, past the queue's 256.
	# Each write by a script of a short command line: the lines stay within root's budget.
	echo 'echo "$2" >"$1"' >"$LOGDIR/w.sh"
	with_own_journal '
		for ((u = 0; u < 15; u++)); do
			mkdir "$1/net_cls,net_prio/u$u.service"
			for ((i = 1; i <= 20; i++)); do
				bash "$LOGDIR/w.sh" "$1/net_cls,net_prio/u$u.service/net_cls.classid" $i
			done
		done
		[ "$(cat "$1/net_cls,net_prio/u14.service/net_cls.classid")" = 20 ]
		cat "$1/cgx.deprecations" >"$LOGDIR/counters"
	' --stuck
	# Every request was answered and every line is in the file; of the 300, the
	# queue held 256 and the socket one or two: the rest are counted lost.
	[ "$(wc -l <"$DEPRECATION_LOG")" = 300 ]
	local lost
	lost=$(awk '$1 == "journal_lost" {print $2}' "$LOGDIR/counters")
	[ "$lost" -ge 40 ] && [ "$lost" -le 44 ]
	[ "$(grep -c 'journal: deprecation records are lost from here' "$LOGDIR/daemon.log")" = 1 ]
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
