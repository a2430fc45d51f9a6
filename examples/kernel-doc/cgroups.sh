#!/bin/bash
# Documentation/admin-guide/cgroup-v1/cgroups.rst, as written:
#   1.6 "How do I use cgroups?": a cpuset cgroup named Charlie and a subshell
#       in it, whose /proc/self/cgroup names /Charlie;
#   2.1 "Basic Usage" and 2.2 "Attaching processes": a second mount of a
#       hierarchy, release_agent, my_cgroup and my_sub_cs, echo $$ / echo 0.
# Run it under cgx-exec (cgx-exec -- examples/kernel-doc/cgroups.sh) or on
# a v1 host: it prints the same on both.
. "$(dirname "${BASH_SOURCE[0]}")/steps.bash"

cleanup() {
	leave_groups /sys/fs/cgroup/cpuset /sys/fs/cgroup/rg1/my_cgroup/my_sub_cs \
		/sys/fs/cgroup/rg1/my_cgroup /sys/fs/cgroup/cpuset/Charlie
	echo >/sys/fs/cgroup/rg1/release_agent
	umount /sys/fs/cgroup/rg1
	umount /sys/fs/cgroup/cpuset
	umount /sys/fs/cgroup
}

echo "## 1.6: Charlie, with CPUs 2 and 3 and memory node 1"
doc 'mount -t tmpfs cgroup_root /sys/fs/cgroup'
doc 'mkdir /sys/fs/cgroup/cpuset'
doc 'mount -t cgroup cpuset -ocpuset /sys/fs/cgroup/cpuset'
doc 'cd /sys/fs/cgroup/cpuset'
doc 'mkdir Charlie'
doc 'cd Charlie'
# A machine without CPU 2 or node 1 refuses them (EINVAL): the last CPU
# and node 0 stand in, which every machine has.
doc '/bin/echo 2-3 > cpuset.cpus' || doc "/bin/echo $(last_cpu ../cpuset.cpus) > cpuset.cpus"
doc '/bin/echo 1 > cpuset.mems' || doc '/bin/echo 0 > cpuset.mems'
doc 'cat cpuset.cpus cpuset.mems'
doc '/bin/echo $$ > tasks'
echo "this shell in Charlie/tasks: $(yes_no grep -qx $$ tasks)"
# The subshell 'sh' is now running in cgroup Charlie; its cpuset line names /Charlie.
doc 'sh -c "cat /proc/self/cgroup"'
doc '/bin/echo $$ > /sys/fs/cgroup/cpuset/tasks'
doc 'cd /sys/fs/cgroup'
doc 'rmdir /sys/fs/cgroup/cpuset/Charlie'

echo "## 2.1: a hierarchy of cpuset and memory at rg1"
doc 'mkdir /sys/fs/cgroup/rg1'
# cpuset and memory are each bound to a hierarchy of their own already.
doc 'mount -t cgroup -o cpuset,memory hier1 /sys/fs/cgroup/rg1'
# The cpuset hierarchy again: a second mount of an existing hierarchy
# ignores the release_agent option (the hierarchy keeps its own).
doc 'mount -t cgroup -o cpuset,release_agent="/sbin/cpuset_release_agent" xxx /sys/fs/cgroup/rg1'
doc 'cat /sys/fs/cgroup/rg1/release_agent'
doc 'echo "/sbin/new_release_agent" > /sys/fs/cgroup/rg1/release_agent'
doc 'cat /sys/fs/cgroup/rg1/release_agent'
doc 'echo > /sys/fs/cgroup/rg1/release_agent'
doc 'cd /sys/fs/cgroup/rg1'
doc 'mkdir my_cgroup'
echo "my_cgroup shows at cpuset/my_cgroup too: $(yes_no test -d /sys/fs/cgroup/cpuset/my_cgroup)"
doc 'cd my_cgroup'
doc 'ls'
# "if cpusets are enabled the user will have to populate the cpus and mems files"
doc '/bin/echo $$ > tasks'
doc 'cat ../cpuset.cpus > cpuset.cpus'
doc 'cat ../cpuset.mems > cpuset.mems'
doc '/bin/echo $$ > tasks'
echo "this shell in my_cgroup/tasks: $(yes_no grep -qx $$ tasks)"
doc 'mkdir my_sub_cs'
doc 'rmdir my_sub_cs'
doc 'rmdir /sys/fs/cgroup/rg1/my_cgroup'

echo "## 2.2: attaching processes"
sleep 1000 &
pid1=$!
sleep 1000 &
pid2=$!
doc 'echo 0 > ../tasks'
echo "this shell in rg1/tasks: $(yes_no grep -qx $$ ../tasks)"
doc '/bin/echo $pid1 > tasks'
doc '/bin/echo $pid2 > tasks'
echo "tasks of my_cgroup: $(wc -l <tasks)"
# "It is PID, not PIDs": one write names one task.
doc '/bin/echo "$pid1 $pid2" > ../tasks'
doc '/bin/echo $pid1 > ../cgroup.procs'
echo "tasks of my_cgroup: $(wc -l <tasks)"
kill $pid1 $pid2
wait $pid1 $pid2 2>/dev/null
doc 'cd /'
doc 'rmdir /sys/fs/cgroup/rg1/my_cgroup'
doc 'umount /sys/fs/cgroup/rg1'
doc 'umount /sys/fs/cgroup/cpuset'
doc 'umount /sys/fs/cgroup'
echo "the hierarchies under the tmpfs show again: $(yes_no test -e /sys/fs/cgroup/cpuset/tasks)"
