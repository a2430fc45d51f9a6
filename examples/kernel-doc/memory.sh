#!/bin/bash
# Documentation/admin-guide/cgroup-v1/memory.rst, as written:
#   3.1/3.2 the cgroups, group 0 with this shell in it, limit_in_bytes with
#       its suffixes and what reads back (the documentation's write of 1
#       reading back 4096 is from an older kernel: a limit below what the
#       group holds is refused with EBUSY, also after the shell left, as
#       its pages stay charged to the group);
#   5.1 force_empty, 5.4 failcnt, 10 oom_control, 11 the pressure test's
#       task that allocates past its limit and is killed by the OOM killer;
#   8.1 move_charge_at_immigrate.
# usage_in_bytes and friends move with every page: they are printed as
# comparisons, never as numbers.
. "$(dirname "${BASH_SOURCE[0]}")/steps.bash"

cleanup() {
	kill "$holder"
	wait "$holder"
	rm -f "$fifo"
	leave_groups /sys/fs/cgroup/memory /sys/fs/cgroup/memory/0 /sys/fs/cgroup/memory/1
	umount /sys/fs/cgroup/memory
	umount /sys/fs/cgroup
}

bytes() { cat /sys/fs/cgroup/memory/0/memory.$1; }

echo "## 3.1: prepare the cgroups"
doc 'mount -t tmpfs none /sys/fs/cgroup'
doc 'mkdir /sys/fs/cgroup/memory'
doc 'mount -t cgroup none /sys/fs/cgroup/memory -o memory'

echo "## 3.2: group 0, with this shell in it"
doc 'mkdir /sys/fs/cgroup/memory/0'
doc 'echo $$ > /sys/fs/cgroup/memory/0/tasks'
doc 'echo 4M > /sys/fs/cgroup/memory/0/memory.limit_in_bytes'
doc 'cat /sys/fs/cgroup/memory/0/memory.limit_in_bytes'
echo "usage_in_bytes between 1 and the limit: $(yes_no [ "$(bytes usage_in_bytes)" -gt 0 -a "$(bytes usage_in_bytes)" -le 4194304 ])"
doc 'cd /sys/fs/cgroup/memory/0'
# This shell's own pages cannot be reclaimed to fit in one page: the
# kernel refuses the limit (EBUSY) and keeps the old one, killing no one.
doc 'echo 1 > memory.limit_in_bytes'
doc 'cat memory.limit_in_bytes'
echo "this shell still in 0/tasks: $(yes_no grep -qx $$ tasks)"
doc 'echo $$ > ../tasks'
doc 'echo 1 > memory.limit_in_bytes'
doc 'cat memory.limit_in_bytes'
for v in 4k 4K 4m 4M 1g 1G 5000000 -1; do
	doc "echo $v > memory.limit_in_bytes"
	doc 'cat memory.limit_in_bytes'
done

echo "## 10, 11: a task allocating past its limit"
doc 'echo 8000000 > memory.limit_in_bytes'
doc 'cat memory.limit_in_bytes'
doc 'cat memory.oom_control'
# The documentation's test also sets memory.memsw.limit_in_bytes to the same
# value; a v1 kernel then counts the failures in memory.memsw.failcnt instead
# of memory.failcnt, which cgroup2's memory.events cannot tell apart: memsw is
# left unlimited here.
# The documentation's task is `dd if=/dev/zero | read x`, which grows bash's
# buffer a byte at a time (minutes under qemu); awk doubling a string
# allocates the same way, in 23 steps.
echo "exit status of the task: $(status_of sh -c 'echo $$ > tasks; exec awk "BEGIN { s = \"x\"; while (1) s = s s }"')"
doc 'cat memory.oom_control'
echo "failcnt > 0: $(yes_no [ "$(bytes failcnt)" -gt 0 ])"
limit=$(bytes limit_in_bytes)
echo "max_usage_in_bytes within 512K under the limit: $(yes_no [ "$(bytes max_usage_in_bytes)" -le "$limit" -a "$(bytes max_usage_in_bytes)" -gt $((limit - 524288)) ])"
echo "tasks left: $(wc -l <tasks)"
# 5.4: "You can reset failcnt by writing 0 to failcnt file"
doc 'echo 0 > memory.failcnt'
doc 'cat memory.failcnt'

echo "## 5.1: force_empty"
before=$(bytes usage_in_bytes)
doc 'echo 0 > memory.force_empty'
echo "usage_in_bytes no higher: $(yes_no [ "$(bytes usage_in_bytes)" -le "$before" ])"

echo "## 8.1: move charges at task migration"
doc 'mkdir ../1'
doc 'echo 1 > ../1/memory.move_charge_at_immigrate'
doc 'cat ../1/memory.move_charge_at_immigrate'
# A task holding 2 MiB in group 0, moved to group 1. Its charges follow it
# on a v1 kernel; cgroup2 has no charge moving (they stay in group 0), so
# the usage of either group is not printed.
# It reads a fifo no one writes to, and stops there.
fifo=$(mktemp -u)
mkfifo "$fifo"
sh -c 'echo $$ > tasks; exec awk "BEGIN { s = \"x\"; for (i = 0; i < 21; i++) s = s s; getline }"' <>"$fifo" &
holder=$!
for _ in $(seq 100); do
	[ "$(awk '/^VmRSS/ { print ($2 > 2048) }' /proc/$holder/status)" = 1 ] && break
	sleep 0.1
done
echo "holder in 0/tasks: $(yes_no grep -qx $holder tasks)"
doc 'echo $holder > ../1/tasks'
echo "holder in 1/tasks: $(yes_no grep -qx $holder ../1/tasks)"
doc 'echo 0 > ../1/memory.move_charge_at_immigrate'
doc 'cat ../1/memory.move_charge_at_immigrate'
kill $holder
wait $holder 2>/dev/null
rm -f "$fifo"
doc 'cd /'
doc 'rmdir /sys/fs/cgroup/memory/0'
doc 'rmdir /sys/fs/cgroup/memory/1'
doc 'umount /sys/fs/cgroup/memory'
doc 'umount /sys/fs/cgroup'
