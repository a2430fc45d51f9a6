# Differential: a v1 memory group's usage when the writer sits in the memory
# group alone (its other hierarchies at the root). Kernel v1 counts the
# writer's tmpfs pages in memory.usage_in_bytes while it lives and after it
# exits. The writer's leaf lies outside the group's v2 directory (freezer's
# /p shares that directory and the writer is not in it): cgxfs counts that
# leaf with the directory, and keeps it, empty, while pages stay charged to
# it (they would count for its parent otherwise), also once the next
# writer's move has emptied it. Found by tests/differential/exec/mesos-isolator.sh.
cd /sys/fs/cgroup || exit 1
mkdir memory/p freezer/p
mkdir -p /tmp/pf && mount -t tmpfs -o size=64m pf /tmp/pf && mkfifo /tmp/pf/ready
ge() { local u; read -r u < memory/p/memory.usage_in_bytes; [ "$u" -ge "$1" ] && echo yes || echo no; }
# a writer in memory/p alone that stays alive once it has written
(echo $BASHPID > memory/p/cgroup.procs; head -c 8388608 /dev/zero > /tmp/pf/a; echo > /tmp/pf/ready; exec sleep 1000) &
s=$!
read -r _ < /tmp/pf/ready
echo "alive memory-only writer: usage >= 8M $(ge 8388608)"
{ kill $s; wait $s; } 2>/dev/null
echo "after it exited: usage >= 8M $(ge 8388608)"
# a writer in memory/p and freezer/p, the same path in both, that exits
(echo $BASHPID > memory/p/cgroup.procs; echo $BASHPID > freezer/p/cgroup.procs; head -c 8388608 /dev/zero > /tmp/pf/b)
echo "second writer (memory and freezer) exited: usage >= 8M $(ge 8388608) >= 16M $(ge 16777216)"
echo "limit 12M: $(if echo 12582912 > memory/p/memory.limit_in_bytes; then echo ok; fi 2>&1 | sed 's/.*: //')"
rm /tmp/pf/a /tmp/pf/b; umount /tmp/pf
rmdir memory/p freezer/p
