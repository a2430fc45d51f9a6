# Differential, run under cgx-exec (vm-differential-exec).
# Debian's cgroup-tools (libcgroup 2.0.2) unchanged: it finds the hierarchies
# through /proc/cgroups and /proc/mounts, makes, sets, reads, lists and
# removes groups (cgroup-tools-tasks.sh: cgexec and cgclassify).
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
echo "-- lscgroup"
lscgroup; st lscgroup $?
lscgroup cpu:/; st "lscgroup cpu:/" $?
lscgroup memory:/t; st "lscgroup memory:/t" $?
echo "-- lssubsys"
lssubsys -am; st "lssubsys -am" $?
lssubsys -m cpu; st "lssubsys -m cpu" $?
lssubsys -i; st "lssubsys -i" $?
echo "-- cgdelete"
cgdelete -g cpu,memory:/t; st cgdelete $?
cgdelete -g cpu:/t2; st cgdelete $?
ls -d /sys/fs/cgroup/cpu,cpuacct/t /sys/fs/cgroup/cpu,cpuacct/t2 2>&1 | sed 's/^ls: //'
# libcgroup 2.0.2's cgdelete skips the second controller of one -g.
if [ -d /sys/fs/cgroup/memory/t ]; then echo "memory/t stays"; rmdir /sys/fs/cgroup/memory/t; fi
