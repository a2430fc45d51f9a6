# tests/clients/nspawn.bash: the body of nspawn.sh and pending/nspawn-cgns.sh.
# Client tier (tests/vm/README.md): systemd-nspawn (systemd 252) runs a
# busybox tree on a host without a running systemd, as a legacy admin
# would: --register=no --keep-unit (no machined, no bus), inside v1 groups
# made beforehand with the limits (--property= needs a scope from systemd:
# nspawn says it has no effect). Without a cgroup namespace
# (SYSTEMD_NSPAWN_USE_CGNS=0: nspawn mounts every hierarchy whole and binds
# its payload group), or, with NSPAWN_CGNS=1, with the one nspawn uses by
# default. Inside: the limits, /proc/self/cgroup, the cgroup mounts, an OOM
# kill, a fork past pids.max; outside: nspawn's payload and supervisor
# groups, a freeze through the v1 freezer. In the v2 guest each step's real
# cgroup2 effect is checked too.
. "$(dirname "${BASH_SOURCE[0]}")/effects.bash"
. "$(dirname "${BASH_SOURCE[0]}")/rootfs.bash"
command -v systemd-nspawn >/dev/null || { echo "systemd-nspawn missing (scripts/install-clients)"; exit 1; }
st() { echo "$1 status $2"; }
mounts() { sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //; s/ (shared|master|propagate_from):[0-9]+//g'; }

tree=/tmp/nspawn-tree ctl=/tmp/nspawn-ctl
rm -rf "$tree" "$ctl"
busybox_rootfs "$tree"
echo ID=busybox >"$tree/etc/os-release"   # nspawn wants an OS tree
mkdir -p "$tree/ctl" "$ctl"

cd /sys/fs/cgroup || exit 1
hierarchies=(memory pids cpu,cpuacct freezer systemd)

# What the container runs: it reports, then blocks on the fifo /ctl/go until
# the script has looked from outside (and frozen it), then runs past its limits.
inside='
{
  echo "/proc/self/cgroup:"; cat /proc/self/cgroup
  for f in memory/memory.limit_in_bytes pids/pids.max cpu,cpuacct/cpu.shares freezer/freezer.state; do
    echo "$f: $(cat /sys/fs/cgroup/$f 2>&1)"
  done
} >/ctl/report 2>&1
grep -E " - (cgroup|tmpfs) " /proc/self/mountinfo | grep /sys/fs/cgroup >/ctl/mounts
echo ready >/ctl/ready
read go </ctl/go
dd if=/dev/zero of=/dev/null bs=80M count=1 2>&1 | grep -v records
echo "dd status $?"
i=0
while [ $i -lt 30 ]; do sleep 1000 >/dev/null 2>&1 & i=$((i + 1)); done
echo "unreachable: 30 forks under pids.max 24"
'

# NAME [ENV...]: one container in groups of its own, from start to end.
container() {
  local name=$1 pid nspawn_pid cg h i
  shift
  echo "== $name"
  rm -f "$ctl"/*
  for h in "${hierarchies[@]}"; do mkdir "$h/nspawn"; done
  echo 64M >memory/nspawn/memory.limit_in_bytes
  echo 24 >pids/nspawn/pids.max
  echo 512 >cpu,cpuacct/nspawn/cpu.shares
  mkfifo "$ctl/go" "$ctl/moved"
  # nspawn starts in the groups. This script moves it there while it waits
  # on a fifo, hierarchy by hierarchy, as runc moves its container's process:
  # a process that moves itself (cgexec) charges pages to each group it
  # passes through (tests/clients/README.md, "Known limits").
  (
    read -r _ <"$ctl/moved"
    exec env "$@" systemd-nspawn -q -D "$tree" --register=no --keep-unit --console=pipe \
      --bind="$ctl:/ctl" /bin/sh -c "$inside"
  ) >"$ctl/nspawn.out" 2>&1 &
  nspawn_pid=$!
  # Blocked in the open of the fifo (fifo_open() waits in wait_for_partner()).
  for ((i = 0; i < 100; i++)); do
    [[ $(<"/proc/$nspawn_pid/wchan") == @(fifo_open|wait_for_partner) ]] && break
    sleep 0.1
  done
  for h in "${hierarchies[@]}"; do echo "$nspawn_pid" >"$h/nspawn/tasks"; done
  echo moved >"$ctl/moved"
  for ((i = 0; i < 300; i++)); do [[ -e $ctl/ready ]] && break; sleep 0.2; done
  [[ -e $ctl/ready ]] || echo "the container did not report within 60 s"
  cat "$ctl/report"
  # nspawn mounts the hierarchies in the order of a hash table of its own.
  echo "cgroup mounts:"
  mounts <"$ctl/mounts" | sort
  echo "-- outside"
  find systemd/nspawn -mindepth 1 -type d | sort
  # The container's first process (nspawn itself is in .../supervisor).
  pid=$(head -n1 systemd/nspawn/payload/tasks)
  effect_cgroup cg "$pid"
  effect_limit "$pid" memory.max 67108864
  effect_limit "$pid" pids.max 24
  effect_value "$pid" cpu.weight 59
  echo FROZEN >freezer/nspawn/freezer.state
  for ((i = 0; i < 100; i++)); do [[ $(<freezer/nspawn/freezer.state) == FROZEN ]] && break; sleep 0.1; done
  echo "freezer.state $(<freezer/nspawn/freezer.state)"
  effect_frozen "$pid" 1
  echo THAWED >freezer/nspawn/freezer.state
  echo "freezer.state $(<freezer/nspawn/freezer.state)"
  effect_frozen "$pid" 0
  echo go >"$ctl/go"
  wait "$nspawn_pid"; st systemd-nspawn $?
  echo "-- the container's output"
  cat "$ctl/nspawn.out"
  echo "-- after"
  echo "memory.failcnt > 0: $(($(<memory/nspawn/memory.failcnt) > 0))"
  grep oom_kill memory/nspawn/memory.oom_control
  effect_event "$cg" memory.events oom_kill
  effect_event "$cg" pids.events max
  echo "tasks left: $(wc -l <pids/nspawn/tasks)"
  find systemd/nspawn -mindepth 1 -depth -type d -exec rmdir {} \;
  for h in "${hierarchies[@]}"; do rmdir "$h/nspawn"; done
  ls -d memory/nspawn 2>&1 | sed 's/^ls: //'
  [[ -z $cg ]] || effect_gone "$cg"
}

if [[ -n ${NSPAWN_CGNS:-} ]]; then
  container cgns SYSTEMD_NSPAWN_USE_CGNS=1
else
  container no-cgns SYSTEMD_NSPAWN_USE_CGNS=0
fi
