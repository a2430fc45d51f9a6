# tests/clients/runc.bash: the body of runc.sh and pending/runc-*.sh.
# Client tier (tests/vm/README.md): runc (Debian 12's 1.1.5, cgroupfs
# driver) runs a busybox container from `runc spec` with a 64 MiB memory
# limit, a pids limit and cpu shares. RUNC_CGNS=1 (runc-cgns.sh) adds the
# cgroup namespace that runc spec adds only on unified hosts (runc then
# mounts each hierarchy itself, mount -t cgroup); RUNC_EXEC=1
# (pending/runc-exec.sh) reads the container with `runc exec` too.
# Inside: the limits, /proc/self/cgroup, the cgroup mounts, an OOM kill and
# a fork past pids.max; outside: state, pause/resume (freezer), ps,
# events --stats, kill and delete. In the v2 guest each step's real cgroup2
# effect is checked too (effects.bash).
. "$(dirname "${BASH_SOURCE[0]}")/effects.bash"
. "$(dirname "${BASH_SOURCE[0]}")/rootfs.bash"
command -v runc >/dev/null || { echo "runc missing (scripts/install-clients)"; exit 1; }
command -v jq >/dev/null || { echo "jq missing"; exit 1; }
cgns=${RUNC_CGNS:-} exec_reads=${RUNC_EXEC:-}
id=cgx-runc path=/cgx-runc/ctr
st() { echo "$1 status $2"; }
# "status" and "pid" of `runc state` (jq costs a second per run under TCG).
state() { runc state "$id" 2>&1 | sed -n 's/^  "status": "\(.*\)",$/\1/p'; }
init_pid() { runc state "$id" | sed -n 's/^  "pid": \([0-9]*\),$/\1/p'; }
# Mount ids, device numbers and peer groups differ from boot to boot.
mounts() { sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //; s/ (shared|master|propagate_from):[0-9]+//g'; }

bundle=/tmp/runc-bundle ctl=/tmp/runc-ctl
rm -rf "$bundle" "$ctl"
busybox_rootfs "$bundle/rootfs"
mkdir -p "$bundle/rootfs/ctl" "$ctl"
mkfifo "$ctl/go"
cd "$bundle" || exit 1
runc spec; st "runc spec" $?

# The container's process: it writes what it sees to /ctl (a bind of $ctl),
# then blocks on the fifo /ctl/go (no child, so that ps and pids.current
# hold only it) until this script has looked from outside, then runs past
# its limits. Without RUNC_EXEC, `runc exec` is never used: it joins the
# hierarchies in Go's map order (see tests/clients/README.md).
report='
{
  for f in memory/memory.limit_in_bytes memory/memory.memsw.limit_in_bytes pids/pids.max \
    cpu,cpuacct/cpu.shares cpu/cpu.cfs_quota_us freezer/freezer.state; do
    echo "$f: $(cat /sys/fs/cgroup/$f 2>&1)"
  done
  echo "/proc/self/cgroup:"; cat /proc/self/cgroup
  echo "cgroup mounts:"; grep -E " - (cgroup|tmpfs) " /proc/self/mountinfo | grep /sys/fs/cgroup
} >/ctl/report 2>&1'
init="$report"'
echo ready >/ctl/ready
read go </ctl/go
{
  dd if=/dev/zero of=/dev/null bs=80M count=1 2>&1 | grep -v records
  echo "dd status $?"
  i=0
  while [ $i -lt 10 ]; do sleep 1000 >/dev/null 2>&1 & i=$((i + 1)); echo "started $i"; done
} >/ctl/out 2>&1'
jq --arg path "$path" --arg init "$init" --argjson cgns "${cgns:-0}" '
  .process.terminal = false
  | .process.args = ["sh", "-c", $init]
  | .linux.cgroupsPath = $path
  | .linux.resources.memory = {"limit": 67108864}
  | .linux.resources.pids = {"limit": 8}
  | .linux.resources.cpu = {"shares": 512}
  | .mounts += [{"destination": "/ctl", "type": "bind", "source": "/tmp/runc-ctl",
                 "options": ["rbind", "rw"]}]
  | if $cgns == 1 then .linux.namespaces += [{"type": "cgroup"}] else . end
  ' config.json >config.new && mv config.new config.json

echo "== run"
runc run -d "$id" </dev/null; st "runc run -d" $?
for _ in $(seq 300); do [[ -e $ctl/ready ]] && break; sleep 0.2; done
echo "state $(state)"
pid=$(init_pid)
effect_cgroup cg "$pid"
effect_limit "$pid" memory.max 67108864
effect_limit "$pid" pids.max 8
effect_value "$pid" cpu.weight 59
if [[ -n $exec_reads ]]; then
  runc exec "$id" sh -c "$report"; st "runc exec" $?
  # The exec's process charged pages to the leaves it passed while joining
  # the hierarchies one by one; cgxfs keeps them for that charge, and the
  # container's own memory.max is the v1 limit less them (their sum is the
  # v1 limit: tests/clients/README.md, "Known limits"). pids.max is whole.
  effect_limit "$pid" pids.max 8
fi
mounts <"$ctl/report"
for f in memory.limit_in_bytes pids.max cpu.shares; do
  case $f in memory.*) h=memory ;; pids.*) h=pids ;; *) h=cpu,cpuacct ;; esac
  echo "outside $h$path/$f: $(<"/sys/fs/cgroup/$h$path/$f")"
done

echo "== pause, resume"
runc pause "$id"; st "runc pause" $?
echo "state $(state), freezer.state $(<"/sys/fs/cgroup/freezer$path/freezer.state")"
effect_frozen "$pid" 1
runc resume "$id"; st "runc resume" $?
echo "state $(state), freezer.state $(<"/sys/fs/cgroup/freezer$path/freezer.state")"
effect_frozen "$pid" 0

echo "== ps, events --stats"
runc ps "$id" -o pid,comm | awk 'NR > 1 { print $2 }' | sort
st "runc ps" "${PIPESTATUS[0]}"
runc events --stats "$id" | jq -c '{type, pids: .data.pids,
  memory_limit: .data.memory.usage.limit, memory_used: (.data.memory.usage.usage > 0),
  memsw_limit: .data.memory.swap_usage.limit, cpu_used: (.data.cpu.usage.total > 0),
  cpu_percpu: (.data.cpu.usage.percpu | length)}'
st "runc events" "${PIPESTATUS[0]}"

echo "== 80 MiB past 64 MiB, then forks past pids.max 8 (sh and 7 more)"
echo go >"$ctl/go"
# The container ends when its sh fails to fork (a busybox sh leaves then).
for _ in $(seq 300); do [[ $(state) == stopped ]] && break; sleep 0.2; done
echo "state $(state)"
cat "$ctl/out"
echo "memory.failcnt > 0: $(($(<"/sys/fs/cgroup/memory$path/memory.failcnt") > 0))"
grep oom_kill "/sys/fs/cgroup/memory$path/memory.oom_control"
effect_event "$cg" memory.events oom_kill
effect_event "$cg" pids.events max

echo "== delete"
runc delete "$id"; st "runc delete" $?
for h in memory pids cpu,cpuacct freezer systemd; do
  [[ -d /sys/fs/cgroup/$h$path ]] && echo "left: $h$path"
done
runc list | awk 'NR > 1 { print $1, $3 }'
rmdir /sys/fs/cgroup/*/cgx-runc 2>/dev/null
ls -d /sys/fs/cgroup/memory/cgx-runc 2>&1 | sed 's/^ls: //'
effect_gone "$cg"
