# Differential: hostile names and write buffers at the file-system boundary.
# Each case prints the answer (ok or the errno message) and what reads back
# afterwards, so a daemon that died or lost track shows up as a difference.
cd /sys/fs/cgroup || exit 1
err() { sed 's/.*: //'; }
# try_last_line: the errno text of the last line (tail -n1 | err) by
# expansions: most cases here are refused, and under TCG each exec costs more
# than the case.
. "${0%/*}/view.bash"   # try_last_line
# put FILE: writes stdin to FILE in one write(2) (dd bs= the input's size),
# by way of a scratch file of a fixed name (mktemp and rm were two execs more).
put() {
	local data=/tmp/hostile-input.put out
	cat >"$data"
	out=$(dd if="$data" of="$1" bs="$(($(stat -c %s "$data") + 1))" count=1 conv=notrunc 2>&1) &&
		echo ok || echo "$out" | sed -n 's/^dd: .*: //p' | tail -n1
}
# pw FILE FORMAT ARGS...: one small write by the printf builtin (no exec: TCG is slow).
pw() {
	local f=$1 out
	shift
	out=$( { printf "$@" >"$f"; } 2>&1 )
	out=${out##*: }
	echo "${out:-ok}"
}
# count LINE FILE: how many lines of FILE are LINE; total FILE: how many lines.
count() { local n=0 l; while read -r l; do [[ $l == "$1" ]] && n=$((n + 1)); done <"$2"; echo $n; }
total() { local n=0 l; while read -r l; do n=$((n + 1)); done <"$1"; echo $n; }
fill() { head -c "$1" /dev/zero | tr '\0' "$2"; }   # fill N CHAR
h=memory
mkdir $h/g
ls_g() { ls -b $h/g | grep -v '^\(cgroup\|memory\|notify_on_release\|tasks\)' | tr '\n' ' '; }

echo "## hostile group names (mkdir, then whether it is a directory)"
# kernfs takes names past NAME_MAX, and cgxfs stores them under a hashed v2
# name. Not here: names past 1024 bytes, which FUSE itself refuses on the
# VM's 6.1 kernel (FUSE_NAME_MAX, raised to PATH_MAX in later kernels) while
# kernfs takes them (tests/bats/hostile.bats has them on the host).
n255=$(fill 255 n)
m255=memory.$(fill 248 m)
a254=@$(fill 253 a)
n1000=$(fill 1000 n)
for name in . .. tasks cgroup.procs memory.limit_in_bytes cpu.shares "$n255" "$m255" "$a254" "$n1000" \
	$'new\nline' $'tab\there' ' lead' 'trail ' '-dash' 'a:b' 'a,b' $'\xff\xfe' $'caf\xc3\xa9' '*' '?' '\' \
	'cgroup.x' 'tasks2' '.hidden'; do
	label=$(printf '%q' "$name")
	[ ${#name} -gt 40 ] && label="<${#name} bytes>"
	echo "mkdir $label: $(try_last_line mkdir "$h/g/$name") dir: $([ -d "$h/g/$name" ] && echo yes || echo no)"
done
echo "listing: $(ls_g)"
echo "nested 255: $(try_last_line mkdir "$h/g/$n255/$n255") | $(try_last_line mkdir "$h/g/$n255/$n255/$n255")"
echo "rename a:b to tasks: $(try_last_line mv -T "$h/g/a:b" "$h/g/tasks") | to ..: $(try_last_line mv -T "$h/g/a:b" "$h/g/..")"
echo "rename a:b to \$'\\n': $(try_last_line mv -T "$h/g/a:b" "$h/g/"$'\n') | now: $(ls_g)"
echo "rename a:b to <255 bytes memory.*> and back: $(try_last_line mv -T "$h/g/a:b" "$h/g/memory.$(fill 248 r)") | $(try_last_line mv -T "$h/g/memory.$(fill 248 r)" "$h/g/a:b") dir: $([ -d "$h/g/a:b" ] && echo yes)"
sleep 1000 & sp=$!
echo "move into the 255-byte group: $(pw "$h/g/$n255/tasks" '%d\n' $sp) lists: $(count $sp "$h/g/$n255/tasks")"
echo "move into the 1000-byte group: $(pw "$h/g/$n1000/tasks" '%d\n' $sp) lists: $(count $sp "$h/g/$n1000/tasks")"
echo $sp > $h/tasks
for name in $'tab\there' ' lead' 'trail ' '-dash' 'a:b' 'a,b' $'\xff\xfe' $'caf\xc3\xa9' '*' '?' '\' 'cgroup.x' 'tasks2' '.hidden' cpu.shares \
	"$n255/$n255/$n255" "$n255/$n255" "$n255" "$m255" "$a254" "$n1000"; do
	r=$(try_last_line rmdir "$h/g/$name")
	[ "$r" = ok ] || echo "rmdir $(printf '%q' "$name" | head -c 40): $r"
done
echo "after rmdir: [$(ls_g)]"

echo "## write sizes (one write each)"
k=$h/g/memory.soft_limit_in_bytes
for size in 4096 4097 1048576; do
	echo "tasks ${size} spaces+pid: $( (fill $((size - 7)) ' '; printf '%7d' $sp) | put $h/g/tasks) lists: $(count $sp $h/g/tasks)"
	echo $sp > $h/tasks
	echo "procs ${size} zeros: $(fill $size 0 | put $h/g/cgroup.procs)"
	echo "notify ${size} 1+spaces: $( (echo -n 1; fill $((size - 1)) ' ') | put $h/g/notify_on_release) reads: $(<$h/g/notify_on_release)"
	echo 0 > $h/g/notify_on_release
	echo "knob ${size} digits: $(fill $size 9 | put $k) reads: $(<$k)"
	echo "release_agent ${size} a: $(fill $size a | put $h/release_agent) length: $(wc -c < $h/release_agent)"
done
echo "knob 4096 spaces+4096: $( (fill 4092 ' '; echo -n 4096) | put $k) reads: $(<$k)"
echo > $h/release_agent

echo "## NUL bytes in a write"
echo "notify 1 NUL junk: $(pw $h/g/notify_on_release '1\0junk') reads: $(<$h/g/notify_on_release)"
echo "notify NUL 1: $(pw $h/g/notify_on_release '\0001') reads: $(<$h/g/notify_on_release)"
echo "knob 8192 NUL junk: $(pw $k '8192\0junk') reads: $(<$k)"
echo "tasks pid NUL junk: $(pw $h/g/tasks '%d\0junk' $sp) lists: $(count $sp $h/g/tasks)"
echo $sp > $h/tasks
echo "tasks NUL pid: $(pw $h/g/tasks '\000%d' $sp) lists: $(count $sp $h/g/tasks)"
echo "release_agent /x NUL /y: $(pw $h/release_agent '/x\0/y') reads: $(od -An -c $h/release_agent | tr -s ' ')"
echo > $h/release_agent

echo "## pids"
sleep 1000 & sp2=$!
perl -Mthreads -e 'threads->create(sub { sleep 1000 })->detach; sleep 1000' </dev/null >/dev/null 2>&1 &
pt=$!
for _ in $(seq 50); do [ "$(ls /proc/$pt/task | wc -l)" = 2 ] && break; sleep 0.1; done
tid=$(ls /proc/$pt/task | grep -vx $pt)
free=99999999
cases=(-1 -0 +$sp "0x$(printf %x $sp)" "0$(printf %o $sp)" 2147483647 2147483648 4294967296
	99999999999999999999999 $free "$sp $sp2" "$sp,$sp2" $'\t'"$sp"$'\t' "  $sp  " "$sp"$'\n'"$sp2" "" " " x "${sp}x" "$sp.0" 1e3)
for f in tasks cgroup.procs; do
	for v in "${cases[@]}"; do
		label=$(printf '%q' "$v" | sed "s/$sp2/P2/g; s/$sp/P/g; s/$(printf %x $sp)/HEX/; s/$(printf %o $sp)/OCT/")
		# bash's stdout is line-buffered: a value with a newline goes through dd
		if [[ $v == *$'\n'* ]]; then r=$(printf '%s\n' "$v" | put $h/g/$f); else r=$(pw $h/g/$f '%s\n' "$v"); fi
		echo "$f $label: $r lists P: $(count $sp $h/g/$f) P2: $(count $sp2 $h/g/$f) total: $(total $h/g/$f)"
		echo $sp > $h/tasks
		echo $sp2 > $h/tasks
	done
	# what cannot be in one printf %s: the writer itself (0, as another shell)
	echo "$f 0: $( (echo 0 > $h/g/$f; total $h/g/$f; echo $BASHPID > $h/tasks) 2>&1)"
	echo "$f zero-length write: $(pw $h/g/$f '') total: $(total $h/g/$f)"
done
echo "procs thread id: $(pw $h/g/cgroup.procs '%d\n' $tid) procs lists process: $(count $pt $h/g/cgroup.procs) tasks: $(($(count $pt $h/g/tasks) + $(count $tid $h/g/tasks)))"
echo $pt > $h/cgroup.procs
kill $sp $sp2 $pt; wait 2>/dev/null
echo "move a pid gone: $(pw $h/g/tasks '%d\n' $sp)"

echo "## the view after all that"
echo "g: $(ls $h/g | grep -c .) entries, tasks: $(total $h/g/tasks), root tasks readable: $(total $h/tasks >/dev/null && echo yes)"
find $h/g -depth -mindepth 1 -type d -exec rmdir {} \;
rmdir $h/g
echo "## cleaned: $(ls -d $h/g 2>&1 | err)"
rm -f /tmp/hostile-input.put
