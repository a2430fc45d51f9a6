# Differential: moving processes and threads of other users, by the v1 rule
# (euid 0, or the target's real or saved uid is the mover's euid).
. "${0%/*}/permissions.bash"
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
enter_view $pmix; enter_view $pmix2
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
enter_view $pt
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

cleanup
