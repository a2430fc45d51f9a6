# Differential (issue 15, item 1): the per-set settings of a group whose
# tasks sit in its directory while it has no child (freezer.state, cpuset
# lists, device rules), once the group gets a child and loses it again. v1
# keeps each group's setting to itself; what a directory had as a leaf must
# not stay behind on it once it is a parent, nor be missing when it is a
# leaf again.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put
# opener is a process (a fork, as bash -c was one) that joins devices group
# $1 and opens /dev/null.
opener() { echo $BASHPID >devices/$1/tasks && : </dev/null; }
wait_state() { # the state of freezer group $1 once it is $2, or what it is after 5 s
  for _ in $(seq 50); do [ "$(<freezer/$1/freezer.state)" = "$2" ] && break; sleep 0.1; done
  echo "$(<freezer/$1/freezer.state)"
}
mkdir -p /tmp/ls && mkfifo /tmp/ls/tick
# A worker that appends a line every 50 ms without forking (read -t on a fifo
# nobody writes is its sleep): runs() says whether it makes progress.
worker() { (exec 3<>/tmp/ls/tick; while :; do echo x >>"/tmp/ls/$1"; read -t 0.05 -u 3; done) & }
runs() { # yes once /tmp/ls/$1 grows, no after 10 s
  local before; before=$(wc -l <"/tmp/ls/$1")
  for _ in $(seq 100); do [ "$(wc -l <"/tmp/ls/$1")" -gt "$before" ] && { echo yes; return; }; sleep 0.1; done
  echo no
}
stop() { { kill "$1"; wait "$1"; } 2>/dev/null; }

echo "## frozen, a child made, thawed (the issue's case)"
mkdir freezer/batch
worker a; a=$!
echo $a > freezer/batch/tasks
echo FROZEN > freezer/batch/freezer.state
echo "batch: $(wait_state batch FROZEN)"
mkdir freezer/batch/sub
echo "batch: $(wait_state batch FROZEN) sub: $(<freezer/batch/sub/freezer.state)"
echo THAWED > freezer/batch/freezer.state
echo "batch: $(wait_state batch THAWED) sub: $(<freezer/batch/sub/freezer.state)"
echo "task runs again: $(runs a)"
stop $a
echo "rmdir sub: $(try rmdir freezer/batch/sub) rmdir batch: $(try rmdir freezer/batch)"

echo "## frozen, a child made and removed, thawed"
mkdir freezer/b2
worker b; b=$!
echo $b > freezer/b2/tasks
echo FROZEN > freezer/b2/freezer.state
echo "b2: $(wait_state b2 FROZEN)"
mkdir freezer/b2/sub
rmdir freezer/b2/sub
echo "b2 after its child went: $(wait_state b2 FROZEN)"
echo THAWED > freezer/b2/freezer.state
echo "b2: $(wait_state b2 THAWED) task runs again: $(runs b)"
stop $b
echo "rmdir b2: $(try rmdir freezer/b2)"

echo "## a child frozen under a parent whose own task keeps running"
mkdir freezer/p3
worker c; c=$!
echo $c > freezer/p3/tasks
mkdir freezer/p3/kid
worker d; d=$!
echo $d > freezer/p3/kid/tasks
echo FROZEN > freezer/p3/kid/freezer.state
echo "kid: $(wait_state p3/kid FROZEN) p3: $(<freezer/p3/freezer.state) parent task runs: $(runs c)"
echo "rmdir of the frozen kid with a task: $(try rmdir freezer/p3/kid)"
echo THAWED > freezer/p3/kid/freezer.state
echo "kid: $(wait_state p3/kid THAWED) its task runs: $(runs d)"
stop $c; stop $d
echo "rmdir: $(try rmdir freezer/p3/kid) $(try rmdir freezer/p3)"

echo "## cpuset: a parent's CPUs widened after its leaf days"
mkdir cpuset/cs
echo 0 > cpuset/cs/cpuset.cpus; echo 0 > cpuset/cs/cpuset.mems
worker e; e=$!
echo $e > cpuset/cs/tasks
echo "in cs (0): $(awk '/Cpus_allowed_list/ {print $2}' /proc/$e/status)"
mkdir cpuset/cs/c
echo 0 > cpuset/cs/c/cpuset.cpus; echo 0 > cpuset/cs/c/cpuset.mems
worker f; f=$!
echo $f > cpuset/cs/c/tasks
echo "widen cs: $(try put cpuset/cs/cpuset.cpus 0-1) widen c: $(try put cpuset/cs/c/cpuset.cpus 0-1)"
echo "in cs: $(awk '/Cpus_allowed_list/ {print $2}' /proc/$e/status) in cs/c: $(awk '/Cpus_allowed_list/ {print $2}' /proc/$f/status)"
stop $f
rmdir cpuset/cs/c
echo "cs a leaf again, narrowed to 1: $(try put cpuset/cs/cpuset.cpus 1) $(awk '/Cpus_allowed_list/ {print $2}' /proc/$e/status)"
stop $e
rmdir cpuset/cs

echo "## devices: a rule a leaf had, lifted once it is a parent"
mkdir devices/d
echo 'c 1:3 rwm' > devices/d/devices.deny
echo "open in d: $(try opener d)"
mkdir devices/d/c
echo "allow again in d: $(try put devices/d/devices.allow 'c 1:3 rwm')"
echo "allow in d/c: $(try put devices/d/c/devices.allow 'c 1:3 rwm')"
echo "open in d: $(try opener d)"
echo "open in d/c: $(try opener d/c)"
rmdir devices/d/c
echo "deny in d, a leaf again: $(try put devices/d/devices.deny 'c 1:3 rwm')"
echo "open in d: $(try opener d)"
rmdir devices/d
rm -r /tmp/ls
