#!/usr/bin/env bats
# Runs INSIDE a v2 guest: controller files of the v1 view take effect through
# the real v2 controllers (every controller is delegated to the base here).
# Needs CGX_BUILD (the build directory holding bin/cgxfs).

VIEW=/run/cgx-view
CG2=/sys/fs/cgroup

setup_file() {
  [[ -x ${CGX_BUILD:-}/bin/cgxfs ]] || { echo "CGX_BUILD/bin/cgxfs missing" >&3; return 1; }
  mkdir -p "$VIEW"
  "$CGX_BUILD/bin/cgxfs" --cgroup2 "$CG2" --base cgx -f "$VIEW" \
    >"${VM_OUT:-/tmp}/cgxfs-controllers.log" 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/cgxfs.pid"
  for _ in $(seq 200); do [[ -e $VIEW/pids/tasks ]] && return 0; sleep 0.1; done
  echo "cgxfs did not serve $VIEW" >&3
  return 1
}

teardown_file() {
  fusermount3 -u "$VIEW" 2>/dev/null || umount -l "$VIEW" 2>/dev/null || true
  kill "$(cat "$BATS_FILE_TMPDIR/cgxfs.pid")" 2>/dev/null || true
}

write_result() {
  local out
  out=$(bash -c "echo '$2' > '$1'" 2>&1) && { echo ok; return; }
  echo "${out##*: }"
}

@test "pids.max is written to the group's v2 pids.max and read back as v1 wrote it" {
  mkdir "$VIEW/pids/lim"
  [ "$(cat "$VIEW/pids/lim/pids.max")" = max ]
  [ "$(write_result "$VIEW/pids/lim/pids.max" 10)" = ok ]
  [ "$(cat "$CG2/cgx/lim/pids.max")" = 10 ]
  [ "$(cat "$VIEW/pids/lim/pids.max")" = 10 ]
  [ "$(write_result "$VIEW/pids/lim/pids.max" -1)" = "Invalid argument" ]
  [ "$(write_result "$VIEW/pids/lim/pids.max" abc)" = "Invalid argument" ]
  [ "$(write_result "$VIEW/pids/lim/pids.max" 4194305)" = "Invalid argument" ]
  [ "$(cat "$CG2/cgx/lim/pids.max")" = 10 ]
  [ "$(write_result "$VIEW/pids/lim/pids.max" max)" = ok ]
  [ "$(cat "$CG2/cgx/lim/pids.max")" = max ]
}

@test "fork fails beyond pids.max and pids.events counts it" {
  mkdir "$VIEW/pids/fork"
  echo 3 >"$VIEW/pids/fork/pids.max"
  # busybox sh gives up on a failed fork at once (bash would retry for seconds).
  bash -c "echo \$\$ > '$VIEW/pids/fork/tasks'; exec busybox sh -c 'for i in 1 2 3 4 5; do sleep 30 & done; wait'" \
    >"$BATS_TEST_TMPDIR/out" 2>&1 &
  for _ in $(seq 100); do grep -q "fork" "$BATS_TEST_TMPDIR/out" && break; sleep 0.1; done
  cat "$BATS_TEST_TMPDIR/out"
  grep -q "can't fork" "$BATS_TEST_TMPDIR/out"
  # busybox sh may give up after the failed fork: what is left is what is counted.
  [ "$(cat "$VIEW/pids/fork/pids.current")" -le 3 ]
  [ "$(cat "$VIEW/pids/fork/pids.current")" = "$(wc -l <"$VIEW/pids/fork/tasks")" ]
  [ "$(cat "$VIEW/pids/fork/pids.current")" = "$(cat "$CG2/cgx/fork/pids.current")" ]
  [ "$(cut -d' ' -f2 "$VIEW/pids/fork/pids.events")" -ge 1 ]
  kill $(cat "$VIEW/pids/fork/tasks")
}

@test "freezer.state freezes a real process through cgroup.freeze" {
  mkdir "$VIEW/freezer/ice"
  sleep 1000 &
  sp=$!
  echo "$sp" >"$VIEW/freezer/ice/tasks"
  echo FROZEN >"$VIEW/freezer/ice/freezer.state"
  for _ in $(seq 50); do [ "$(cat "$VIEW/freezer/ice/freezer.state")" = FROZEN ] && break; sleep 0.1; done
  [ "$(cat "$VIEW/freezer/ice/freezer.state")" = FROZEN ]
  grep -qx "frozen 1" "$CG2$(sed -n 's/^0:://p' /proc/$sp/cgroup)/cgroup.events"
  echo THAWED >"$VIEW/freezer/ice/freezer.state"
  kill "$sp"
}

@test "cpu.shares, cfs quota, period and burst reach cpu.weight, cpu.max and cpu.max.burst" {
  mkdir "$VIEW/cpu,cpuacct/web"
  echo 512 >"$VIEW/cpu,cpuacct/web/cpu.shares"
  [ "$(cat "$CG2/cgx/web/cpu.weight")" = 59 ]
  echo 1024 >"$VIEW/cpu,cpuacct/web/cpu.shares"
  [ "$(cat "$CG2/cgx/web/cpu.weight")" = 100 ]
  echo 1 >"$VIEW/cpu,cpuacct/web/cpu.shares"
  [ "$(cat "$CG2/cgx/web/cpu.weight")" = 1 ]
  [ "$(cat "$VIEW/cpu,cpuacct/web/cpu.shares")" = 2 ]
  echo 50000 >"$VIEW/cpu,cpuacct/web/cpu.cfs_quota_us"
  [ "$(cat "$CG2/cgx/web/cpu.max")" = "50000 100000" ]
  echo 20000 >"$VIEW/cpu,cpuacct/web/cpu.cfs_period_us"
  [ "$(cat "$CG2/cgx/web/cpu.max")" = "50000 20000" ]
  echo 1000 >"$VIEW/cpu,cpuacct/web/cpu.cfs_burst_us"
  [ "$(cat "$CG2/cgx/web/cpu.max.burst")" = 1000 ]
  echo -1 >"$VIEW/cpu,cpuacct/web/cpu.cfs_quota_us"
  [ "$(cat "$CG2/cgx/web/cpu.max")" = "max 20000" ]
  echo 1 >"$VIEW/cpu,cpuacct/web/cpu.idle"
  [ "$(cat "$CG2/cgx/web/cpu.idle")" = 1 ]
}

@test "cpuacct.usage counts a busy process and resets to 0" {
  mkdir "$VIEW/cpu,cpuacct/busy"
  bash -c "echo \$\$ > '$VIEW/cpu,cpuacct/busy/tasks'; i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done"
  [ "$(cat "$VIEW/cpu,cpuacct/busy/cpuacct.usage")" -gt 0 ]
  [ "$(cat "$VIEW/cpu,cpuacct/busy/cpuacct.usage")" = "$(( $(sed -n 's/^usage_usec //p' "$CG2/cgx/busy/cpu.stat") * 1000 ))" ]
  echo 0 >"$VIEW/cpu,cpuacct/busy/cpuacct.usage"
  [ "$(cat "$VIEW/cpu,cpuacct/busy/cpuacct.usage")" = 0 ]
}

@test "a renamed group keeps its v2 settings under its new name" {
  mkdir "$VIEW/cpu,cpuacct/before"
  echo 512 >"$VIEW/cpu,cpuacct/before/cpu.shares"
  echo 30000 >"$VIEW/cpu,cpuacct/before/cpu.cfs_quota_us"
  mv "$VIEW/cpu,cpuacct/before" "$VIEW/cpu,cpuacct/after"
  [ "$(cat "$VIEW/cpu,cpuacct/after/cpu.shares")" = 512 ]
  [ "$(cat "$CG2/cgx/after/cpu.weight")" = 59 ]
  [ "$(cat "$CG2/cgx/after/cpu.max")" = "30000 100000" ]
  [ ! -e "$CG2/cgx/before" ]
}

@test "memory limits reach memory.max, memory.swap.max and memory.low" {
  mkdir "$VIEW/memory/lim"
  echo 100M >"$VIEW/memory/lim/memory.limit_in_bytes"
  [ "$(cat "$CG2/cgx/lim/memory.max")" = 104857600 ]
  echo 300M >"$VIEW/memory/lim/memory.memsw.limit_in_bytes"
  [ "$(cat "$CG2/cgx/lim/memory.swap.max")" = 209715200 ]
  echo 200M >"$VIEW/memory/lim/memory.limit_in_bytes"
  [ "$(cat "$CG2/cgx/lim/memory.swap.max")" = 104857600 ]
  echo -1 >"$VIEW/memory/lim/memory.memsw.limit_in_bytes"
  [ "$(cat "$CG2/cgx/lim/memory.swap.max")" = max ]
  echo 50M >"$VIEW/memory/lim/memory.soft_limit_in_bytes"
  [ "$(cat "$CG2/cgx/lim/memory.low")" = 52428800 ]
  echo -1 >"$VIEW/memory/lim/memory.limit_in_bytes"
  [ "$(cat "$CG2/cgx/lim/memory.max")" = max ]
}

@test "a process allocating past memory.limit_in_bytes is OOM-killed and failcnt rises" {
  mkdir "$VIEW/memory/oom"
  echo 20M >"$VIEW/memory/oom/memory.limit_in_bytes"
  echo 20M >"$VIEW/memory/oom/memory.memsw.limit_in_bytes"
  run bash -c "echo \$\$ > '$VIEW/memory/oom/tasks'; exec timeout 60 tail /dev/zero"
  [ "$status" -eq 137 ]
  [ "$(cat "$VIEW/memory/oom/memory.failcnt")" -gt 0 ]
  [ "$(sed -n 's/^oom_kill //p' "$VIEW/memory/oom/memory.oom_control")" -ge 1 ]
  [ "$(cat "$VIEW/memory/oom/memory.max_usage_in_bytes")" -le 20971520 ]
}
