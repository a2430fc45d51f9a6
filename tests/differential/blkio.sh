# Differential: blkio files of a child group and the throttle writes that
# blk-throttle refuses (8:0: the guest has no such disk), and how the
# kernel's sscanf reads the numbers on a disk it has (7:0, a loop device):
# no sign, white space skipped, the rest of the line ignored.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, show_head_errno
w() { echo "write $1 '$2': $(try put "blkio/$1" "$2") -> $(show_head_errno "blkio/$1")"; }
mkdir blkio/b
files=$(ls blkio/b | grep '^blkio\.')
mapfile -t modes < <(cd blkio/b && stat -c %a $files)   # one stat for all
i=0
for f in $files; do
  echo "$f: ${modes[i++]} $(show_head_errno blkio/b/$f)"
done
for f in read_bps_device write_bps_device read_iops_device write_iops_device; do
  for v in "8:0 1048576" "8:0 0" bad "8:0" "4095:4095 1" ""; do w b/blkio.throttle.$f "$v"; done
done
w b/blkio.reset_stats 1
w b/blkio.throttle.io_serviced 1
rmdir blkio/b
# In a group of their own: v1 lists a throttled disk in the statistics after.
mkdir blkio/t
for v in "7:0 -1" "7:0 +5" "-7:0 5" "7:0   4096" "7:0 4096 junk" "7:0 0" "7:0 0x10" "7: 0 1"; do
  w t/blkio.throttle.write_bps_device "$v"
done
w t/blkio.throttle.write_bps_device "7:0 0"
rmdir blkio/t
rm -f "$view_err"
