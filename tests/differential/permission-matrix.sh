# Differential: who may do what, one line per case, as a v1 kernel answers.
# Actors: root; A (uid 1001), owner of the delegated groups "d" (group dir,
# tasks and cgroup.procs chowned to it, as v1 delegation does); B (uid 1002),
# who owns nothing; root without capabilities. Each case prints
# "ACTOR OP PATH: ok" or the errno message.
cd /sys/fs/cgroup || exit 1
A=1001 B=1002
err() { sed 's/.*: //'; }
# Cheap cases, run inside one shell per actor (an exec costs much under TCG):
# rd and wr print "ACTOR read|write(V) FILE: ok" or the errno message.
lib='rd() { local out; out=$( { read -r -d "" _ <"$2"; } 2>&1 ); out=${out##*: }; echo "$1 read $2: ${out:-ok}"; }
wr() { local out; out=$( { echo "$3" >"$2"; } 2>&1 ); out=${out##*: }; echo "$1 write($3) $2: ${out:-ok}"; }
'
# runas WHO: the command line that runs bash as WHO.
runas() {
	case $1 in
	root) echo bash ;;
	A) echo setpriv --reuid $A --regid $A --clear-groups bash ;;
	B) echo setpriv --reuid $B --regid $B --clear-groups bash ;;
	# root with no capability at all: owner checks only, as for any uid.
	nocap) echo setpriv --inh-caps=-all --bounding-set=-all bash ;;
	# root without the DAC overrides: mode bits apply, the rest stays.
	nodac) echo setpriv --inh-caps=-all --bounding-set=-dac_override,-dac_read_search bash ;;
	esac
}
# batch WHO CASES: runs the rd/wr lines of CASES (with $who set) in one shell as WHO.
batch() { $(runas "$1") -c "who=$1; $lib $2" 2>&1; }
# as WHO CMD: runs CMD in bash as WHO, prints ok or the errno message.
as() {
	local out
	if out=$($(runas "$1") -c "$2" 2>&1); then echo ok; else echo "${out:-failed}" | tail -n1 | err; fi
}
case_() { echo "$1 $2 $3: $(as "$1" "$4")"; }
st() { stat -c '%a %u:%g' "$1" 2>&1 | err; }
spawn_as() {   # spawn_as UID: a sleep of that uid, its pid in $pid
	(exec setpriv --reuid "$1" --regid "$1" --clear-groups sleep 1000 </dev/null >/dev/null 2>&1) &
	pid=$!
	sleepers="$sleepers $pid"
}
sleepers=
trap 'kill $sleepers 2>/dev/null; wait 2>/dev/null' EXIT
ingroup() { grep -qx "$1" "$2" && echo yes || echo no; }

declare -A knob=([cpu,cpuacct]=cpu.shares [memory]=memory.limit_in_bytes [pids]=pids.max [freezer]=freezer.state)
declare -A val=([cpu,cpuacct]=1024 [memory]=-1 [pids]=max [freezer]=THAWED)
for h in cpu,cpuacct memory pids freezer; do
	mkdir $h/d $h/u
	chown $A:$A $h/d $h/d/tasks $h/d/cgroup.procs
done

echo "## files of a delegated (d) and a root-owned (u) group"
cases=
for h in cpu,cpuacct memory; do
	for g in d u; do
		for f in tasks cgroup.procs notify_on_release cgroup.clone_children ${knob[$h]}; do
			case $f in tasks | cgroup.procs | notify_on_release | cgroup.clone_children) v=0 ;; *) v=${val[$h]} ;; esac
			cases+="rd \$who $h/$g/$f; wr \$who $h/$g/$f $v; "
		done
	done
done
for h in pids freezer; do
	for g in d u; do
		cases+="rd \$who $h/$g/${knob[$h]}; wr \$who $h/$g/${knob[$h]} ${val[$h]}; "
	done
done
for who in root A B; do batch $who "$cases"; done

echo "## root-only files"
h=cpu,cpuacct
for who in root A B nocap; do
	batch $who "rd \$who $h/release_agent; wr \$who $h/release_agent ''; rd \$who $h/cgroup.sane_behavior
		wr \$who $h/cgroup.sane_behavior 1; rd \$who $h/notify_on_release; wr \$who $h/notify_on_release 0
		wr \$who $h/tasks 0"
done
echo "release_agent in a child: $(ls $h/d/release_agent 2>&1 | err) | sane_behavior in a child: $(ls $h/d/cgroup.sane_behavior 2>&1 | err)"
case_ root write $h/d/release_agent "echo /bin/true > $h/d/release_agent"
case_ A write $h/d/release_agent "echo /bin/true > $h/d/release_agent"
echo "release_agent now: [$(cat $h/release_agent)]"

echo "## mkdir / rmdir"
h=memory
for who in root A B nocap; do
	case_ $who mkdir $h/d/by$who "mkdir $h/d/by$who"
	case_ $who mkdir $h/u/by$who "mkdir $h/u/by$who"
	case_ $who mkdir $h/by$who "mkdir $h/by$who"
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
	batch $who "rd \$who $h/u/tasks"
	case_ $who mkdir $h/u/x "mkdir $h/u/x"
	case_ $who rmdir $h/u/x "rmdir $h/u/x"
done
chmod 755 $h/u
echo "a group dir of mode 777 (root-owned): $(chmod 777 $h/u && st $h/u)"
case_ B mkdir $h/u/byB "mkdir $h/u/byB"
echo "  made: $(st $h/u/byB) | tasks $(st $h/u/byB/tasks)"
case_ A rmdir $h/u/byB "rmdir $h/u/byB"
case_ B rmdir $h/u/byB "rmdir $h/u/byB"
chmod 755 $h/u

echo "## moving processes of other users (cpu,cpuacct/d: tasks and procs owned by A)"
h=cpu,cpuacct
chmod 666 $h/u/tasks $h/u/cgroup.procs
spawn_as $B; pb=$pid
spawn_as $A; pa=$pid
for f in tasks cgroup.procs; do
	case_ A "move B's process via" $h/d/$f "echo $pb > $h/d/$f"
	echo "  in d: $(ingroup $pb $h/d/$f)"
	case_ A "move own process via" $h/d/$f "echo $pa > $h/d/$f"
	echo "  in d: $(ingroup $pa $h/d/$f)"
	case_ B "move A's process (file 666) via" $h/u/$f "echo $pa > $h/u/$f"
	echo "  in u: $(ingroup $pa $h/u/$f)"
	case_ nocap "move B's process via" $h/u/$f "echo $pb > $h/u/$f"
	echo "  in u: $(ingroup $pb $h/u/$f)"
	echo $pa > $h/tasks
	echo $pb > $h/tasks
done
# a target whose real uid is not the mover's but whose saved uid is, and the reverse
(exec setpriv --ruid $B --euid $A --regid $A --clear-groups sleep 1000 </dev/null >/dev/null 2>&1) &
pmix=$!; sleepers="$sleepers $pmix"
(exec setpriv --ruid $A --euid $B --regid $B --clear-groups sleep 1000 </dev/null >/dev/null 2>&1) &
pmix2=$!; sleepers="$sleepers $pmix2"
for _ in $(seq 100); do   # until both setprivs have exec'd sleep
	[ "$(readlink /proc/$pmix/exe)$(readlink /proc/$pmix2/exe)" = /usr/bin/sleep/usr/bin/sleep ] && break
	sleep 0.1
done
echo "uids of the targets: $(awk '/^Uid/ {print $2,$3,$4}' /proc/$pmix/status) / $(awk '/^Uid/ {print $2,$3,$4}' /proc/$pmix2/status)"
case_ A "move (ruid B, euid=suid A) via" $h/d/tasks "echo $pmix > $h/d/tasks"
case_ A "move (ruid A, euid=suid B) via" $h/d/tasks "echo $pmix2 > $h/d/tasks"
case_ B "move (ruid B, euid=suid A) via" $h/u/tasks "echo $pmix > $h/u/tasks"
echo "  in d: $(ingroup $pmix $h/d/tasks) $(ingroup $pmix2 $h/d/tasks) in u: $(ingroup $pmix $h/u/tasks)"
echo $pmix > $h/tasks; echo $pmix2 > $h/tasks
# a writer whose real uid is root and effective uid A, and the reverse
# bash -p: without it bash sets its effective uid back to the real one
echo "writer ruid 0 euid A moves B's: $(out=$(setpriv --euid $A bash -p -c "echo $pb > $h/d/tasks" 2>&1) && echo ok || echo "$out" | err)"
echo "writer ruid A euid 0 moves B's: $(out=$(setpriv --ruid $A bash -p -c "echo $pb > $h/u/tasks" 2>&1) && echo ok || echo "$out" | err)"
echo "  in d: $(ingroup $pb $h/d/tasks) in u: $(ingroup $pb $h/u/tasks)"
echo $pb > $h/tasks
echo "## threads (a perl process of B with two threads)"
(exec setpriv --reuid $B --regid $B --clear-groups perl -Mthreads -e 'threads->create(sub { sleep 1000 })->detach; sleep 1000' </dev/null >/dev/null 2>&1) &
pt=$!; sleepers="$sleepers $pt"
for _ in $(seq 50); do [ "$(ls /proc/$pt/task | wc -l)" = 2 ] && break; sleep 0.1; done
tid=$(ls /proc/$pt/task | grep -vx $pt)
echo "threads: $(ls /proc/$pt/task | wc -l)"
case_ A "move B's thread via" $h/d/tasks "echo $tid > $h/d/tasks"
case_ A "move B's thread via" $h/d/cgroup.procs "echo $tid > $h/d/cgroup.procs"
case_ B "move own thread via" $h/u/cgroup.procs "echo $tid > $h/u/cgroup.procs"
echo "  u procs lists the process: $(ingroup $pt $h/u/cgroup.procs), tasks lists: $(grep -cxE "$pt|$tid" $h/u/tasks)"
echo $pt > $h/cgroup.procs
case_ root "move B's thread via" $h/u/cgroup.procs "echo $tid > $h/u/cgroup.procs"
echo "  u procs lists the process: $(ingroup $pt $h/u/cgroup.procs), tasks lists: $(grep -cxE "$pt|$tid" $h/u/tasks)"
echo $pt > $h/cgroup.procs

kill $sleepers 2>/dev/null; wait 2>/dev/null; sleepers=
for h in cpu,cpuacct memory pids freezer; do
	find $h/d $h/u -depth -type d -exec rmdir {} \;
done
echo "## cleaned: $(ls -d */d */u 2>&1 | err | sort -u)"
