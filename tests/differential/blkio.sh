# Differential: blkio files of a child group and the throttle writes that
# blk-throttle refuses (8:0: the guest has no such disk), and how the
# kernel's sscanf reads the numbers on a disk it has (7:0, a loop device):
# no sign, white space skipped, the rest of the line ignored.
cd /sys/fs/cgroup || exit 1
# Builtins and forks only, no exec per case: under TCG each exec costs more
# than the write it checks. put writes as `bash -c "echo V > F"` did; show
# prints what `head -c 80 F 2>&1 | sed 's/.*: //' | tr '\n' '|'` did
# (LC_ALL=C: -N counts bytes; an open or read error as its errno message).
E=/tmp/blkio.err
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "${out##*: }"; fi; }
put() { echo "$2" >"$1"; }
show() {
  local s r= l
  IFS= read -r -N 80 s 2>"$E" <"$1"
  if [ -s "$E" ]; then read -r s <"$E"; s+=$'\n'; fi
  while [[ $s == *$'\n'* ]]; do l=${s%%$'\n'*}; r+="${l##*: }|"; s=${s#*$'\n'}; done
  echo "$r${s##*: }"
}
w() { echo "write $1 '$2': $(try put "blkio/$1" "$2") -> $(show "blkio/$1")"; }
mkdir blkio/b
files=$(ls blkio/b | grep '^blkio\.')
mapfile -t modes < <(cd blkio/b && stat -c %a $files)   # one stat for all
i=0
for f in $files; do
  echo "$f: ${modes[i++]} $(show blkio/b/$f)"
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
rm -f "$E"
