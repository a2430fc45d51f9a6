# Differential: the pids files of a child group, pids.max parsing and read-back,
# pids.current counting the tasks of a group and its descendants.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put

mkdir -p pids/p/c
echo "## files"
ls pids/p | grep '^pids\.'
for f in pids.current pids.events pids.max pids.peak; do echo "$f: $(stat -c %a pids/p/$f) $(<pids/p/$f)"; done
echo "root has pids.max: $([ -e pids/pids.max ] && echo yes || echo no)"

echo "## pids.max writes"
for v in 10 max 0 -1 abc " 7 " 0x10 4194304 4194305 99999999999999999999 ""; do
  echo "write '$v': $(try put pids/p/pids.max "$v") -> $(<pids/p/pids.max)"
done
echo max > pids/p/pids.max

echo "## counting"
sleep 1000 & a=$!
sleep 1000 & b=$!
echo $a > pids/p/tasks
echo $b > pids/p/c/tasks
echo "p: $(<pids/p/pids.current) c: $(<pids/p/c/pids.current)"
kill $a $b; wait $a $b 2>/dev/null
echo "after kill p: $(<pids/p/pids.current)"
rmdir pids/p/c pids/p
