# Client tier (tests/vm/README.md): runc (Debian 12's 1.1.5, cgroupfs
# driver) runs two busybox containers from `runc spec` with a 64 MiB memory
# limit, a pids limit and cpu shares: "plain" as runc spec makes it on a v1
# host (no cgroup namespace: runc binds each hierarchy's group), "cgns" with
# a cgroup namespace added (runc mounts each hierarchy itself, mount -t
# cgroup). Inside: the limits, /proc/self/cgroup and the cgroup mounts; from
# outside: state, pause/resume (freezer), ps, events --stats, an OOM kill, a
# fork past pids.max, kill and delete. In the v2 guest each step's real
# cgroup2 effect is checked too (effects.bash).
. "$(dirname "$0")/effects.bash"
. "$(dirname "$0")/rootfs.bash"
command -v runc >/dev/null || { echo "runc missing (scripts/install-clients)"; exit 1; }
command -v jq >/dev/null || { echo "jq missing"; exit 1; }
st() { echo "$1 status $2"; }
# "status" of `runc state` (jq costs a second per run under TCG).
state() { runc state "$1" 2>&1 | sed -n 's/^  "status": "\(.*\)",$/\1/p'; }
# Mount ids, device numbers and peer groups differ from boot to boot.
mounts() { sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //; s/ (shared|master|propagate_from):[0-9]+//g'; }

bundle=/tmp/runc-bundle
rm -rf "$bundle"
busybox_rootfs "$bundle/rootfs"
cd "$bundle" || exit 1
runc spec; st "runc spec" $?
cp config.json spec.json

# NAME CGROUPS_PATH PIDS_LIMIT JQ_EXTRA: a config from runc's own spec.
configure() {
  jq --arg path "$2" --argjson pids "$3" '
    .process.terminal = false
    | .process.args = ["sleep", "100000"]
    | .linux.cgroupsPath = $path
    | .linux.resources.memory = {"limit": 67108864}
    | .linux.resources.pids = {"limit": $pids}
    | .linux.resources.cpu = {"shares": 512}
    '"$4" spec.json >config.json
}

# The limits and the cgroup view inside; the effects outside.
inside() {
  local id=$1 pid
  echo "-- $id: state $(state "$id")"
  runc exec "$id" sh -c '
    for f in memory/memory.limit_in_bytes memory/memory.memsw.limit_in_bytes pids/pids.max \
      cpu,cpuacct/cpu.shares cpu/cpu.cfs_quota_us freezer/freezer.state; do
      echo "$f: $(cat /sys/fs/cgroup/$f 2>&1)"
    done
    echo "/proc/self/cgroup:"; cat /proc/self/cgroup
    echo "cgroup mounts:"; grep -E " - (cgroup|tmpfs) " /proc/self/mountinfo | grep /sys/fs/cgroup
    echo "pids.current $(cat /sys/fs/cgroup/pids/pids.current)"
  ' 2>&1 | mounts
  st "runc exec" "${PIPESTATUS[0]}"
  pid=$(runc state "$id" | sed -n 's/^  "pid": \([0-9]*\),$/\1/p')
  effect_limit "$pid" memory.max 67108864
  effect_limit "$pid" pids.max "$2"
  effect_value "$pid" cpu.weight 59
}

# runc ps and events read the groups through the v1 view.
stats() {
  local id=$1
  echo "-- $id: ps"
  runc ps "$id" -o pid,comm | awk 'NR > 1 { print $2 }' | sort
  st "runc ps" "${PIPESTATUS[0]}"
  echo "-- $id: events --stats"
  runc events --stats "$id" | jq -c '{type, pids: .data.pids,
    memory_limit: .data.memory.usage.limit, memory_used: (.data.memory.usage.usage > 0),
    memsw_limit: .data.memory.swap_usage.limit, cpu_used: (.data.cpu.usage.total > 0),
    cpu_percpu: (.data.cpu.usage.percpu | length)}'
  st "runc events" "${PIPESTATUS[0]}"
}

pause_resume() {
  local id=$1 path=$2 pid
  pid=$(runc state "$id" | sed -n 's/^  "pid": \([0-9]*\),$/\1/p')
  runc pause "$id"; st "runc pause" $?
  echo "state $(state "$id"), freezer.state $(cat "/sys/fs/cgroup/freezer$path/freezer.state")"
  effect_frozen "$pid" 1
  runc resume "$id"; st "runc resume" $?
  echo "state $(state "$id"), freezer.state $(cat "/sys/fs/cgroup/freezer$path/freezer.state")"
  effect_frozen "$pid" 0
}

# Ends the container: it stops, and delete removes its groups.
finish() {
  local id=$1 path=$2 cg=$3
  runc kill "$id" KILL; st "runc kill" $?
  for _ in $(seq 20); do [[ $(state "$id") == stopped ]] && break; sleep 0.5; done
  echo "state $(state "$id")"
  runc delete "$id"; st "runc delete" $?
  for h in memory pids cpu,cpuacct freezer systemd; do
    [[ -d /sys/fs/cgroup/$h$path ]] && echo "left: $h$path"
  done
  runc list | awk 'NR > 1 { print $1, $3 }'
  effect_gone "$cg"
}

echo "== plain: the spec as runc makes it on a v1 host"
configure plain /cgx-runc/plain 64 ''
runc run -d plain </dev/null; st "runc run -d" $?
effect_cgroup cg_plain "$(runc state plain | sed -n 's/^  "pid": \([0-9]*\),$/\1/p')"
inside plain 64
pause_resume plain /cgx-runc/plain
stats plain
finish plain /cgx-runc/plain "$cg_plain"

echo "== cgns: with a cgroup namespace"
configure cgns /cgx-runc/cgns 8 '| .linux.namespaces += [{"type": "cgroup"}]'
runc run -d cgns </dev/null; st "runc run -d" $?
effect_cgroup cg_cgns "$(runc state cgns | sed -n 's/^  "pid": \([0-9]*\),$/\1/p')"
inside cgns 8
pause_resume cgns /cgx-runc/cgns
stats cgns
echo "-- cgns: 80 MiB past a 64 MiB limit"
runc exec cgns dd if=/dev/zero of=/dev/null bs=80M count=1 2>&1 | grep -v records
st "dd (killed: 137)" "${PIPESTATUS[0]}"
echo "memory.failcnt > 0: $(($(cat /sys/fs/cgroup/memory/cgx-runc/cgns/memory.failcnt) > 0))"
grep oom_kill /sys/fs/cgroup/memory/cgx-runc/cgns/memory.oom_control
effect_event "$cg_cgns" memory.events oom_kill
echo "-- cgns: forks past pids.max 8 (sleep, the exec'd sh and 6 more)"
# The sleeps must not hold runc exec's output pipe: it waits for its end.
runc exec cgns sh -c 'i=0
  while [ $i -lt 10 ]; do sleep 1000 >/dev/null 2>&1 & i=$((i + 1)); echo "started $i"; done' 2>&1
st "fork loop" $?
echo "pids.current $(cat /sys/fs/cgroup/pids/cgx-runc/cgns/pids.current)"
effect_event "$cg_cgns" pids.events max
finish cgns /cgx-runc/cgns "$cg_cgns"
rmdir /sys/fs/cgroup/*/cgx-runc 2>/dev/null
ls -d /sys/fs/cgroup/memory/cgx-runc 2>&1 | sed 's/^ls: //'
