#!/usr/bin/env bash
# One stress client: $3 random operations on the view at $1, as client $2.
# mkdir and rmdir of a few shared group names (so that clients collide),
# moves of its own sleepers, knob writes, reads, and forks into a group.
# Prints each unexpected error on stdout; the kernel's expected ones
# (a group made or removed by another client meanwhile) are not errors.
mnt=$1 id=$2 ops=$3
hiers=("cpu,cpuacct" memory "net_cls,net_prio" freezer pids)
names=(a b c a/x b/y)
sleepers=()
for _ in 1 2 3; do
	sleep 1000 </dev/null >/dev/null 2>&1 &
	sleepers+=($!)
done
echo "${sleepers[*]}" >"$4"

expected='File exists|No such file or directory|Device or resource busy|No such device|No such process|Directory not empty'

run() {
	local out
	out=$("$@" 2>&1 >/dev/null) && return 0
	grep -Eq "$expected" <<<"$out" || echo "client $id: $*: $out"
}

for ((i = 0; i < ops; i++)); do
	h=${hiers[RANDOM % ${#hiers[@]}]}
	g=${names[RANDOM % ${#names[@]}]}
	case $((RANDOM % 8)) in
	0) run mkdir "$mnt/$h/$g" ;;
	1) run rmdir "$mnt/$h/$g" ;;
	2 | 3) run bash -c "echo ${sleepers[RANDOM % 3]} > '$mnt/$h/$g/tasks'" ;;
	4) run bash -c "echo $((RANDOM % 2)) > '$mnt/$h/$g/notify_on_release'" ;;
	5) run cat "$mnt/$h/$g/tasks" ;;
	6) [ "$h" = "net_cls,net_prio" ] && run bash -c "echo $RANDOM > '$mnt/$h/$g/net_cls.classid'" ||
		run cat "$mnt/$h/$g/cgroup.procs" ;;
	7) # A fork: a shell that joins the group, then a child of it that lives on in it.
		run bash -c "echo \$\$ > '$mnt/$h/$g/tasks' && exec sleep 0.2" ;;
	esac
done
