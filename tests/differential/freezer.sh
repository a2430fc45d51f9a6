# Differential: freezer.state, self_freezing and parent_freezing, with a real
# process, a parent freezing its child group, and the writes freezer_write refuses.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put
wait_state() { # the state of group $1 once it is $2, or what it is after 5 s
  for _ in $(seq 50); do [ "$(<freezer/$1/freezer.state)" = "$2" ] && break; sleep 0.1; done
  echo "$(<freezer/$1/freezer.state)"
}

echo "## files of a child group"
mkdir -p freezer/p/c
ls freezer/p | grep '^freezer\.'
for f in freezer.state freezer.self_freezing freezer.parent_freezing; do
  echo "$f: $(stat -c %a freezer/p/$f) $(<freezer/p/$f)"
done
echo "root has freezer.state: $([ -e freezer/freezer.state ] && echo yes || echo no)"

echo "## bad writes"
for v in FREEZING frozen bogus ""; do
  echo "write '$v': $(try put freezer/p/freezer.state "$v") -> $(<freezer/p/freezer.state)"
done
echo "write self_freezing: $(try put freezer/p/freezer.self_freezing 1)"

echo "## a process frozen and thawed"
sleep 1000 & sp=$!
echo $sp > freezer/p/c/tasks
echo "write ' FROZEN ': $(try put freezer/p/freezer.state ' FROZEN ')"
echo "p: $(wait_state p FROZEN) self=$(<freezer/p/freezer.self_freezing) parent=$(<freezer/p/freezer.parent_freezing)"
echo "c: $(wait_state p/c FROZEN) self=$(<freezer/p/c/freezer.self_freezing) parent=$(<freezer/p/c/freezer.parent_freezing)"
echo "write THAWED to the child alone: $(try put freezer/p/c/freezer.state THAWED)"
echo "c: $(<freezer/p/c/freezer.state)"
echo THAWED > freezer/p/freezer.state
echo "p: $(wait_state p THAWED) c: $(wait_state p/c THAWED)"
kill $sp; wait $sp 2>/dev/null
rmdir freezer/p/c freezer/p
echo "removed: $([ -e freezer/p ] && echo no || echo yes)"
