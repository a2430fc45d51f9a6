# Differential: cpuset lists, flags and the v1 rules scripts depend on:
# empty cpusets refuse tasks, clone_children, parent/child containment.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, bar
w() { echo "write $2 '$1': $(try put "cpuset/$2" "$1") -> $(bar "cpuset/$2")"; }

mkdir -p cpuset/a
echo "## files of a child"
files=$(ls cpuset/a | grep '^cpuset\.')
mapfile -t modes < <(cd cpuset/a && stat -c %a $files)   # one stat for all
i=0
for f in $files; do echo "$f ${modes[i++]} $(bar cpuset/a/$f)"; done
echo "root cpus=$(<cpuset/cpuset.cpus) mems=$(<cpuset/cpuset.mems) excl=$(<cpuset/cpuset.cpu_exclusive)"

echo "## list parsing"
for v in 0 1 0-1 0,1 " 0 " 1-0 0-1:1/2 N abc 2 64 99999999999 "0,,1" "0-" ""; do w "$v" a/cpuset.cpus; done
for v in 0 1 0-0 abc 1024 ""; do w "$v" a/cpuset.mems; done
w 0 cpuset.cpus
w 0 cpuset.mems

echo "## empty cpuset refuses tasks"
sleep 1000 & s=$!
echo "attach to empty: $(try put cpuset/a/tasks $s)"
echo 0 > cpuset/a/cpuset.cpus
echo "cpus only: $(try put cpuset/a/tasks $s)"
echo 0 > cpuset/a/cpuset.mems
echo "both: $(try put cpuset/a/tasks $s) tasks=$(IFS= read -r -d '' t <cpuset/a/tasks; t=${t//[!$'\n']/}; echo ${#t})"
echo "empty a populated cpuset: $(try put cpuset/a/cpuset.cpus '') -> $(<cpuset/a/cpuset.cpus)"
grep Cpus_allowed_list /proc/$s/status
echo $s > cpuset/tasks
kill $s; wait $s 2>/dev/null

echo "## containment"
mkdir cpuset/a/b
echo "child beyond parent: $(try put cpuset/a/b/cpuset.cpus 1)"
echo "child within parent: $(try put cpuset/a/b/cpuset.cpus 0)"
echo "parent drops child's cpu: $(try put cpuset/a/cpuset.cpus 1)"

echo "## flags"
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab sched_load_balance; do
  for v in 1 0 7 -1 x; do echo "$f '$v': $(try put cpuset/a/cpuset.$f "$v") -> $(<cpuset/a/cpuset.$f)"; done
done
# The bound comes from the CPU topology (sched_domain_level_max).
for v in -1 0 1 2 3 4 5 6 -2 x; do w "$v" a/cpuset.sched_relax_domain_level; done
w 1 cpuset.memory_pressure_enabled
w 0 cpuset.memory_pressure_enabled
echo "b exclusive under non-exclusive a: $(try put cpuset/a/b/cpuset.cpu_exclusive 1)"
echo "## which flags a new child copies"
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab sched_load_balance; do
  echo 1 > cpuset/a/cpuset.$f 2>/dev/null
done
mkdir cpuset/a/inh
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab sched_load_balance sched_relax_domain_level; do
  echo "a/inh cpuset.$f: $(<cpuset/a/inh/cpuset.$f)"
done
rmdir cpuset/a/inh
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab; do
  echo 0 > cpuset/a/cpuset.$f 2>/dev/null
done

echo "## clone_children"
echo 1 > cpuset/cgroup.clone_children
mkdir cpuset/cl
echo "cloned: cpus=$(<cpuset/cl/cpuset.cpus) mems=$(<cpuset/cl/cpuset.mems) cc=$(<cpuset/cl/cgroup.clone_children)"
echo 0 > cpuset/cgroup.clone_children
mkdir cpuset/a/nc
echo "not cloned: cpus=[$(<cpuset/a/nc/cpuset.cpus)]"
rmdir cpuset/a/nc cpuset/a/b cpuset/a cpuset/cl
