#!/bin/bash
# Documentation/admin-guide/cgroup-v1/cpusets.rst, as written:
#   1.9 "How do I use cpusets?": Charlie and a subshell whose
#       /proc/self/cpuset names /Charlie;
#   2.1 "Basic Usage" (my_cpuset, flags, cpus, mems, my_sub_cs),
#   2.2 "Adding/removing cpus", 2.3 "Setting flags", 2.4 "Attaching processes".
# The documentation's CPU and node numbers (0-7, 1-4,6, node 1) are written
# first; a machine without them refuses (EINVAL) and the CPUs it has stand in.
# Not covered: `mount -t cpuset` (the noprefix file names): cgx-exec
# intercepts mount -t cgroup only.
. "$(dirname "${BASH_SOURCE[0]}")/steps.bash"

cleanup() {
	leave_groups /sys/fs/cgroup/cpuset /sys/fs/cgroup/cpuset/my_cpuset/my_sub_cs \
		/sys/fs/cgroup/cpuset/my_cpuset /sys/fs/cgroup/cpuset/Charlie
}

root=/sys/fs/cgroup/cpuset
all=$(cat $root/cpuset.cpus)
last=$(last_cpu $root/cpuset.cpus)

echo "## 1.9: Charlie"
# A distribution mounts cpuset at boot: mkdir and mount only when missing.
[ -d $root ] || doc 'mkdir /sys/fs/cgroup/cpuset'
mountpoint -q $root || doc 'mount -t cgroup -ocpuset cpuset /sys/fs/cgroup/cpuset'
echo "cpuset is mounted: $(yes_no mountpoint -q $root)"
doc 'cd /sys/fs/cgroup/cpuset'
doc 'mkdir Charlie'
doc 'cd Charlie'
doc '/bin/echo 2-3 > cpuset.cpus' || doc "/bin/echo $last > cpuset.cpus"
doc '/bin/echo 1 > cpuset.mems' || doc '/bin/echo 0 > cpuset.mems'
doc '/bin/echo $$ > tasks'
# The subshell 'sh' is now running in cpuset Charlie.
doc 'sh -c "cat /proc/self/cpuset"'
doc 'sh -c "grep -E ^Cpus_allowed_list /proc/self/status"'
doc '/bin/echo $$ > ../tasks'
doc 'cd ..'
doc 'rmdir Charlie'

echo "## 2.1: my_cpuset"
doc 'mkdir my_cpuset'
doc 'cd my_cpuset'
doc 'ls'
doc '/bin/echo 1 > cpuset.cpu_exclusive'
doc '/bin/echo 0-7 > cpuset.cpus' || doc "/bin/echo $all > cpuset.cpus"
doc '/bin/echo 0-7 > cpuset.mems' || doc '/bin/echo 0 > cpuset.mems'
doc 'cat cpuset.cpus cpuset.mems cpuset.cpu_exclusive'
doc '/bin/echo $$ > tasks'
echo "this shell in my_cpuset/tasks: $(yes_no grep -qx $$ tasks)"
doc 'mkdir my_sub_cs'
doc 'rmdir my_sub_cs'

echo "## 2.2: adding and removing cpus"
doc '/bin/echo 1-4 > cpuset.cpus'
doc '/bin/echo 1,2,3,4 > cpuset.cpus'
doc '/bin/echo 1-4,6 > cpuset.cpus'
doc 'cat cpuset.cpus'
# The same syntax with the CPUs this machine has.
doc "/bin/echo $last > cpuset.cpus"
doc 'cat cpuset.cpus'
doc 'grep -E ^Cpus_allowed_list /proc/$$/status'
doc "/bin/echo 0-$last > cpuset.cpus"
doc "/bin/echo $(seq -s, 0 "$last") > cpuset.cpus"
doc 'cat cpuset.cpus'
# A cpuset with tasks cannot lose all its CPUs (ENOSPC); an empty one can.
doc '/bin/echo "" > cpuset.cpus'
doc '/bin/echo $$ > ../tasks'
doc '/bin/echo "" > cpuset.cpus'
doc 'cat cpuset.cpus'

echo "## 2.3: setting flags"
doc '/bin/echo 1 > cpuset.cpu_exclusive'
doc 'cat cpuset.cpu_exclusive'
doc '/bin/echo 0 > cpuset.cpu_exclusive'
doc 'cat cpuset.cpu_exclusive'

echo "## 2.4: attaching processes"
doc "/bin/echo $all > cpuset.cpus"
doc '/bin/echo 0 > cpuset.mems'
sleep 1000 &
pid1=$!
sleep 1000 &
pid2=$!
doc '/bin/echo $pid1 > tasks'
doc '/bin/echo $pid2 > tasks'
echo "tasks of my_cpuset: $(wc -l <tasks)"
doc '/bin/echo "$pid1 $pid2" > ../tasks'
echo "tasks of my_cpuset: $(wc -l <tasks)"
kill $pid1 $pid2
wait $pid1 $pid2 2>/dev/null
doc 'cd /'
doc 'rmdir /sys/fs/cgroup/cpuset/my_cpuset'
