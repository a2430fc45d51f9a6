# Differential (issue 15, item 2): the limits of a group end with it. A
# group removed (or renamed away) while another hierarchy keeps a group at
# the same path leaves no memory or pids limit behind: a task placed only in
# that other group afterwards runs unlimited, as on v1. Also after a split
# (the group's members sat outside its directory) and for a group made again.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try_each_line
mkdir -p /tmp/lo && mount -t tmpfs -o size=48m lo /tmp/lo
# writes() says whether a task placed in the groups $@ (HIERARCHY/GROUP, in
# that order) can write 16M of tmpfs pages; it says nothing when killed by
# the OOM killer. A task joins one group at a time: one that joins a limited
# group before the others at its path is, for that moment, a member outside
# the shared directory, whose split limit cgxfs rebalances only within a
# second; the groups without limits come first.
writes() {
  { sh -c 'for g; do echo $$ > "$g/cgroup.procs"; done
           exec head -c 16777216 /dev/zero > /tmp/lo/w' sh "$@" && echo yes; } 2>/dev/null
  rm -f /tmp/lo/w
}
# How many of 6 sleepers a task placed in the groups $2... can fork, counted
# by the tasks file of group $1 (dash: a failed fork is not tried again).
forks() {
  local count=$1 n=0
  shift
  sh -c 'for g; do echo $$ > "$g/cgroup.procs"; done; i=0
         while [ $i -lt 6 ]; do sleep 1000 & i=$((i + 1)); done; exec sleep 1000' sh "$@" 2>/dev/null &
  for _ in $(seq 50); do n=$(wc -l < "$count/tasks"); [ "$n" -ge 7 ] && break; sleep 0.1; done
  echo "$n"
  kill $(cat "$count/tasks"); while [ -s "$count/tasks" ]; do sleep 0.1; done
}

echo "## memory and pids removed, cpu stays (the issue's case)"
mkdir memory/x pids/x cpu,cpuacct/x
echo 8M > memory/x/memory.limit_in_bytes
echo 3 > pids/x/pids.max
echo "limited in all of x: writes $(writes cpu,cpuacct/x memory/x pids/x) forks $(forks pids/x cpu,cpuacct/x memory/x pids/x)"
rmdir memory/x pids/x
echo "in cpu/x alone: writes $(writes cpu,cpuacct/x) forks $(forks cpu,cpuacct/x cpu,cpuacct/x)"
echo "## made again, the new groups start without limits"
mkdir memory/x pids/x
echo "memory/x: $(cat memory/x/memory.limit_in_bytes) pids/x: $(cat pids/x/pids.max)"
echo "in all of x: writes $(writes cpu,cpuacct/x memory/x pids/x) forks $(forks pids/x cpu,cpuacct/x memory/x pids/x)"
rmdir memory/x pids/x cpu,cpuacct/x

echo "## a split limit, then its group removed (cgdelete one controller at a time)"
mkdir -p memory/ct/a pids/ct/a
echo 8M > memory/ct/a/memory.limit_in_bytes
sleep 1000 & s=$!
echo $s > memory/ct/a/tasks    # in memory/ct/a alone: outside the shared directory
{ kill $s; wait $s; } 2>/dev/null
rmdir memory/ct/a
echo "in pids/ct/a alone: writes $(writes pids/ct/a)"
rmdir pids/ct/a memory/ct pids/ct

echo "## renamed away"
mkdir memory/r pids/r
echo 8M > memory/r/memory.limit_in_bytes
echo "rename memory/r: $(try_each_line mv memory/r memory/r2) limit $(cat memory/r2/memory.limit_in_bytes)"
echo "in pids/r alone: writes $(writes pids/r)"
echo "rename pids/r: $(try_each_line mv pids/r pids/r2)"
echo "in pids/r2 alone: writes $(writes pids/r2)"
rmdir memory/r2 pids/r2

echo "## a cpu quota, then its group removed"
mkdir cpu,cpuacct/q memory/q
echo 10000 > cpu,cpuacct/q/cpu.cfs_quota_us
rmdir cpu,cpuacct/q
mkdir cpu,cpuacct/q
echo "new cpu/q: quota $(cat cpu,cpuacct/q/cpu.cfs_quota_us) period $(cat cpu,cpuacct/q/cpu.cfs_period_us)"
rmdir cpu,cpuacct/q memory/q
umount /tmp/lo
