# tests/clients/lxc.bash: the body of lxc.sh and pending/lxc-cgroup-mounts.sh.
# Client tier (tests/vm/README.md): LXC 5.0.2 (cgfsng on a v1 host) makes a
# container from its busybox template with lxc.cgroup.* limits and no
# network (lxc.net.0.type = empty: the guest has none), starts it in the
# background, reads it with lxc-cgroup and lxc-attach, freezes and thaws
# it, runs it past its memory and pids limits, stops and destroys it. LXC
# starts every container in a cgroup namespace of its own. Without
# LXC_CGROUP_MOUNTS the container has no /sys/fs/cgroup (lxc.mount.auto
# proc:mixed sys:ro); with LXC_CGROUP_MOUNTS=1 LXC mounts the hierarchies
# in it (cgroup:mixed:force: without :force it mounts none for a container
# that keeps CAP_SYS_ADMIN) and the container's view of them is read too.
# In the v2 guest each step's real cgroup2 effect is checked (effects.bash).
. "$(dirname "${BASH_SOURCE[0]}")/effects.bash"
command -v lxc-start >/dev/null || { echo "lxc missing (scripts/install-clients)"; exit 1; }
name=cgx-lxc
st() { echo "$1 status $2"; }
mounts() { sed -E 's/^[0-9]+ [0-9]+ [0-9]+:[0-9]+ //; s/ (shared|master|propagate_from):[0-9]+//g'; }
state() { lxc-info -n "$name" -s -H; }

cat >/tmp/lxc-cgx.conf <<'EOF'
lxc.net.0.type = empty
lxc.apparmor.profile = unconfined
EOF
lxc-destroy -n "$name" >/dev/null 2>&1
lxc-create -n "$name" -t busybox -f /tmp/lxc-cgx.conf >/tmp/lxc-create.log 2>&1
st lxc-create $?
mount_auto="proc:mixed sys:ro"
[[ -z ${LXC_CGROUP_MOUNTS:-} ]] || mount_auto="cgroup:mixed:force $mount_auto"
cat >>"/var/lib/lxc/$name/config" <<EOF
lxc.mount.auto =
lxc.mount.auto = $mount_auto
lxc.cgroup.memory.limit_in_bytes = 64M
lxc.cgroup.pids.max = 12
lxc.cgroup.cpu.shares = 512
EOF

echo "== start"
lxc-start -n "$name" -d -o /tmp/lxc-start.log -l INFO; st lxc-start $?
lxc-wait -n "$name" -s RUNNING -t 60; st lxc-wait $?
echo "state $(state)"
pid=$(lxc-info -n "$name" -p -H)
effect_cgroup cg "$pid"
effect_limit "$pid" memory.max 67108864
effect_limit "$pid" pids.max 12
effect_value "$pid" cpu.weight 59
echo "-- outside"
(cd /sys/fs/cgroup && ls -d memory/lxc.* pids/lxc.* systemd/lxc.* 2>&1 | sed 's/^ls: //')
for f in memory.limit_in_bytes pids.max cpu.shares; do
  echo "lxc-cgroup $f: $(lxc-cgroup -n "$name" "$f")"
done
echo "-- inside (lxc-attach)"
# A command that does not fork: lxc-attach moves it one hierarchy after
# another, and a fork right after that may fail under cgx
# (tests/clients/README.md, "Known limits"; pending/lxc-cgroup-mounts.sh).
lxc-attach -n "$name" -- ls -a /sys/fs/cgroup
st lxc-attach $?
[[ -z ${LXC_CGROUP_MOUNTS:-} ]] || lxc-attach -n "$name" -- sh -c '
  for f in memory/memory.limit_in_bytes pids/pids.max cpu,cpuacct/cpu.shares freezer/freezer.state; do
    echo "$f: $(cat /sys/fs/cgroup/$f 2>&1)"
  done
  echo "/proc/self/cgroup:"; cat /proc/self/cgroup
  echo "/proc/1/cgroup:"; cat /proc/1/cgroup
  echo "cgroup mounts:"; grep -E " - (cgroup|tmpfs) " /proc/self/mountinfo | grep /sys/fs/cgroup
' 2>&1 | mounts

echo "== freeze, unfreeze"
lxc-freeze -n "$name"; st lxc-freeze $?
echo "state $(state), freezer.state $(<"/sys/fs/cgroup/freezer/lxc.payload.$name/freezer.state")"
effect_frozen "$pid" 1
lxc-unfreeze -n "$name"; st lxc-unfreeze $?
echo "state $(state), freezer.state $(<"/sys/fs/cgroup/freezer/lxc.payload.$name/freezer.state")"
effect_frozen "$pid" 0

echo "== 80 MiB past 64 MiB"
lxc-attach -n "$name" -- dd if=/dev/zero of=/dev/null bs=80M count=1 2>&1 | grep -v records
st "dd (killed: 137)" "${PIPESTATUS[0]}"
echo "memory.failcnt > 0: $(($(<"/sys/fs/cgroup/memory/lxc.payload.$name/memory.failcnt") > 0))"
grep oom_kill "/sys/fs/cgroup/memory/lxc.payload.$name/memory.oom_control"
effect_event "$cg" memory.events oom_kill

echo "== forks past pids.max 12"
lxc-attach -n "$name" -- sh -c 'i=0
  while [ $i -lt 20 ]; do sleep 1000 >/dev/null 2>&1 & i=$((i + 1)); done
  echo "unreachable: 20 forks"' 2>&1 | sed 's/^[^:]*sh: //'
echo "fork refused: $(($(<"/sys/fs/cgroup/pids/lxc.payload.$name/pids.current") <= 12))"
effect_event "$cg" pids.events max

echo "== stop, destroy"
lxc-stop -n "$name" -k; st lxc-stop $?
echo "state $(state)"
(cd /sys/fs/cgroup && ls -d memory/lxc.payload.* memory/lxc.monitor.* 2>&1 | sed 's/^ls: //')
lxc-destroy -n "$name"; st lxc-destroy $?
ls -d "/var/lib/lxc/$name" 2>&1 | sed 's/^ls: //'
effect_gone "$cg"
