# Differential, run under cgx-exec: Apache Mesos' cgroups isolators on a v1
# host, as plain shell. Hierarchies are found as src/linux/cgroups.cpp finds
# them (cgroup mounts in /proc/mounts, /proc/cgroups for the subsystems, their
# hierarchy ids and the enabled column); the root "mesos" is prepared with the
# nested "test" probe; a container mesos/ID and a nested one mesos/ID/mesos/CHILD
# get the limits of the cpu, mem, net_cls, devices and pids isolators, their
# statistics are read as numbers and keys, and the container is destroyed as
# cgroups::destroy() does: freeze, SIGKILL every pid of cgroup.procs, thaw,
# wait for tasks to be empty, rmdir bottom-up. Values that depend on the
# machine are printed as shapes (numeric, keys, comparisons), never as such.
cd /sys/fs/cgroup || exit 1
E=/tmp/mesos-isolator.err
# The errno text is what follows the last ": " of the message.
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "${out##*: }"; fi; }
wr() { local e; if { echo "$2" > "$1"; } 2>$E; then echo ok; else read -r e < $E; echo "${e##*: }"; fi; }
r1() { local v; read -r v < "$1" 2>$E || { read -r v < $E; v=${v##*: }; }; echo "$v"; }
rd() { local a; mapfile -t a < "$1" 2>$E || { read -r a < $E; echo "${a##*: }"; return; }; ((${#a[@]} == 0)) || printf '%s|' "${a[@]}"; }
yn() { if "$@"; then echo yes; else echo no; fi; }
isnum() { local v; read -r v < "$1" && [[ $v =~ ^[0-9]+$ ]]; }
names() { # the pids of file $1 as names, sorted
  local p a out=()
  mapfile -t a < "$1"
  for p in "${a[@]}"; do
    case $p in "$task") out+=(TASK) ;; "$child") out+=(CHILD) ;; *) out+=(OTHER) ;; esac
  done
  ((${#out[@]} == 0)) || { out=$(printf '%s\n' "${out[@]}" | sort); echo ${out//$'\n'/ }; }
}
keys() { # "KEY:yes|no" for each key of $2..., then whether every value is a number
  local -A st
  local k v out=
  while read -r k v; do st[$k]=$v; done < "$1"
  shift
  for k; do out+="$k:${st[$k]+yes} "; done
  for v in "${st[@]}"; do [[ $v =~ ^[0-9]+$ ]] || { echo "$out all numeric: no"; return; }; done
  echo "$out all numeric: yes"
}

echo "## cgroups::enabled() and the file system"
echo "/proc/cgroups exists: $(yn test -e /proc/cgroups)"
grep -w 'cgroup' /proc/filesystems

echo "## cgroups::subsystems(): /proc/cgroups without its '#' header"
declare -A hid en
while read -r name h _ e; do
  [[ $name == \#* ]] && continue
  hid[$name]=$h en[$name]=$e
  echo "$name hierarchy=$h enabled=$e"
done < /proc/cgroups

echo "## cgroups::hierarchies(): fstype cgroup in /proc/mounts, realpath of the dir"
declare -A mnt
while read -r _ dir type opts _; do
  [ "$type" = cgroup ] || continue
  subs=
  IFS=, read -ra o <<< "$opts"
  for x in "${o[@]}"; do [[ -n ${hid[$x]} || $x == name=* ]] && subs+=${subs:+,}$x; done
  for x in ${subs//,/ }; do mnt[$x]=$(realpath "$dir"); done
  echo "$dir -> $(realpath "$dir") subsystems=$subs"
done < <(sort -k2 /proc/mounts)

echo "## cgroups::hierarchy(subsystem) and the co-mounted ones"
for s in cpu cpuacct memory net_cls devices pids freezer perf_event name=systemd; do
  echo "$s: ${mnt[$s]:-none} busy: $(yn test "${hid[$s]:-1}" != 0)"
done
echo "cpu and cpuacct share a hierarchy: $(yn test "${mnt[cpu]}" = "${mnt[cpuacct]}") same id: $(yn test "${hid[cpu]}" = "${hid[cpuacct]}")"
echo "net_cls and net_prio share a hierarchy: $(yn test "${mnt[net_cls]}" = "${mnt[net_prio]}")"
echo "memory shares with nobody: $(yn test "${mnt[memory]}" != "${mnt[cpu]}")"
echo "statfs of each: $(for s in cpu memory net_cls devices pids freezer; do stat -f -c %T "${mnt[$s]}"; done | sort -u)"

echo "## cgroups::prepare(): the root 'mesos' and the nested 'test' probe"
# The cpu and cpuacct isolators both prepare the same directory: the second
# finds it there (Mesos checks exists() first; a bare mkdir says EEXIST).
for s in cpu cpuacct memory net_cls devices pids freezer; do
  h=${mnt[$s]}
  printf '%s ' "$s: exists $(yn test -d $h/mesos) mkdir $(try mkdir $h/mesos) test $(try mkdir $h/mesos/test) rmdir $(try rmdir $h/mesos/test);"
done
echo
echo "mkdir -p systemd/mesos_executors.slice: $(try mkdir -p ${mnt[name=systemd]}/mesos_executors.slice)"
echo "new root mode $(stat -c %a ${mnt[memory]}/mesos) files: cgroup.procs $(yn test -e ${mnt[memory]}/mesos/cgroup.procs) tasks $(yn test -e ${mnt[memory]}/mesos/tasks) notify_on_release=$(r1 ${mnt[memory]}/mesos/notify_on_release)"

id=7c2b1a6e-3f8d-4e2a-9b1c-5d6e7f8a9b0c
cid=0e1d2c3b-4a59-4687-b9a8-c7d6e5f4a3b2
CPU=${mnt[cpu]}/mesos/$id MEM=${mnt[memory]}/mesos/$id NET=${mnt[net_cls]}/mesos/$id
DEV=${mnt[devices]}/mesos/$id PIDS=${mnt[pids]}/mesos/$id FRZ=${mnt[freezer]}/mesos/$id
echo "## LinuxLauncher: the freezer group first, the task joins it and systemd's slice"
sleep 1000 & task=$!
child=
echo "mkdir freezer: $(try mkdir $FRZ) join: $(wr $FRZ/cgroup.procs $task) slice: $(wr ${mnt[name=systemd]}/mesos_executors.slice/cgroup.procs $task)"
echo "## isolators: create the group (cgroups::create), then isolate() writes cgroup.procs"
for g in $CPU $MEM $NET $DEV $PIDS; do
  printf '%s ' "${g%%/mesos/*}: $(try mkdir -p $g) $(wr $g/cgroup.procs $task)"
done
echo
echo "cpuacct finds the same group: $(yn test -d ${mnt[cpuacct]}/mesos/$id) procs=[$(names ${mnt[cpuacct]}/mesos/$id/cgroup.procs)]"
for g in $CPU $MEM $NET $DEV $PIDS $FRZ; do printf '%s ' "procs=[$(names $g/cgroup.procs)] tasks=[$(names $g/tasks)]"; done
echo
echo "/proc/TASK/cgroup, the lines Mesos parses:"
grep -E ':(cpu,cpuacct|memory|freezer|devices|pids|net_cls,net_prio|name=systemd):' /proc/$task/cgroup | sed "s/$id/ID/"

echo "## cpu isolator: shares = 1024 * cpus (at least 2), period 100ms, quota = period * cpus (at least 1ms)"
echo "cpu.shares 512: $(wr $CPU/cpu.shares 512) -> $(r1 $CPU/cpu.shares)"
echo "cpu.shares 2 (MIN_CPU_SHARES): $(wr $CPU/cpu.shares 2) -> $(r1 $CPU/cpu.shares)"
echo "cpu.shares 1: $(wr $CPU/cpu.shares 1) -> $(r1 $CPU/cpu.shares) 0: $(wr $CPU/cpu.shares 0) -> $(r1 $CPU/cpu.shares)"
echo "cpu.cfs_period_us 100000: $(wr $CPU/cpu.cfs_period_us 100000) -> $(r1 $CPU/cpu.cfs_period_us)"
echo "cpu.cfs_quota_us 50000: $(wr $CPU/cpu.cfs_quota_us 50000) -> $(r1 $CPU/cpu.cfs_quota_us)"
echo "cpu.cfs_quota_us 1000 (MIN_CPU_CFS_QUOTA): $(wr $CPU/cpu.cfs_quota_us 1000) -> $(r1 $CPU/cpu.cfs_quota_us)"
echo "cpu.cfs_quota_us 999: $(wr $CPU/cpu.cfs_quota_us 999) -> $(r1 $CPU/cpu.cfs_quota_us)"
echo "update to 2 cpus: shares $(wr $CPU/cpu.shares 2048) quota $(wr $CPU/cpu.cfs_quota_us 200000) -> $(r1 $CPU/cpu.shares) $(r1 $CPU/cpu.cfs_quota_us)"
echo "revocable: quota -1 $(wr $CPU/cpu.cfs_quota_us -1) -> $(r1 $CPU/cpu.cfs_quota_us) period stays $(r1 $CPU/cpu.cfs_period_us)"
echo "cpu.stat: $(keys $CPU/cpu.stat nr_periods nr_throttled throttled_time)"
echo "cpuacct.stat: $(keys ${mnt[cpuacct]}/mesos/$id/cpuacct.stat user system) lines $(wc -l < ${mnt[cpuacct]}/mesos/$id/cpuacct.stat)"

echo "## mem isolator: soft limit, then the hard limit only when it rises"
echo "limit before: $(r1 $MEM/memory.limit_in_bytes) soft before: $(r1 $MEM/memory.soft_limit_in_bytes)"
echo "soft 64M: $(wr $MEM/memory.soft_limit_in_bytes 67108864) -> $(r1 $MEM/memory.soft_limit_in_bytes)"
echo "limit 64M: $(wr $MEM/memory.limit_in_bytes 67108864) -> $(r1 $MEM/memory.limit_in_bytes)"
echo "memsw present: $(yn test -e $MEM/memory.memsw.limit_in_bytes) -> $(r1 $MEM/memory.memsw.limit_in_bytes)"
echo "memsw 64M (cgroups_limit_swap): $(wr $MEM/memory.memsw.limit_in_bytes 67108864) -> $(r1 $MEM/memory.memsw.limit_in_bytes)"
echo "raise: limit 128M before memsw $(wr $MEM/memory.limit_in_bytes 134217728), memsw 128M $(wr $MEM/memory.memsw.limit_in_bytes 134217728) then limit $(wr $MEM/memory.limit_in_bytes 134217728) -> $(r1 $MEM/memory.limit_in_bytes) $(r1 $MEM/memory.memsw.limit_in_bytes)"
echo "lower to 48M: soft only $(wr $MEM/memory.soft_limit_in_bytes 50331648) -> soft $(r1 $MEM/memory.soft_limit_in_bytes) limit $(r1 $MEM/memory.limit_in_bytes)"
echo "unaligned limit 100000000: $(wr $MEM/memory.limit_in_bytes 100000000) -> $(r1 $MEM/memory.limit_in_bytes)"
echo "limit 128M again: $(wr $MEM/memory.limit_in_bytes 134217728)"
# 16M of tmpfs charged to the group: it cannot be reclaimed without swap.
# Written by a process in all of the container's groups, as Mesos forks each
# one from the executor. Left out: a writer in the memory group alone. cgxfs
# gives it a v2 leaf of its own, and once it exits the charge no longer counts
# in memory.usage_in_bytes, where v1 keeps it on the memory group (a lower
# limit is then taken instead of EBUSY).
mkdir -p /tmp/mesos-fill && mount -t tmpfs -o size=64m mesos-fill /tmp/mesos-fill
(for g in $FRZ ${mnt[name=systemd]}/mesos_executors.slice $CPU $MEM $NET $DEV $PIDS; do echo $BASHPID > $g/cgroup.procs; done
 head -c 16777216 /dev/zero > /tmp/mesos-fill/data)
u=$(r1 $MEM/memory.usage_in_bytes) m=$(r1 $MEM/memory.max_usage_in_bytes)
echo "filled: usage numeric $(yn isnum $MEM/memory.usage_in_bytes) >= 16M: $(yn test "$u" -ge 16777216) max_usage >= usage: $(yn test "$m" -ge "$u")"
echo "lower the hard limit below the usage, 8M: $(wr $MEM/memory.limit_in_bytes 8388608) -> $(r1 $MEM/memory.limit_in_bytes)"
echo "memsw 8M below the limit: $(wr $MEM/memory.memsw.limit_in_bytes 8388608) -> $(r1 $MEM/memory.memsw.limit_in_bytes)"
echo "lower the hard limit above the usage, 32M: $(wr $MEM/memory.limit_in_bytes 33554432) -> $(r1 $MEM/memory.limit_in_bytes)"
echo "task still there: procs=[$(names $MEM/cgroup.procs)]"
rm -f /tmp/mesos-fill/data
umount /tmp/mesos-fill && rmdir /tmp/mesos-fill
echo "memory.stat: $(keys $MEM/memory.stat cache rss rss_huge mapped_file swap unevictable total_cache total_rss total_rss_huge total_mapped_file total_swap total_unevictable total_inactive_anon total_active_anon total_inactive_file total_active_file hierarchical_memory_limit hierarchical_memsw_limit)"
grep -E '^hierarchical_mem(ory|sw)_limit ' $MEM/memory.stat | tr '\n' ' '; echo
for f in usage_in_bytes max_usage_in_bytes failcnt memsw.usage_in_bytes memsw.max_usage_in_bytes memsw.failcnt; do
  printf '%s ' "$f:$(yn isnum $MEM/memory.$f)"
done
echo
echo "memory.oom_control: $(keys $MEM/memory.oom_control oom_kill_disable under_oom oom_kill)"
echo "memory.pressure_level present: $(yn test -e $MEM/memory.pressure_level) cgroup.event_control present: $(yn test -e $MEM/cgroup.event_control)"

echo "## net_cls isolator: the handle written in hex, read back in decimal"
echo "net_cls.classid before: $(r1 $NET/net_cls.classid)"
echo "0x00010001: $(wr $NET/net_cls.classid 0x00010001) -> $(r1 $NET/net_cls.classid)"
echo "0xffff0fff: $(wr $NET/net_cls.classid 0xffff0fff) -> $(r1 $NET/net_cls.classid)"
echo "decimal 1048577: $(wr $NET/net_cls.classid 1048577) -> $(r1 $NET/net_cls.classid)"
echo "0x100000000: $(wr $NET/net_cls.classid 0x100000000) -> $(r1 $NET/net_cls.classid)"
echo "0xg: $(wr $NET/net_cls.classid 0xg) -> $(r1 $NET/net_cls.classid)"

echo "## devices isolator: deny all, then the default whitelist"
echo "devices.list before: $(rd $DEV/devices.list)"
echo "deny a: $(wr $DEV/devices.deny a) -> [$(rd $DEV/devices.list)]"
for r in "c *:* m" "b *:* m" "c 5:1 rwm" "c 4:0 rwm" "c 4:1 rwm" "c 136:* rwm" "c 5:2 rwm" "c 10:200 rwm" \
         "c 1:3 rwm" "c 1:5 rwm" "c 1:7 rwm" "c 5:0 rwm" "c 1:9 rwm" "c 1:8 rwm"; do
  printf '%s ' "'$r':$(wr $DEV/devices.allow "$r")"
done
echo
echo "devices.list: $(rd $DEV/devices.list)"
echo "inside: /dev/null $( (echo $BASHPID > $DEV/cgroup.procs && try head -c1 /dev/null) ) /dev/kmsg $( (echo $BASHPID > $DEV/cgroup.procs && try head -c1 /dev/kmsg) )"

echo "## pids isolator"
echo "pids.max before: $(r1 $PIDS/pids.max) 100: $(wr $PIDS/pids.max 100) -> $(r1 $PIDS/pids.max) current numeric: $(yn isnum $PIDS/pids.current) = 1: $(yn test "$(r1 $PIDS/pids.current)" = 1)"
echo "pids.max max: $(wr $PIDS/pids.max max) -> $(r1 $PIDS/pids.max) -1: $(wr $PIDS/pids.max -1) -> $(r1 $PIDS/pids.max)"

echo "## a nested container: mesos/ID/mesos/CHILD"
sleep 1000 & child=$!
for s in freezer cpu memory devices pids; do
  g=${mnt[$s]}/mesos/$id/mesos/$cid
  printf '%s ' "$s: $(try mkdir -p $g) $(wr $g/cgroup.procs $child)"
done
echo
echo "child devices.list (copied from the parent): $(rd ${mnt[devices]}/mesos/$id/mesos/$cid/devices.list)"
echo "child allows what the parent denies, 'c 1:11 rwm': $(wr ${mnt[devices]}/mesos/$id/mesos/$cid/devices.allow 'c 1:11 rwm')"
echo "child memory: limit $(wr ${mnt[memory]}/mesos/$id/mesos/$cid/memory.limit_in_bytes 16777216) -> $(r1 ${mnt[memory]}/mesos/$id/mesos/$cid/memory.limit_in_bytes)"
grep -E '^hierarchical_memory_limit ' ${mnt[memory]}/mesos/$id/mesos/$cid/memory.stat
echo "parent procs=[$(names $FRZ/cgroup.procs)] child procs=[$(names $FRZ/mesos/$cid/cgroup.procs)] pids.current parent=$(r1 $PIDS/pids.current)"
echo "/proc/CHILD/cgroup: $(grep -E ':(freezer|memory):' /proc/$child/cgroup | sed "s/$id/ID/; s/$cid/CHILD/" | tr '\n' ' ')"
echo "rmdir the busy parent: $(try rmdir $FRZ) the busy child: $(try rmdir $FRZ/mesos/$cid)"

echo "## cgroups::destroy() on the freezer hierarchy, children first"
# cgroups::get() lists the nested groups in post order, then the group itself.
mapfile -t groups < <(find $FRZ -mindepth 1 -depth -type d; echo $FRZ)
for g in "${groups[@]}"; do
  n=${g#$FRZ}
  # TasksKiller: freeze (FROZEN again while it says FREEZING), kill, thaw, reap
  s=
  for _ in {1..100}; do
    echo FROZEN > $g/freezer.state
    read -r s < $g/freezer.state
    [ "$s" = FROZEN ] && break
    sleep 0.05
  done
  echo "${n:-/}: freeze -> $s procs=[$(names $g/cgroup.procs)]"
  { # bash reports the killed jobs, with their pids, on stderr
    mapfile -t pids < $g/cgroup.procs
    kill -9 "${pids[@]}"
    echo "  thaw: $(wr $g/freezer.state THAWED) -> $(r1 $g/freezer.state)"
    for p in "${pids[@]}"; do wait $p; done
  } 2>/dev/null
  for _ in {1..50}; do [ -s $g/tasks ] || break; sleep 0.1; done
  echo "  tasks=[$(names $g/tasks)] rmdir: $(try rmdir $g)"
done
echo "## isolator cleanup: the other hierarchies, empty now"
for s in cpu memory net_cls devices pids; do
  g=${mnt[$s]}/mesos/$id
  r=$(for d in $(find $g -mindepth 1 -depth -type d); do try rmdir $d; done)
  printf '%s ' "$s: ${r:+children ${r//$'\n'/ }, }$(try rmdir $g) exists: $(yn test -e $g);"
done
echo
echo "cpuacct: $(yn test -e ${mnt[cpuacct]}/mesos/$id)"
for s in cpu memory net_cls devices pids freezer; do printf '%s ' "$s/mesos:$(try rmdir ${mnt[$s]}/mesos)"; done
echo
echo "slice: $(try rmdir ${mnt[name=systemd]}/mesos_executors.slice)"
