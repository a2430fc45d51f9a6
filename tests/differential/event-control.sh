# Differential: cgroup.event_control's parser and checks, errno for errno:
# malformed lines, descriptors that are not open, an efd that is no eventfd,
# a control file that takes no listener or belongs to another group,
# descriptors opened with O_PATH (fdget() finds none), and the same
# registration made three times (three events, each woken at rmdir).
cd /sys/fs/cgroup || exit 1
mkdir memory/ev memory/other
. "${0%/*}/view.bash"   # try, put
for v in "" abc 1 "1 " "+1 2" "1 -2" "99 98" "5  3"; do
  echo "write '$v': $(try put memory/ev/cgroup.event_control "$v")"
done
python3 - <<'PY'
import os
ev = os.eventfd(0)
def write(what, efd, cfd, args="100M", group="ev"):
    try:
        with open(f"memory/{group}/cgroup.event_control", "w") as f:
            f.write(f"{efd} {cfd} {args}")
        result = "ok"
    except OSError as e:
        result = os.strerror(e.errno)
    print(f"{what}: {result}")
def opened(path):
    return os.open(path, os.O_RDONLY)
write("efd not open", 987, opened("memory/ev/memory.usage_in_bytes"))
write("efd not an eventfd", opened("/dev/null"), opened("memory/ev/memory.usage_in_bytes"))
write("cfd not open", ev, 986)
write("cfd memory.limit_in_bytes", ev, opened("memory/ev/memory.limit_in_bytes"))
write("cfd tasks", ev, opened("memory/ev/tasks"))
write("cfd another group's usage", ev, opened("memory/other/memory.usage_in_bytes"))
write("cfd a file outside", ev, opened("/etc/hostname"))
write("efd opened O_PATH", os.open(f"/proc/self/fd/{ev}", os.O_PATH),
      opened("memory/ev/memory.usage_in_bytes"))
write("cfd opened O_PATH", ev, os.open("memory/ev/memory.usage_in_bytes", os.O_PATH))
import select, time
os.mkdir("memory/dup")
dup = os.eventfd(0, os.EFD_NONBLOCK)
for _ in range(3):
    write("the same registration", dup, opened("memory/dup/memory.usage_in_bytes"), "1G", "dup")
os.rmdir("memory/dup")
total, deadline = 0, time.monotonic() + 5
while time.monotonic() < deadline:
    if select.select([dup], [], [], 0.5)[0]:
        total += os.eventfd_read(dup)
    elif total >= 3:
        break
print(f"signals at rmdir: {total}")
PY
rmdir memory/ev memory/other
