#!/usr/bin/env bats
# Statistics files on the host. Every cgroup2 directory has cpu.stat, with no
# controller delegated, so cpuacct's sums over the leaves holding a group's
# members are real here. Their content is made from v2 files read without the
# model lock (struct cgx_read_ahead), then checked against the mirror again.

load ../lib/helpers

setup() {
	common_setup
}

teardown() {
	common_teardown
}

usage_usec_of() {
	sed -n 's/^usage_usec //p' "$1/cpu.stat"
}

# A process that burns CPU until killed; its pid in $pid.
spawn_busy() {
	bash -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
	pid=$!
	SLEEPERS="${SLEEPERS:-} $pid"
}

@test "cpuacct.usage counts a member whose leaf lies outside the group's directory" {
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/memory/m"
	spawn_busy
	echo "$pid" >"$MNT/memory/m/tasks"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	leaf=$CG2$(v2_path_of "$pid")
	# The fold put it below m: a's own directory never ran anything.
	[[ $leaf != "$CG2/$BASE/a"* ]]
	sleep 0.5
	kill -STOP "$pid"
	sleep 0.1
	[ "$(usage_usec_of "$CG2/$BASE/a")" = 0 ]
	seen=$(cat "$MNT/cpu,cpuacct/a/cpuacct.usage")
	# Stopped: the leaf's count no longer moves, and the view adds it to a's own (0).
	[ "$seen" = "$(($(usage_usec_of "$leaf") * 1000))" ]
	((seen > 100000000))
	(($(awk '{ticks += $2} END {print ticks}' "$MNT/cpu,cpuacct/a/cpuacct.stat") > 0))
	[ "$(awk '{s = 0; for (i = 1; i <= NF; i++) s += $i; print s}' \
		"$MNT/cpu,cpuacct/a/cpuacct.usage_percpu")" = "$seen" ]
	# The group above sums the same leaf once.
	[ "$(cat "$MNT/cpu,cpuacct/cpuacct.usage")" -ge "$seen" ]
}

@test "statistics read while their groups come and go: a number or ENODEV, never a half-made content" {
	mkdir "$MNT/cpu,cpuacct/churn"
	spawn_busy
	busy=$pid
	(
		for i in $(seq 150); do
			mkdir "$MNT/cpu,cpuacct/churn/g" 2>/dev/null
			echo "$busy" >"$MNT/cpu,cpuacct/churn/g/tasks" 2>/dev/null
			echo "$busy" >"$MNT/cpu,cpuacct/churn/tasks" 2>/dev/null
			rmdir "$MNT/cpu,cpuacct/churn/g" 2>/dev/null
		done
	) &
	churner=$!
	bad=0 reads=0
	while kill -0 "$churner" 2>/dev/null; do
		for f in churn/cpuacct.usage churn/g/cpuacct.usage churn/cpuacct.stat; do
			if out=$(cat "$MNT/cpu,cpuacct/$f" 2>&1); then
				reads=$((reads + 1))
				case $f in
				*.stat) [[ $out =~ ^user\ [0-9]+$'\n'system\ [0-9]+$ ]] || bad=$((bad + 1)) ;;
				*) [[ $out =~ ^[0-9]+$ ]] || bad=$((bad + 1)) ;;
				esac
			elif [[ $out != *"No such file or directory" && $out != *"No such device" ]]; then
				echo "$f: $out"
				bad=$((bad + 1))
			fi
		done
	done
	wait "$churner"
	echo "$reads reads, $bad bad"
	[ "$bad" = 0 ]
	((reads > 0))
	# Every count the leaves took is still the parent's: it never goes back.
	first=$(cat "$MNT/cpu,cpuacct/churn/cpuacct.usage")
	sleep 0.2
	(($(cat "$MNT/cpu,cpuacct/churn/cpuacct.usage") >= first))
}

# A short CPU loop, run to its end in the given groups ("HIER/PATH"...).
burn_in() {
	bash -c 'for g in "$@"; do echo $$ >"'"$MNT"'/$g/tasks"; done; i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done' \
		burn "$@"
}

@test "a new cpuacct group on a directory that served a memory group starts at 0" {
	mkdir "$MNT/memory/job"
	burn_in memory/job
	(($(usage_usec_of "$CG2/$BASE/job") > 0))
	mkdir "$MNT/cpu,cpuacct/job"
	[ "$(cat "$MNT/cpu,cpuacct/job/cpuacct.usage")" = 0 ]
	[ "$(cat "$MNT/cpu,cpuacct/job/cpuacct.stat")" = "$(printf 'user 0\nsystem 0')" ]
	burn_in cpu,cpuacct/job
	(($(cat "$MNT/cpu,cpuacct/job/cpuacct.usage") > 0))
}

@test "a cpuacct group removed while its directory stays takes what it carried along" {
	mkdir "$MNT/cpu,cpuacct/cz" "$MNT/memory/cz" "$MNT/memory/other"
	# Its leaf lies outside cz: what it used is carried onto cz once the leaf goes.
	burn_in memory/other cpu,cpuacct/cz
	(($(cat "$MNT/cpu,cpuacct/cz/cpuacct.usage") > 0))
	rmdir "$MNT/cpu,cpuacct/cz"
	[ -z "$(getfattr --absolute-names -d -m '^trusted.cgx.carried' "$CG2/$BASE/cz" 2>/dev/null)" ]
	mkdir "$MNT/cpu,cpuacct/cz"
	[ "$(cat "$MNT/cpu,cpuacct/cz/cpuacct.usage")" = 0 ]
	stop_cgxfs
	start_cgxfs
	[ "$(cat "$MNT/cpu,cpuacct/cz/cpuacct.usage")" = 0 ]
}

# cgroup2 has no rename: the group is rebuilt in another directory, and what
# it counted in the old one goes along into its record.
@test "a renamed group and its child keep their cpuacct counts, and a reset point holds" {
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/cpu,cpuacct/a/c"
	spawn_busy
	outer=$pid
	echo "$outer" >"$MNT/cpu,cpuacct/a/tasks"
	spawn_busy
	inner=$pid
	echo "$inner" >"$MNT/cpu,cpuacct/a/c/tasks"
	sleep 0.5
	kill -STOP "$outer" "$inner"
	sleep 0.1
	before=$(cat "$MNT/cpu,cpuacct/a/cpuacct.usage")
	child_before=$(cat "$MNT/cpu,cpuacct/a/c/cpuacct.usage")
	((child_before > 10000000 && before > child_before))
	mv "$MNT/cpu,cpuacct/a" "$MNT/cpu,cpuacct/b"
	# Stopped, they count no more: the same numbers under the new name.
	[ "$(cat "$MNT/cpu,cpuacct/b/cpuacct.usage")" = "$before" ]
	[ "$(cat "$MNT/cpu,cpuacct/b/c/cpuacct.usage")" = "$child_before" ]
	[ "$(cat "$MNT/cpu,cpuacct/b/tasks")" = "$outer" ]
	# Reset, then counting again: a second rename keeps what was counted since.
	echo 0 >"$MNT/cpu,cpuacct/b/cpuacct.usage"
	kill -CONT "$outer"
	sleep 0.5
	kill -STOP "$outer"
	sleep 0.1
	since=$(cat "$MNT/cpu,cpuacct/b/cpuacct.usage")
	((since > 10000000))
	mv "$MNT/cpu,cpuacct/b" "$MNT/cpu,cpuacct/d"
	[ "$(cat "$MNT/cpu,cpuacct/d/cpuacct.usage")" = "$since" ]
	[ "$(cat "$MNT/cpu,cpuacct/d/c/cpuacct.usage")" = "$child_before" ]
}

@test "a renamed group counts a member's leaf below its old directory once" {
	mkdir "$MNT/memory/a" "$MNT/memory/a/m" "$MNT/pids/p" "$MNT/cpu,cpuacct/a"
	spawn_busy
	echo "$pid" >"$MNT/memory/a/m/tasks"
	echo "$pid" >"$MNT/pids/p/tasks"
	echo "$pid" >"$MNT/cpu,cpuacct/a/tasks"
	# memory's group holds the leaf: it lies below a's directory, and stays there.
	leaf=$(v2_path_of "$pid")
	[[ $leaf == "/$BASE/a/m/"* ]]
	sleep 0.5
	kill -STOP "$pid"
	sleep 0.1
	before=$(cat "$MNT/cpu,cpuacct/a/cpuacct.usage")
	((before > 10000000))
	mv "$MNT/cpu,cpuacct/a" "$MNT/cpu,cpuacct/b"
	[ "$(v2_path_of "$pid")" = "$leaf" ]
	[ "$(cat "$MNT/cpu,cpuacct/b/cpuacct.usage")" = "$before" ]
	# Left, the leaf folds into b's record as the watcher retires it: still once.
	echo "$pid" >"$MNT/pids/tasks"
	[ "$(v2_path_of "$pid")" != "$leaf" ]
	for _ in $(seq 50); do [ -d "$CG2$leaf" ] || break; sleep 0.1; done
	[ ! -d "$CG2$leaf" ]
	[ "$(cat "$MNT/cpu,cpuacct/b/cpuacct.usage")" = "$before" ]
}

@test "a group renamed onto a directory with a past, or made on one, counts from 0" {
	mkdir "$MNT/memory/x" "$MNT/cpu,cpuacct/y"
	spawn_busy
	echo "$pid" >"$MNT/memory/x/tasks"
	sleep 0.5
	kill -STOP "$pid"
	sleep 0.1
	# x's directory ran it; no cpuacct group ever had it but the root.
	(($(usage_usec_of "$CG2/$BASE/x") > 10000))
	mv "$MNT/cpu,cpuacct/y" "$MNT/cpu,cpuacct/x"
	[ "$(cat "$MNT/cpu,cpuacct/x/cpuacct.usage")" = 0 ]
	[ "$(cat "$MNT/cpu,cpuacct/x/cpuacct.stat")" = "$(printf 'user 0\nsystem 0')" ]
	# Made on it instead: the same.
	rmdir "$MNT/cpu,cpuacct/x"
	mkdir "$MNT/cpu,cpuacct/x"
	[ "$(cat "$MNT/cpu,cpuacct/x/cpuacct.usage")" = 0 ]
	[ "$(cat "$MNT/cpu,cpuacct/x/cpuacct.stat")" = "$(printf 'user 0\nsystem 0')" ]
	# And it counts what its own members run from then on.
	echo "$pid" >"$MNT/cpu,cpuacct/x/tasks"
	kill -CONT "$pid"
	sleep 0.3
	kill -STOP "$pid"
	sleep 0.1
	(($(cat "$MNT/cpu,cpuacct/x/cpuacct.usage") > 10000000))
}
