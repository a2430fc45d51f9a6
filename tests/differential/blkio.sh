# Differential: blkio files of a child group and the throttle writes that
# blk-throttle refuses (8:0: the guest has no such disk), and how the
# kernel's sscanf reads the numbers on a disk it has (7:0, a loop device):
# no sign, white space skipped, the rest of the line ignored.
cd /sys/fs/cgroup || exit 1
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi; }
w() { echo "write $1 '$2': $(try bash -c "echo '$2' > blkio/$1") -> $(head -c 80 blkio/$1 2>&1 | sed 's/.*: //' | tr '\n' '|')"; }
mkdir blkio/b
for f in $(ls blkio/b | grep '^blkio\.'); do
  echo "$f: $(stat -c %a blkio/b/$f) $(head -c 80 blkio/b/$f 2>&1 | sed 's/.*: //' | tr '\n' '|')"
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
