#!/usr/bin/env bats
# Runs INSIDE a v2 guest: cgroup.event_control listeners of the v1 view are
# signalled from the real v2 memory controller, driven by a legacy listener
# (examples/memory-threshold-listener.c) and real allocations: thresholds
# from memory.current, OOM from memory.events, pressure levels from PSI
# triggers, and rmdir wakes them all. Needs CGX_BUILD (bin/cgxfs and
# examples/memory-threshold-listener).

VIEW=/run/cgx-view
CG2=/sys/fs/cgroup

load view
load ../../lib/listener

setup_file() {
  view_start "$VIEW" cgxfs-memory-events.log --base cgx
}

teardown_file() {
  view_stop "$VIEW"
}

setup() {
  M=$VIEW/memory
  LISTENER=$CGX_BUILD/examples/memory-threshold-listener
  LISTEN_TIMEOUT=100
  OUT=$BATS_TEST_TMPDIR
}

teardown() {
  kill_listeners
  for g in "$M"/*/; do
    for pid in $(cat "$g/tasks" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    for _ in $(seq 20); do rmdir "$g" 2>/dev/null && break; sleep 0.2; done
  done
}

# hog GROUP MIB SECONDS: a process of GROUP that touches MIB MiB and holds them.
hog() {
  bash -c "echo \$\$ > '$M/$1/tasks' && exec python3 -c 'import time; b = b\"x\" * ($2 << 20); time.sleep($3)'"
}

daemon_fds_to() {
  local n=0 fd
  for fd in /proc/"$(view_pid "$VIEW")"/fd/*; do
    [[ $(readlink "$fd") == "$1" ]] && n=$((n + 1))
  done
  echo "$n"
}

@test "a threshold crossed up, then down, by a real allocation signals twice" {
  mkdir "$M/t"
  listen up -n 2 "$M/t/memory.usage_in_bytes" 64M
  [ -z "$(events_of up)" ]
  hog t 128 3
  wait "$up_pid"
  [ "$(signals_of up)" = 2 ]
}

@test "a threshold already below usage at registration fires only when usage drops under it" {
  mkdir "$M/t"
  hog t 128 60 >/dev/null 3>&- &
  for _ in $(seq 100); do
    [ "$(cat "$CG2/cgx/t/memory.current" 2>/dev/null || echo 0)" -gt $((100 << 20)) ] && break
    sleep 0.1
  done
  [ "$(cat "$M/t/memory.usage_in_bytes")" -gt $((100 << 20)) ]
  listen down -n 1 "$M/t/memory.usage_in_bytes" 64M
  # Several ticks of the watcher pass with usage above: no crossing, no event.
  sleep 1
  [ -z "$(events_of down)" ]
  kill -9 $(cat "$M/t/tasks")
  wait "$down_pid"
  [ "$(events_of down)" = "event 1" ]
}

@test "memsw.usage_in_bytes thresholds count memory and swap" {
  mkdir "$M/t"
  [ -e "$M/t/memory.memsw.usage_in_bytes" ] || skip "no memsw files in this view"
  listen memsw -n 2 "$M/t/memory.memsw.usage_in_bytes" 64M
  hog t 128 3
  wait "$memsw_pid"
  [ "$(signals_of memsw)" = 2 ]
}

@test "an OOM kill under memory.limit_in_bytes signals the oom_control listener" {
  mkdir "$M/o"
  echo 32M >"$M/o/memory.limit_in_bytes"
  listen oom -n 1 "$M/o/memory.oom_control"
  run hog o 128 3
  [ "$status" = 137 ]
  wait "$oom_pid"
  [ "$(events_of oom | head -n1 | cut -d' ' -f1)" = event ]
  grep -q "^oom_kill [1-9]" "$M/o/memory.oom_control"
}

@test "a pressure listener is signalled when its group reclaims under its limit" {
  mkdir "$M/p"
  [ -e "$CG2/cgx/p/memory.pressure" ] || skip "no PSI in this kernel"
  echo 16M >"$M/p/memory.limit_in_bytes"
  listen low -n 1 "$M/p/memory.pressure_level" low
  # Reading more than the limit over and over makes the group reclaim its own cache.
  bash -c "echo \$\$ > '$M/p/tasks'; for _ in \$(seq 40); do
    cat /usr/lib/x86_64-linux-gnu/*.so* >/dev/null 2>&1; kill -0 $low_pid 2>/dev/null || exit 0; done"
  wait "$low_pid"
  [ "$(events_of low | head -n1 | cut -d' ' -f1)" = event ]
  grep -q "some avg10=.* total=[1-9]" "$CG2/cgx/p/memory.pressure"
}

@test "rmdir wakes every listener of the group, which finds it gone, and the daemon lets go" {
  mkdir "$M/r"
  listen usage "$M/r/memory.usage_in_bytes" 1G
  listen oom "$M/r/memory.oom_control"
  listen pressure "$M/r/memory.pressure_level" critical,local
  [ "$(daemon_fds_to "$CG2/cgx/r/memory.events")" = 1 ]
  [ "$(daemon_fds_to "$CG2/cgx/r/memory.pressure")" = 1 ]
  rmdir "$M/r"
  woken_by_removal usage
  woken_by_removal oom
  woken_by_removal pressure
  [ "$(daemon_fds_to "$CG2/cgx/r/memory.events")" = 0 ]
  [ "$(daemon_fds_to "$CG2/cgx/r/memory.pressure")" = 0 ]
}

@test "a renamed group keeps its threshold listener" {
  mkdir "$M/a"
  listen moved -n 1 "$M/a/memory.usage_in_bytes" 64M
  mv "$M/a" "$M/b"
  hog b 128 3
  wait "$moved_pid"
  # After an event the listener checks a/cgroup.event_control, as legacy listeners
  # do: gone with the rename, so it ends there, "removed" or not.
  [ "$(events_of moved | head -n1)" = "event 1" ]
}

@test "registrations the kernel refuses keep its errno" {
  mkdir "$M/e"
  [ "$(register "$M/e" memory.pressure_level high)" = "Invalid argument" ]
  [ "$(register "$M/e" memory.pressure_level low,)" = "Invalid argument" ]
  [ "$(register "$M/e" memory.usage_in_bytes 12x)" = "Invalid argument" ]
  [ "$(register "$M/e" memory.limit_in_bytes 1M)" = "Invalid argument" ]
  [ "$(register "$M/e" memory.oom_control "")" = ok ]
}
