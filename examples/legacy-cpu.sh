#!/bin/bash
# A legacy cgroup v1 script, written for a v1 host: hard-coded paths, one
# group per hierarchy, echo into tasks. It runs unchanged against cgxfs.
# CGROUP_ROOT is where the v1 hierarchies are (default: the cgxfs view).
set -e
root=${CGROUP_ROOT:-/sys/fs/cgroup-compat}

mkdir -p $root/cpu,cpuacct/batch $root/memory/batch $root/pids/limited

sleep 600 </dev/null >/dev/null 2>&1 &
worker=$!
echo $worker > $root/cpu,cpuacct/batch/tasks
echo $worker > $root/memory/batch/tasks
echo $worker > $root/pids/limited/tasks
echo 1 > $root/cpu,cpuacct/batch/notify_on_release

echo "worker $worker"
echo "cpu,cpuacct/batch tasks: $(cat $root/cpu,cpuacct/batch/tasks)"
echo "memory/batch tasks:      $(cat $root/memory/batch/tasks)"
echo "pids/limited tasks:      $(cat $root/pids/limited/tasks)"
echo "notify_on_release:       $(cat $root/cpu,cpuacct/batch/notify_on_release)"
