# Shared by the permission-*.sh differential scripts (sourced, not run):
# actors, one-shell batches of cheap cases, and the delegated groups.
# Actors: root; A (uid 1001), owner of the delegated groups "d" (group dir,
# tasks and cgroup.procs chowned to it, as v1 delegation does); B (uid 1002),
# who owns nothing; root without capabilities (nocap) or without the DAC
# overrides (nodac). Each case prints "ACTOR OP PATH: ok" or the errno message.
cd /sys/fs/cgroup || exit 1
A=1001 B=1002
err() { sed 's/.*: //'; }
# Cheap cases, run inside one shell per actor (an exec costs much under TCG):
# rd and wr print "ACTOR read|write(V) FILE: ok" or the errno message.
lib='rd() { local out; out=$( { read -r -d "" _ <"$2"; } 2>&1 ); out=${out##*: }; echo "$1 read $2: ${out:-ok}"; }
wr() { local out; out=$( { echo "$3" >"$2"; } 2>&1 ); out=${out##*: }; echo "$1 write($3) $2: ${out:-ok}"; }
run() { local label=$1 out; shift; if out=$("$@" 2>&1); then echo "$label: ok"; else out=${out##*$'"'"'\n'"'"'}; echo "$label: ${out##*: }"; fi; }
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
# The batch's shell starts in the view (enter_view): its own moves (a
# write of 0 to tasks) then follow v1's rules, not cgroup2's delegation rule.
batch() { (enter_view $BASHPID && exec $(runas "$1") -c "who=$1; $lib $2" 2>&1); }
# as WHO CMD: runs CMD in bash as WHO, prints ok or the errno message (of
# the last line: tail -n1 | err, by expansions, no exec).
as() {
	local out
	if out=$($(runas "$1") -c "$2" 2>&1); then echo ok; else out=${out:-failed}; out=${out##*$'\n'}; echo "${out##*: }"; fi
}
case_() { echo "$1 $2 $3: $(as "$1" "$4")"; }
st() { local out; out=$(stat -c '%a %u:%g' "$1" 2>&1); echo "${out##*: }"; }   # stat | err, one exec
# enter_view PID: root puts PID in a group of perf_event, which these scripts
# leave alone. Under cgxfs a process whose cgroup2 cgroup lies outside the
# base comes into the view only for a writer cgroup2 itself would let move
# it (A and B get EACCES where v1 moves it: a deliberate difference, see
# tests/bats/delegation.bats); these scripts compare v1's rules between
# processes the view already holds.
enter_view() { mkdir -p perf_event/in-view; echo "$1" > perf_event/in-view/tasks; }
spawn_as() {   # spawn_as UID: a sleep of that uid in the view, its pid in $pid
	(exec setpriv --reuid "$1" --regid "$1" --clear-groups sleep 1000 </dev/null >/dev/null 2>&1) &
	pid=$!
	sleepers="$sleepers $pid"
	enter_view $pid
}
ingroup() { local l; while read -r l; do [ "$l" = "$1" ] && { echo yes; return; }; done <"$2"; echo no; }
sleepers=
trap 'kill $sleepers 2>/dev/null; wait 2>/dev/null' EXIT

# setup: a delegated group d and a root-owned group u in each hierarchy.
declare -A knob=([cpu,cpuacct]=cpu.shares [memory]=memory.limit_in_bytes [pids]=pids.max [freezer]=freezer.state)
declare -A val=([cpu,cpuacct]=1024 [memory]=-1 [pids]=max [freezer]=THAWED)
for h in cpu,cpuacct memory pids freezer; do
	mkdir $h/d $h/u
	chown $A:$A $h/d $h/d/tasks $h/d/cgroup.procs
done

# cleanup: no sleeper left, no group left.
cleanup() {
	kill $sleepers 2>/dev/null; wait 2>/dev/null; sleepers=
	rmdir perf_event/in-view 2>/dev/null
	for h in cpu,cpuacct memory pids freezer; do
		find $h/d $h/u -depth -type d -exec rmdir {} \;
	done
	echo "## cleaned: $(ls -d */d */u 2>&1 | err | sort -u)"
}
