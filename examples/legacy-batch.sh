#!/bin/bash
# A legacy cgroup v1 job script, written for a v1 host and left as it was:
# hard-coded /sys/fs/cgroup paths, one group per hierarchy, echo into tasks.
# Its worker gets its CPU share in cpu,cpuacct/batch and its memory limit in
# memory/reports: different groups in different hierarchies, which cgroup2
# (one tree for every controller) cannot say, and which the deprecation log
# records. Run it under cgx-exec, which makes /sys/fs/cgroup a v1 host:
#   build/bin/cgx-exec --mount /sys/fs/cgroup-compat -- examples/legacy-batch.sh
# It leaves the worker running and prints its pid ("worker PID").
set -e

# A knob this host may not have in cgroup2 (a hybrid host binds controllers
# to v1): the job runs without it, as it would on a v1 host without the
# controller.
set_knob() {
	if echo "$2" >"$1" 2>/dev/null; then
		echo "$1 = $(cat "$1")"
	else
		echo "$1: not applied on this host"
	fi
}

mkdir -p /sys/fs/cgroup/cpu,cpuacct/batch /sys/fs/cgroup/memory/reports
set_knob /sys/fs/cgroup/cpu,cpuacct/batch/cpu.shares 512
set_knob /sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_quota_us 50000
set_knob /sys/fs/cgroup/memory/reports/memory.limit_in_bytes 256M
set_knob /sys/fs/cgroup/memory/reports/memory.swappiness 10

sleep 600 </dev/null >/dev/null 2>&1 &
worker=$!
echo $worker >/sys/fs/cgroup/cpu,cpuacct/batch/tasks
echo $worker >/sys/fs/cgroup/memory/reports/tasks
echo 1 >/sys/fs/cgroup/cpu,cpuacct/batch/notify_on_release

echo "worker $worker"
echo "cpu,cpuacct/batch tasks: $(cat /sys/fs/cgroup/cpu,cpuacct/batch/tasks)"
echo "memory/reports tasks:    $(cat /sys/fs/cgroup/memory/reports/tasks)"
echo "/proc/$worker/cgroup, as a v1 host shows it:"
grep -E ':(cpu,cpuacct|memory|pids):' /proc/$worker/cgroup
grep -E ' /sys/fs/cgroup/(cpu,cpuacct|memory) ' /proc/mounts
