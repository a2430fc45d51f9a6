# Differential: one Slurm job on a node as the v1 cgroup plugins drive it
# (task/cgroup, proctrack/cgroup, jobacct_gather/cgroup): the tree
# slurm/uid_U/job_J/step_S/task_T in cpuset, memory, devices, freezer and
# cpuacct; cpuset.cpus and cpuset.mems copied down before each mkdir below
# (a new cpuset starts empty; Slurm before 21.08 first tried the
# "noprefix" name); the memory limits of ConstrainRAMSpace,
# ConstrainSwapSpace and ConstrainKmemSpace;
# notify_on_release; the devices of a step; the tasks joining every
# hierarchy; suspend and resume through the freezer; the accounting reads;
# the step's kill through a freeze; the teardown bottom-up, with the rmdirs
# that are refused while tasks or children remain. Only errnos, read-backs,
# counts and yes/no are printed, never a usage value.
cd /sys/fs/cgroup || exit 1
E=/tmp/slurm-task-cgroup.err
. "${0%/*}/view.bash"   # try
# Builtins only where possible: under TCG every exec counts.
wr() { local e; if { echo "$2" > "$1"; } 2>$E; then echo ok; else read -r e < $E; echo "${e##*: }"; fi; }
r1() { local v; read -r v 2>$E < "$1" || { read -r v < $E; v=${v##*: }; }; echo "$v"; }
rd() { local a; mapfile -t a 2>$E < "$1" || { read -r a < $E; echo "${a##*: }"; return; }; ((${#a[@]} == 0)) || printf '%s|' "${a[@]}"; }
yn() { if "$@"; then echo yes; else echo no; fi; }
isnum() { local v; read -r v < "$1" && [[ $v =~ ^[0-9]+$ ]]; }
declare -A who
names() {   # the pids in file $1 by the names in who[], sorted
  local p a out=()
  mapfile -t a < "$1"
  for p in "${a[@]}"; do out+=("${who[$p]:-OTHER}"); done
  ((${#out[@]})) && printf '%s\n' "${out[@]}" | sort | tr '\n' ' '
}
wait_state() { # freezer state of $1 once it is $2 (proctrack polls the same way)
  local s _
  for _ in {1..100}; do read -r s < "$1/freezer.state"; [ "$s" = "$2" ] && break; sleep 0.05; done
  echo "$s"
}
ctls="cpuset memory devices freezer cpuacct"
user=slurm/uid_1000
job=$user/job_42
step=$job/step_0
ext=$job/step_extern

echo "## slurmd: the namespaces it needs"
for c in $ctls; do printf '%s ' "$c:$(yn test -d $c) tasks readable:$(yn test -r $c/tasks)"; done
echo
# Slurm before 21.08 read "cpus" (a noprefix mount) before "cpuset.cpus"
echo "noprefix cpus: $(r1 cpuset/cpus) cpuset.cpus: $(r1 cpuset/cpuset.cpus) cpuset.mems: $(r1 cpuset/cpuset.mems)"
echo "memory.kmem.limit_in_bytes present: $(yn test -e memory/memory.kmem.limit_in_bytes) memsw present: $(yn test -e memory/memory.memsw.limit_in_bytes)"

echo "## the slurm root cgroups"
for c in $ctls; do printf '%s ' "$c:$(try mkdir $c/slurm) $(stat -c %a $c/slurm)"; done
echo
echo "cpuset/slurm empty: cpus=[$(r1 cpuset/slurm/cpuset.cpus)] mems=[$(r1 cpuset/slurm/cpuset.mems)]"
echo "copy cpus: $(wr cpuset/slurm/cpuset.cpus "$(r1 cpuset/cpuset.cpus)") mems: $(wr cpuset/slurm/cpuset.mems "$(r1 cpuset/cpuset.mems)")"
echo "use_hierarchy 1: $(wr memory/slurm/memory.use_hierarchy 1) -> $(r1 memory/slurm/memory.use_hierarchy)"
# The release-agent era: notify_on_release 1 on the slurm root, inherited below.
for c in $ctls; do printf '%s ' "$c notify 1:$(wr $c/slurm/notify_on_release 1)"; done
echo
# common_cgroup_lock: flock on the directory of the namespace's slurm root
echo "flock cpuset/slurm: $(try flock -x -w 5 cpuset/slurm true) memory/slurm: $(try flock -n memory/slurm true)"

echo "## user, job and step levels, cpuset filled before each mkdir below"
for lvl in $user $job $step $ext; do
  for c in $ctls; do
    r=$(try mkdir $c/$lvl)
    printf '%s ' "$c:$r $(stat -c %a $c/$lvl) notify=$(r1 $c/$lvl/notify_on_release)"
    # Slurm sets notify_on_release itself: 0, as no release agent is used
    [ "$r" = ok ] && wr $c/$lvl/notify_on_release 0 >/dev/null
  done
  echo
  p=${lvl%/*}
  echo "  ${lvl#slurm/} cpuset before: cpus=[$(r1 cpuset/$lvl/cpuset.cpus)] mems=[$(r1 cpuset/$lvl/cpuset.mems)]" \
       "noprefix parent: $(r1 cpuset/$p/cpus)" \
       "copy: $(wr cpuset/$lvl/cpuset.cpus "$(r1 cpuset/$p/cpuset.cpus)") $(wr cpuset/$lvl/cpuset.mems "$(r1 cpuset/$p/cpuset.mems)")" \
       "-> $(r1 cpuset/$lvl/cpuset.cpus) $(r1 cpuset/$lvl/cpuset.mems)"
done
echo "mkdir the job again (a second step of the same job): $(try mkdir cpuset/$job)"
echo "job's cores 0-1: $(wr cpuset/$job/cpuset.cpus 0-1) step's core 1: $(wr cpuset/$step/cpuset.cpus 1) -> $(r1 cpuset/$step/cpuset.cpus)"
echo "step core 0-1 again, then job 0 under it: $(wr cpuset/$step/cpuset.cpus 0-1) $(wr cpuset/$job/cpuset.cpus 0) -> job $(r1 cpuset/$job/cpuset.cpus)"
echo "step back to 1: $(wr cpuset/$step/cpuset.cpus 1) -> $(r1 cpuset/$step/cpuset.cpus)"
# The step belongs to the job's user, so that its tasks' groups can be made.
for c in $ctls; do printf '%s ' "$c:$(try chown 1000:1000 $c/$step) $(stat -c '%a %u:%g' $c/$step) tasks $(stat -c '%a %u:%g' $c/$step/tasks)"; done
echo

echo "## devices: the job's GRES, then a step with a whitelist"
echo "job list: $(rd devices/$job/devices.list)"
echo "job deny 'c 195:1 rwm': $(wr devices/$job/devices.deny 'c 195:1 rwm') allow 'c 195:0 rwm': $(wr devices/$job/devices.allow 'c 195:0 rwm') -> $(rd devices/$job/devices.list)"
echo "step list: $(rd devices/$step/devices.list)"
echo "step deny a: $(wr devices/$step/devices.deny a) -> [$(rd devices/$step/devices.list)]"
for r in "c *:* m" "b *:* m" "c 1:3 rwm" "c 1:5 rwm" "c 1:9 rwm" "c 136:* rwm" "c 195:0 rwm" "c 195:1 rwm" "b 8:* rwm"; do
  printf '%s ' "allow '$r': $(wr devices/$step/devices.allow "$r")"
done
echo
echo "step list: $(rd devices/$step/devices.list)"
echo "## task levels"
for t in task_0 task_1; do
  for c in $ctls; do printf '%s ' "$c:$(try mkdir $c/$step/$t) $(stat -c '%a %u:%g' $c/$step/$t)"; done
  echo
  echo "  $t cpuset: $(wr cpuset/$step/$t/cpuset.cpus "$(r1 cpuset/$step/cpuset.cpus)") $(wr cpuset/$step/$t/cpuset.mems "$(r1 cpuset/$step/cpuset.mems)") -> $(r1 cpuset/$step/$t/cpuset.cpus)"
done
echo "task_0 devices inherited: $(rd devices/$step/task_0/devices.list)"
echo "step deny a with children: $(wr devices/$step/devices.deny a) allow 'c 1:7 rwm': $(wr devices/$step/devices.allow 'c 1:7 rwm') -> $(rd devices/$step/devices.list)"
echo "task_0 now: $(rd devices/$step/task_0/devices.list)"

echo "## memory: job and step limits"
declare -A lim=([$job]="536870912 100000000 600000000" [$step]="268435456 255013683 300000001")
for g in $job $step; do
  read -r hard soft swap <<< "${lim[$g]}"
  m=memory/$g/memory
  echo "${g#slurm/} limit $hard: $(wr $m.limit_in_bytes $hard) -> $(r1 $m.limit_in_bytes)" \
       "soft $soft: $(wr $m.soft_limit_in_bytes $soft) -> $(r1 $m.soft_limit_in_bytes)" \
       "memsw $swap: $(wr $m.memsw.limit_in_bytes $swap) -> $(r1 $m.memsw.limit_in_bytes)"
  echo "  swappiness 0: $(wr $m.swappiness 0) -> $(r1 $m.swappiness) 101: $(wr $m.swappiness 101)" \
       "kmem $hard: $(wr $m.kmem.limit_in_bytes $hard) -> $(r1 $m.kmem.limit_in_bytes)"
done
echo "memsw below the limit: $(wr memory/$step/memory.memsw.limit_in_bytes 134217728) limit above memsw: $(wr memory/$step/memory.limit_in_bytes 402653184)"
echo "step above the job, memsw first: $(wr memory/$step/memory.memsw.limit_in_bytes 2147483648) $(wr memory/$step/memory.limit_in_bytes 1073741824) -> $(r1 memory/$step/memory.limit_in_bytes)"
echo "back: $(wr memory/$step/memory.limit_in_bytes 268435456) $(wr memory/$step/memory.memsw.limit_in_bytes 300000001)"
for g in $user $job $step $step/task_0; do
  echo "${g#slurm/}: $(grep -E '^hierarchical_mem(ory|sw)_limit ' memory/$g/memory.stat | tr '\n' ' ')limit=$(r1 memory/$g/memory.limit_in_bytes) swappiness=$(r1 memory/$g/memory.swappiness) use_hierarchy=$(r1 memory/$g/memory.use_hierarchy)"
done


echo "## the tasks join every hierarchy"
sleep 1000 & t0=$!
sleep 1000 & t1=$!
who=([$t0]=T0 [$t1]=T1)
for t in 0 1; do
  pid=t$t; pid=${!pid}
  # proctrack, task/cgroup cpuset/memory/devices at the step, then
  # jobacct_gather moves each task into its own memory and cpuacct group
  for c in freezer cpuset memory devices cpuacct; do printf '%s ' "$c step:$(wr $c/$step/cgroup.procs $pid)"; done
  for c in memory cpuacct; do printf '%s ' "$c task_$t:$(wr $c/$step/task_$t/cgroup.procs $pid)"; done
  echo
done
for c in $ctls; do
  echo "$c step procs=[$(names $c/$step/cgroup.procs)] tasks=[$(names $c/$step/tasks)] task_0=[$(names $c/$step/task_0/tasks)] task_1=[$(names $c/$step/task_1/cgroup.procs)] job=[$(names $c/$job/tasks)]"
done
echo "Cpus_allowed_list of T0: $(awk '/Cpus_allowed_list/ {print $2}' /proc/$t0/status)"
# a task of the step opening devices (in the devices step only, elsewhere at the root)
opens() { bash -c "echo \$\$ > devices/$step/cgroup.procs; for d in $*; do r=\$({ : < \$d; } 2>&1) && r=ok; printf '%s ' \"\$d:\${r##*: }\"; done"; }
echo "a task opens: $(opens /dev/null /dev/zero /dev/full /dev/random)"

echo "## suspend and resume (proctrack/cgroup)"
echo "FROZEN: $(wr freezer/$step/freezer.state FROZEN) -> $(wait_state freezer/$step FROZEN)" \
     "self=$(r1 freezer/$step/freezer.self_freezing) parent=$(r1 freezer/$step/freezer.parent_freezing)"
echo "job: $(r1 freezer/$job/freezer.state) task_0: $(r1 freezer/$step/task_0/freezer.state) parent=$(r1 freezer/$step/task_0/freezer.parent_freezing)"
echo "pids while suspended: [$(names freezer/$step/cgroup.procs)]"
echo "THAWED: $(wr freezer/$step/freezer.state THAWED) -> $(wait_state freezer/$step THAWED) task_0: $(r1 freezer/$step/task_0/freezer.state)"

echo "## accounting (jobacct_gather/cgroup, and the step's end)"
declare -A st
while read -r k v; do st[$k]=$v; done < memory/$step/task_0/memory.stat
for k in total_rss total_cache total_pgmajfault total_swap total_mapped_file rss cache pgmajfault; do printf '%s ' "$k:${st[$k]+yes}"; done
echo
echo "memory.stat all numeric: $(yn awk 'NF != 2 || $2 !~ /^[0-9]+$/ {exit 1}' memory/$step/task_0/memory.stat)"
for g in $step $step/task_0; do
  m=memory/$g/memory
  echo "${g#slurm/}: max_usage numeric $(yn isnum $m.max_usage_in_bytes) memsw.max_usage numeric $(yn isnum $m.memsw.max_usage_in_bytes)" \
       "usage numeric $(yn isnum $m.usage_in_bytes) failcnt=$(r1 $m.failcnt) memsw.failcnt=$(r1 $m.memsw.failcnt) oom_control=$(rd $m.oom_control)"
  a=cpuacct/${g}/cpuacct
  echo "  cpuacct.stat: $(sed 's/[0-9]\+/N/g' $a.stat | tr '\n' '|') usage numeric $(yn isnum $a.usage)"
done

echo "## an OOM kill in a task of step_1 (ConstrainRAMSpace, no swap in the guest)"
# Here the task groups exist in memory and cpuacct alone, as jobacct_gather
# makes them, so that every group folds onto one cgroup2 directory.
# Not here: the same with task_0 also made in cpuset (as step_0 above has it)
# while the task stays in the cpuset step. cgxfs then puts the process in a
# leaf outside memory's step_1/task_0 directory and reads usage, max_usage,
# failcnt, oom_kill and memory.stat from that directory alone: after the OOM
# kill the kernel shows oom_kill 1 in task_0, failcnt in step_1 and a
# max_usage of the limit in job, step_1 and task_0; cgxfs 0 in all of them.
s1=$job/step_1
for c in $ctls; do printf '%s ' "$c:$(try mkdir $c/$s1)"; done
echo "cpuset: $(wr cpuset/$s1/cpuset.cpus 1) $(wr cpuset/$s1/cpuset.mems 0) task_0: $(try mkdir memory/$s1/task_0) $(try mkdir cpuacct/$s1/task_0)"
echo "limit 32M: $(wr memory/$s1/memory.limit_in_bytes 33554432) memsw 64M: $(wr memory/$s1/memory.memsw.limit_in_bytes 67108864)"
j="for c in freezer cpuset devices memory cpuacct; do echo \$\$ > \$c/$s1/cgroup.procs; done"
j+="; for c in memory cpuacct; do echo \$\$ > \$c/$s1/task_0/cgroup.procs; done"
{ # bash reports the killed child, with its pid, on stderr
  bash -c "$j && exec /usr/bin/python3 -c 'x = b\"x\" * (96 << 20)'"
  rc=$?
} 2>/dev/null
case $rc in 0) echo "allocation: ran to the end" ;; 137) echo "allocation: killed" ;; *) echo "allocation: exit $rc" ;; esac
for g in $job $s1 $s1/task_0; do
  m=memory/$g/memory
  echo "${g#slurm/}: oom_control=$(rd $m.oom_control) failcnt>0: $(yn test "$(r1 $m.failcnt)" -gt 0) memsw.failcnt>0: $(yn test "$(r1 $m.memsw.failcnt)" -gt 0) max_usage>=31M: $(yn test "$(r1 $m.max_usage_in_bytes)" -ge 32505856)"
done
echo "rmdir: $(try rmdir memory/$s1/task_0) $(try rmdir cpuacct/$s1/task_0) $(for c in $ctls; do try rmdir $c/$s1; done | tr '\n' ' ')"

echo "## the extern step killed through a freeze"
sleep 1000 & x=$!
who[$x]=X
for c in freezer memory cpuacct; do printf '%s ' "$c:$(wr $c/$ext/cgroup.procs $x)"; done
echo
echo "freeze: $(wr freezer/$ext/freezer.state FROZEN) -> $(wait_state freezer/$ext FROZEN) pids=[$(names freezer/$ext/cgroup.procs)]"
{ # bash reports a killed job, with its pid, on stderr
  kill -9 $x
  echo "thaw: $(wr freezer/$ext/freezer.state THAWED)"
  wait $x
} 2>/dev/null
for _ in {1..50}; do [ -s freezer/$ext/tasks ] || break; sleep 0.1; done
echo "after the kill: freezer=[$(names freezer/$ext/tasks)] memory=[$(names memory/$ext/tasks)]"
for c in $ctls; do printf '%s ' "$c:$(try rmdir $c/$ext)"; done
echo

echo "## teardown of step 0"
echo "rmdir with tasks: task_0 $(try rmdir memory/$step/task_0) step $(try rmdir freezer/$step) job with a step $(try rmdir cpuset/$job)"
# slurmstepd moves the tasks back to the namespace's root: by tasks, and by cgroup.procs
for c in $ctls; do printf '%s ' "$c:$(wr $c/tasks $t0) $(wr $c/cgroup.procs $t1)"; done
echo
for c in $ctls; do printf '%s ' "$c step=[$(names $c/$step/tasks)] task_0=[$(names $c/$step/task_0/tasks)]"; done
echo
echo "force_empty: task_0 $(wr memory/$step/task_0/memory.force_empty 1) step $(wr memory/$step/memory.force_empty 1)"
echo "rmdir the step before its tasks: $(try rmdir memory/$step)"
for c in $ctls; do
  printf '%s ' "$c: $(try rmdir $c/$step/task_1) $(try rmdir $c/$step/task_0) $(try rmdir $c/$step) $(try rmdir $c/$job) $(try rmdir $c/$user) left:$(yn test -e $c/$user)"
done
echo
echo "again: $(try rmdir memory/$job) slurm root: $(try rmdir memory/slurm)"
for c in $ctls; do [ -d $c/slurm ] && rmdir $c/slurm; done
{ kill $t0 $t1; wait $t0 $t1; } 2>/dev/null
echo "done"
