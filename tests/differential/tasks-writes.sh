# Differential: writes to tasks and cgroup.procs: errno of bad pids, and what
# a group lists afterwards (as line counts: pids differ between runs).
cd /sys/fs/cgroup || exit 1
# Builtins and forks only, no exec per case: under TCG each exec costs more
# than the write it checks. count: as `wc -l < F` (newlines).
count() { { local s; IFS= read -r -d '' s; s=${s//[!$'\n']/}; echo ${#s}; } < $1 2>/dev/null; }
# write value $2 to file $1 (a forked writer, as bash -c was: writing 0 moves
# it), print the errno message (or ok) and the line count
t() { local f=$1 v=$2 r; r=$( { echo "$v" > $f; } 2>&1 ); r=${r##*: }; printf 'write %-28s %-12s -> %-24s lines: %s\n' "$f" "'$v'" "${r:-ok}" "$(count $f)"; }

for h in cpu,cpuacct memory freezer; do
  mkdir $h/g
  for f in tasks cgroup.procs; do
    for v in abc -5 99999999 0 "" " " 1x 4294967297; do t $h/g/$f "$v"; done
  done
  rmdir $h/g
done

echo "## a short-lived writer moves itself with 0, then exits"
mkdir cpu,cpuacct/g
bash -c 'echo 0 > cpu,cpuacct/g/tasks; echo "inside: $(wc -l < cpu,cpuacct/g/tasks) task(s), self listed: $(grep -cx $$ cpu,cpuacct/g/tasks)"'
echo "after it exited: $(count cpu,cpuacct/g/tasks) task(s)"
echo "## writing two pids at once"
sleep 1000 & a=$!
sleep 1000 & b=$!
r=$(bash -c "printf '%s\n%s\n' $a $b > cpu,cpuacct/g/tasks" 2>&1 | sed 's/.*: //')
echo "two lines -> ${r:-ok}; listed: $(grep -cxE "$a|$b" cpu,cpuacct/g/tasks)"
kill $a $b; wait $a $b 2>/dev/null
rmdir cpu,cpuacct/g
