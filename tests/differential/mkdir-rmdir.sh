# Differential: creating and removing v1 groups, and the errno of each refusal.
cd /sys/fs/cgroup || exit 1
err() { sed 's/.*: //'; }   # keep only the errno message of a failed command
. "${0%/*}/view.bash"   # try_each_line: ok, or the errno message of each line

for h in cpu,cpuacct memory freezer systemd; do
  echo "## $h"
  r=$(try_each_line mkdir $h/g); echo "mkdir g: $r"
  r=$(mkdir $h/g 2>&1 | err); echo "mkdir g again: $r"
  r=$(try_each_line mkdir $h/g/sub); echo "mkdir g/sub: $r"
  r=$(try_each_line mkdir -p $h/g/x/y/z); echo "mkdir -p g/x/y/z: $r"
  echo "subdirs of g: $(cd $h/g && find . -mindepth 1 -type d | sort | tr '\n' ' ')"
  r=$(rmdir $h/g 2>&1 | err); echo "rmdir g with children: $r"
  r=$(rmdir $h/g/x 2>&1 | err); echo "rmdir g/x with children: $r"
  r=$(try_each_line rmdir $h/g/x/y/z $h/g/x/y $h/g/x); echo "rmdir z y x: $r"
  r=$(rmdir $h/g/nonexistent 2>&1 | err); echo "rmdir nonexistent: $r"
  r=$(mkdir $h/g/tasks 2>&1 | err); echo "mkdir named like a file: $r"
  r=$(try_each_line mkdir "$h/g/a b"); echo "mkdir with space: $r"
  echo "listed: $(ls $h/g | grep -c '^a b$')"
  r=$(try_each_line rmdir "$h/g/a b"); echo "rmdir with space: $r"
  r=$(rmdir $h/g/tasks 2>&1 | err); echo "rmdir a file: $r"

  sleep 1000 & sp=$!
  echo $sp > $h/g/sub/tasks
  r=$(rmdir $h/g/sub 2>&1 | err); echo "rmdir group with a task: $r"
  kill $sp; wait $sp 2>/dev/null
  r=$(try_each_line rmdir $h/g/sub); echo "rmdir after the task exited: $r"
  r=$(try_each_line rmdir $h/g); echo "rmdir g: $r"
  echo "g exists: $([ -e $h/g ] && echo yes || echo no)"
done
