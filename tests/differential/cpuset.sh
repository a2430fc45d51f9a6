# Differential: cpuset lists, flags and the v1 rules scripts depend on:
# empty cpusets refuse tasks, clone_children, parent/child containment.
cd /sys/fs/cgroup || exit 1
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi; }
w() { echo "write $2 '$1': $(try bash -c "echo '$1' > cpuset/$2") -> $(cat cpuset/$2 | tr '\n' '|')"; }

mkdir -p cpuset/a
echo "## files of a child"
for f in $(ls cpuset/a | grep '^cpuset\.'); do echo "$f $(stat -c %a cpuset/a/$f) $(cat cpuset/a/$f | tr '\n' '|')"; done
echo "root cpus=$(cat cpuset/cpuset.cpus) mems=$(cat cpuset/cpuset.mems) excl=$(cat cpuset/cpuset.cpu_exclusive)"

echo "## list parsing"
for v in 0 1 0-1 0,1 " 0 " 1-0 0-1:1/2 N abc 2 64 99999999999 "0,,1" "0-" ""; do w "$v" a/cpuset.cpus; done
for v in 0 1 0-0 abc 1024 ""; do w "$v" a/cpuset.mems; done
w 0 cpuset.cpus
w 0 cpuset.mems

echo "## empty cpuset refuses tasks"
sleep 1000 & s=$!
echo "attach to empty: $(try bash -c "echo $s > cpuset/a/tasks")"
echo 0 > cpuset/a/cpuset.cpus
echo "cpus only: $(try bash -c "echo $s > cpuset/a/tasks")"
echo 0 > cpuset/a/cpuset.mems
echo "both: $(try bash -c "echo $s > cpuset/a/tasks") tasks=$(cat cpuset/a/tasks | wc -l)"
echo "empty a populated cpuset: $(try bash -c "echo > cpuset/a/cpuset.cpus") -> $(cat cpuset/a/cpuset.cpus)"
grep Cpus_allowed_list /proc/$s/status
echo $s > cpuset/tasks
kill $s; wait $s 2>/dev/null

echo "## containment"
mkdir cpuset/a/b
echo "child beyond parent: $(try bash -c "echo 1 > cpuset/a/b/cpuset.cpus")"
echo "child within parent: $(try bash -c "echo 0 > cpuset/a/b/cpuset.cpus")"
echo "parent drops child's cpu: $(try bash -c "echo 1 > cpuset/a/cpuset.cpus")"

echo "## flags"
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab sched_load_balance; do
  for v in 1 0 7 -1 x; do echo "$f '$v': $(try bash -c "echo '$v' > cpuset/a/cpuset.$f") -> $(cat cpuset/a/cpuset.$f)"; done
done
# The bound comes from the CPU topology (sched_domain_level_max).
for v in -1 0 1 2 3 4 5 6 -2 x; do w "$v" a/cpuset.sched_relax_domain_level; done
w 1 cpuset.memory_pressure_enabled
w 0 cpuset.memory_pressure_enabled
echo "b exclusive under non-exclusive a: $(try bash -c "echo 1 > cpuset/a/b/cpuset.cpu_exclusive")"
echo "## which flags a new child copies"
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab sched_load_balance; do
  echo 1 > cpuset/a/cpuset.$f 2>/dev/null
done
mkdir cpuset/a/inh
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab sched_load_balance sched_relax_domain_level; do
  echo "a/inh cpuset.$f: $(cat cpuset/a/inh/cpuset.$f)"
done
rmdir cpuset/a/inh
for f in cpu_exclusive mem_exclusive mem_hardwall memory_migrate memory_spread_page memory_spread_slab; do
  echo 0 > cpuset/a/cpuset.$f 2>/dev/null
done

echo "## clone_children"
echo 1 > cpuset/cgroup.clone_children
mkdir cpuset/cl
echo "cloned: cpus=$(cat cpuset/cl/cpuset.cpus) mems=$(cat cpuset/cl/cpuset.mems) cc=$(cat cpuset/cl/cgroup.clone_children)"
echo 0 > cpuset/cgroup.clone_children
mkdir cpuset/a/nc
echo "not cloned: cpus=[$(cat cpuset/a/nc/cpuset.cpus)]"
rmdir cpuset/a/nc cpuset/a/b cpuset/a cpuset/cl
