# Differential: a node as kubelet's cgroupfs driver lays it out on v1 and as
# cAdvisor reads it. kubepods (node allocatable), the QoS levels burstable
# and besteffort (cpu.shares 2, qos-reserved memory limits, hugetlb
# unbounded), pod<uid> groups with their shares, CFS quota, pids and hugetlb
# limits (0 for the sizes a pod does not ask for), containers below them
# with a process in every hierarchy; then the files cAdvisor parses for its
# specs and stats, by format (keys, field counts, line shapes with numbers
# masked), its inotify watch for new containers, and the pod's removal.
# Never a usage value, pid or time.
cd /sys/fs/cgroup || exit 1
E=/tmp/kubelet-cadvisor.err
. "${0%/*}/view.bash"   # try
wr() { local e; if { echo "$2" > "$1"; } 2>$E; then echo ok; else read -r e < $E; echo "${e##*: }"; fi; }
r1() { local v; read -r v 2>$E < "$1" || { read -r v < $E; v=${v##*: }; }; echo "$v"; }
yn() { if "$@"; then echo yes; else echo no; fi; }
isnum() { local v; read -r v < "$1" && [[ $v =~ ^[0-9]+$ ]]; }
mask() { sed 's/[0-9]\+/N/g' "$1" | tr '\n' '|'; }
keys() { cut -d' ' -f1 "$1" | tr '\n' ' '; }
count() { local a; mapfile -t a < "$1"; echo ${#a[@]}; }
# libcontainer's subsystems that kubelet's Exists() and Apply() walk
hs="cpuset cpu,cpuacct blkio memory devices freezer hugetlb pids systemd"
sizes=$(ls hugetlb | sed -n 's/^hugetlb\.\([^.]*\)\.limit_in_bytes$/\1/p' | tr '\n' ' ')
bu=kubepods/burstable
be=kubepods/besteffort
pod=$bu/pod8b3c5f2e-1f0a-4c1e-9d6b-2a7f0e5c9b11
gpod=kubepods/pod0c5e6b1a-7d2f-4b8e-a3c9-5f1d2e4b6a70
sandbox=$pod/5d0c7b13a8e4f2916c3b7a0d9e8f1c2b4a6d5e3f7c9b1a0e2d4f6a8c0b2e4d6f
ctr=$pod/9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0

echo "## kubelet start: what it checks"
echo "hugetlb sizes: $sizes"
for f in cpu/cpu.cfs_period_us cpu/cpu.cfs_quota_us cpu/cpu.shares memory/memory.limit_in_bytes \
         memory/memory.memsw.limit_in_bytes pids/pids.max cpuset/cpuset.cpus cpuacct/cpuacct.usage; do
  printf '%s ' "$f:$(yn test -e $f)"
done
echo

echo "## kubepods and the QoS levels"
for g in kubepods $bu $be; do
  r=
  for h in $hs; do r+="$h:$(try mkdir $h/$g) "; done
  echo "$g: $r"
  # libcontainer's cpuset Apply fills an empty group from its parent
  p=$(dirname cpuset/$g)
  [ -n "$(r1 cpuset/$g/cpuset.cpus)" ] || echo "  cpuset cpus: $(wr cpuset/$g/cpuset.cpus "$(r1 $p/cpuset.cpus)") mems: $(wr cpuset/$g/cpuset.mems "$(r1 $p/cpuset.mems)")"
done
# node allocatable: 2 CPUs, 768Mi, 4096 pids, no huge pages
echo "kubepods cpu.shares 2048: $(wr cpu/kubepods/cpu.shares 2048) -> $(r1 cpu/kubepods/cpu.shares)"
echo "kubepods memory 805306368: $(wr memory/kubepods/memory.limit_in_bytes 805306368) -> $(r1 memory/kubepods/memory.limit_in_bytes)"
echo "kubepods pids.max 4096: $(wr pids/kubepods/pids.max 4096) -> $(r1 pids/kubepods/pids.max)"
for s in $sizes; do printf '%s ' "kubepods hugetlb $s 0: $(wr hugetlb/kubepods/hugetlb.$s.limit_in_bytes 0) -> $(r1 hugetlb/kubepods/hugetlb.$s.limit_in_bytes)"; done
echo
echo "besteffort cpu.shares 2: $(wr cpu/$be/cpu.shares 2) -> $(r1 cpu/$be/cpu.shares)"
echo "burstable cpu.shares 1126: $(wr cpu/$bu/cpu.shares 1126) -> $(r1 cpu/$bu/cpu.shares)"
# setHugePagesUnbounded: MaxInt64 for every size
for g in $bu $be; do
  for s in $sizes; do printf '%s ' "$g hugetlb $s MaxInt64: $(wr hugetlb/$g/hugetlb.$s.limit_in_bytes 9223372036854775807) -> $(r1 hugetlb/$g/hugetlb.$s.limit_in_bytes)"; done
  echo
done
# qos-reserved=memory=100%: allocatable less the requests of the higher classes
echo "burstable memory 671088640: $(wr memory/$bu/memory.limit_in_bytes 671088640) -> $(r1 memory/$bu/memory.limit_in_bytes)"
echo "besteffort memory 536870912: $(wr memory/$be/memory.limit_in_bytes 536870912) -> $(r1 memory/$be/memory.limit_in_bytes)"
echo "besteffort memory above kubepods: $(wr memory/$be/memory.limit_in_bytes 1073741824) -> $(r1 memory/$be/memory.limit_in_bytes)"
echo "kubepods below besteffort's: $(wr memory/kubepods/memory.limit_in_bytes 268435456) -> $(r1 memory/kubepods/memory.limit_in_bytes)"
echo 805306368 > memory/kubepods/memory.limit_in_bytes
echo 536870912 > memory/$be/memory.limit_in_bytes

echo "## pods: burstable (requests 100m/128Mi, limits 500m/256Mi) and guaranteed (1 CPU, 128Mi)"
for g in $pod $gpod; do
  r=
  for h in $hs; do r+="$h:$(try mkdir $h/$g) "; done
  echo "${g##*/}: $r"
  p=$(dirname cpuset/$g)
  [ -n "$(r1 cpuset/$g/cpuset.cpus)" ] || echo "  cpuset cpus: $(wr cpuset/$g/cpuset.cpus "$(r1 $p/cpuset.cpus)") mems: $(wr cpuset/$g/cpuset.mems "$(r1 $p/cpuset.mems)")"
done
set_pod() { # GROUP SHARES QUOTA MEMORY PIDS
  local g=$1 s
  echo "${1##*/}: shares $2 $(wr cpu/$g/cpu.shares $2) period $(wr cpu/$g/cpu.cfs_period_us 100000) quota $3 $(wr cpu/$g/cpu.cfs_quota_us $3)" \
       "memory $4 $(wr memory/$g/memory.limit_in_bytes $4) pids $5 $(wr pids/$g/pids.max $5)"
  for s in $sizes; do printf '%s ' "hugetlb $s 0: $(wr hugetlb/$g/hugetlb.$s.limit_in_bytes 0)"; done
  echo
  echo "  -> $(r1 cpu/$g/cpu.shares) $(r1 cpu/$g/cpu.cfs_period_us) $(r1 cpu/$g/cpu.cfs_quota_us) $(r1 memory/$g/memory.limit_in_bytes) $(r1 pids/$g/pids.max)"
}
set_pod $pod 102 50000 268435456 1024
set_pod $gpod 1024 100000 134217728 max
echo "pids.max -1: $(wr pids/$gpod/pids.max -1) 0: $(wr pids/$gpod/pids.max 0) -> $(r1 pids/$gpod/pids.max)"
echo max > pids/$gpod/pids.max
# a quota on the QoS level (in-place resize): the children must fit in it
echo "burstable quota 60000: $(wr cpu/$bu/cpu.cfs_quota_us 60000) pod 70000: $(wr cpu/$pod/cpu.cfs_quota_us 70000) burstable 40000: $(wr cpu/$bu/cpu.cfs_quota_us 40000)" \
     "-> $(r1 cpu/$bu/cpu.cfs_quota_us) $(r1 cpu/$pod/cpu.cfs_quota_us) unlimited pod: $(wr cpu/$pod/cpu.cfs_quota_us -1) -> $(r1 cpu/$pod/cpu.cfs_quota_us)"
echo "back: $(wr cpu/$pod/cpu.cfs_quota_us 50000) $(wr cpu/$bu/cpu.cfs_quota_us -1)"
echo "quota 999: $(wr cpu/$pod/cpu.cfs_quota_us 999) period 999: $(wr cpu/$pod/cpu.cfs_period_us 999) -> $(r1 cpu/$pod/cpu.cfs_quota_us) $(r1 cpu/$pod/cpu.cfs_period_us)"
echo 50000 > cpu/$pod/cpu.cfs_quota_us

echo "## containers (runc under the pod), a process in every hierarchy"
sleep 1000 & pause=$!
sleep 1000 & app=$!
for c in $sandbox $ctr; do
  r=
  for h in $hs; do r+="$h:$(try mkdir $h/$c) "; done
  echo "${c##*/}: $r"
  [ -n "$(r1 cpuset/$c/cpuset.cpus)" ] || echo "  cpuset: $(wr cpuset/$c/cpuset.cpus "$(r1 cpuset/$pod/cpuset.cpus)") $(wr cpuset/$c/cpuset.mems "$(r1 cpuset/$pod/cpuset.mems)")"
done
echo "container limits: shares $(wr cpu/$ctr/cpu.shares 102) quota $(wr cpu/$ctr/cpu.cfs_quota_us 50000) memory $(wr memory/$ctr/memory.limit_in_bytes 268435456) memsw $(wr memory/$ctr/memory.memsw.limit_in_bytes 268435456)"
for h in $hs; do printf '%s ' "$h:$(wr $h/$sandbox/cgroup.procs $pause)$(wr $h/$ctr/cgroup.procs $app)"; done
echo

# CPU manager, static policy: an exclusive CPU for the container, the pod keeps both
echo "container cpuset.cpus 1: $(wr cpuset/$ctr/cpuset.cpus 1) -> $(r1 cpuset/$ctr/cpuset.cpus) Cpus_allowed_list: $(awk '/Cpus_allowed_list/ {print $2}' /proc/$app/status)"
echo "pod cpuset.cpus 0 under it: $(wr cpuset/$pod/cpuset.cpus 0) -> $(r1 cpuset/$pod/cpuset.cpus) sandbox 0: $(wr cpuset/$sandbox/cpuset.cpus 0) -> $(r1 cpuset/$sandbox/cpuset.cpus)"
echo "effective: pod $(r1 cpuset/$pod/cpuset.effective_cpus) container $(r1 cpuset/$ctr/cpuset.effective_cpus)"

echo "## cAdvisor: the container spec"
for g in kubepods $bu $be $pod $ctr; do
  echo "${g##*/}: shares=$(r1 cpu/$g/cpu.shares) period=$(r1 cpu/$g/cpu.cfs_period_us) quota=$(r1 cpu/$g/cpu.cfs_quota_us)" \
       "limit=$(r1 memory/$g/memory.limit_in_bytes) memsw=$(r1 memory/$g/memory.memsw.limit_in_bytes) soft=$(r1 memory/$g/memory.soft_limit_in_bytes)" \
       "cpus=$(r1 cpuset/$g/cpuset.cpus) mems=$(r1 cpuset/$g/cpuset.mems) pids.max=$(r1 pids/$g/pids.max) procs=$(count cpu/$g/cgroup.procs) tasks=$(count pids/$g/tasks)"
done

echo "## cAdvisor: the stats, by format"
for g in kubepods $bu $pod $ctr; do
  echo "# ${g##*/}"
  a=cpuacct/$g/cpuacct
  echo "cpuacct.usage numeric: $(yn isnum $a.usage) usage_percpu fields: $(wc -w < $a.usage_percpu) stat: $(mask $a.stat)"
  echo "usage_all: $(head -n1 $a.usage_all) rows $(($(count $a.usage_all) - 1)) shape: $(sed -n 2p $a.usage_all | sed 's/[0-9]\+/N/g')"
  echo "cpu.stat keys: $(keys cpu/$g/cpu.stat)all numeric: $(yn awk 'NF != 2 || $2 !~ /^[0-9]+$/ {exit 1}' cpu/$g/cpu.stat)"
  echo "memory.stat keys: $(keys memory/$g/memory.stat)"
  echo "memory.stat all numeric: $(yn awk 'NF != 2 || $2 !~ /^[0-9]+$/ {exit 1}' memory/$g/memory.stat)"
  for d in "" memsw. kmem. kmem.tcp.; do
    m=memory/$g/memory.$d
    printf '%s ' "${d:-memory.}usage/limit/max_usage/failcnt numeric: $(yn isnum ${m}usage_in_bytes)$(yn isnum ${m}limit_in_bytes)$(yn isnum ${m}max_usage_in_bytes)$(yn isnum ${m}failcnt)"
  done
  echo
  echo "use_hierarchy=$(r1 memory/$g/memory.use_hierarchy) numa_stat: $(mask memory/$g/memory.numa_stat)"
  echo "pids.current=$(r1 pids/$g/pids.current) pids.max=$(r1 pids/$g/pids.max)"
  for f in io_service_bytes_recursive io_serviced_recursive throttle.io_service_bytes_recursive throttle.io_serviced_recursive \
           throttle.io_service_bytes throttle.io_serviced bfq.io_service_bytes_recursive; do
    if [ -e blkio/$g/blkio.$f ]; then echo "blkio.$f: $(mask blkio/$g/blkio.$f)"; else echo "blkio.$f: absent"; fi
  done
  for s in $sizes; do
    h=hugetlb/$g/hugetlb.$s
    printf '%s ' "$s usage=$(r1 $h.usage_in_bytes) max_usage=$(r1 $h.max_usage_in_bytes) failcnt=$(r1 $h.failcnt) limit=$(r1 $h.limit_in_bytes)"
  done
  echo
  echo "freezer.state=$(r1 freezer/$g/freezer.state) devices.list=$(r1 devices/$g/devices.list)"
done

echo "## cAdvisor: inotify on the QoS groups finds a new pod"
/usr/bin/python3 - memory/$bu cpu,cpuacct/$bu pids/$bu <<'EOF'
import ctypes, os, select, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(os.O_NONBLOCK)
IN_CREATE, IN_DELETE, IN_ISDIR = 0x100, 0x200, 0x40000000
wds = {}
for d in sys.argv[1:]:
    wd = libc.inotify_add_watch(fd, d.encode(), IN_CREATE | IN_DELETE)
    print("watch", d, "ok" if wd >= 0 else os.strerror(ctypes.get_errno()))
    wds[wd] = d
for d in sys.argv[1:]:
    os.mkdir(d + "/pod-new")
for d in sys.argv[1:]:
    os.rmdir(d + "/pod-new")
events = []
while select.select([fd], [], [], 1.0)[0]:
    buf = os.read(fd, 65536)
    i = 0
    while i < len(buf):
        wd, mask, _, n = struct.unpack_from("iIII", buf, i)
        name = buf[i + 16:i + 16 + n].rstrip(b"\0").decode()
        kind = ("create" if mask & IN_CREATE else "delete" if mask & IN_DELETE else hex(mask))
        events.append("%s %s %s%s" % (wds.get(wd, "?"), kind, name, " dir" if mask & IN_ISDIR else ""))
        i += 16 + n
print("events:", *events, sep="\n  ")
EOF

echo "## pod removal (kubelet: kill what cgroup.procs lists in the subtree, then rmdir)"
echo "rmdir with processes: $(try rmdir memory/$ctr) with children: $(try rmdir cpu/$pod)"
all=$(cat $(find memory/$pod -name cgroup.procs) | wc -l)
echo "processes under the pod: $all"
{ kill -9 $pause $app; wait $pause $app; } 2>/dev/null
for _ in {1..50}; do [ -s memory/$ctr/tasks ] || [ -s memory/$sandbox/tasks ] || break; sleep 0.1; done
echo "after the kill: pids.current=$(r1 pids/$pod/pids.current) memory tasks=$(count memory/$ctr/tasks)"
for h in $hs; do
  r=$(for d in $(find $h/$pod -mindepth 1 -depth -type d); do try rmdir $d; done | tr '\n' ' ')
  printf '%s ' "$h: ${r}$(try rmdir $h/$pod)"
done
echo
for g in $gpod $be $bu kubepods; do
  r=
  for h in $hs; do r+="$(try rmdir $h/$g) "; done
  echo "rmdir $g: $r"
done
