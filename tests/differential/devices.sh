# Differential: devices.allow/deny/list of the kernel's whitelist. The rule
# parser's bad input, the list after each change, a child that may not grant
# what its parent denies, and a real open refused by the rules.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, bar
# list GROUP: its devices.list, newlines as '|'; opener is a process of d/c
# (a fork, as bash -c was one) that opens a device.
list() { bar "devices/$1/devices.list"; }
w() { echo "write $1 '$2': $(try put "devices/$1" "$2") -> $(list "${1%/*}")"; }
opener() { echo $BASHPID >devices/d/c/tasks && eval ": $1"; }

mkdir devices/d
for f in devices.allow devices.deny devices.list; do
  echo "$f: $(stat -c %a devices/d/$f) $(stat -c %a devices/$f)"
done
echo "## the parser"
for v in "" a b c x "c 1:3" "c 1:3 r" "c 1:3 rwm" "c 1:3 rwmx" "c 1:3 rr" "c *:* m" "b 8:* rw" \
         "c 1: r" "c :3 r" "c 1:3  r" "c 1 :3 r" "c 4294967296:1 r" "c 1:4294967295 r" "c 01:03 r" \
         "c 1:3 r " " c 1:3 r" "a 1:3 r" "a *:* rwm" "cc 1:3 r" "c1:3 r" "c a:3 r"; do
  w d/devices.deny "$v"
done
echo "## default deny, then exceptions (no child yet)"
w d/devices.deny a
for v in "c 1:3 rwm" "c 1:5 r" "c 1:5 w" "b 8:0 m" "c *:* m" "c 1:3 rwm"; do w d/devices.allow "$v"; done
for v in "c 1:5 w" "c *:* m" "c 1:9 r"; do w d/devices.deny "$v"; done
echo "## a parent with a child keeps its default"
mkdir devices/d/c
w d/devices.allow a
w d/devices.deny a
echo "## a child inherits and may not widen"
echo "child list: $(list d/c)"
for v in "c 1:3 r" "c 1:7 r" "c 1:5 rw" "a" "b 8:0 m"; do w d/c/devices.allow "$v"; done
for v in "c 1:3 w" "a"; do w d/c/devices.deny "$v"; done
echo "## the parent's deny reaches the child"
w d/c/devices.allow "c 1:3 rwm"
w d/devices.deny "c 1:3 w"
echo "child list: $(list d/c)"
echo "## a real open"
for open in "< /dev/null" "> /dev/null" "< /dev/zero" "> /dev/zero" "< /dev/full"; do
  echo "open $open: $(try opener "$open")"
done
echo "## the root"
for f in devices.allow devices.deny; do echo "write $f: $(try put devices/$f a)"; done
rmdir devices/d/c devices/d
