# Differential: net_cls and net_prio, which cgroup2 lacks: parsing,
# read-back, inheritance and css ids.
cd /sys/fs/cgroup || exit 1
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi; }
h=net_cls,net_prio

mkdir -p $h/a
echo "## files"
for d in $h $h/a; do for f in $(ls $d | grep '^net_'); do echo "$d $f $(stat -c %a $d/$f) $(cat $d/$f | tr '\n' '|')"; done; done
echo "## classid"
for v in 0x100001 1048577 0 4294967296 4294967297 -1 abc " 5" "5 " 0x 077 ""; do
  echo "write '$v': $(try bash -c "echo '$v' > $h/a/net_cls.classid") -> $(cat $h/a/net_cls.classid)"
done
echo "## ifpriomap"
for v in "lo 5" "lo  7" " lo 3" "lo" "lo -1" "lo x" "nosuchdev 1" "lo 4294967296" "lo 5 junk" "lo 0" ""; do
  echo "write '$v': $(try bash -c "echo '$v' > $h/a/net_prio.ifpriomap") -> $(cat $h/a/net_prio.ifpriomap | tr '\n' '|')"
done
echo "## inheritance"
echo 0x10002 > $h/a/net_cls.classid
echo "lo 9" > $h/a/net_prio.ifpriomap
mkdir $h/a/b
echo "child: $(cat $h/a/b/net_cls.classid) $(cat $h/a/b/net_prio.ifpriomap | tr '\n' '|')"
echo "## prioidx"
mkdir $h/c $h/d
echo "a=$(cat $h/a/net_prio.prioidx) b=$(cat $h/a/b/net_prio.prioidx) c=$(cat $h/c/net_prio.prioidx) d=$(cat $h/d/net_prio.prioidx)"
rmdir $h/c
mkdir $h/e
echo "e reuses: $(cat $h/e/net_prio.prioidx)"
rmdir $h/e $h/d $h/a/b $h/a
