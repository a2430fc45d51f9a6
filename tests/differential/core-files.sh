# Differential: the core files every v1 group has (tasks, cgroup.procs,
# notify_on_release, cgroup.clone_children) and the root-only ones
# (release_agent, cgroup.sane_behavior): names, modes, sizes, default values.
# Runs as root with /sys/fs/cgroup laid out like a classic v1 distribution.
cd /sys/fs/cgroup || exit 1
hierarchies="cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb pids rdma misc systemd"
core='^(tasks|cgroup\.procs|notify_on_release|cgroup\.clone_children|release_agent|cgroup\.sane_behavior)$'
# mode, size and type of each core file of group $1 (one stat for all six;
# a missing file prints its errno message instead)
# (sed's "stat: cannot statx 'F'" -> "F" by a bash match: no exec but stat)
statx_re="^stat: cannot statx '([^']*)'(.*)\$"
stats() {
  local l
  (cd $1 && stat -c '%n: %a %s %F' tasks cgroup.procs notify_on_release cgroup.clone_children \
      release_agent cgroup.sane_behavior 2>&1) | while IFS= read -r l; do
    [[ $l =~ $statx_re ]] && l=${BASH_REMATCH[1]}${BASH_REMATCH[2]}
    echo "  $l"
  done
}
yesno() { "$@" && echo yes || echo no; }
# The rest by builtins too, where grep, tr and cat each cost an exec under
# TCG, thirteen hierarchies over: corenames (ls | grep -E "$core" | tr '\n' ' ')
# names the core files of a listing, listed (grep -qx) looks for a line.
corenames() { local f; for f; do [[ $f =~ $core ]] && echo -n "$f "; done; }
listed() { local l; while IFS= read -r l; do [[ $l == "$1" ]] && return 0; done <"$2"; return 1; }

echo "## top level"
ls -1 | tr '\n' ' '; echo
for l in cpu cpuacct net_cls net_prio; do echo "symlink $l -> $(readlink $l)"; done

for h in $hierarchies; do
  echo "## $h root: $(stat -c '%a %F' $h)"
  echo "core files: $(corenames $(ls $h))"
  stats $h
  echo "notify_on_release=$(<$h/notify_on_release) clone_children=$(<$h/cgroup.clone_children) sane_behavior=$(<$h/cgroup.sane_behavior) release_agent=[$(<$h/release_agent)]"
  echo "root tasks lists this shell: $(yesno listed $$ $h/tasks) cgroup.procs: $(yesno listed $$ $h/cgroup.procs)"

  mkdir $h/fresh
  echo "## $h fresh group: $(stat -c '%a %F' $h/fresh)"
  echo "core files: $(corenames $(ls $h/fresh))"
  stats $h/fresh
  echo "notify_on_release=$(<$h/fresh/notify_on_release) clone_children=$(<$h/fresh/cgroup.clone_children) tasks bytes: $(cat $h/fresh/tasks $h/fresh/cgroup.procs | wc -c)"
  rmdir $h/fresh
  echo "after rmdir: $(ls -d $h/fresh 2>&1 | sed 's/.*: //')"
done
