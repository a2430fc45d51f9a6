#!/usr/bin/env bats
# Runs INSIDE a v2 guest: several hierarchies used the v1 way at once, folded
# into one cgroup2 tree. The university example of the v1 documentation
# (cpu by role, net_cls by program, a freezer group across both), and limits
# whose group spans leaves nested under other groups (split and rebalanced).

VIEW=/run/cgx-multi
CG2=/sys/fs/cgroup

load view

setup_file() {
  export DEPRECATIONS=$BATS_FILE_TMPDIR/deprecations.jsonl
  view_start "$VIEW" cgxfs-multi.log --base cgx --log "$DEPRECATIONS"
}

teardown_file() {
  view_stop "$VIEW"
  view_stop /run/cgx-cpu-first   # test 5's own, if it failed half-way
}

teardown() {
  sleepers_kill
}

sorted() {
  tr ' ' '\n' | grep . | sort -n | tr '\n' ' '
}

@test "the university example: one leaf per tuple, exact tasks files, freezing exactly its members" {
  local cpu=$VIEW/cpu,cpuacct net=$VIEW/net_cls,net_prio frz=$VIEW/freezer
  mkdir "$cpu/students" "$cpu/faculty" "$cpu/staff" "$net/browsers" "$net/torrent" "$frz/exam"
  echo 512 >"$cpu/students/cpu.shares"
  echo 2048 >"$cpu/faculty/cpu.shares"
  echo 0x100001 >"$net/browsers/net_cls.classid"
  spawn; local s1=$pid   # a student browsing, sitting the exam
  spawn; local s2=$pid   # a student torrenting
  spawn; local f1=$pid   # a teacher browsing, invigilating
  spawn; local t1=$pid   # staff torrenting
  echo "$s1" >"$cpu/students/tasks"; echo "$s1" >"$net/browsers/tasks"; echo "$s1" >"$frz/exam/tasks"
  echo "$s2" >"$cpu/students/tasks"; echo "$s2" >"$net/torrent/tasks"
  echo "$f1" >"$cpu/faculty/tasks"; echo "$f1" >"$net/browsers/tasks"; echo "$f1" >"$frz/exam/tasks"
  echo "$t1" >"$cpu/staff/tasks"; echo "$t1" >"$net/torrent/tasks"

  # Every tasks file lists exactly its members.
  [ "$(sorted <"$cpu/students/tasks")" = "$(echo "$s1 $s2" | sorted)" ]
  [ "$(sorted <"$cpu/faculty/tasks")" = "$f1 " ]
  [ "$(sorted <"$cpu/staff/tasks")" = "$t1 " ]
  [ "$(sorted <"$net/browsers/tasks")" = "$(echo "$s1 $f1" | sorted)" ]
  [ "$(sorted <"$net/torrent/tasks")" = "$(echo "$s2 $t1" | sorted)" ]
  [ "$(sorted <"$frz/exam/tasks")" = "$(echo "$s1 $f1" | sorted)" ]
  for p in $s1 $s2 $f1 $t1; do ! grep -qx "$p" "$cpu/tasks"; done

  # Four tuples, four leaves, each holding exactly its process; cpu (the only
  # limit-bearing hierarchy here) is outermost, so its weights cover them.
  local leaves=()
  for p in $s1 $s2 $f1 $t1; do
    leaves+=("$(leaf_of "$p")")
    [ "$(cat "$(leaf_of "$p")/cgroup.procs")" = "$p" ]
  done
  [ "$(printf '%s\n' "${leaves[@]}" | sort -u | wc -l)" = 4 ]
  [[ $(leaf_of "$s1") == $CG2/cgx/students/* ]]
  [[ $(leaf_of "$f1") == $CG2/cgx/faculty/* ]]
  [ "$(cat "$CG2/cgx/students/cpu.weight")" = 59 ]
  [ "$(cat "$CG2/cgx/faculty/cpu.weight")" -gt 100 ]

  # Freezing exam freezes s1 and f1, in their different leaves, and no one else.
  echo FROZEN >"$frz/exam/freezer.state"
  for _ in $(seq 50); do [ "$(cat "$frz/exam/freezer.state")" = FROZEN ] && break; sleep 0.1; done
  [ "$(cat "$frz/exam/freezer.state")" = FROZEN ]
  grep -qx "frozen 1" "$(leaf_of "$s1")/cgroup.events"
  grep -qx "frozen 1" "$(leaf_of "$f1")/cgroup.events"
  grep -qx "frozen 0" "$(leaf_of "$s2")/cgroup.events"
  grep -qx "frozen 0" "$(leaf_of "$t1")/cgroup.events"
  echo THAWED >"$frz/exam/freezer.state"
  grep -qx "frozen 0" "$(leaf_of "$s1")/cgroup.events"

  # The log names each multi-hierarchy process once, with the tuple it ended in.
  # The log has a record for each move that left a process on two paths or more:
  # s1 twice, s2 once, f1 twice, t1 once.
  [ "$(grep -c '"kind":"multi-hierarchy-process"' "$DEPRECATIONS")" = 6 ]
  [ "$(jq -c 'select(.kind == "multi-hierarchy-process") | .tuple' "$DEPRECATIONS" | tail -n1)" = \
    '{"cpu,cpuacct":"/staff","net_cls,net_prio":"/torrent"}' ]
}

# A process in (memory:/$1, pids:/p) that tries $2 forks, 0.3 s apart, keeping
# each child: as many live as the split limit lets it, across rebalances.
load_in() {
  python3 -c '
import os, sys, time
view, group, tries = sys.argv[1], sys.argv[2], int(sys.argv[3])
for hierarchy in ("memory/" + group, "pids/p"):
    with open(f"{view}/{hierarchy}/tasks", "w") as tasks:
        tasks.write(str(os.getpid()))
for _ in range(tries):
    try:
        if os.fork() == 0:
            time.sleep(1000)
            os._exit(0)
    except OSError:
        pass
    time.sleep(0.3)
time.sleep(1000)' "$VIEW" "$1" "$2" 3>&- &
  SLEEPERS="${SLEEPERS:-} $!"
}

split_sum() {
  local sum=0 dir
  for dir in "$CG2/cgx/p" "$CG2"/cgx/m1/@* "$CG2"/cgx/m2/@*; do
    [ -e "$dir/pids.max" ] && sum=$((sum + $(cat "$dir/pids.max")))
  done
  echo "$sum"
}

@test "a pids limit whose group spans two memory groups holds its aggregate, split and rebalanced" {
  mkdir "$VIEW/memory/m1" "$VIEW/memory/m2" "$VIEW/pids/p"
  echo 6 >"$VIEW/pids/p/pids.max"
  load_in m1 10
  load_in m2 10
  for _ in $(seq 100); do [ "$(wc -l <"$VIEW/pids/p/tasks")" -ge 6 ] && break; sleep 0.1; done
  # Both shells' leaves nest under their memory group, outside /p: the limit is split.
  ls -d "$CG2"/cgx/m1/@* "$CG2"/cgx/m2/@*
  grep -qx "pids /p pids.max enforced" "$VIEW/cgx.limits"
  ! grep -q "^memory /m1 " "$VIEW/cgx.limits" # no limit set there
  [ "$(cat "$VIEW/pids/p/pids.max")" = 6 ]
  [ "$(split_sum)" -le 6 ]
  # Twenty forks tried, never more than six tasks in the group, across rebalances.
  echo "tasks: $(wc -l <"$VIEW/pids/p/tasks"); parts: $(grep -H . "$CG2"/cgx/p/pids.max "$CG2"/cgx/m?/@*/pids.max)"
  for round in 1 2 3; do
    [ "$(wc -l <"$VIEW/pids/p/tasks")" -le 6 ]
    [ "$(split_sum)" -le 6 ]
    sleep 1.1
  done
  [ "$(wc -l <"$VIEW/pids/p/tasks")" -ge 4 ]
  [ "$(jq -r 'select(.kind == "approximate" and .file == "pids.max") | .group' "$DEPRECATIONS")" = /p ]

  # All back in one memory group and /p: exact again, and whole on /p.
  for t in $(cat "$VIEW/pids/p/tasks"); do kill -9 "$t"; done
  for _ in $(seq 50); do [ -z "$(cat "$VIEW/pids/p/tasks")" ] && break; sleep 0.1; done
  rmdir "$VIEW/memory/m1" "$VIEW/memory/m2"
  sleep 1.2
  grep -qx "pids /p pids.max exact" "$VIEW/cgx.limits"
  [ "$(cat "$CG2/cgx/p/pids.max")" = 6 ]
}

@test "a cpu quota whose group spans a memory group is split, never summing past the quota" {
  mkdir "$VIEW/memory/heavy" "$VIEW/cpu,cpuacct/c"
  echo 50000 >"$VIEW/cpu,cpuacct/c/cpu.cfs_quota_us"
  bash -c 'while :; do :; done' 3>&- & local x=$!
  bash -c 'while :; do :; done' 3>&- & local y=$!
  SLEEPERS="$SLEEPERS $x $y"
  echo "$x" >"$VIEW/cpu,cpuacct/c/tasks"
  echo "$y" >"$VIEW/memory/heavy/tasks"; echo "$y" >"$VIEW/cpu,cpuacct/c/tasks"
  grep -qx "cpu,cpuacct /c cpu.max enforced" "$VIEW/cgx.limits"
  for round in 1 2 3; do
    local qc qy pc py qc2 qy2 pc2 py2 tries leaf_y
    leaf_y="$(leaf_of "$y")"
    # A snapshot the rebalancer did not change half-way: the same before and
    # after. Builtins only, so that a loaded machine (the CI runs builds
    # beside this) still reads both files well inside one rebalance period.
    for tries in $(seq 50) none; do
      [ "$tries" = none ] && { echo "no stable snapshot in 50 tries"; return 1; }
      read -r qc pc <"$CG2/cgx/c/cpu.max"
      read -r qy py <"$leaf_y/cpu.max"
      read -r qc2 pc2 <"$CG2/cgx/c/cpu.max"
      read -r qy2 py2 <"$leaf_y/cpu.max"
      [ "$qc $pc $qy $py" = "$qc2 $pc2 $qy2 $py2" ] && break
    done
    echo "round $round ($tries tries): $CG2/cgx/c: $qc $pc; $leaf_y: $qy $py"
    [ "$pc" = 100000 ] && [ "$py" = 100000 ]
    [ "$qc" -ge 1000 ] && [ "$qy" -ge 1000 ]
    [ $((qc + qy)) -le 50000 ]
    sleep 1.1
  done
  # The v1 file still reads what was written.
  [ "$(cat "$VIEW/cpu,cpuacct/c/cpu.cfs_quota_us")" = 50000 ]
  kill -9 "$x" "$y"
}

@test "memory, outermost, stays exact for a group whose processes are in other groups too" {
  mkdir "$VIEW/memory/db" "$VIEW/cpu,cpuacct/batch"
  echo 64M >"$VIEW/memory/db/memory.limit_in_bytes"
  spawn
  echo "$pid" >"$VIEW/cpu,cpuacct/batch/tasks"
  echo "$pid" >"$VIEW/memory/db/tasks"
  [[ $(leaf_of "$pid") == $CG2/cgx/db/* ]]
  grep -qx "memory /db memory.max exact" "$VIEW/cgx.limits"
  [ "$(cat "$CG2/cgx/db/memory.max")" = 67108864 ]
}

@test "with cpu outermost, a memory limit over two cpu groups holds its aggregate under load" {
  local view=/run/cgx-cpu-first
  view_start "$view" cgxfs-cpu-first.log --base cgx-cpu-first --primary-order cpu \
    --log "$BATS_TEST_TMPDIR/log"
  mkdir "$view/cpu,cpuacct/a" "$view/cpu,cpuacct/b" "$view/memory/m"
  echo 64M >"$view/memory/m/memory.limit_in_bytes"
  # Two allocators of 48M each, one per cpu group: together past the 64M of m.
  local pids=()
  for g in a b; do
    python3 -c '
import os, sys, time
view, group = sys.argv[1:3]
for hierarchy in ("cpu,cpuacct/" + group, "memory/m"):
    with open(f"{view}/{hierarchy}/tasks", "w") as tasks:
        tasks.write(str(os.getpid()))
chunks = []
for _ in range(48):
    chunks.append(b"x" * (1 << 20))
    time.sleep(0.05)
time.sleep(1000)' "$view" "$g" 3>&- &
    pids+=($!)
  done
  SLEEPERS="${SLEEPERS:-} ${pids[*]}"
  for _ in $(seq 30); do [ -d "$CG2/cgx-cpu-first/a/@memory=m" ] && [ -d "$CG2/cgx-cpu-first/b/@memory=m" ] && break; sleep 0.1; done
  grep -qx "memory /m memory.max enforced" "$view/cgx.limits"
  # Sampled through the load and its rebalances: the parts and the usage stay within 64M.
  # The daemon shrinks parts before it grows others, so at every instant they
  # fit; three reads in a row are no instant, though: a read is taken only
  # when the parts read the same twice over, i.e. no rebalance fell between.
  local dirs=("$CG2/cgx-cpu-first/m" "$CG2"/cgx-cpu-first/[ab]/@memory=m)
  for _ in $(seq 8); do
    local parts=0 usage=0 first second d
    for _ in $(seq 20); do
      first=$(cat "${dirs[@]/%//memory.max}")
      second=$(cat "${dirs[@]/%//memory.max}")
      [ "$first" = "$second" ] && break
    done
    [ "$first" = "$second" ]
    for d in $first; do parts=$((parts + d)); done
    for d in "${dirs[@]}"; do
      usage=$((usage + $(cat "$d/memory.current")))
      echo "  ${d#"$CG2"/}: max $(cat "$d/memory.max") current $(cat "$d/memory.current") procs $(wc -l <"$d/cgroup.procs")"
    done
    echo "parts $parts ($first) usage $usage"
    [ "$parts" -le $((64 << 20)) ]
    [ "$usage" -le $((64 << 20)) ]
    sleep 0.5
  done
  # Someone paid: an allocator was OOM-killed in its part, as v1 would have killed one.
  local kills=0
  for d in "$CG2"/cgx-cpu-first/[ab]/@memory=m; do
    kills=$((kills + $(awk '$1 == "oom_kill" {print $2}' "$d/memory.events")))
  done
  [ "$kills" -ge 1 ]
  [ "$(cat "$view/memory/m/memory.limit_in_bytes")" = 67108864 ]
  kill -9 "${pids[@]}" 2>/dev/null || true
  view_stop "$view"
}

@test "release_agent runs with the group's path when its last task exits" {
  local agent=$BATS_TEST_TMPDIR/agent calls=$BATS_TEST_TMPDIR/calls
  printf '#!/bin/sh\necho "$1 $(id -u)" >> %s\n' "$calls" >"$agent"
  chmod 755 "$agent"
  echo "$agent" >"$VIEW/freezer/release_agent"
  mkdir "$VIEW/freezer/job"
  echo 1 >"$VIEW/freezer/job/notify_on_release"
  spawn
  echo "$pid" >"$VIEW/freezer/job/tasks"
  kill -9 "$pid"
  for _ in $(seq 50); do [ -s "$calls" ] && break; sleep 0.1; done
  [ "$(cat "$calls")" = "/job 0" ]
  echo "" >"$VIEW/freezer/release_agent"
}

# cgx-gen seed 6 (tests/gen/regressions/relocate-uaf-after-rename): a rename
# builds the group's directories anew; one that turns inner passes the
# controllers on before anything below enables them (else ENOENT, and the
# relocations that followed failed and read a freed leaf).
@test "a rename onto a directory other hierarchies use folds there, controllers on" {
  local view=/run/cgx-rename
  view_start "$view" cgxfs-rename.log --base cgx-rename \
    --hierarchies 'cpu,cpuacct;net_prio;none,name=sched'
  local sched=$view/sched np=$view/net_prio cpu=$view/cpu,cpuacct
  mkdir "$sched/b" "$cpu/c" "$np/c" "$sched/b/a"
  spawn
  mv "$sched/b" "$sched/a"
  grep -qw cpu "$CG2/cgx-rename/a/cgroup.subtree_control"
  echo "$pid" >"$sched/a/a/tasks"
  echo "$pid" >"$np/c/tasks"
  [ "$(leaf_of "$pid")" = "$CG2/cgx-rename/a/a/@net_prio=c" ]
  mv "$np/c" "$np/a"
  [ "$(cat "$np/a/tasks")" = "$pid" ]
  [ "$(leaf_of "$pid")" = "$CG2/cgx-rename/a/a" ]
  mkdir "$sched/db"
  [ "$(cat "$sched/a/a/tasks")" = "$pid" ]
  ! grep -q 'cannot' "${VM_OUT:-/tmp}/cgxfs-rename.log"
  kill -9 "$pid"
  view_stop "$view"
}
