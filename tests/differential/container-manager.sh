# Differential: one container's life as runc/libcontainer's cgroup v1 fs
# manager and Docker's cgroupfs driver drive it, as plain shell: the path
# /docker/ID in every hierarchy (cpuset parents filled from their parent
# before anyone joins), joining through cgroup.procs in libcontainer's
# subsystem order, limits in the order of its Set functions, freeze and thaw,
# the stats `docker stats` reads, `runc update`, and the final kill and rmdir.
# Only errnos, read-backs, counts and yes/no are printed, never usage values.
cd /sys/fs/cgroup || exit 1
E=/tmp/container-manager.err
. "${0%/*}/view.bash"   # try
# The helpers below run as builtins in a forked subshell at most: under TCG
# every exec counts. The errno text is what follows the last ": " of the message.
wr() { local e; if { echo "$2" > "$1"; } 2>$E; then echo ok; else read -r e < $E; echo "${e##*: }"; fi; }
rd() { local a; mapfile -t a < "$1" 2>$E || { read -r a < $E; echo "${a##*: }"; return; }; ((${#a[@]} == 0)) || printf '%s|' "${a[@]}"; }
yn() { if "$@"; then echo yes; else echo no; fi; }
isnum() { local v; read -r v < "$1" && [[ $v =~ ^[0-9]+$ ]]; }
names() {   # the pids in file $1 as names, in a fixed order
  local p a i=0 x=0 o=0 out=
  mapfile -t a < "$1"
  for p in "${a[@]}"; do
    case $p in "$init") i=$((i + 1)) ;; "$execd") x=$((x + 1)) ;; *) o=$((o + 1)) ;; esac
  done
  for ((; x > 0; x--)); do out+=" EXEC"; done
  for ((; i > 0; i--)); do out+=" INIT"; done
  for ((; o > 0; o--)); do out+=" OTHER"; done
  echo ${out# }
}
r1() { local v; read -r v < "$1" 2>$E || { read -r v < $E; v=${v##*: }; }; echo "$v"; }
has() { local a p; mapfile -t a < "$1"; for p in "${a[@]}"; do [ "$p" = "$2" ] && return 0; done; return 1; }
wait_state() { # freezer state of $1 once it is $2 (libcontainer polls the same way)
  local s _
  for _ in {1..100}; do read -r s < "$1/freezer.state"; [ "$s" = "$2" ] && break; sleep 0.05; done
  echo "$s"
}

id=4c6f7265d1707375d3d0c6f72656d2069707375d3d0c6f72656d206970737500
p=docker/$id
# libcontainer's subsystem order; cpu and cpuacct, net_cls and net_prio
# resolve to the same co-mounted directory, and name=systemd is joined too.
subsys="cpuset devices memory cpu,cpuacct pids blkio hugetlb net_cls,net_prio perf_event freezer systemd"

echo "## docker info: what the daemon probes in each hierarchy's root"
for f in memory/memory.limit_in_bytes memory/memory.memsw.limit_in_bytes memory/memory.swappiness \
         memory/memory.oom_control memory/memory.kmem.limit_in_bytes memory/memory.soft_limit_in_bytes \
         cpu/cpu.shares cpu/cpu.cfs_period_us cpu/cpu.cfs_quota_us cpu/cpu.rt_period_us cpu/cpu.rt_runtime_us \
         blkio/blkio.weight blkio/blkio.bfq.weight blkio/blkio.weight_device blkio/blkio.throttle.read_bps_device \
         blkio/blkio.throttle.write_iops_device cpuset/cpuset.cpus cpuset/cpuset.mems pids/pids.max \
         pids/pids.current net_cls/net_cls.classid net_prio/net_prio.ifpriomap; do
  echo "$f: $(yn test -e $f)"
done
echo "root cpuset.cpus=$(r1 cpuset/cpuset.cpus) mems=$(r1 cpuset/cpuset.mems)"

echo "## Apply: cpuset first, its parent filled before the container's directory"
sleep 1000 & init=$!
execd=
# cpusetEnsureParent: mkdir the parent, copy cpus/mems into it when empty.
echo "mkdir cpuset/docker: $(try mkdir cpuset/docker)"
echo "empty parent: cpus=[$(rd cpuset/docker/cpuset.cpus)] mems=[$(rd cpuset/docker/cpuset.mems)]"
echo "join the empty parent: $(wr cpuset/docker/cgroup.procs $init)"
[ -n "$(r1 cpuset/docker/cpuset.cpus)" ] || echo "copy cpus: $(wr cpuset/docker/cpuset.cpus "$(r1 cpuset/cpuset.cpus)")"
[ -n "$(r1 cpuset/docker/cpuset.mems)" ] || echo "copy mems: $(wr cpuset/docker/cpuset.mems "$(r1 cpuset/cpuset.mems)")"
echo "mkdir cpuset/docker/ID: $(try mkdir cpuset/$p)"
[ -n "$(r1 cpuset/$p/cpuset.cpus)" ] || echo "copy cpus: $(wr cpuset/$p/cpuset.cpus "$(r1 cpuset/docker/cpuset.cpus)")"
[ -n "$(r1 cpuset/$p/cpuset.mems)" ] || echo "copy mems: $(wr cpuset/$p/cpuset.mems "$(r1 cpuset/docker/cpuset.mems)")"
echo "filled: parent cpus=$(rd cpuset/docker/cpuset.cpus) child cpus=$(rd cpuset/$p/cpuset.cpus) mems=$(rd cpuset/$p/cpuset.mems)"
echo "join cpuset: $(wr cpuset/$p/cgroup.procs $init)"
for h in $subsys; do
  [ $h = cpuset ] && continue
  # os.MkdirAll(path, 0755), then the pid into cgroup.procs
  echo "$h: mkdir -p $(try mkdir -p $h/$p) mode $(stat -c %a $h/$p) join $(wr $h/$p/cgroup.procs $init)"
done
echo "cpuacct joins the cpu directory again: $(wr cpuacct/$p/cgroup.procs $init)"
for h in $subsys; do echo "$h procs=[$(names $h/$p/cgroup.procs)] tasks=[$(names $h/$p/tasks)] root has it: $(yn has $h/cgroup.procs $init)"; done
echo "same group through the symlinks: cpu=[$(names cpu/$p/tasks)] net_prio=[$(names net_prio/$p/tasks)]"

echo "## Set: limits in libcontainer's order"
echo "cpuset.cpus 0: $(wr cpuset/$p/cpuset.cpus 0) -> $(rd cpuset/$p/cpuset.cpus)"
echo "cpuset.mems 0: $(wr cpuset/$p/cpuset.mems 0) -> $(rd cpuset/$p/cpuset.mems)"
echo "Cpus_allowed_list of INIT: $(awk '/Cpus_allowed_list/ {print $2}' /proc/$init/status)"
# devices: the emulator reads the list, then "a" is denied and each rule allowed
echo "devices.list before: $(rd devices/$p/devices.list)"
echo "deny a: $(wr devices/$p/devices.deny a) -> [$(rd devices/$p/devices.list)]"
for r in "c *:* m" "b *:* m" "c 1:3 rwm" "c 1:5 rwm" "c 1:7 rwm" "c 1:8 rwm" "c 1:9 rwm" \
         "c 5:0 rwm" "c 5:1 rwm" "c 5:2 rwm" "c 136:* rwm" "c 10:200 rwm" "c 10:229 rwm"; do
  printf '%s ' "allow '$r': $(wr devices/$p/devices.allow "$r")"
done
echo
echo "devices.list after: $(rd devices/$p/devices.list)"
# memory: no old limit below the new swap, so limit first, then memsw
echo "memory.limit_in_bytes now: $(r1 memory/$p/memory.limit_in_bytes)"
echo "limit 64M: $(wr memory/$p/memory.limit_in_bytes 67108864) -> $(r1 memory/$p/memory.limit_in_bytes)"
echo "memsw 128M: $(wr memory/$p/memory.memsw.limit_in_bytes 134217728) -> $(r1 memory/$p/memory.memsw.limit_in_bytes)"
echo "soft 32M: $(wr memory/$p/memory.soft_limit_in_bytes 33554432) -> $(r1 memory/$p/memory.soft_limit_in_bytes)"
echo "oom_control 1: $(wr memory/$p/memory.oom_control 1) -> $(rd memory/$p/memory.oom_control)"
echo "swappiness 10: $(wr memory/$p/memory.swappiness 10) -> $(r1 memory/$p/memory.swappiness)"
# cpu: shares read back and compared, then period, then quota
echo "cpu.shares 512: $(wr cpu,cpuacct/$p/cpu.shares 512) -> $(r1 cpu,cpuacct/$p/cpu.shares)"
echo "cpu.shares 1: $(wr cpu,cpuacct/$p/cpu.shares 1) -> $(r1 cpu,cpuacct/$p/cpu.shares) (runc: the minimum allowed)"
echo "cpu.shares 300000: $(wr cpu,cpuacct/$p/cpu.shares 300000) -> $(r1 cpu,cpuacct/$p/cpu.shares) (runc: the maximum allowed)"
echo 512 > cpu,cpuacct/$p/cpu.shares
echo "parent quota 50000: $(wr cpu,cpuacct/docker/cpu.cfs_quota_us 50000)"
echo "period 100000: $(wr cpu,cpuacct/$p/cpu.cfs_period_us 100000) quota 50000: $(wr cpu,cpuacct/$p/cpu.cfs_quota_us 50000)"
echo "cpu.rt_period_us present: $(yn test -e cpu,cpuacct/$p/cpu.rt_period_us) cpu.rt_runtime_us present: $(yn test -e cpu,cpuacct/$p/cpu.rt_runtime_us)"
echo "pids.max 100: $(wr pids/$p/pids.max 100) -> $(r1 pids/$p/pids.max)"
echo "blkio.weight present: $(yn test -e blkio/$p/blkio.weight) blkio.bfq.weight present: $(yn test -e blkio/$p/blkio.bfq.weight)"
echo "hugetlb.2MB.limit_in_bytes 4M: $(wr hugetlb/$p/hugetlb.2MB.limit_in_bytes 4194304) -> $(r1 hugetlb/$p/hugetlb.2MB.limit_in_bytes)"
echo "net_cls.classid 0x100001: $(wr net_cls/$p/net_cls.classid 0x100001) -> $(r1 net_cls/$p/net_cls.classid)"
echo "net_prio.ifpriomap 'lo 5': $(wr net_prio/$p/net_prio.ifpriomap 'lo 5') -> $(grep '^lo ' net_prio/$p/net_prio.ifpriomap)"

echo "## runc exec: a second process enters every path"
sleep 1000 & execd=$!
for h in $subsys; do printf '%s ' "$h:$(wr $h/$p/cgroup.procs $execd)"; done
echo
echo "devices procs=[$(names devices/$p/cgroup.procs)] pids.current=$(r1 pids/$p/pids.current)"
echo "a nested group inside the container: $(try mkdir memory/$p/inner) move EXEC: $(wr memory/$p/inner/cgroup.procs $execd)"
echo "memory procs=[$(names memory/$p/cgroup.procs)] inner=[$(names memory/$p/inner/cgroup.procs)]"

echo "## stats"
declare -A st
while read -r k v; do st[$k]=$v; done < memory/$p/memory.stat
for k in cache rss rss_huge shmem mapped_file dirty writeback swap pgpgin pgpgout pgfault pgmajfault \
         inactive_anon active_anon inactive_file active_file unevictable hierarchical_memory_limit \
         hierarchical_memsw_limit total_cache total_rss total_swap total_inactive_file total_active_anon; do
  printf '%s ' "$k:${st[$k]+yes}"
done
echo
echo "memory.stat keys: $(wc -l < memory/$p/memory.stat) lines; all numeric: $(yn awk 'NF != 2 || $2 !~ /^[0-9]+$/ {exit 1}' memory/$p/memory.stat)"
grep -E '^hierarchical_mem(ory|sw)_limit ' memory/$p/memory.stat | tr '\n' ' '; echo
for d in "" memsw. kmem. kmem.tcp.; do
  f=memory/$p/memory.${d}
  echo "memory.${d}usage/max_usage/failcnt/limit numeric: $(yn isnum ${f}usage_in_bytes) $(yn isnum ${f}max_usage_in_bytes) $(yn isnum ${f}failcnt) $(yn isnum ${f}limit_in_bytes) failcnt=$(r1 ${f}failcnt) max>=usage: $(yn test "$(r1 ${f}max_usage_in_bytes)" -ge "$(r1 ${f}usage_in_bytes)")"
done
echo "use_hierarchy=$(r1 memory/$p/memory.use_hierarchy) numa_stat keys: $(cut -d= -f1 memory/$p/memory.numa_stat | tr '\n' ' ')"
echo "cpuacct.usage numeric: $(yn isnum cpuacct/$p/cpuacct.usage) usage_percpu fields: $(wc -w < cpuacct/$p/cpuacct.usage_percpu) cpus online: $(getconf _NPROCESSORS_ONLN)"
echo "usage_percpu_user fields: $(wc -w < cpuacct/$p/cpuacct.usage_percpu_user) usage_percpu_sys fields: $(wc -w < cpuacct/$p/cpuacct.usage_percpu_sys)"
echo "cpuacct.stat keys: $(cut -d' ' -f1 cpuacct/$p/cpuacct.stat | tr '\n' ' ') usage_all: $(head -1 cpuacct/$p/cpuacct.usage_all) rows $(($(wc -l < cpuacct/$p/cpuacct.usage_all) - 1))"
echo "cpu.stat keys: $(cut -d' ' -f1 cpu/$p/cpu.stat | tr '\n' ' ')"
echo "pids.current=$(r1 pids/$p/pids.current) pids.max=$(r1 pids/$p/pids.max)"
for f in blkio.throttle.io_service_bytes_recursive blkio.throttle.io_serviced_recursive blkio.throttle.io_service_bytes \
         blkio.throttle.io_serviced blkio.io_service_bytes_recursive blkio.io_serviced_recursive blkio.io_queued_recursive \
         blkio.io_service_time_recursive blkio.io_wait_time_recursive blkio.io_merged_recursive blkio.time_recursive \
         blkio.sectors_recursive; do
  printf '%s ' "$f:$(yn test -e blkio/$p/$f)"
done
echo
echo "blkio.throttle.io_serviced_recursive: $(rd blkio/$p/blkio.throttle.io_serviced_recursive)"
echo "hugetlb 2MB usage/max_usage/failcnt: $(r1 hugetlb/$p/hugetlb.2MB.usage_in_bytes) $(r1 hugetlb/$p/hugetlb.2MB.max_usage_in_bytes) $(r1 hugetlb/$p/hugetlb.2MB.failcnt)"

echo "## runc pause / resume"
echo "FROZEN: $(wr freezer/$p/freezer.state FROZEN) -> $(wait_state freezer/$p FROZEN) self_freezing=$(r1 freezer/$p/freezer.self_freezing)"
echo "runc ps while paused: [$(names devices/$p/cgroup.procs)]"
echo "THAWED: $(wr freezer/$p/freezer.state THAWED) -> $(wait_state freezer/$p THAWED) self_freezing=$(r1 freezer/$p/freezer.self_freezing)"

echo "## runc update"
echo "cpu.shares 1024: $(wr cpu/$p/cpu.shares 1024) -> $(r1 cpu/$p/cpu.shares)"
# a smaller period first is refused against the parent's bandwidth: libcontainer
# then writes the quota and retries the period
echo "period 50000 first: $(wr cpu/$p/cpu.cfs_period_us 50000) -> $(r1 cpu/$p/cpu.cfs_period_us)"
echo "quota 25000: $(wr cpu/$p/cpu.cfs_quota_us 25000) -> $(r1 cpu/$p/cpu.cfs_quota_us)"
echo "period 50000 again: $(wr cpu/$p/cpu.cfs_period_us 50000) -> $(r1 cpu/$p/cpu.cfs_period_us)"
echo "naive order, limit 256M before memsw: $(wr memory/$p/memory.limit_in_bytes 268435456) -> $(r1 memory/$p/memory.limit_in_bytes)"
echo "raise memsw first 512M: $(wr memory/$p/memory.memsw.limit_in_bytes 536870912) then limit 256M: $(wr memory/$p/memory.limit_in_bytes 268435456)"
echo "  -> limit=$(r1 memory/$p/memory.limit_in_bytes) memsw=$(r1 memory/$p/memory.memsw.limit_in_bytes)"
echo "naive order, memsw 64M before limit: $(wr memory/$p/memory.memsw.limit_in_bytes 67108864) -> $(r1 memory/$p/memory.memsw.limit_in_bytes)"
echo "lower limit first 32M: $(wr memory/$p/memory.limit_in_bytes 33554432) then memsw 64M: $(wr memory/$p/memory.memsw.limit_in_bytes 67108864)"
echo "  -> limit=$(r1 memory/$p/memory.limit_in_bytes) memsw=$(r1 memory/$p/memory.memsw.limit_in_bytes)"
echo "unlimited, memsw -1 first: $(wr memory/$p/memory.memsw.limit_in_bytes -1) then limit -1: $(wr memory/$p/memory.limit_in_bytes -1)"
echo "  -> limit=$(r1 memory/$p/memory.limit_in_bytes) memsw=$(r1 memory/$p/memory.memsw.limit_in_bytes)"
grep -E '^hierarchical_mem(ory|sw)_limit ' memory/$p/memory.stat | tr '\n' ' '; echo
echo "pids.max max: $(wr pids/$p/pids.max max) -> $(r1 pids/$p/pids.max)"
# devices are updated inside a freeze, so that no process sees the transient deny-all
echo "freeze for devices: $(wr freezer/$p/freezer.state FROZEN) -> $(wait_state freezer/$p FROZEN)"
echo "deny a: $(wr devices/$p/devices.deny a) allow 'c 1:3 rwm': $(wr devices/$p/devices.allow 'c 1:3 rwm') allow 'c 1:5 rw': $(wr devices/$p/devices.allow 'c 1:5 rw')"
echo "thaw: $(wr freezer/$p/freezer.state THAWED) -> $(wait_state freezer/$p THAWED) devices.list: $(rd devices/$p/devices.list)"

echo "## runc kill --all and delete"
echo "rmdir with processes: memory $(try rmdir memory/$p/inner) $(try rmdir memory/$p) pids $(try rmdir pids/$p) parent $(try rmdir cpuset/docker)"
echo "freeze: $(wr freezer/$p/freezer.state FROZEN) -> $(wait_state freezer/$p FROZEN)"
all=$(cat $(find devices/$p -name cgroup.procs) | sort -n | tr '\n' ' ')   # GetAllPids walks the subtree
echo "all pids: $(for x in $all; do case $x in $init) echo INIT ;; $execd) echo EXEC ;; *) echo OTHER ;; esac; done | sort | tr '\n' ' ')"
{ # bash reports the killed jobs, with their pids, on stderr
  kill -9 $all
  echo "thaw: $(wr freezer/$p/freezer.state THAWED)"
  wait $init $execd
} 2>/dev/null
for _ in $(seq 50); do [ -s memory/$p/inner/tasks ] || [ -s memory/$p/tasks ] || break; sleep 0.1; done
echo "after kill: pids.current=$(r1 pids/$p/pids.current) memory tasks=[$(names memory/$p/tasks)] inner=[$(names memory/$p/inner/tasks)]"
echo "rmdir a group with a child: $(try rmdir memory/$p)"
for h in $subsys; do
  # RemovePath: subdirectories first, then the path itself
  r=$(for d in $(find $h/$p -mindepth 1 -depth -type d); do try rmdir $d; done)
  echo "rmdir $h/ID: ${r:+children $r, }$(try rmdir $h/$p) exists: $(yn test -e $h/$p)"
done
echo "again: $(try rmdir memory/$p)"
for h in $subsys; do printf '%s ' "$h/docker:$(try rmdir $h/docker)"; done
echo
