# Differential, run under cgx-exec (vm-differential-exec).
# Debian's cgroup-tools (libcgroup 2.0.2) put tasks in groups: cgexec starts
# a command in them, cgclassify moves a running process; both seen through
# the tasks files and /proc/PID/cgroup.
command -v cgexec >/dev/null || { echo "cgexec missing"; exit 1; }
st() { echo "$1 status $2"; }

cgcreate -g cpu,memory:/t; st cgcreate $?
echo "-- cgexec"
cgexec -g cpu:t sh -c 'grep -E ":(cpu,cpuacct|memory):" /proc/self/cgroup'; st cgexec $?
cgexec -g cpu,memory:t sh -c 'grep -E ":(cpu,cpuacct|memory):" /proc/self/cgroup; cat /sys/fs/cgroup/memory/t/tasks | wc -l'
st cgexec $?
echo "-- cgclassify"
sleep 1000 &
sp=$!
cgclassify -g memory:t $sp; st cgclassify $?
grep -qx $sp /sys/fs/cgroup/memory/t/tasks && echo "memory/t/tasks holds the pid"
grep -qx $sp /sys/fs/cgroup/cpu,cpuacct/t/tasks || echo "cpu,cpuacct/t/tasks does not"
grep -E ':(cpu,cpuacct|memory):' /proc/$sp/cgroup
cgclassify -g cpu:/ $sp; st "cgclassify to the root" $?
grep -E ':(cpu,cpuacct):' /proc/$sp/cgroup
kill $sp; wait $sp 2>/dev/null
# Page cache charged to memory/t would keep it as a dying group that a v1
# kernel still counts in /proc/cgroups, which the next script may read.
echo 0 >/sys/fs/cgroup/memory/t/memory.force_empty
cgdelete -g cpu:/t; st cgdelete $?
cgdelete -g memory:/t; st cgdelete $?
ls -d /sys/fs/cgroup/cpu,cpuacct/t /sys/fs/cgroup/memory/t 2>&1 | sed 's/^ls: //'
