# Differential: mkdir, rmdir, chmod and chown by owners and others, and what
# mode bits mean for each actor (tests/differential/permissions.bash).
. "${0%/*}/permissions.bash"
echo "## mkdir / rmdir"
h=memory
for who in root A B nocap; do
	batch $who "for p in $h/d/by$who $h/u/by$who $h/by$who; do run \"$who mkdir \$p\" mkdir \$p; done"
done
echo "made: $(for x in $h/d/by* $h/u/by* $h/by*; do [ -d $x ] && echo -n "${x#$h/}=$(st $x) "; done)"
case_ B rmdir $h/d/byA "rmdir $h/d/byA"
case_ A rmdir $h/u/byroot "rmdir $h/u/byroot"
case_ nocap rmdir $h/d/byA "rmdir $h/d/byA"
case_ A rmdir $h/d/byroot "rmdir $h/d/byroot"
case_ A rmdir $h/d/byA "rmdir $h/d/byA"
as A "mkdir $h/d/full $h/d/full/child" >/dev/null
case_ A rmdir $h/d/full "rmdir $h/d/full"
spawn_as $A
echo $pid > $h/d/full/child/tasks
case_ A rmdir $h/d/full/child "rmdir $h/d/full/child"
echo $pid > $h/tasks
case_ A rmdir $h/d/full/child "rmdir $h/d/full/child"
case_ A rmdir $h/d/full "rmdir $h/d/full"
case_ A rmdir $h/d "rmdir $h/d"
case_ root rmdir $h/u/byroot "rmdir $h/u/byroot"
for x in $h/d/by* $h/u/by* $h/by*; do rmdir $x 2>/dev/null; done

echo "## chmod / chown"
h=cpu,cpuacct
case_ B chmod $h/d/tasks "chmod 666 $h/d/tasks"
case_ A chmod $h/d/tasks "chmod 664 $h/d/tasks"
case_ A chmod $h/d "chmod 775 $h/d"
case_ A chmod $h/u/cpu.shares "chmod 666 $h/u/cpu.shares"
case_ A chown-B $h/d/tasks "chown $B $h/d/tasks"
case_ A chown-A $h/d/tasks "chown $A $h/d/tasks"
case_ A chgrp-0 $h/d/tasks "chgrp 0 $h/d/tasks"
case_ B chown-B $h/u/cpu.shares "chown $B $h/u/cpu.shares"
case_ nocap chown-A $h/u/cpu.shares "chown $A $h/u/cpu.shares"
case_ nocap chmod $h/u/cpu.shares "chmod 600 $h/u/cpu.shares"
case_ nocap chmod $h/d/tasks "chmod 600 $h/d/tasks"
echo "now: d $(st $h/d) | tasks $(st $h/d/tasks) | cpu.shares $(st $h/u/cpu.shares)"

echo "## mode bits of a knob (u/cpu.shares, root-owned)"
f=$h/u/cpu.shares
for m in 666 600 000 444 200; do
	chmod $m $f
	echo "mode $(st $f)"
	for who in root B nodac nocap; do
		batch $who "rd \$who $f; wr \$who $f 1024"
	done
done
chmod 644 $f
echo "a group dir of mode 000: $(chmod 000 $h/u && st $h/u)"
for who in root B nodac; do
	batch $who "rd \$who $h/u/tasks; run '$who mkdir $h/u/x' mkdir $h/u/x; run '$who rmdir $h/u/x' rmdir $h/u/x"
done
chmod 755 $h/u
echo "a group dir of mode 777 (root-owned): $(chmod 777 $h/u && st $h/u)"
case_ B mkdir $h/u/byB "mkdir $h/u/byB"
echo "  made: $(st $h/u/byB) | tasks $(st $h/u/byB/tasks)"
case_ A rmdir $h/u/byB "rmdir $h/u/byB"
case_ B rmdir $h/u/byB "rmdir $h/u/byB"
chmod 755 $h/u

cleanup
