# Differential: the core files every v1 group has (tasks, cgroup.procs,
# notify_on_release, cgroup.clone_children) and the root-only ones
# (release_agent, cgroup.sane_behavior): names, modes, sizes, default values.
# Runs as root with /sys/fs/cgroup laid out like a classic v1 distribution.
cd /sys/fs/cgroup || exit 1
hierarchies="cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb pids rdma misc systemd"
core='^(tasks|cgroup\.procs|notify_on_release|cgroup\.clone_children|release_agent|cgroup\.sane_behavior)$'

echo "## top level"
ls -1 | tr '\n' ' '; echo
for l in cpu cpuacct net_cls net_prio; do echo "symlink $l -> $(readlink $l)"; done

for h in $hierarchies; do
  echo "## $h root"
  echo "core files: $(ls $h | grep -E "$core" | tr '\n' ' ')"
  echo "root dir: $(stat -c '%a %F' $h)"
  for f in tasks cgroup.procs notify_on_release cgroup.clone_children release_agent cgroup.sane_behavior; do
    echo "stat $f: $(stat -c '%a %s %F' $h/$f 2>&1 | sed 's/.*: //')"
  done
  echo "notify_on_release=$(cat $h/notify_on_release) clone_children=$(cat $h/cgroup.clone_children) sane_behavior=$(cat $h/cgroup.sane_behavior) release_agent=[$(cat $h/release_agent)]"
  echo "root tasks non-empty: $( [ -s $h/tasks ] && [ "$(wc -l < $h/tasks)" -gt 0 ] && echo yes || echo no)"
  echo "root tasks lists this shell: $(grep -qx $$ $h/tasks && echo yes || echo no)"
  echo "root cgroup.procs lists this shell: $(grep -qx $$ $h/cgroup.procs && echo yes || echo no)"

  mkdir $h/fresh
  echo "## $h fresh group"
  echo "core files: $(ls $h/fresh | grep -E "$core" | tr '\n' ' ')"
  echo "group dir: $(stat -c '%a %F' $h/fresh)"
  for f in tasks cgroup.procs notify_on_release cgroup.clone_children release_agent cgroup.sane_behavior; do
    echo "stat $f: $(stat -c '%a %s %F' $h/fresh/$f 2>&1 | sed 's/.*: //')"
  done
  echo "notify_on_release=$(cat $h/fresh/notify_on_release) clone_children=$(cat $h/fresh/cgroup.clone_children)"
  echo "tasks lines: $(wc -l < $h/fresh/tasks) procs lines: $(wc -l < $h/fresh/cgroup.procs) tasks bytes: $(wc -c < $h/fresh/tasks)"
  rmdir $h/fresh
  echo "after rmdir: $(ls -d $h/fresh 2>&1 | sed 's/.*: //')"
done
