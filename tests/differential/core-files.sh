# Differential: the core files every v1 group has (tasks, cgroup.procs,
# notify_on_release, cgroup.clone_children) and the root-only ones
# (release_agent, cgroup.sane_behavior): names, modes, sizes, default values.
# Runs as root with /sys/fs/cgroup laid out like a classic v1 distribution.
cd /sys/fs/cgroup || exit 1
hierarchies="cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb pids rdma misc systemd"
core='^(tasks|cgroup\.procs|notify_on_release|cgroup\.clone_children|release_agent|cgroup\.sane_behavior)$'
# mode, size and type of each core file of group $1 (one stat for all six;
# a missing file prints its errno message instead)
stats() {
  (cd $1 && stat -c '%n: %a %s %F' tasks cgroup.procs notify_on_release cgroup.clone_children \
      release_agent cgroup.sane_behavior 2>&1 | sed -E "s/^stat: cannot statx '([^']*)'/\1/; s/^/  /")
}
yesno() { "$@" && echo yes || echo no; }

echo "## top level"
ls -1 | tr '\n' ' '; echo
for l in cpu cpuacct net_cls net_prio; do echo "symlink $l -> $(readlink $l)"; done

for h in $hierarchies; do
  echo "## $h root: $(stat -c '%a %F' $h)"
  echo "core files: $(ls $h | grep -E "$core" | tr '\n' ' ')"
  stats $h
  echo "notify_on_release=$(cat $h/notify_on_release) clone_children=$(cat $h/cgroup.clone_children) sane_behavior=$(cat $h/cgroup.sane_behavior) release_agent=[$(cat $h/release_agent)]"
  echo "root tasks lists this shell: $(yesno grep -qx $$ $h/tasks) cgroup.procs: $(yesno grep -qx $$ $h/cgroup.procs)"

  mkdir $h/fresh
  echo "## $h fresh group: $(stat -c '%a %F' $h/fresh)"
  echo "core files: $(ls $h/fresh | grep -E "$core" | tr '\n' ' ')"
  stats $h/fresh
  echo "notify_on_release=$(cat $h/fresh/notify_on_release) clone_children=$(cat $h/fresh/cgroup.clone_children) tasks bytes: $(cat $h/fresh/tasks $h/fresh/cgroup.procs | wc -c)"
  rmdir $h/fresh
  echo "after rmdir: $(ls -d $h/fresh 2>&1 | sed 's/.*: //')"
done
