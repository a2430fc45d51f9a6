#!/usr/bin/env bats
# Runs INSIDE a v2 guest (tests/vm/run-guest v2 ...): a kernel booted with
# cgroup_no_v1=all, cgroup2 at /sys/fs/cgroup with every controller enabled.
# cgxfs is started once for the file over the base "cgx".
# Needs CGX_BUILD (the build directory holding bin/cgxfs).

VIEW=/run/cgx-view

load view

setup_file() {
  view_start "$VIEW" cgxfs-base.log --base cgx
}

teardown_file() {
  view_stop "$VIEW"
}

@test "the guest kernel is pure cgroup2: v1 controllers cannot be mounted" {
  mkdir -p /tmp/v1try
  run mount -t cgroup -o cpu cgroup /tmp/v1try
  [ "$status" -ne 0 ]
  grep -q 'cgroup2 /sys/fs/cgroup cgroup2' /proc/mounts
}

@test "the default mount point under /sys/fs is made on this kernel too, every entry kept" {
  # Debian 12's 6.1 refuses to move a mount into a detached tree, which the
  # first overlay of /sys/fs was built as: the host's newer kernel took it.
  CGXFS=$CGX_BUILD/bin/cgxfs run bats --tap --filter "default mount point" \
    "$BATS_TEST_DIRNAME/../../bats/mount.bats"
  [ "$status" = 0 ]
  [[ "$output" == *"ok 1 the default mount point"* ]]
}

@test "the guest root offers and delegates every controller" {
  for c in cpuset cpu io memory hugetlb pids rdma misc; do
    grep -qw "$c" /sys/fs/cgroup/cgroup.controllers
    grep -qw "$c" /sys/fs/cgroup/cgroup.subtree_control
  done
}

@test "cgxfs creates its base with cpu, memory, io and pids available" {
  [ -d /sys/fs/cgroup/cgx ]
  run cat /sys/fs/cgroup/cgx/cgroup.controllers
  echo "cgx/cgroup.controllers: $output"
  [ "$status" -eq 0 ]
  for c in cpu memory io pids; do
    [[ " $output " == *" $c "* ]]
  done
}

@test "cgxfs serves the classic hierarchies and their symlinks" {
  for h in cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio \
           perf_event hugetlb pids rdma misc systemd; do
    [ -f "$VIEW/$h/tasks" ]
  done
  [ "$(readlink "$VIEW/cpu")" = cpu,cpuacct ]
  [ "$(readlink "$VIEW/net_prio")" = net_cls,net_prio ]
}

@test "a group made in the view is a directory below the base" {
  mkdir "$VIEW/cpu,cpuacct/vmprobe"
  sleep 1000 3>&- &
  local pid=$!
  echo "$pid" >"$VIEW/cpu,cpuacct/vmprobe/tasks"
  run grep -rlx "$pid" --include=cgroup.procs /sys/fs/cgroup/cgx
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "cgroup.procs naming the task: $output"
  [ "$status" -eq 0 ]
  [[ $output == /sys/fs/cgroup/cgx/* ]]
  for _ in $(seq 20); do rmdir "$VIEW/cpu,cpuacct/vmprobe" 2>/dev/null && break; sleep 0.1; done
  [ ! -e "$VIEW/cpu,cpuacct/vmprobe" ]
}
