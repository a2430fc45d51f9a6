# Differential, run under cgx-exec (vm-differential-exec).
# Debian's cgroup-tools (libcgroup 2.0.2) unchanged: it finds the hierarchies
# through /proc/cgroups and /proc/mounts, makes, sets, reads, classifies and
# removes groups, with their messages and exit codes when refused.
command -v cgcreate >/dev/null || { echo "cgcreate missing"; exit 1; }
st() { echo "$1 status $2"; }

echo "-- cgcreate -g cpu,memory:/t"
cgcreate -g cpu,memory:/t; st cgcreate $?
ls -d /sys/fs/cgroup/cpu,cpuacct/t /sys/fs/cgroup/memory/t
echo "-- cgset / cgget"
cgset -r cpu.shares=512 t; st cgset $?
cgget -r cpu.shares t; st cgget $?
cgget -n -v -r cpu.shares t
cgset -r memory.limit_in_bytes=64M -r memory.soft_limit_in_bytes=32M t; st cgset $?
# cgget -g prints every file of the group; these are the ones whose values
# depend only on what was written.
cgget -g memory:t | grep -E '^(t:|memory\.(limit_in_bytes|soft_limit_in_bytes|swappiness|use_hierarchy|move_charge_at_immigrate):)'
st "cgget -g" "${PIPESTATUS[0]}"
echo "-- cgset --copy-from"
cgcreate -g cpu:/t2; st cgcreate $?
cgset --copy-from t t2; st "cgset --copy-from" $?
cgget -n -v -r cpu.shares t2
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
echo "-- lscgroup"
lscgroup; st lscgroup $?
lscgroup cpu:/; st "lscgroup cpu:/" $?
lscgroup memory:/t; st "lscgroup memory:/t" $?
echo "-- lssubsys"
lssubsys -am; st "lssubsys -am" $?
lssubsys -m cpu; st "lssubsys -m cpu" $?
lssubsys -i; st "lssubsys -i" $?
echo "-- cgdelete"
kill $sp; wait $sp 2>/dev/null
# Page cache charged to memory/t would keep it as a dying group that a v1
# kernel still counts in /proc/cgroups, which the next script may read.
echo 0 >/sys/fs/cgroup/memory/t/memory.force_empty
cgdelete -g cpu,memory:/t; st cgdelete $?
cgdelete -g cpu:/t2; st cgdelete $?
ls -d /sys/fs/cgroup/cpu,cpuacct/t /sys/fs/cgroup/cpu,cpuacct/t2 2>&1 | sed 's/^ls: //'
# libcgroup 2.0.2's cgdelete skips the second controller of one -g.
if [ -d /sys/fs/cgroup/memory/t ]; then echo "memory/t stays"; rmdir /sys/fs/cgroup/memory/t; fi
