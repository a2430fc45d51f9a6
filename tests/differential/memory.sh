# Differential: the memory files of a child group (names, modes, defaults),
# the kernel's reference probes of limits, memsw against the limit, the v1-only
# knobs, counters reset by any write, and what the root refuses.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, show_head_errno
w() { echo "write $1 '$2': $(try put "memory/$1" "$2") -> $(show_head_errno "memory/$1")"; }

mkdir memory/m
echo "## files"
files=$(ls memory/m | grep -E '^(memory\.|cgroup\.event_control)')
mapfile -t modes < <(cd memory/m && stat -c %a $files)   # one stat for all
i=0
for f in $files; do
  case $f in
    memory.stat|memory.numa_stat|memory.kmem.slabinfo) echo "$f: ${modes[i++]}" ;;
    *) echo "$f: ${modes[i++]} $(show_head_errno memory/m/$f)" ;;
  esac
done
echo "stat keys: $(cut -d' ' -f1 memory/m/memory.stat | tr '\n' ' ')"
echo "## limit_in_bytes"
for v in 100M 100m 1G 4096 4097 1 -1 0 abc 9223372036854775807 18446744073709551615 "  200M" 1k "" 100MB -2 0x1000; do w m/memory.limit_in_bytes "$v"; done
echo "## soft limit and memsw"
for v in 50M -1; do w m/memory.soft_limit_in_bytes "$v"; done
echo 200M > memory/m/memory.limit_in_bytes
for v in 100M 300M 50M -1; do w m/memory.memsw.limit_in_bytes "$v"; done
echo 300M > memory/m/memory.memsw.limit_in_bytes
for v in 400M 250M -1; do w m/memory.limit_in_bytes "$v"; done
echo "hierarchical limits: $(grep hierarchical memory/m/memory.stat | tr '\n' ' ')"
echo "## v1-only knobs"
for v in 60 0 100 101 200 201 -1; do w m/memory.swappiness "$v"; done
for v in 1 0 2; do w m/memory.oom_control "$v"; done
for v in 1 0; do w m/memory.use_hierarchy "$v"; done
for v in 0 1 3 4 abc; do w m/memory.move_charge_at_immigrate "$v"; done
for v in 4096 abc; do w m/memory.kmem.limit_in_bytes "$v"; done
for v in 4096 1 abc; do w m/memory.kmem.tcp.limit_in_bytes "$v"; done
echo "## counters reset by any write, and force_empty"
for f in memory.failcnt memory.max_usage_in_bytes memory.memsw.failcnt memory.memsw.max_usage_in_bytes memory.kmem.failcnt memory.kmem.max_usage_in_bytes memory.kmem.tcp.failcnt memory.kmem.tcp.max_usage_in_bytes; do w m/$f abc; done
w m/memory.force_empty 1
w m/memory.usage_in_bytes 0
echo "## the root"
for f in memory.limit_in_bytes memory.memsw.limit_in_bytes memory.oom_control memory.force_empty memory.use_hierarchy memory.swappiness; do w $f 1; done
echo 60 > memory/memory.swappiness
rmdir memory/m
rm -f "$view_err"
