# Differential: cgroup.event_control listeners are woken as on a v1 kernel,
# driven by a legacy listener (examples/memory-threshold-listener.c) and real
# allocations. Prints only what both kernels settle on: a threshold crossed
# up and down signals, an OOM kill signals the oom_control listener, rmdir
# wakes every listener, which then finds the group gone. Never a count that
# depends on timing.
cd /sys/fs/cgroup || exit 1
L=${CGX_BUILD:?CGX_BUILD names the build holding examples/memory-threshold-listener}/examples/memory-threshold-listener
out=$(mktemp -d)
pids=()
# listen NAME LISTENER-ARGS...: starts a listener, prints its first line once it has one.
listen() {
  local name=$1
  shift
  "$L" -t 100 "$@" >"$out/$name" 2>&1 &
  pids+=($!)
  for _ in $(seq 200); do [ -s "$out/$name" ] && break; sleep 0.1; done
  echo "$name: $(head -n1 "$out/$name")"
}
# hog GROUP MIB: a process of GROUP that touches MIB MiB, holds it 3 s and exits.
# In a subshell that is not exec'd away, so the "Killed" of an OOM kill (with its pid) goes nowhere.
hog() {
  (bash -c "echo \$\$ > memory/$1/tasks && exec python3 -c 'import time; b = b\"x\" * ($2 << 20); time.sleep(3)'" \
    >/dev/null 2>&1
   echo "hog of $2M in $1: exit $?") 2>/dev/null
}
# The listener of pid $1 (the NAME $2) ended: what it printed after registering.
finished() {
  wait "$1"
  echo "$2: exit $?, $(tail -n +2 "$out/$2" | sed 's/event [0-9]*/event/' | sort -u | tr '\n' ' ')"
}

mkdir memory/ev memory/oom
listen threshold -n 2 memory/ev/memory.usage_in_bytes 64M
hog ev 128
finished "${pids[0]}" threshold

echo 32M > memory/oom/memory.limit_in_bytes
listen oom -n 1 memory/oom/memory.oom_control
hog oom 128
finished "${pids[1]}" oom

listen usage memory/ev/memory.usage_in_bytes 1G
listen pressure memory/ev/memory.pressure_level low
listen oom-rmdir memory/oom/memory.oom_control
for g in ev oom; do
  for _ in $(seq 50); do rmdir memory/$g 2>/dev/null && break; sleep 0.2; done
done
finished "${pids[2]}" usage
finished "${pids[3]}" pressure
finished "${pids[4]}" oom-rmdir
rm -rf "$out"
