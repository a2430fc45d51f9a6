#!/usr/bin/env bats
# Runs INSIDE a v2 guest (issue 15, items 1-3): sequences of ordinary v1
# operations must leave cgroup2 as v1 implies. What the differential scripts
# (leaf-settings, limits-outlive, split-counters) show through v1 files is
# checked here on the real cgroup2 files: no setting a directory had as a
# leaf stays once it is inner, no knob outlives its group, and the leaves
# of a split group's members count for it, alive or gone.

VIEW=/run/cgx-fidelity
CG2=/sys/fs/cgroup
BASE=$CG2/cgx

load view

setup_file() {
  view_start "$VIEW" cgxfs-fidelity.log --base cgx
}

teardown_file() {
  view_stop "$VIEW"
}

teardown() {
  sleepers_kill
}

# Waits (5 s at most) until v1 file $1 reads $2.
wait_for() {
  for _ in $(seq 50); do [ "$(cat "$1")" = "$2" ] && return 0; sleep 0.1; done
  return 1
}

@test "a frozen group's directory turned inner keeps no cgroup.freeze; thawing thaws" {
  local frz=$VIEW/freezer
  mkdir "$frz/batch"
  spawn
  echo "$pid" >"$frz/batch/tasks"
  echo FROZEN >"$frz/batch/freezer.state"
  wait_for "$frz/batch/freezer.state" FROZEN
  [ "$(cat "$BASE/batch/cgroup.freeze")" = 1 ]
  mkdir "$frz/batch/sub"
  # The task moved down to batch/@tasks, frozen there; batch itself is no leaf.
  [ "$(leaf_of "$pid")" = "$BASE/batch/@tasks" ]
  [ "$(cat "$BASE/batch/@tasks/cgroup.freeze")" = 1 ]
  [ "$(cat "$BASE/batch/cgroup.freeze")" = 0 ]
  echo THAWED >"$frz/batch/freezer.state"
  wait_for "$frz/batch/freezer.state" THAWED
  [ "$(cat "$BASE/batch/@tasks/cgroup.freeze")" = 0 ]
  for _ in $(seq 50); do grep -qx "frozen 0" "$BASE/batch/@tasks/cgroup.events" && break; sleep 0.1; done
  grep -qx "frozen 0" "$BASE/batch/@tasks/cgroup.events"
  grep -qx "frozen 0" "$BASE/batch/cgroup.events"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rmdir "$frz/batch/sub" "$frz/batch"
  [ ! -e "$BASE/batch" ]
}

@test "a cpuset's directory turned inner follows its group's list, narrowing nothing below" {
  local cs=$VIEW/cpuset/cs
  (($(nproc) >= 2)) || skip "one CPU: no list narrower than all"
  mkdir "$cs"
  echo 0 >"$cs/cpuset.cpus"
  echo 0 >"$cs/cpuset.mems"
  spawn
  echo "$pid" >"$cs/tasks"
  [ "$(cat "$BASE/cs/cpuset.cpus")" = 0 ]
  mkdir "$cs/c"
  # v2 will not empty a cpuset with a task below (ENOSPC): it keeps the group's own list.
  [ "$(leaf_of "$pid")" = "$BASE/cs/@tasks" ]
  [ "$(cat "$BASE/cs/@tasks/cpuset.cpus")" = 0 ]
  [ "$(cat "$BASE/cs/cpuset.cpus")" = 0 ]
  echo 0-1 >"$cs/cpuset.cpus"
  [ "$(cat "$BASE/cs/cpuset.cpus")" = 0-1 ]
  [ "$(cat "$BASE/cs/@tasks/cpuset.cpus")" = 0-1 ]
  [ "$(awk '/Cpus_allowed_list/ {print $2}' "/proc/$pid/status")" = 0-1 ]
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  # Without a task below, the list of a directory that is no leaf is v2's default again.
  echo 0 >"$cs/cpuset.cpus"
  [ "$(cat "$BASE/cs/cpuset.cpus")" = "" ]
  rmdir "$cs/c" "$cs"
}

@test "rmdir of memory and pids groups resets the knobs of the directory cpu keeps" {
  mkdir "$VIEW/memory/x" "$VIEW/pids/x" "$VIEW/cpu,cpuacct/x"
  echo 16M >"$VIEW/memory/x/memory.limit_in_bytes"
  echo 5 >"$VIEW/pids/x/pids.max"
  echo 512 >"$VIEW/cpu,cpuacct/x/cpu.shares"
  [ "$(cat "$BASE/x/memory.max")" = 16777216 ]
  [ "$(cat "$BASE/x/pids.max")" = 5 ]
  rmdir "$VIEW/memory/x" "$VIEW/pids/x"
  [ "$(cat "$BASE/x/memory.max")" = max ]
  [ "$(cat "$BASE/x/pids.max")" = max ]
  [ "$(cat "$BASE/x/cpu.weight")" = 59 ]
  run getfattr -n trusted.cgx.val/memory/memory.limit_in_bytes "$BASE/x"
  [ "$status" -ne 0 ]
  rmdir "$VIEW/cpu,cpuacct/x"
  [ ! -e "$BASE/x" ]
}

@test "a group removed after its limit was split leaves no part on its directory" {
  mkdir -p "$VIEW/memory/ct/a" "$VIEW/pids/ct/a"
  echo 64M >"$VIEW/memory/ct/a/memory.limit_in_bytes"
  spawn
  echo "$pid" >"$VIEW/memory/ct/a/tasks"   # alone in memory: a leaf outside ct/a
  local leaf
  leaf=$(leaf_of "$pid")
  [[ $leaf != "$BASE/ct/a"* ]]
  # Split: the directory and the leaf each hold a part, together at most the limit.
  local dir_part leaf_part
  dir_part=$(cat "$BASE/ct/a/memory.max")
  leaf_part=$(cat "$leaf/memory.max")
  [ "$dir_part" != max ] && [ "$leaf_part" != max ]
  ((dir_part + leaf_part <= 67108864))
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rmdir "$VIEW/memory/ct/a"
  [ "$(cat "$BASE/ct/a/memory.max")" = max ]
  rmdir "$VIEW/pids/ct/a" "$VIEW/memory/ct" "$VIEW/pids/ct"
}

@test "a memory group renamed away leaves its old directory unlimited" {
  mkdir "$VIEW/memory/r" "$VIEW/pids/r"
  echo 16M >"$VIEW/memory/r/memory.limit_in_bytes"
  mv "$VIEW/memory/r" "$VIEW/memory/r2"
  [ "$(cat "$BASE/r/memory.max")" = max ]
  [ "$(cat "$BASE/r2/memory.max")" = 16777216 ]
  [ "$(cat "$VIEW/memory/r2/memory.limit_in_bytes")" = 16777216 ]
  rmdir "$VIEW/memory/r2" "$VIEW/pids/r"
}

@test "blkio: an outside leaf's reads count for its group; the root's throttle goes with blkio" {
  [[ -e /dev/loop-control ]] || skip "no loop driver in the guest (tests/vm/setup ships loop.ko)"
  local disk dev mm
  disk=$(mktemp -p /dev/shm disk.XXXXXX)
  truncate -s 8M "$disk"
  dev=$(losetup -f --show "$disk")
  mm=$(cat "/sys/block/${dev#/dev/}/dev")
  mkdir "$VIEW/blkio/io" "$VIEW/memory/io"
  # A reader in blkio/io alone sits outside the directory memory/io shares.
  run bash -c "echo \$\$ > '$VIEW/blkio/io/tasks'; exec dd if=$dev of=/dev/null bs=1M count=2 iflag=direct"
  [ "$status" -eq 0 ]
  grep -qx "$mm Read 2097152" "$VIEW/blkio/io/blkio.throttle.io_service_bytes"
  # memory/io goes: the leaf folds into io's directory, its count carried over.
  rmdir "$VIEW/memory/io"
  grep -qx "$mm Read 2097152" "$VIEW/blkio/io/blkio.throttle.io_service_bytes"
  rmdir "$VIEW/blkio/io"
  # The root's throttle is the base's io.max, and goes with the hierarchy.
  echo "$mm 1048576" >"$VIEW/blkio/blkio.throttle.read_bps_device"
  [ "$(cat "$BASE/io.max")" = "$mm rbps=1048576 wbps=max riops=max wiops=max" ]
  rmdir "$VIEW/blkio"
  [ "$(cat "$BASE/io.max")" = "" ]
  mkdir "$VIEW/blkio"
  [ "$(cat "$VIEW/blkio/blkio.throttle.read_bps_device")" = "" ]
  losetup -d "$dev"
  rm "$disk"
}

@test "a split group's OOM kill counts in its v1 files and stays once the leaf is gone" {
  mkdir "$VIEW/memory/sng" "$VIEW/pids/sng"
  echo 8M >"$VIEW/memory/sng/memory.limit_in_bytes"
  mkdir -p /tmp/fid && mount -t tmpfs -o size=32m fid /tmp/fid
  run sh -c "echo \$\$ > '$VIEW/memory/sng/cgroup.procs'; exec head -c 16777216 /dev/zero > /tmp/fid/w"
  [ "$status" -ne 0 ]   # OOM-killed in the leaf outside sng's directory
  grep -qx "oom_kill 1" "$VIEW/memory/sng/memory.oom_control"
  (($(cat "$VIEW/memory/sng/memory.failcnt") > 0))
  local leaf
  leaf=$(echo "$BASE"/@memory=sng)
  [ -d "$leaf" ]
  grep -qx "oom_kill 1" "$leaf/memory.events.local"
  # Emptied and still charged with the tmpfs pages: kept by a move through it.
  spawn
  echo "$pid" >"$VIEW/memory/sng/tasks"
  [ "$(leaf_of "$pid")" = "$leaf" ]
  echo "$pid" >"$VIEW/pids/sng/tasks"
  [ "$(leaf_of "$pid")" = "$BASE/sng" ]
  [ -d "$leaf" ]
  local charged
  charged=$(cat "$leaf/memory.current")
  ((charged > 2097152))   # the tmpfs pages written before the kill
  (($(cat "$VIEW/memory/sng/memory.usage_in_bytes") >= charged))
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm /tmp/fid/w
  umount /tmp/fid
  # pids/sng goes: the leaf is moved into sng's directory, what it counted stays.
  rmdir "$VIEW/pids/sng"
  [ ! -e "$leaf" ]
  grep -qx "oom_kill 1" "$VIEW/memory/sng/memory.oom_control"
  (($(cat "$VIEW/memory/sng/memory.failcnt") > 0))
  getfattr -n trusted.cgx.carried/memory "$BASE/sng" | grep -q "oom_kill 1"
  rmdir "$VIEW/memory/sng"
}
