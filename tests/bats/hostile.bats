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

# kernfs takes longer names; cgxfs keeps NAME_MAX, as its cgroup2 directory
# and leaf names are built within it (a known difference, see
# tests/differential/hostile-input.sh).
@test "a name of 255 bytes is made, one of 256 is ENAMETOOLONG" {
	n255=$(fill 255 n)
	[ "$(mkdir_result "$n255")" = ok ]
	[ -f "$G/$n255/tasks" ]
	[ "$(mkdir_result "$(fill 256 n)")" = "File name too long" ]
	view_alive
	# nested at full length, then gone again
	mkdir "$G/$n255/$n255"
	rmdir "$G/$n255/$n255" "$G/$n255"
	[ -z "$(ls "$G" | grep -v '^\(cgroup\|memory\|notify_on_release\|tasks\)')" ]
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
