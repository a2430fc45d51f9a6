#!/usr/bin/env bats
# Hostile names and write buffers at the file-system boundary: each is
# answered as a v1 kernel answers it (tests/differential/hostile-input.sh
# compares with one), and the daemon keeps serving a consistent view.

load ../lib/helpers

setup() {
	common_setup
	G=$MNT/memory/g
	mkdir "$G"
}

teardown() {
	common_teardown
}

# The daemon still runs and answers; call after every hostile request.
view_alive() {
	pgrep -f -- "--base $BASE " >/dev/null || { echo "cgxfs died"; return 1; }
	[ -e "$MNT/memory/tasks" ] && cat "$G/tasks" >/dev/null
}

# What mkdir NAME in $G reports: ok or the errno text.
mkdir_result() {
	local out
	out=$(mkdir "$G/$1" 2>&1) && { echo ok; return; }
	echo "${out##*: }"
}

# One write(2) of stdin to $1 (dd: bash splits its own output at newlines).
put() {
	local data out
	data=$(mktemp)
	cat >"$data"
	out=$(dd if="$data" of="$1" bs="$(($(stat -c %s "$data") + 1))" count=1 conv=notrunc 2>&1) &&
		{ rm -f "$data"; echo ok; return; }
	rm -f "$data"
	echo "$out" | sed -n 's/^dd: .*: //p'
}

fill() { head -c "$1" /dev/zero | tr '\0' "$2"; }

@test "names of existing entries and dot names are refused with EEXIST" {
	for name in . .. tasks cgroup.procs notify_on_release memory.limit_in_bytes; do
		[ "$(mkdir_result "$name")" = "File exists" ] || { echo "mkdir $name"; false; }
		view_alive
	done
	[ -f "$G/tasks" ] && [ -f "$G/memory.limit_in_bytes" ]
}

# kernfs takes a name of any length, and so does cgxfs: a v2 directory name
# stays within NAME_MAX, "@@" + the name for names v2 reserves ('@', a
# controller prefix) and "@@~" + a hash, the v1 name kept in trusted.cgx.name,
# for a name that does not fit.
hashed_v2_name() {
	python3 -c '
import os, sys
h = 0xcbf29ce484222325
for b in os.fsencode(sys.argv[1]):
    h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
print("@@~%016x" % h)' "$1"
}

long_names() {
	LONG_NAMES=("memory.$(fill 248 m)" "cgroup.$(fill 248 c)" "cpu.$(fill 251 c)" "@$(fill 254 a)"
		"@$(fill 253 a)" "$(fill 256 n)" "$(fill 1000 n)" "$(fill 2000 n)")
}

# Every directory under the base fits NAME_MAX, and a hashed one records its v1 name.
v2_names_fit() {
	find "$CG2/$BASE" -mindepth 1 -type d -printf '%f\n' | awk 'length($0) > 255 { exit 1 }' ||
		{ echo "a v2 name past NAME_MAX"; return 1; }
}

@test "a name of 255 bytes is made, nested at full length" {
	n255=$(fill 255 n)
	[ "$(mkdir_result "$n255")" = ok ]
	[ -f "$G/$n255/tasks" ]
	[ -d "$CG2/$BASE/g/$n255" ]
	mkdir "$G/$n255/$n255"
	rmdir "$G/$n255/$n255" "$G/$n255"
	[ -z "$(ls "$G" | grep -v '^\(cgroup\|memory\|notify_on_release\|tasks\)')" ]
	view_alive
}

@test "names that pass NAME_MAX with or without the escape are made, listed and hashed in v2" {
	long_names
	for name in "${LONG_NAMES[@]}"; do
		[ "$(mkdir_result "$name")" = ok ] || { echo "mkdir <${#name} bytes ${name:0:8}>"; false; }
		[ -f "$G/$name/tasks" ]
	done
	[ "$(ls -d "$G"/*/ | wc -l)" = "${#LONG_NAMES[@]}" ]
	v2_names_fit
	for name in "${LONG_NAMES[@]}"; do
		v2=$CG2/$BASE/g/$(hashed_v2_name "$name")
		[ -d "$v2" ] || { echo "no $v2 for <${#name} bytes>"; false; }
		[ "$(getfattr --only-values -n trusted.cgx.name "$v2")" = "$name" ]
	done
	# "@@" + 253 bytes is 255: still the name itself, escaped.
	mkdir "$G/@$(fill 252 a)"
	[ -d "$CG2/$BASE/g/@@@$(fill 252 a)" ]
	# Lookup is by the whole name: one byte less or more is no group.
	[ ! -e "$G/$(fill 999 n)" ] && [ ! -e "$G/$(fill 1001 n)" ]
	[ "$(mkdir_result "$(fill 1000 n)")" = "File exists" ]
	view_alive
}

@test "a process moved into a hashed group sits in its hashed v2 directory" {
	n1000=$(fill 1000 n)
	mkdir "$G/$n1000" "$G/$n1000/memory.$(fill 248 m)"
	spawn_sleeper
	echo "$pid" >"$G/$n1000/memory.$(fill 248 m)/tasks"
	[ "$(cat "$G/$n1000/memory.$(fill 248 m)/tasks")" = "$pid" ]
	[ "$(v2_path_of "$pid")" = "/$BASE/g/$(hashed_v2_name "$n1000")/$(hashed_v2_name "memory.$(fill 248 m)")" ]
	# The tuple names the groups by their v1 paths.
	getfattr --only-values -n trusted.cgx.tuple "$CG2$(v2_path_of "$pid")" | grep -qF "memory:/g/$n1000/memory.$(fill 248 m)"
	echo "$pid" >"$MNT/memory/tasks"
	rmdir "$G/$n1000/memory.$(fill 248 m)" "$G/$n1000"
	view_alive
}

@test "a divergent leaf named after groups with long names stays within NAME_MAX" {
	long=$(fill 1000 n)
	mkdir "$G/$long" "$MNT/cpu,cpuacct/$long" "$MNT/cpu,cpuacct/c"
	spawn_sleeper
	# memory's group holds the leaf, named after cpu's: legible when short, a hash when not.
	echo "$pid" >"$G/$long/tasks"
	echo "$pid" >"$MNT/cpu,cpuacct/c/tasks"
	[ "$(v2_path_of "$pid")" = "/$BASE/g/$(hashed_v2_name "$long")/@cpu=c" ]
	echo "$pid" >"$MNT/cpu,cpuacct/$long/tasks"
	echo "$pid" >"$G/tasks"
	[[ "$(v2_path_of "$pid")" == "/$BASE/g/@~"* ]] || [[ "$(v2_path_of "$pid")" == "/$BASE/@~"* ]]
	[ "$(cat "$MNT/cpu,cpuacct/$long/tasks")" = "$pid" ] && [ "$(cat "$G/tasks")" = "$pid" ]
	v2_names_fit
	stop_cgxfs
	start_cgxfs
	[ "$(cat "$MNT/cpu,cpuacct/$long/tasks")" = "$pid" ] && [ "$(cat "$G/tasks")" = "$pid" ]
	check_fold_invariant "memory cpu,cpuacct" "$pid"
}

@test "long names, their groups and members come back after a restart" {
	long_names
	for name in "${LONG_NAMES[@]}"; do mkdir "$G/$name"; done
	mkdir "$G/$(fill 2000 n)/$(fill 1500 x)"
	spawn_sleeper
	echo "$pid" >"$G/$(fill 2000 n)/$(fill 1500 x)/tasks"
	echo 1 >"$G/$(fill 1000 n)/notify_on_release"
	stop_cgxfs
	start_cgxfs
	for name in "${LONG_NAMES[@]}"; do
		[ -f "$G/$name/tasks" ] || { echo "lost <${#name} bytes ${name:0:8}>"; false; }
	done
	[ "$(cat "$G/$(fill 2000 n)/$(fill 1500 x)/tasks")" = "$pid" ]
	[ "$(cat "$G/$(fill 1000 n)/notify_on_release")" = 1 ]
	[ "$(ls -d "$G"/*/ | wc -l)" = "${#LONG_NAMES[@]}" ]
	v2_names_fit
	echo "$pid" >"$MNT/memory/tasks"
	rmdir "$G/$(fill 2000 n)/$(fill 1500 x)"
	for name in "${LONG_NAMES[@]}"; do rmdir "$G/$name"; done
	[ -z "$(find "$CG2/$BASE/g" -mindepth 1 -type d)" ]
	view_alive
}

@test "rename to and from names past NAME_MAX keeps the group, its values and members" {
	mkdir "$G/short"
	echo 1 >"$G/short/notify_on_release"
	spawn_sleeper
	echo "$pid" >"$G/short/tasks"
	long="memory.$(fill 248 m)"
	mv -T "$G/short" "$G/$long"
	[ ! -e "$G/short" ] && [ "$(cat "$G/$long/tasks")" = "$pid" ]
	[ "$(cat "$G/$long/notify_on_release")" = 1 ]
	[ "$(v2_path_of "$pid")" = "/$BASE/g/$(hashed_v2_name "$long")" ]
	mv -T "$G/$long" "$G/$(fill 1500 r)"
	[ "$(cat "$G/$(fill 1500 r)/tasks")" = "$pid" ]
	mv -T "$G/$(fill 1500 r)" "$G/back"
	[ "$(v2_path_of "$pid")" = "/$BASE/g/back" ]
	[ "$(cat "$G/back/notify_on_release")" = 1 ]
	v2_names_fit
	[ "$(find "$CG2/$BASE/g" -mindepth 1 -maxdepth 1 -type d -printf '%f\n')" = back ]
}

@test "a hashed name another directory holds on disk gets the next hashed name" {
	name=$(fill 300 h)
	# Made behind the daemon's back, as a stray of a daemon killed before its record.
	mkdir "$CG2/$BASE/g/$(hashed_v2_name "$name")"
	[ "$(mkdir_result "$name")" = ok ]
	[ -d "$CG2/$BASE/g/$(hashed_v2_name "$name")-1" ]
	[ "$(getfattr --only-values -n trusted.cgx.name "$CG2/$BASE/g/$(hashed_v2_name "$name")-1")" = "$name" ]
	stop_cgxfs
	start_cgxfs
	# The stray without a record went at the restart; the group kept its directory.
	[ ! -e "$CG2/$BASE/g/$(hashed_v2_name "$name")" ]
	[ -f "$G/$name/tasks" ]
	rmdir "$G/$name"
	view_alive
}

@test "a hashed directory another tool removed comes back with its name record" {
	name=$(fill 600 z)
	mkdir "$G/$name"
	echo 1 >"$G/$name/notify_on_release"
	v2=$CG2/$BASE/g/$(hashed_v2_name "$name")
	rmdir "$v2"
	# A write opens the directory, finds it gone and asks for the repair (else due within 10 s).
	echo 1 >"$G/$name/notify_on_release" 2>/dev/null || true
	for _ in $(seq 150); do
		[ "$(getfattr --only-values -n trusted.cgx.name "$v2" 2>/dev/null)" = "$name" ] && break
		sleep 0.1
	done
	[ "$(getfattr --only-values -n trusted.cgx.name "$v2")" = "$name" ]
	stop_cgxfs
	start_cgxfs
	[ "$(cat "$G/$name/notify_on_release")" = 1 ]
	rmdir "$G/$name"
}

# The view keeps a group's v1 path within PATH_MAX, as its tuples name groups
# by path; v1 takes a longer one made relative to a deep working directory.
@test "a group whose v1 path would reach PATH_MAX is ENAMETOOLONG" {
	mkdir "$G/$(fill 2000 a)"
	cd "$G/$(fill 2000 a)"
	[ "$(mkdir "$(fill 2100 b)" 2>&1 | sed 's/.*: //')" = "File name too long" ]
	[ "$(mkdir "$(fill 2000 b)" 2>&1 && echo ok)" = ok ]
	cd /
	rmdir "$G/$(fill 2000 a)/$(fill 2000 b)" "$G/$(fill 2000 a)"
	view_alive
}

@test "a newline in a group name is EINVAL, at mkdir and at rename" {
	[ "$(mkdir_result $'new\nline')" = "Invalid argument" ]
	mkdir "$G/plain"
	run python3 -c "import os,sys; os.rename(sys.argv[1] + '/plain', sys.argv[1] + '/pla\nin')" "$G"
	[[ $output == *"Invalid argument"* ]]
	[ -d "$G/plain" ]
	view_alive
}

@test "odd but legal names live through a move and a daemon restart" {
	names=($'\xff\xfe' 'a:b' 'a,b' $'tab\there' ' lead' 'trail ' '-dash' '\' '*' '.hidden' 'cpu.shares')
	for name in "${names[@]}"; do
		[ "$(mkdir_result "$name")" = ok ] || { echo "mkdir $(printf %q "$name")"; false; }
	done
	spawn_sleeper
	echo "$pid" >"$G/a:b/tasks"
	[ "$(cat "$G/a:b/tasks")" = "$pid" ]
	echo "$pid" >"$G/"$'\xff\xfe'"/cgroup.procs"
	[ "$(cat "$G/"$'\xff\xfe'"/tasks")" = "$pid" ]
	stop_cgxfs
	start_cgxfs
	for name in "${names[@]}"; do
		[ -f "$G/$name/tasks" ] || { echo "lost $(printf %q "$name")"; false; }
	done
	[ "$(cat "$G/"$'\xff\xfe'"/tasks")" = "$pid" ]
	echo "$pid" >"$MNT/memory/tasks"
	for name in "${names[@]}"; do rmdir "$G/$name"; done
	view_alive
}

@test "a write longer than a page is E2BIG and changes nothing" {
	spawn_sleeper
	echo 1 >"$G/notify_on_release"
	for size in 4097 131072 1048576; do
		[ "$( (fill $((size - 8)) ' '; printf '%8d' "$pid") | put "$G/tasks")" = "Argument list too long" ]
		[ "$( (fill $((size - 8)) ' '; printf '%8d' "$pid") | put "$G/cgroup.procs")" = "Argument list too long" ]
		[ "$(fill "$size" 0 | put "$G/notify_on_release")" = "Argument list too long" ]
		[ "$(fill "$size" a | put "$MNT/memory/release_agent")" = "Argument list too long" ]
		view_alive
	done
	[ -z "$(cat "$G/tasks")" ]
	[ "$(cat "$G/notify_on_release")" = 1 ]
	[ "$(cat "$MNT/memory/release_agent")" = "" ]
	# a page exactly is still one write, as the kernel takes it
	[ "$( (fill 4088 ' '; printf '%8d' "$pid") | put "$G/tasks")" = ok ]
	[ "$(cat "$G/tasks")" = "$pid" ]
	# release_agent takes PATH_MAX - 1: a page is already too long
	[ "$(fill 4096 a | put "$MNT/memory/release_agent")" = "Argument list too long" ]
	[ "$(fill 4095 a | put "$MNT/memory/release_agent")" = ok ]
	[ "$(wc -c <"$MNT/memory/release_agent")" = 4096 ]
}

@test "a NUL byte ends the value, as kernfs's NUL-terminated buffer does" {
	spawn_sleeper
	printf '1\0junk' >"$G/notify_on_release"
	[ "$(cat "$G/notify_on_release")" = 1 ]
	printf '%d\0junk' "$pid" >"$G/tasks"
	[ "$(cat "$G/tasks")" = "$pid" ]
	echo "$pid" >"$MNT/memory/tasks"
	[ "$(printf '\0%d' "$pid" | put "$G/tasks")" = "Invalid argument" ]
	[ -z "$(cat "$G/tasks")" ]
	view_alive
}

@test "pids that are not one task are refused; whitespace around one is not" {
	spawn_sleeper
	p1=$pid
	spawn_sleeper
	for v in -1 2147483648 4294967296 99999999999999999999 "$p1 $pid" "$p1,$pid" "" " " x "${p1}x" 1e3; do
		for f in tasks cgroup.procs; do
			[ "$(printf '%s\n' "$v" | put "$G/$f")" = "Invalid argument" ] ||
				{ echo "$f <$v>"; false; }
		done
	done
	[ "$(printf '%s\n' 2147483647 | put "$G/tasks")" = "No such process" ]
	[ -z "$(cat "$G/tasks")" ]
	view_alive
	[ "$(printf '\t %d \t\n' "$p1" | put "$G/tasks")" = ok ]
	[ "$(printf '0x%x' "$pid" | put "$G/cgroup.procs")" = ok ]
	[ "$(sort -n "$G/tasks" | tr '\n' ' ')" = "$(printf '%s\n' "$p1" "$pid" | sort -n | tr '\n' ' ')" ]
}

@test "cpuset lists take the kernel's longer max_write_len, not a page" {
	mkdir "$MNT/cpuset/g"
	# 100 + 6 * NR_CPUS bytes: past a page, the list is parsed (here refused for other reasons)
	r=$( (fill 5000 ' '; echo 0) | put "$MNT/cpuset/g/cpuset.cpus")
	[ "$r" != "Argument list too long" ]
	[ "$( (fill 49253 ' '; echo 0) | put "$MNT/cpuset/g/cpuset.cpus")" = "Argument list too long" ]
	view_alive
}
