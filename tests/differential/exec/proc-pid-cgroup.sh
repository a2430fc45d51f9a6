# Differential, run under cgx-exec (vm-differential-exec).
# What a process's /proc/PID/cgroup says about cpu,cpuacct and memory after
# it is moved into cpu,cpuacct/a and memory/b.
cd /sys/fs/cgroup || exit 1
v1lines() { grep -E ':(cpu,cpuacct|memory):' /proc/$1/cgroup | cut -d: -f2-; }
mkdir cpu,cpuacct/a memory/b
sleep 1000 & sp=$!
echo "before: $(v1lines $sp | tr '\n' ' ')"
echo $sp > cpu,cpuacct/a/tasks
echo "after cpu,cpuacct/a: $(v1lines $sp | tr '\n' ' ')"
echo $sp > memory/b/tasks
echo "after memory/b: $(v1lines $sp | tr '\n' ' ')"
mkdir cpu,cpuacct/a/inner; echo $sp > cpu,cpuacct/a/inner/tasks
echo "after cpu,cpuacct/a/inner: $(v1lines $sp | tr '\n' ' ')"
sh -c 'sleep 1000' & ch=$!
echo "a child of this shell (root): $(v1lines $ch | tr '\n' ' ')"
kill $sp $ch; wait $sp $ch 2>/dev/null
rmdir cpu,cpuacct/a/inner cpu,cpuacct/a memory/b
