# Differential: hugetlb files per huge page size, limit parsing and rounding.
cd /sys/fs/cgroup || exit 1
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi; }

mkdir -p hugetlb/h
echo "## files"
for d in hugetlb hugetlb/h; do
  for f in $(ls $d | grep '^hugetlb\.'); do echo "$d $f $(stat -c %a $d/$f) $(cat $d/$f | tr '\n' '|')"; done
done
echo "## limits"
for size in $(ls hugetlb/h | sed -n 's/^hugetlb\.\([^.]*\)\.limit_in_bytes$/\1/p'); do
  for file in limit_in_bytes rsvd.limit_in_bytes; do
    f=hugetlb/h/hugetlb.$size.$file
    for v in 2M 4M 3M 1G 0 -1 abc " 4M " 1k 18446744073709551615 ""; do
      echo "$size $file '$v': $(try bash -c "echo '$v' > $f") -> $(cat $f)"
    done
  done
  echo "root $size: $(try bash -c "echo 2M > hugetlb/hugetlb.$size.limit_in_bytes")"
  for file in failcnt max_usage_in_bytes rsvd.failcnt rsvd.max_usage_in_bytes; do
    echo "reset $size $file: $(try bash -c "echo 0 > hugetlb/h/hugetlb.$size.$file") -> $(cat hugetlb/h/hugetlb.$size.$file)"
  done
  echo "usage write: $(try bash -c "echo 0 > hugetlb/h/hugetlb.$size.usage_in_bytes")"
done
echo "## inheritance"
echo 4M > hugetlb/h/hugetlb.2MB.limit_in_bytes
mkdir hugetlb/h/c
echo "child: $(cat hugetlb/h/c/hugetlb.2MB.limit_in_bytes)"
rmdir hugetlb/h/c hugetlb/h
