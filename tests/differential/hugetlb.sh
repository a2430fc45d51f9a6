# Differential: hugetlb files per huge page size, limit parsing and rounding.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, bar

mkdir -p hugetlb/h
echo "## files"
for d in hugetlb hugetlb/h; do
  files=$(ls $d | grep '^hugetlb\.')
  mapfile -t modes < <(cd $d && stat -c %a $files)   # one stat for all
  i=0
  for f in $files; do echo "$d $f ${modes[i++]} $(bar $d/$f)"; done
done
echo "## limits"
for size in $(ls hugetlb/h | sed -n 's/^hugetlb\.\([^.]*\)\.limit_in_bytes$/\1/p'); do
  for file in limit_in_bytes rsvd.limit_in_bytes; do
    f=hugetlb/h/hugetlb.$size.$file
    for v in 2M 4M 3M 1G 0 -1 abc " 4M " 1k 18446744073709551615 ""; do
      echo "$size $file '$v': $(try put $f "$v") -> $(<$f)"
    done
  done
  echo "root $size: $(try put hugetlb/hugetlb.$size.limit_in_bytes 2M)"
  for file in failcnt max_usage_in_bytes rsvd.failcnt rsvd.max_usage_in_bytes; do
    echo "reset $size $file: $(try put hugetlb/h/hugetlb.$size.$file 0) -> $(<hugetlb/h/hugetlb.$size.$file)"
  done
  echo "usage write: $(try put hugetlb/h/hugetlb.$size.usage_in_bytes 0)"
done
echo "## inheritance"
echo 4M > hugetlb/h/hugetlb.2MB.limit_in_bytes
mkdir hugetlb/h/c
echo "child: $(<hugetlb/h/c/hugetlb.2MB.limit_in_bytes)"
rmdir hugetlb/h/c hugetlb/h
