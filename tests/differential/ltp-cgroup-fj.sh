# Differential: what LTP's cgroup_fj_function.sh, cgroup_fj_stress.sh and the
# v1 cases of cgroup_regression_test.sh check, replayed in every controller:
# attach and move back, rename within and across parents, busy groups, the
# tasks file that cannot be removed, notify_on_release and release_agent
# values, subgroup trees several levels deep with one task moved through every
# group or one task per group, and groups removed while a descriptor is open.
cd /sys/fs/cgroup || exit 1
E=/tmp/ltp-cgroup-fj.err
. "${0%/*}/view.bash"   # try
# The helpers below run as builtins in a forked subshell at most: under TCG
# every exec counts. The errno text is what follows the last ": " of the message.
wr() { local e; if { echo "$2" > "$1"; } 2>$E; then echo ok; else read -r e < $E; echo "${e##*: }"; fi; }
r1() { local v; read -r v < "$1" 2>$E || { read -r v < $E; v=${v##*: }; }; echo "$v"; }
ren() { try perl -e 'rename($ARGV[0], $ARGV[1]) or die "rename: $!\n"' "$1" "$2"; }   # rename(2) itself
only() { # attach_and_check: $1 is the one task of file $2
  local a t; mapfile -t a < "$2"
  ((${#a[@]})) || return 1
  for t in "${a[@]}"; do [ "$t" = "$1" ] || return 1; done
}
has() { local a t; mapfile -t a < "$2"; for t in "${a[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }
yn() { if "$@"; then echo yes; else echo no; fi; }
cpuset_fill() { # create_subgroup: v1 cpusets need cpus and mems before any task
  [ "$1" = cpuset ] || return 0
  local v
  read -r v < cpuset/cpuset.cpus; echo "$v" > "$2/cpuset.cpus"
  read -r v < cpuset/cpuset.mems; echo "$v" > "$2/cpuset.mems"
}

# All v1 controllers behave alike here; the sample covers the ones with rules
# of their own (cpuset) and each kind of v2 mapping.
ctrls="cpuset cpu memory devices pids"

echo "## cgroup_fj_function"
sleep 1000 & pid=$!
for c in $ctrls; do
  s=$c/ltp/test
  mkdir -p $s; cpuset_fill $c $c/ltp; cpuset_fill $c $s
  mkdir $s/ltp_1; cpuset_fill $c $s/ltp_1
  r1="attach $(wr $s/ltp_1/tasks $pid) only-it $(yn only $pid $s/ltp_1/tasks) back $(wr $s/tasks $pid) only-it $(yn only $pid $s/tasks)"
  mkdir $s/ltp_2
  r2="rename $(ren $s/ltp_2 $s/ltp_3) old $(yn test -e $s/ltp_2) new $(yn test -d $s/ltp_3) rmdir $(try rmdir $s/ltp_3)"
  mkdir $s/ltp_2
  r3="over-existing $(ren $s/ltp_2 $s/ltp_1) into-sibling $(ren $s/ltp_2 $s/ltp_1/ltp_2) still $(yn test -d $s/ltp_2)"
  rmdir $s/ltp_2
  r4="busy $(wr $s/ltp_1/tasks $pid) rmdir $(try rmdir $s/ltp_1)"
  echo $pid > $s/tasks
  mkdir $s/ltp_1/a
  r5="with-child rmdir $(try rmdir $s/ltp_1) child $(try rmdir $s/ltp_1/a)"
  echo $pid > $s/ltp_1/tasks
  r6="to-root $(ren $s/ltp_1 $c/ltp_moved)"
  [ $c != memory ] || r6="$r6 out-of-fs $(ren $s/ltp_1 /tmp/ltp)"
  r7="rm-tasks $(try rm -f $s/ltp_1/tasks) rm-notify $(try rm -f $s/ltp_1/notify_on_release) still $(yn test -e $s/ltp_1/tasks)"
  r8="notify -1 $(wr $s/ltp_1/notify_on_release -1) ltp $(wr $s/ltp_1/notify_on_release ltp)"
  n=$(r1 $s/ltp_1/notify_on_release)
  r9="notify was $n set $((1 - n)) $(wr $s/ltp_1/notify_on_release $((1 - n))) -> $(r1 $s/ltp_1/notify_on_release) restore $(wr $s/ltp_1/notify_on_release $n)"
  echo $pid > $c/tasks
  printf '%s:\n  %s\n  %s\n  %s\n  %s\n  %s\n  %s\n  %s\n  %s\n  %s\n' $c "$r1" "$r2" "$r3" "$r4" "$r5" "$r6" "$r7" "$r8" "$r9"
  rmdir $s/ltp_1 $s $c/ltp
done
kill $pid; wait $pid 2>/dev/null

echo "## cgroup_fj_stress: 2 subgroups per group, 3 levels below the start"
tree() { # the groups of a tree below $1, parents first
  local d=$1 lvl=$2 i
  echo $d
  ((lvl < 3)) || return 0
  for i in 1 2; do tree $d/$i $((lvl + 1)); done
}
moveone() { # attach_task with one pid: into each group on the way down and again on the way up
  local d=$1 lvl=$2 i
  only_after $d
  ((lvl < 3)) || return 0
  for i in 1 2; do moveone $d/$i $((lvl + 1)); done
  only_after $d
}
only_after() { if echo $pid > $1/tasks && only $pid $1/tasks; then ok=$((ok + 1)); else bad=$((bad + 1)); fi; }
for c in $ctrls; do
  groups=$(tree $c/ltp 0)
  mkdir $groups
  if [ $c = cpuset ]; then for g in $groups; do cpuset_fill cpuset $g; done; fi
  ok=0 bad=0
  sleep 1000 & pid=$!
  moveone $c/ltp 0
  kill -9 $pid; wait $pid 2>/dev/null
  line="$c: mkdir $(echo $groups | wc -w) groups, dirs $(find $c/ltp -type d | wc -l); one task moved: $ok ok $bad failed"
  case $c in memory|pids)  # each: a task of its own in every group
    pids=
    for g in $groups; do sleep 1000 & pids="$pids $!"; echo $! > $g/tasks; done
    set -- $pids; okeach=0
    for g in $groups; do only $1 $g/tasks && okeach=$((okeach + 1)); shift; done
    line="$line; each: $okeach groups hold exactly their task"
    [ $c != pids ] || line="$line, pids.current of the top $(r1 pids/ltp/pids.current)"
    kill -9 $pids; wait $pids 2>/dev/null ;;
  esac
  for _ in {1..50}; do [ -z "$(cat $(find $c/ltp -name tasks))" ] && break; sleep 0.1; done
  echo "$line; removed: $(try find $c/ltp -depth -type d -exec rmdir {} +)"
done

echo "## release_agent values (root only) and the notify_on_release of new groups"
for v in /bin/true cgroup_fj_release_agent /sbin/cgroup_fj_release_agent /tmp/no_such_agent "/bin/echo a b" ""; do
  echo "release_agent '$v': $(wr memory/release_agent "$v") -> [$(r1 memory/release_agent)]"
done
echo "child has release_agent: $(mkdir memory/r; yn test -e memory/r/release_agent)"
rmdir memory/r

echo "## cgroup_regression_test"
# test_2: notify_on_release is inherited at mkdir (a named hierarchy)
echo 0 > systemd/notify_on_release; mkdir systemd/0
echo 1 > systemd/notify_on_release; mkdir systemd/1
echo "test_2: 0 -> $(r1 systemd/0/notify_on_release), 1 -> $(r1 systemd/1/notify_on_release)"
echo 0 > systemd/notify_on_release
rmdir systemd/0 systemd/1
# test_5: a group with a task in a hierarchy that holds cpuset
mkdir cpuset/0
echo "test_5: attach before cpus/mems $(wr cpuset/0/tasks $$)"
echo 0 > cpuset/0/cpuset.cpus; echo 0 > cpuset/0/cpuset.mems
sleep 100 & s=$!
echo "  after: $(wr cpuset/0/tasks $s) listed $(yn has $s cpuset/0/tasks)"
kill $s; wait $s 2>/dev/null
echo "  rmdir $(try rmdir cpuset/0)"
# test_7: a group removed while something holds its directory open
for c in memory systemd; do
  mkdir $c/0
  sleep 100 < $c/0 & s=$!
  exec 3< $c/0/tasks 4< $c/0/cgroup.procs 5< $c/0/notify_on_release
  echo "test_7 $c: rmdir with the directory and files open $(try rmdir $c/0) exists $(yn test -e $c/0)"
  echo "  read tasks fd: $(try cat <&3) procs fd: $(try cat <&4) notify fd: $(try cat <&5)"
  echo "  fstat of the fd: $(try stat -L -c %F /proc/self/fd/3)"
  exec 3<&- 4<&- 5<&-
  echo "  list the removed dir through the fd of a holder: [$(ls /proc/$s/fd/0 2>&1 | sed 's/.*: //' | tr '\n' ' ')]"
  echo "  mkdir it again: $(try mkdir $c/0) rmdir: $(try rmdir $c/0)"
  kill $s; wait $s 2>/dev/null
done
# a shell whose cwd is the removed group
mkdir memory/0
echo "cwd removed: $(cd memory/0 && rmdir ../0 && echo "rmdir ok; ls=[$(ls 2>&1 | sed 's/.*: //')] cat tasks: $(try cat tasks) mkdir: $(try mkdir sub)")"
echo "## busy, existing, and writing 0"
for c in cpu,cpuacct memory pids; do
  mkdir $c/0
  r="mkdir existing $(try mkdir $c/0) root $(try mkdir $c)"
  sleep 100 & s=$!
  echo $s > $c/0/tasks
  r="$r; busy rmdir $(try rmdir $c/0)"
  r="$r; write 0 to tasks $( (wr $c/0/tasks 0; has $BASHPID $c/0/tasks && echo listed) | tr '\n' ' ')"
  r="$r; to cgroup.procs $( (wr $c/0/cgroup.procs 0; has $BASHPID $c/0/cgroup.procs && echo listed) | tr '\n' ' ')"
  echo $s > $c/tasks
  kill $s; wait $s 2>/dev/null
  for _ in {1..50}; do [ -s $c/0/tasks ] || break; sleep 0.1; done
  echo "$c: $r; empty rmdir $(try rmdir $c/0)"
done
# 4 and 5 are left out: the kernel bounds the level by the scheduler domains
# it built (here 3), which cgroup2 does not show; cgxfs accepts up to 5.
echo "## cpuset.sched_relax_domain_level"
mkdir cpuset/0
for v in -1 0 1 2 3 6 7 -2 " 1" 1x; do printf '%s ' "'$v':$(wr cpuset/0/cpuset.sched_relax_domain_level "$v")->$(r1 cpuset/0/cpuset.sched_relax_domain_level)"; done
echo
mkdir cpuset/0/c
echo "root: $(r1 cpuset/cpuset.sched_relax_domain_level) new child: $(r1 cpuset/0/c/cpuset.sched_relax_domain_level)"
rmdir cpuset/0/c cpuset/0
