#!/bin/bash
# Documentation/admin-guide/cgroup-v1/freezer-subsystem.rst, "Examples of
# usage": a running loop in freezer/0, frozen (FREEZING, then FROZEN) and
# thawed. That the loop stops is shown by its CPU time (utime + stime of
# /proc/PID/stat), which must not move while it is frozen.
. "$(dirname "${BASH_SOURCE[0]}")/steps.bash"

cleanup() {
	echo THAWED >/sys/fs/cgroup/freezer/0/freezer.state
	kill "$some_pid"
	wait "$some_pid"
	rmdir /sys/fs/cgroup/freezer/0
}

cpu_ticks() { awk '{ print $14 + $15 }' /proc/$1/stat; }
# The state once it is $1, or what it is after 10 s.
state_when() {
	for _ in $(seq 100); do
		[ "$(cat /sys/fs/cgroup/freezer/0/freezer.state)" = "$1" ] && break
		sleep 0.1
	done
	cat /sys/fs/cgroup/freezer/0/freezer.state
}
# yes when the loop got CPU time during half a second.
runs() {
	local before
	before=$(cpu_ticks "$some_pid")
	sleep 0.5
	yes_no [ "$(cpu_ticks "$some_pid")" != "$before" ]
}

# A distribution mounts freezer at boot: mkdir and mount only when missing.
[ -d /sys/fs/cgroup/freezer ] || doc 'mkdir /sys/fs/cgroup/freezer'
mountpoint -q /sys/fs/cgroup/freezer || doc 'mount -t cgroup -ofreezer freezer /sys/fs/cgroup/freezer'
echo "freezer is mounted: $(yes_no mountpoint -q /sys/fs/cgroup/freezer)"
doc 'mkdir /sys/fs/cgroup/freezer/0'
bash -c 'while :; do :; done' &
some_pid=$!
doc 'echo $some_pid > /sys/fs/cgroup/freezer/0/tasks'
echo "the loop runs: $(runs)"

echo "## to get status of the freezer subsystem"
doc 'cat /sys/fs/cgroup/freezer/0/freezer.state'

echo "## to freeze all tasks in the container"
doc 'echo FROZEN > /sys/fs/cgroup/freezer/0/freezer.state'
# FREEZING until every task is frozen, then FROZEN: the first read may give either.
case $(cat /sys/fs/cgroup/freezer/0/freezer.state) in
FREEZING | FROZEN) echo "first read: FREEZING or FROZEN" ;;
*) echo "first read: $(cat /sys/fs/cgroup/freezer/0/freezer.state)" ;;
esac
echo "then: $(state_when FROZEN)"
echo "self_freezing $(cat /sys/fs/cgroup/freezer/0/freezer.self_freezing)" \
	"parent_freezing $(cat /sys/fs/cgroup/freezer/0/freezer.parent_freezing)"
echo "the loop runs: $(runs)"
# A task that joins a frozen cgroup is frozen too.
sleep 1000 &
late=$!
# Once it runs sleep: a v1 kernel may never finish moving a task still
# between fork and exec into a frozen cgroup.
for _ in $(seq 100); do [ "$(cat /proc/$late/comm)" = sleep ] && break; sleep 0.1; done
doc 'echo $late > /sys/fs/cgroup/freezer/0/tasks'
echo "then: $(state_when FROZEN)"
echo "tasks: $(wc -l </sys/fs/cgroup/freezer/0/tasks)"

echo "## to unfreeze all tasks in the container"
doc 'echo THAWED > /sys/fs/cgroup/freezer/0/freezer.state'
doc 'cat /sys/fs/cgroup/freezer/0/freezer.state'
echo "the loop runs: $(runs)"

kill "$some_pid" "$late"
wait "$some_pid" "$late" 2>/dev/null
echo "tasks after the kill: $(wc -l </sys/fs/cgroup/freezer/0/tasks)"
doc 'rmdir /sys/fs/cgroup/freezer/0'
