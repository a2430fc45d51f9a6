#!/usr/bin/env bats
# cgx-exec's supervisor runs as root and acts for the processes of a session:
# it must never do for one what the kernel would refuse it (issue 14), must
# find mount targets as the caller would (issue 17) and must not let one
# caller's stalled memory or files hold up another's calls. Each errno here
# is the v1 kernel's, in the kernel's order: the target's lookup (as the
# caller) first, then may_mount(), the options, then the cgroup namespace's
# owner. A reference mount of tmpfs, which cgx-exec hands to the kernel,
# shows the lookup and may_mount() answers are the kernel's own.

load ../lib/helpers

bats_require_minimum_version 1.5.0

CGX_EXEC=${CGX_EXEC:-$(dirname "$CGXFS")/cgx-exec}
TEST_USER=cgxtest
STUCK_FUSE=$BATS_TEST_DIRNAME/stuck_fuse.py

setup_file() {
	id -u "$TEST_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$TEST_USER"
}

setup() {
	common_setup
	TEST_UID=$(id -u "$TEST_USER")
	TEST_GID=$(id -g "$TEST_USER")
	# Under /tmp, not the test's own 0700 directory: the user must reach it.
	SCRATCH=$(mktemp -d /tmp/cgx-hostile.XXXXXX)
	chmod 755 "$SCRATCH"
	mkdir -p "$SCRATCH/root-only/dir" "$SCRATCH/user/t" "$SCRATCH/root/sub"
	chmod 700 "$SCRATCH/root-only"
	chown -R "$TEST_USER" "$SCRATCH/user"
	ln -s ../root-only/dir "$SCRATCH/user/link"
	# mount(2) with its errno's name, or "ok": SOURCE TARGET FSTYPE OPTIONS.
	cat >"$SCRATCH/mnt.py" <<'PY'
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3].encode(), 0,
               sys.argv[4].encode())
print("ok" if r == 0 else errno.errorcode[ctypes.get_errno()])
PY
	chmod 644 "$SCRATCH/mnt.py"
	FUSE_PID=
	CG2_EXTRA=
}

teardown() {
	# A dead daemon aborts its connection: every request stuck on it ends (ENOTCONN).
	[ -n "$FUSE_PID" ] && kill -9 "$FUSE_PID" 2>/dev/null
	[ -n "$FUSE_PID" ] && umount -l "$SCRATCH/fuse" 2>/dev/null
	[ -n "$CG2_EXTRA" ] && umount "$CG2_EXTRA" && rmdir "$CG2_EXTRA"
	common_teardown
	rm -rf "$SCRATCH"
}

# Runs bash -c "$1" in a cgx-exec session as the unprivileged user.
as_user_in_exec() {
	"$CGX_EXEC" --mount "$MNT" -- setpriv --reuid="$TEST_UID" --regid="$TEST_GID" \
		--clear-groups bash -c "$1"
}

in_exec() {
	"$CGX_EXEC" --mount "$MNT" -- bash -c "$1"
}

# Echoes the mount points of cgroup mounts at or under $1 the session's mountinfo lists.
cgroup_mounts_under() {
	echo "grep ' - cgroup ' /proc/self/mountinfo | cut -d' ' -f5 | grep -c '^$1' || true"
}

@test "a user namespace's CAP_SYS_ADMIN mounts nothing: unshare -U -r gets may_mount()'s EPERM" {
	local t=$SCRATCH/user/t
	run as_user_in_exec "unshare -U -r python3 $SCRATCH/mnt.py cgroup $t cgroup name=evil
		unshare -U -r python3 $SCRATCH/mnt.py cgroup $t cgroup freezer
		unshare -U -r python3 $SCRATCH/mnt.py none $t tmpfs ''
		unshare -U -r -C python3 $SCRATCH/mnt.py cgroup $t cgroup name=evil
		python3 $SCRATCH/mnt.py cgroup $t cgroup name=evil
		$(cgroup_mounts_under "$SCRATCH")"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "EPERM
EPERM
EPERM
EPERM
EPERM
0" ]
	[ ! -e "$MNT/name=evil" ]
	[ "$(ls "$MNT" | grep -c evil)" = 0 ]
}

@test "a target in a root-only tree is looked up as the user: EACCES, through a symlink too" {
	run as_user_in_exec "for t in $SCRATCH/root-only/dir $SCRATCH/user/link; do
			unshare -U -r python3 $SCRATCH/mnt.py cgroup \$t cgroup name=evil
			unshare -U -r python3 $SCRATCH/mnt.py none \$t tmpfs ''
			python3 $SCRATCH/mnt.py cgroup \$t cgroup freezer
		done
		$(cgroup_mounts_under "$SCRATCH")"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "EACCES
EACCES
EACCES
EACCES
EACCES
EACCES
0" ]
	[ ! -e "$MNT/name=evil" ]
	[ -z "$(ls "$SCRATCH/root-only/dir")" ]
}

@test "a user's own user, mount and cgroup namespaces mount an existing hierarchy, make none" {
	# -m alone: the cgroup namespace is still the initial one's (EPERM);
	# with -C the user owns it, and v1 lets it mount what exists, never make.
	local t=$SCRATCH/user/t
	run as_user_in_exec "unshare -U -r -m python3 $SCRATCH/mnt.py cgroup $t cgroup freezer
		unshare -U -r -m -C python3 $SCRATCH/mnt.py cgroup $t cgroup name=evil
		unshare -U -r -m -C python3 $SCRATCH/mnt.py cgroup $t cgroup none,name=evil
		unshare -U -r -m -C python3 $SCRATCH/mnt.py cgroup $t cgroup freezer,release_agent=/x
		unshare -U -r -m -C bash -c 'python3 $SCRATCH/mnt.py cgroup $t cgroup freezer &&
			ls $t | grep -cx -e tasks -e cgroup.procs'
		$(cgroup_mounts_under "$t")"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "EPERM
EINVAL
EPERM
EINVAL
ok
2
0" ]
	[ ! -e "$MNT/name=evil" ]
}

@test "/proc/self/fd/N targets are the caller's descriptors, as runc mounts each hierarchy" {
	local dir=$SCRATCH/root/sub
	run in_exec "python3 -c '
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
def mount(target, options):
    r = libc.mount(b\"cgroup\", target.encode(), b\"cgroup\", 0, options)
    print(\"ok\" if r == 0 else errno.errorcode[ctypes.get_errno()])
fd = os.open(\"$dir\", os.O_PATH | os.O_CLOEXEC)
mount(\"/proc/self/fd/%d\" % fd, b\"memory\")
print(open(\"$dir/memory.limit_in_bytes\").read().strip())
mount(\"/proc/thread-self/fd/%d\" % fd, b\"freezer\")
print(os.path.exists(\"$dir/freezer.state\") or os.path.exists(\"$dir/tasks\"))
mount(\"/proc/self/fd/987\", b\"pids\")
mount(\"/proc/self/fd/2147483647/x\", b\"pids\")
'
		grep ' - cgroup ' /proc/self/mountinfo | cut -d' ' -f5 | grep -cx / || true
		grep ' - cgroup ' /proc/self/mountinfo | cut -d' ' -f5 | grep -cx $dir"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = ok ]
	[ "${lines[1]}" = "$(cat "$MNT/memory/memory.limit_in_bytes")" ]
	[ "${lines[2]}" = ok ]
	[ "${lines[3]}" = True ]
	# Numbers it has no descriptor at, however large: nothing there, as for it.
	[ "${lines[4]}" = ENOENT ]
	[ "${lines[5]}" = ENOENT ]
	[ "${lines[6]}" = 0 ]
	[ "${lines[7]}" = 2 ]
}

@test "/proc/self/fd/N in a pid namespace of the caller's own, with its own /proc, is still its descriptor" {
	# The helper joins the caller's pid namespace: /proc/self in the caller's
	# procfs names the helper itself, holding the caller's descriptor N.
	local dir=$SCRATCH/root/sub
	run in_exec "unshare -p -f -m --mount-proc python3 -c '
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(\"$dir\", os.O_PATH | os.O_CLOEXEC)
r = libc.mount(b\"cgroup\", (\"/proc/self/fd/%d\" % fd).encode(), b\"cgroup\", 0, b\"pids\")
print(\"ok\" if r == 0 else errno.errorcode[ctypes.get_errno()], os.getpid())
print(os.path.exists(\"$dir/tasks\"))
'"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "ok 1" ]
	[ "${lines[1]}" = True ]
}

@test "a relative target is looked up from the caller's cwd" {
	run in_exec "cd $SCRATCH/root && python3 $SCRATCH/mnt.py cgroup sub cgroup pids &&
		cd sub && python3 $SCRATCH/mnt.py cgroup ../nowhere cgroup pids &&
		ls $SCRATCH/root/sub | grep -cx -e pids.max -e tasks"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "ok
ENOENT
1" ]
}

@test "a chrooted caller's target is looked up from its root" {
	mkdir -p "$SCRATCH/jail/bin" "$SCRATCH/jail/t" "$SCRATCH/t"
	cp /bin/busybox "$SCRATCH/jail/bin/"
	run in_exec "chroot $SCRATCH/jail /bin/busybox mount -t cgroup -o freezer x /t &&
		ls $SCRATCH/jail/t | grep -cx tasks; ls $SCRATCH/t | wc -l"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "1
0" ]
}

# Starts stuck_fuse.py at $SCRATCH/fuse; its unanswered requests go to $SCRATCH/events.
start_stuck_fuse() {
	mkdir "$SCRATCH/fuse"
	: >"$SCRATCH/events"
	python3 "$STUCK_FUSE" "$SCRATCH/fuse" "$SCRATCH/events" &
	FUSE_PID=$!
	for _ in $(seq 100); do
		[ "$(stat -c %s "$SCRATCH/fuse/f" 2>/dev/null)" = 4096 ] && return 0
		sleep 0.1
	done
	return 1
}

@test "a path in a page of a FUSE file that never answers holds up its own call only" {
	start_stuck_fuse
	local out=$SCRATCH/out log=$SCRATCH/supervisor.log
	# The opener passes open() a path in a page of the FUSE file, not yet read:
	# the supervisor's read of it waits on a READ the daemon never answers.
	# Another process of the session then opens /proc/self/cgroup, and is
	# served; the stalled call is given up and its worker counted as stuck.
	# Files, not a pipe: with CGX_EXEC_DEBUG the supervisor holds its stdio
	# until its stuck worker ends with the daemon, in teardown.
	CGX_EXEC_DEBUG=1 "$CGX_EXEC" --mount "$MNT" -- bash -c "python3 -c '
import ctypes, mmap, os
fd = os.open(\"$SCRATCH/fuse/f\", os.O_RDONLY)
page = mmap.mmap(fd, 4096, mmap.MAP_PRIVATE, mmap.PROT_READ | mmap.PROT_WRITE)
path = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(page)))
ctypes.CDLL(None).open(path, 0)
' </dev/null >/dev/null 2>&1 &
		opener=\$!
		until grep -q READ $SCRATCH/events; do sleep 0.1; done
		timeout 120 head -n1 /proc/self/cgroup
		timeout 120 grep -c ' cgroup ' /proc/self/mounts
		for i in \$(seq 600); do grep -q 'given up' $log && break; sleep 0.1; done
		kill -9 \$opener" >"$out" 2>"$log"
	cat "$out" "$log"
	[ "$(cat "$out")" = "13:name=systemd:/
13" ]
	grep -q 'call [0-9]* of pid [0-9]* blocked on its caller: given up (1 workers stuck, 1 so far)' "$log"
}

@test "stuck workers are capped: past 24 threads every call goes to the kernel, none waits" {
	start_stuck_fuse
	local out=$SCRATCH/out log=$SCRATCH/supervisor.log
	# 30 openers of a path in the stalled page: a worker blocked on its caller
	# is not running, so others start, up to 24; with all of them blocked the
	# supervisor hands every call to the kernel at once rather than wait. Its
	# thread count never passes 24 + 1, and each blocked call is given up.
	CGX_EXEC_DEBUG=1 timeout -s KILL 300 "$CGX_EXEC" --mount "$MNT" -- bash -c "
		openers=
		for i in \$(seq 30); do python3 -c '
import ctypes, mmap, os
fd = os.open(\"$SCRATCH/fuse/f\", os.O_RDONLY)
page = mmap.mmap(fd, 4096, mmap.MAP_PRIVATE, mmap.PROT_READ | mmap.PROT_WRITE)
path = ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(page)))
ctypes.CDLL(None).open(path, 0)
' </dev/null >/dev/null 2>&1 & openers=\"\$openers \$!\"; done
		for i in \$(seq 1200); do grep -q 'workers wait on their callers' $log && break; sleep 0.1; done
		timeout 120 grep -c '^0::' /proc/self/cgroup
		supervisor=\$(pgrep -P \$PPID -x cgx-exec)
		grep Threads: /proc/\$supervisor/status
		for i in \$(seq 600); do grep -q 'given up (24 workers' $log && break; sleep 0.1; done
		kill -9 \$openers" >"$out" 2>"$log"
	cat "$out"
	grep -v 'blocked on its caller' "$log" || true
	[ "$(cat "$out")" = "1
Threads:	25" ]
	grep -q 'all 24 workers wait on their callers ([0-9]* given up): calls go to the kernel unserved' "$log"
	# Each is given up in time, and counted.
	grep -q 'given up (24 workers stuck, 24 so far)' "$log"
}

@test "a statfs whose lookup waits forever on a FUSE daemon holds up its own call only" {
	start_stuck_fuse
	run -0 in_exec "stat -f $SCRATCH/fuse/stuck/x </dev/null >/dev/null 2>&1 &
		stater=\$!
		until grep -q 'LOOKUP stuck' $SCRATCH/events; do sleep 0.1; done
		timeout 120 stat -f -c %T /sys/fs/cgroup/memory
		timeout 120 head -n1 /proc/self/cgroup
		kill -9 \$stater"
	echo "$output"
	[ "${lines[0]}" = cgroupfs ]
	[ "${lines[1]}" = "13:name=systemd:/" ]
}

@test "a mount whose target's lookup waits forever fails alone with EFAULT, and mounts nothing" {
	start_stuck_fuse
	run -0 in_exec "python3 $SCRATCH/mnt.py cgroup $SCRATCH/fuse/stuck cgroup freezer &
		mounter=\$!
		until grep -q 'LOOKUP stuck' $SCRATCH/events; do sleep 0.1; done
		timeout 120 head -n1 /proc/self/cgroup
		wait \$mounter
		$(cgroup_mounts_under "$SCRATCH")"
	echo "$output"
	[ "${lines[0]}" = "13:name=systemd:/" ]
	[ "${lines[1]}" = EFAULT ]
	[ "${lines[2]}" = 0 ]
}

@test "a statfs through a directory the caller may not search is the kernel's EACCES" {
	mkdir "$SCRATCH/root-only/view"
	mount --bind "$MNT/memory" "$SCRATCH/root-only/view"
	run as_user_in_exec "stat -f -c %T $SCRATCH/root-only/view 2>&1; stat -f -c %T /sys/fs/cgroup/memory"
	umount "$SCRATCH/root-only/view"
	echo "$output"
	[[ "${lines[0]}" == *"Permission denied"* ]]
	[ "${lines[1]}" = cgroupfs ]
}

@test "cgroup2 mounted elsewhere is gone in the session's namespace, and stays outside" {
	CG2_EXTRA=$(mktemp -d /run/cgx-hostile-cg2.XXXXXX)
	mount -t cgroup2 none "$CG2_EXTRA"
	run in_exec "stat -f -c %T $CG2_EXTRA; ls $CG2_EXTRA | wc -l
		grep -c ' - cgroup2 ' /proc/self/mountinfo; grep -c cgroup2 /proc/self/mounts; true"
	echo "$output"
	[ "$status" -eq 0 ]
	# What the directory is on, with nothing mounted on it.
	[ "$output" = "$(stat -f -c %T /run)
0
0
0" ]
	[ "$(stat -f -c %T "$CG2_EXTRA")" = cgroup2fs ]
}
