# Differential: moving processes between v1 groups of two hierarchies
# (cpu,cpuacct/a and memory/b) and what each tasks file lists afterwards.
# Pids are printed as names (SLEEP, PARENT, CHILD), never as numbers.
# /proc/PID/cgroup is deliberately not read: under cgxfs it shows only the
# v2 line until cgx-exec exists (see tests/differential/pending/).
cd /sys/fs/cgroup || exit 1
names() {   # the tasks of file $1, as names, sorted
  local p out=
  for p in $(cat $1); do
    case $p in
      "$sp") out="$out SLEEP" ;; "$parent") out="$out PARENT" ;; "$child") out="$out CHILD" ;;
      *) out="$out OTHER" ;;
    esac
  done
  echo $(printf '%s\n' $out | sort)
}
has() { grep -qx "$2" $1 && echo yes || echo no; }   # is pid $2 listed in $1?
. "${0%/*}/view.bash"   # try_each_line: ok, or the errno message of each line

mkdir cpu,cpuacct/a memory/b
sleep 1000 & sp=$!
parent="" child=""
echo "## fresh groups: a=[$(names cpu,cpuacct/a/tasks)] b=[$(names memory/b/tasks)]"

echo $sp > cpu,cpuacct/a/tasks
echo "## after moving SLEEP to cpu,cpuacct/a"
echo "a tasks=[$(names cpu,cpuacct/a/tasks)] procs=[$(names cpu,cpuacct/a/cgroup.procs)]"
echo "b tasks=[$(names memory/b/tasks)]"
echo "in cpu,cpuacct root: $(has cpu,cpuacct/tasks $sp)  in memory root: $(has memory/tasks $sp)  in pids root: $(has pids/tasks $sp)"
echo "same via the cpu symlink: [$(names cpu/a/tasks)] cpuacct symlink: [$(names cpuacct/a/tasks)]"

echo $sp > memory/b/cgroup.procs
echo "## after moving SLEEP to memory/b too (via cgroup.procs)"
echo "a tasks=[$(names cpu,cpuacct/a/tasks)] b tasks=[$(names memory/b/tasks)] b procs=[$(names memory/b/cgroup.procs)]"
echo "in cpu,cpuacct root: $(has cpu,cpuacct/tasks $sp)  in memory root: $(has memory/tasks $sp)"

echo "## moving SLEEP again within cpu,cpuacct: a -> a/inner"
mkdir cpu,cpuacct/a/inner
echo $sp > cpu,cpuacct/a/inner/tasks
echo "a=[$(names cpu,cpuacct/a/tasks)] a/inner=[$(names cpu,cpuacct/a/inner/tasks)] b=[$(names memory/b/tasks)]"

echo "## a process moved to both groups forks a child: the child is listed too"
mkfifo /tmp/move-tasks.fifo
bash -c 'read x < /tmp/move-tasks.fifo; sleep 1000 & echo $! > /tmp/move-tasks.child; wait' &
parent=$!
echo $parent > cpu,cpuacct/a/tasks
echo $parent > memory/b/tasks
echo go > /tmp/move-tasks.fifo
for _ in $(seq 100); do [ -s /tmp/move-tasks.child ] && break; sleep 0.1; done
child=$(cat /tmp/move-tasks.child)
echo "a=[$(names cpu,cpuacct/a/tasks)] a/inner=[$(names cpu,cpuacct/a/inner/tasks)] b=[$(names memory/b/tasks)]"
echo "CHILD in cpu,cpuacct root: $(has cpu,cpuacct/tasks $child)  in memory root: $(has memory/tasks $child)  in freezer root: $(has freezer/tasks $child)"

echo "## back to the root of cpu,cpuacct only"
echo $sp > cpu,cpuacct/tasks
echo $child > cpu,cpuacct/tasks
echo "a=[$(names cpu,cpuacct/a/tasks)] a/inner=[$(names cpu,cpuacct/a/inner/tasks)] b=[$(names memory/b/tasks)]"
echo "in cpu,cpuacct root: SLEEP $(has cpu,cpuacct/tasks $sp) CHILD $(has cpu,cpuacct/tasks $child) PARENT $(has cpu,cpuacct/tasks $parent)"
r=$(try_each_line rmdir cpu,cpuacct/a/inner); echo "rmdir emptied a/inner: $r"
r=$(try_each_line rmdir memory/b); echo "rmdir memory/b: $r"

echo "## after the processes exit"
kill $sp $child $parent 2>/dev/null; wait $sp $parent 2>/dev/null
for _ in $(seq 50); do [ -s memory/b/tasks ] || break; sleep 0.1; done
echo "a=[$(names cpu,cpuacct/a/tasks)] b=[$(names memory/b/tasks)]"
r=$(try_each_line rmdir cpu,cpuacct/a memory/b); echo "rmdir a b: $r"
rm -f /tmp/move-tasks.fifo /tmp/move-tasks.child
