# Differential: notify_on_release, cgroup.clone_children and release_agent:
# accepted values, errno of refused writes, read-back, inheritance on mkdir.
cd /sys/fs/cgroup || exit 1
# write value $2 to file $1, print the errno message (or ok) and what reads back
# (its first 80 bytes, newlines as |). Builtins and a fork, no exec: under TCG
# each exec costs more than the write it checks.
t() {
  local f=$1 v=$2 r s
  r=$( { echo "$v" > $f; } 2>&1 ); r=${r##*: }
  IFS= read -r -N 80 s 2>/dev/null <$f
  printf 'write %-36s %-8s -> %-24s read: %s\n' "$f" "'$v'" "${r:-ok}" "${s//$'\n'/|}"
}

for h in cpu,cpuacct memory pids; do
  mkdir $h/g
  for v in 1 0 2 -1 abc " 1" "" 1; do t $h/g/notify_on_release "$v"; done
  for v in 1 0 2 -1 abc 0; do t $h/g/cgroup.clone_children "$v"; done
  t $h/notify_on_release 0
  echo "child after parent notify_on_release=1:"
  mkdir $h/g/child
  echo "  notify_on_release=$(<$h/g/child/notify_on_release) clone_children=$(<$h/g/child/cgroup.clone_children)"
  t $h/g/cgroup.clone_children 1
  t $h/g/notify_on_release 0
  mkdir $h/g/child2
  echo "child after parent notify_on_release=0 clone_children=1:"
  echo "  notify_on_release=$(<$h/g/child2/notify_on_release) clone_children=$(<$h/g/child2/cgroup.clone_children)"
  rmdir $h/g/child $h/g/child2 $h/g
done

echo "## release_agent (root only)"
t cpu,cpuacct/release_agent /bin/true
t cpu,cpuacct/release_agent "/usr/bin/env X"
echo "memory root still: [$(<memory/release_agent)]"
t cpu,cpuacct/release_agent ""
mkdir cpu,cpuacct/g
t cpu,cpuacct/g/release_agent /bin/true
echo "child has release_agent: $([ -e cpu,cpuacct/g/release_agent ] && echo yes || echo no)"
t cpu,cpuacct/cgroup.sane_behavior 1
t cpu,cpuacct/g/cgroup.sane_behavior 1
rmdir cpu,cpuacct/g
