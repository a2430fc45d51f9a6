# Differential: net_cls and net_prio, which cgroup2 lacks: parsing,
# read-back, inheritance and css ids.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, bar
h=net_cls,net_prio

mkdir -p $h/a
echo "## files"
for d in $h $h/a; do
  files=$(ls $d | grep '^net_')
  mapfile -t modes < <(cd $d && stat -c %a $files)   # one stat for all
  i=0
  for f in $files; do echo "$d $f ${modes[i++]} $(bar $d/$f)"; done
done
echo "## classid"
for v in 0x100001 1048577 0 4294967296 4294967297 -1 abc " 5" "5 " 0x 077 ""; do
  echo "write '$v': $(try put $h/a/net_cls.classid "$v") -> $(<$h/a/net_cls.classid)"
done
echo "## ifpriomap"
for v in "lo 5" "lo  7" " lo 3" "lo" "lo -1" "lo x" "nosuchdev 1" "lo 4294967296" "lo 5 junk" "lo 0" ""; do
  echo "write '$v': $(try put $h/a/net_prio.ifpriomap "$v") -> $(bar $h/a/net_prio.ifpriomap)"
done
echo "## inheritance"
echo 0x10002 > $h/a/net_cls.classid
echo "lo 9" > $h/a/net_prio.ifpriomap
mkdir $h/a/b
echo "child: $(<$h/a/b/net_cls.classid) $(bar $h/a/b/net_prio.ifpriomap)"
echo "## prioidx"
mkdir $h/c $h/d
echo "a=$(<$h/a/net_prio.prioidx) b=$(<$h/a/b/net_prio.prioidx) c=$(<$h/c/net_prio.prioidx) d=$(<$h/d/net_prio.prioidx)"
rmdir $h/c
mkdir $h/e
echo "e reuses: $(<$h/e/net_prio.prioidx)"
rmdir $h/e $h/d $h/a/b $h/a
