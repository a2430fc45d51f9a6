#!/usr/bin/env bats
# devices.allow/deny/list on the host: real processes opening real devices,
# filtered by the BPF_PROG_TYPE_CGROUP_DEVICE programs cgxfs attaches to the
# leaves of the host's cgroup2 mount. /dev/null is c 1:3, /dev/zero is c 1:5.

load ../lib/helpers

setup() {
	common_setup
	WORK=$(mktemp -d /tmp/cgx-devices.XXXXXX)
	mkdir "$MNT/devices/g"
}

teardown() {
	common_teardown
	rm -rf "$WORK"
}

# Runs a command as a new process of devices group $1 (a path below devices/).
run_in() {
	local group=$1
	shift
	bash -c 'echo $$ >"$1/tasks" || exit 99; shift; exec "$@"' _ "$MNT/devices/$group" "$@"
}

# What opening device $2 for reading gives a new process of group $1: "ok" or the errno text.
open_in() {
	local out
	out=$(run_in "$1" head -c1 "$2" 2>&1 >"$WORK/data") && { echo ok; return; }
	echo "${out##*: }"
}

# A process that joins group $1 now and opens device $2 only when poked (poke_reader).
start_reader() {
	local flag=$WORK/poke.$RANDOM
	bash -c 'echo $$ >"$1/tasks" || exit 99
		while [ ! -e "$3" ]; do sleep 0.05; done
		head -c1 "$2" >"$3.data" 2>"$3.err" && echo ok >"$3.out" && exit
		err=$(cat "$3.err"); echo "${err##*: }" >"$3.out"' \
		_ "$MNT/devices/$1" "$2" "$flag" </dev/null >/dev/null 2>&1 3>&- &
	reader=$!
	reader_flag=$flag
	SLEEPERS="${SLEEPERS:-} $reader"
	for _ in $(seq 50); do grep -qx "$reader" "$MNT/devices/$1/tasks" && return; sleep 0.1; done
	false
}

# What the reader of start_reader got.
poke_reader() {
	touch "$reader_flag"
	for _ in $(seq 100); do [ -s "$reader_flag.out" ] && break; sleep 0.05; done
	cat "$reader_flag.out"
}

@test "devices files have the kernel's modes, and every group starts allowing all" {
	[ "$(stat -c %a "$MNT/devices/devices.allow")" = 200 ]
	[ "$(stat -c %a "$MNT/devices/devices.deny")" = 200 ]
	[ "$(stat -c %a "$MNT/devices/devices.list")" = 444 ]
	[ "$(stat -c %a "$MNT/devices/g/devices.allow")" = 200 ]
	[ "$(stat -c %a "$MNT/devices/g/devices.deny")" = 200 ]
	[ "$(stat -c %a "$MNT/devices/g/devices.list")" = 444 ]
	[ "$(cat "$MNT/devices/devices.list")" = "a *:* rwm" ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "a *:* rwm" ]
	[ "$(open_in g /dev/null)" = ok ]
}

@test "a deny stops a process moved in later with EPERM, and allow a lets it in again" {
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:3 rwm')" = ok ]
	# Default allow lists as allow-all whatever it denies, as v1 does.
	[ "$(cat "$MNT/devices/g/devices.list")" = "a *:* rwm" ]
	[ "$(open_in g /dev/null)" = "Operation not permitted" ]
	[ "$(open_in g /dev/zero)" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.allow" a)" = ok ]
	[ "$(open_in g /dev/null)" = ok ]
}

@test "a deny reaches a process that is in the group already" {
	start_reader g /dev/null
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:3 r')" = ok ]
	[ "$(poke_reader)" = "Operation not permitted" ]
	start_reader g /dev/null
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:3 r')" = ok ]
	[ "$(poke_reader)" = ok ]
}

@test "a default-deny group lists its allowed devices as the kernel prints them" {
	[ "$(write_result "$MNT/devices/g/devices.deny" a)" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "" ]
	[ "$(open_in g /dev/zero)" = "Operation not permitted" ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:5 r')" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'b *:* m')" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:5 w')" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 4294967295:7 rwm')" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "$(printf 'c 1:5 rw\nb *:* m\nc *:7 rwm')" ]
	[ "$(open_in g /dev/zero)" = ok ]
	[ "$(open_in g /dev/null)" = "Operation not permitted" ]
	# devices.deny under default deny takes access away again.
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:5 r')" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "$(printf 'c 1:5 w\nb *:* m\nc *:7 rwm')" ]
	[ "$(open_in g /dev/zero)" = "Operation not permitted" ]
}

@test "a child made after a deny inherits the parent's list and its filter" {
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:3 rwm')" = ok ]
	mkdir "$MNT/devices/g/c"
	[ "$(open_in g/c /dev/null)" = "Operation not permitted" ]
	[ "$(open_in g/c /dev/zero)" = ok ]
	mkdir "$MNT/devices/h"
	[ "$(write_result "$MNT/devices/h/devices.deny" a)" = ok ]
	[ "$(write_result "$MNT/devices/h/devices.allow" 'c 1:3 rw')" = ok ]
	mkdir "$MNT/devices/h/c"
	[ "$(cat "$MNT/devices/h/c/devices.list")" = "c 1:3 rw" ]
	[ "$(open_in h/c /dev/null)" = ok ]
	[ "$(open_in h/c /dev/zero)" = "Operation not permitted" ]
}

@test "a deny on a parent reaches the processes of its children" {
	mkdir -p "$MNT/devices/g/c/d"
	start_reader g/c/d /dev/zero
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:5 r')" = ok ]
	[ "$(poke_reader)" = "Operation not permitted" ]
	# An allow is not propagated: the child keeps what it was given.
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:5 r')" = ok ]
	[ "$(open_in g /dev/zero)" = ok ]
	[ "$(open_in g/c/d /dev/zero)" = "Operation not permitted" ]
}

@test "the tasks of a group that gets children keep exactly its filter" {
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:3 rwm')" = ok ]
	start_reader g /dev/null
	mkdir "$MNT/devices/g/c"
	[ "$(poke_reader)" = "Operation not permitted" ]
	# The group's processes now live in a leaf below its inner directory; an allow reaches them.
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:3 rwm')" = ok ]
	[ "$(open_in g /dev/null)" = ok ]
	[ "$(open_in g/c /dev/null)" = "Operation not permitted" ]
	[ "$(write_result "$MNT/devices/g/c/devices.allow" 'c 1:3 rwm')" = ok ]
	[ "$(open_in g/c /dev/null)" = ok ]
}

@test "bad rules are refused with EINVAL and change nothing" {
	for rule in bogus '' 'x 1:3 rwm' 'c 1:3' 'c1:3 rwm' 'c 1:3 rwx' 'c a:3 r' \
		'c 1:3  r' 'c 4294967296:1 rwm' 'c -1:3 r'; do
		[ "$(write_result "$MNT/devices/g/devices.deny" "$rule")" = "Invalid argument" ]
		[ "$(write_result "$MNT/devices/g/devices.allow" "$rule")" = "Invalid argument" ]
	done
	[ "$(cat "$MNT/devices/g/devices.list")" = "a *:* rwm" ]
	[ "$(open_in g /dev/null)" = ok ]
	# 'a' with anything after it is read as 'a', and characters past three access ones are not read.
	[ "$(write_result "$MNT/devices/g/devices.deny" 'a *:* rwm')" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "" ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:3 rwmx')" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "c 1:3 rwm" ]
}

@test "a child gets no more than its parent allows (EPERM), and 'a' needs no children (EINVAL)" {
	[ "$(write_result "$MNT/devices/g/devices.deny" a)" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:3 r')" = ok ]
	mkdir "$MNT/devices/g/c"
	[ "$(write_result "$MNT/devices/g/c/devices.allow" 'c 1:3 rw')" = "Operation not permitted" ]
	[ "$(write_result "$MNT/devices/g/c/devices.allow" 'c 1:5 r')" = "Operation not permitted" ]
	[ "$(write_result "$MNT/devices/g/c/devices.allow" a)" = "Operation not permitted" ]
	[ "$(cat "$MNT/devices/g/c/devices.list")" = "c 1:3 r" ]
	[ "$(write_result "$MNT/devices/g/devices.allow" a)" = "Invalid argument" ]
	[ "$(write_result "$MNT/devices/g/devices.deny" a)" = "Invalid argument" ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "c 1:3 r" ]
}

@test "a caller without CAP_SYS_ADMIN is refused with EPERM" {
	run capsh --drop=cap_sys_admin -- -c "echo 'c 1:3 rwm' >'$MNT/devices/g/devices.deny'"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Operation not permitted"* ]]
	run capsh --drop=cap_sys_admin -- -c "echo a >'$MNT/devices/g/devices.deny'"
	[[ "$output" == *"Operation not permitted"* ]]
	[ "$(open_in g /dev/null)" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "a *:* rwm" ]
}

@test "the list and its filter survive kill -9 and restart, and later writes replace the filter" {
	[ "$(write_result "$MNT/devices/g/devices.deny" a)" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:5 rw')" = ok ]
	start_reader g /dev/null
	kill_daemon_hard
	start_cgxfs
	[ "$(cat "$MNT/devices/g/devices.list")" = "c 1:5 rw" ]
	[ "$(poke_reader)" = "Operation not permitted" ]
	[ "$(open_in g /dev/null)" = "Operation not permitted" ]
	[ "$(open_in g /dev/zero)" = ok ]
	# The new daemon finds the old program by its name and detaches it.
	[ "$(write_result "$MNT/devices/g/devices.allow" 'c 1:3 r')" = ok ]
	[ "$(cat "$MNT/devices/g/devices.list")" = "$(printf 'c 1:5 rw\nc 1:3 r')" ]
	[ "$(open_in g /dev/null)" = ok ]
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:5 rw')" = ok ]
	[ "$(open_in g /dev/zero)" = "Operation not permitted" ]
	[ "$(open_in g /dev/null)" = ok ]
}

@test "a renamed group keeps its list and its processes keep the filter" {
	[ "$(write_result "$MNT/devices/g/devices.deny" 'c 1:3 rwm')" = ok ]
	start_reader g /dev/null
	mv "$MNT/devices/g" "$MNT/devices/renamed"
	[ "$(poke_reader)" = "Operation not permitted" ]
	[ "$(open_in renamed /dev/null)" = "Operation not permitted" ]
	[ "$(write_result "$MNT/devices/renamed/devices.allow" 'c 1:3 rwm')" = ok ]
	[ "$(open_in renamed /dev/null)" = ok ]
}
