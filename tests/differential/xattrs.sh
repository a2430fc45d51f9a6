# Differential: extended attributes of groups and their files (kernfs keeps
# user.* since 5.7, with 128 attributes and 128 KiB of values per inode),
# for root, the owner of a delegated group and another user; rename and
# rmdir. Each case prints ok or the errno message, and what reads back.
cd /sys/fs/cgroup || exit 1
err() { sed 's/.*: //'; }
. "${0%/*}/view.bash"   # try_last_line: ok, or the errno message of the last line
get() { local out; if out=$(getfattr --only-values -n "$2" "$1" 2>&1); then echo "=$out"; else echo "$out" | err; fi; }
names() { getfattr -d -m - --absolute-names "$1" 2>/dev/null | sed -n 's/=.*//p' | sort | tr '\n' ' '; }
A=1001
as_a() { setpriv --reuid $A --regid $A --clear-groups "$@"; }
h=freezer
mkdir $h/g $h/d
chown $A $h/d

echo "## root on a group and a file"
echo "set user.a: $(try_last_line setfattr -n user.a -v 1 $h/g) get: $(get $h/g user.a)"
echo "replace: $(try_last_line setfattr -n user.a -v 22 $h/g) get: $(get $h/g user.a)"
echo "empty value: $(try_last_line setfattr -n user.e $h/g) get: $(get $h/g user.e)"
echo "trusted: $(try_last_line setfattr -n trusted.t -v t $h/g) security: $(try_last_line setfattr -n security.s -v s $h/g)"
echo "bare prefix: $(try_last_line setfattr -n user. -v 1 $h/g) other namespace: $(try_last_line setfattr -n foo.bar -v 1 $h/g)"
echo "file tasks: $(try_last_line setfattr -n user.f -v f $h/g/tasks) get: $(get $h/g/tasks user.f) dir has it: $(get $h/g user.f)"
echo "names: $(names $h/g)"
echo "remove: $(try_last_line setfattr -x user.e $h/g) again: $(try_last_line setfattr -x user.e $h/g) get: $(get $h/g user.e)"

echo "## another user"
echo "get user.a: $(as_a getfattr --only-values -n user.a $h/g 2>&1 | err) trusted: $(as_a getfattr -n trusted.t $h/g 2>&1 | err)"
echo "names: $(as_a getfattr -d -m - --absolute-names $h/g 2>/dev/null | sed -n 's/=.*//p' | sort | tr '\n' ' ')"
echo "set user.b: $(try_last_line as_a setfattr -n user.b -v 1 $h/g) remove user.a: $(try_last_line as_a setfattr -x user.a $h/g)"
echo "set trusted: $(try_last_line as_a setfattr -n trusted.t -v 2 $h/g) security: $(try_last_line as_a setfattr -n security.s -v 2 $h/g)"

echo "## the owner of a delegated group"
echo "set user.o: $(try_last_line as_a setfattr -n user.o -v 1 $h/d) get: $(get $h/d user.o) trusted: $(try_last_line as_a setfattr -n trusted.t -v 2 $h/d)"

echo "## limits of one inode"
# The same setxattr(2) calls setfattr made, one Python for all of them: a
# setfattr per attribute was 257 execs, most of this script under TCG.
python3 - $h/d <<'PY'
import os, sys
d, i, r = sys.argv[1], 0, "ok"
while i < 129 and r == "ok":
    try:
        os.setxattr(d, f"user.x{i}", b"v")
    except OSError as e:
        r = os.strerror(e.errno)
    i += 1
print(f"stopped at {i}: {r}")
PY
echo "replace at the limit: $(try_last_line setfattr -n user.x0 -v w $h/d) trusted there: $(try_last_line setfattr -n trusted.t -v 1 $h/d)"
echo "another inode: $(try_last_line setfattr -n user.x0 -v w $h/d/tasks)"
python3 - $h/d <<'PY'
import os, sys
for i in range(128):
    try:
        os.removexattr(sys.argv[1], f"user.x{i}")
    except OSError:
        pass
PY
setfattr -x user.o $h/d
head -c 65536 /dev/zero | tr '\0' x >/tmp/xattr-64k
echo "64 KiB: $(try_last_line setfattr -n user.s1 -v "$(cat /tmp/xattr-64k)" $h/d) twice: $(try_last_line setfattr -n user.s2 -v "$(cat /tmp/xattr-64k)" $h/d) one more byte: $(try_last_line setfattr -n user.s3 -v 1 $h/d)"
rm -f /tmp/xattr-64k

echo "## rename and rmdir"
mv -T $h/g $h/r
echo "after rename: $(get $h/r user.a) file: $(get $h/r/tasks user.f)"
rmdir $h/r
mkdir $h/r
echo "made again: [$(names $h/r)]"
rmdir $h/r $h/d
echo "## cleaned: $(ls -d $h/d $h/r 2>&1 | err | sort -u)"
