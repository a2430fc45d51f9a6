# Differential: ownership and modes of groups and core files (v1 delegation
# by chown/chmod), and the operations cgroupfs refuses: creating, removing,
# linking and renaming files. Then what an unprivileged user may do.
cd /sys/fs/cgroup || exit 1
err() { sed 's/.*: //'; }
. "${0%/*}/view.bash"   # try_each_line: ok, or the errno message of each line
st() { stat -c '%a %u:%g %F' "$1" 2>&1 | err; }
as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups -- bash -c "$1" 2>&1 | err; }
# in_view: the calling (sub)shell goes into a group of perf_event, and what it
# starts with it. Under cgxfs a process from a cgroup2 cgroup outside the base
# comes into the view only for a writer cgroup2 itself would let move it
# (nobody gets EACCES where v1 moves it: a deliberate difference, see
# tests/bats/delegation.bats).
in_view() { mkdir -p perf_event/in-view; echo $BASHPID > perf_event/in-view/tasks; }

h=cpu,cpuacct
mkdir $h/g $h/g/sub
echo "## defaults: g $(st $h/g) | tasks $(st $h/g/tasks) | procs $(st $h/g/cgroup.procs) | notify $(st $h/g/notify_on_release)"

echo "## refused operations"
r=$(touch $h/g/newfile 2>&1 | err); echo "create file (touch): $r"
r=$(bash -c "echo x > $h/g/newfile" 2>&1 | err); echo "create file (redirect): $r"
r=$(rm $h/g/tasks 2>&1 | err); echo "unlink tasks: $r"
r=$(rm -f $h/g/notify_on_release 2>&1 | err); echo "unlink -f notify_on_release: $r"
r=$(ln -s tasks $h/g/lnk 2>&1 | err); echo "symlink: $r"
r=$(ln $h/g/tasks $h/g/hardlink 2>&1 | err); echo "hard link: $r"
r=$(mv $h/g/tasks $h/g/tasks2 2>&1 | err); echo "rename a file: $r"
r=$(mknod $h/g/fifo p 2>&1 | err); echo "mknod fifo: $r"
echo "files still there: $(ls $h/g | grep -cE '^(tasks|notify_on_release)$')"

echo "## rename of a group within its parent"
r=$(try_each_line mv $h/g/sub $h/g/sub2); echo "rename sub -> sub2: $r"
echo "now: $(ls -d $h/g/sub $h/g/sub2 2>&1 | err | tr '\n' ' ')"
[ -d $h/g/sub ] || mv $h/g/sub2 $h/g/sub   # the rest does not depend on it
r=$(try_each_line mv $h/g/sub $h/sub3); echo "move sub to another parent: $r"

echo "## chmod / chown"
r=$(try_each_line chmod 700 $h/g); echo "chmod 700 g: $r -> $(st $h/g)"
r=$(try_each_line chmod 755 $h/g); echo "chmod 755 g: $r -> $(st $h/g)"
r=$(try_each_line chmod 600 $h/g/tasks); echo "chmod 600 tasks: $r -> $(st $h/g/tasks)"
r=$(try_each_line chmod 4755 $h/g/tasks); echo "chmod 4755 tasks: $r -> $(st $h/g/tasks)"
r=$(try_each_line chmod 644 $h/g/tasks); echo "chmod 644 tasks: $r -> $(st $h/g/tasks)"
r=$(try_each_line chown 65534:65534 $h/g); echo "chown g: $r -> $(st $h/g)"
r=$(try_each_line chown 65534 $h/g/tasks $h/g/cgroup.procs); echo "chown tasks procs: $r -> $(st $h/g/tasks) | $(st $h/g/cgroup.procs)"
echo "sub keeps: $(st $h/g/sub) | $(st $h/g/sub/tasks)"
mkdir $h/g/new
echo "group made after chown: $(st $h/g/new) | tasks $(st $h/g/new/tasks)"

echo "## as nobody"
r=$(as_nobody "mkdir $h/g/bynobody && echo ok"); echo "nobody mkdir in g (owned by nobody): $r"
echo "  made: $(st $h/g/bynobody) | tasks $(st $h/g/bynobody/tasks)"
r=$(as_nobody "mkdir $h/nope"); echo "nobody mkdir at root: $r"
r=$(in_view; as_nobody "echo 0 > $h/g/tasks && echo ok"); echo "nobody moves itself into g (tasks owned by nobody): $r"
r=$(in_view; as_nobody "echo 0 > $h/g/sub/tasks"); echo "nobody moves itself into g/sub (tasks owned by root): $r"
sleep 1000 & sp=$!
r=$(as_nobody "echo $sp > $h/g/tasks"); echo "nobody moves a root process: $r"
echo "  g lists it: $(grep -cx $sp $h/g/tasks)"
r=$(as_nobody "echo 1 > $h/g/notify_on_release"); echo "nobody writes notify_on_release (root-owned 644): $r"
r=$(as_nobody "rmdir $h/g/bynobody && echo ok"); echo "nobody rmdir its group: $r"
r=$(as_nobody "rmdir $h/g/sub && echo ok"); echo "nobody rmdir g/sub (g owned by nobody, sub by root): $r"
kill $sp; wait $sp 2>/dev/null
rmdir $h/g/new $h/g/sub $h/g/bynobody $h/g perf_event/in-view 2>/dev/null
echo "## cleaned: $(ls -d $h/g 2>&1 | err)"
