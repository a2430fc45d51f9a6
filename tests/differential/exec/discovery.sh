# Differential, run under cgx-exec: what a client that discovers cgroups sees
# (the mount table, /proc/cgroups, statfs, /proc/self/cgroup), and a
# hierarchy mounted by hand the way cgroupfs-mount and LTP do it.
echo "-- /proc/self/mounts"
grep -E '^[^ ]+ /sys/fs/cgroup[/ ]' /proc/self/mounts | sort
echo "-- /proc/mounts = /proc/self/mounts: $(cmp -s /proc/mounts /proc/self/mounts && echo yes || echo no)"
echo "-- mountinfo: root, point, fstype, super options"
awk '$5 ~ "^/sys/fs/cgroup" { for (i = 7; $i != "-"; i++) ; print $4, $5, $(i + 1), $(i + 3) }' \
  /proc/self/mountinfo | sort
echo "-- /proc/cgroups"
cat /proc/cgroups
echo "-- statfs"
for d in /sys/fs/cgroup /sys/fs/cgroup/memory /sys/fs/cgroup/cpu,cpuacct /sys/fs/cgroup/freezer; do
  echo "$d: $(stat -f -c %T "$d")"
done
echo "-- /proc/self/cgroup"
cut -d: -f2- /proc/self/cgroup | sort
echo "-- mount -t cgroup -o freezer"
mkdir -p /tmp/f
mount -t cgroup -o freezer x /tmp/f; echo "mount: $?"
grep ' /tmp/f ' /proc/self/mounts
stat -f -c %T /tmp/f
mkdir /tmp/f/g && echo "mkdir through the new mount: ok"
ls -d /sys/fs/cgroup/freezer/g
echo FROZEN > /tmp/f/g/freezer.state; cat /sys/fs/cgroup/freezer/g/freezer.state
rmdir /tmp/f/g; umount /tmp/f; echo "umount: $?"
echo "-- mount -t cgroup with a controller bound elsewhere"
mkdir -p /tmp/c
mount -t cgroup -o cpu x /tmp/c 2>&1 | sed 's/^mount: //'; echo "status ${PIPESTATUS[0]}"
