#!/usr/bin/env bats
# cgx-exec: a command and its descendants see a classic v1 host made of the
# view: /sys/fs/cgroup, the mount table, /proc/PID/cgroup, /proc/cgroups,
# statfs and mount -t cgroup. Every mount it makes lives in the command's
# private namespace and goes with it; the view's groups go with the base.

load ../lib/helpers

bats_require_minimum_version 1.5.0

CGX_EXEC=${CGX_EXEC:-$(dirname "$CGXFS")/cgx-exec}

setup() {
	common_setup
	HOST_CGROUP_MOUNTS=$(findmnt -rn -o TARGET,FSTYPE | grep '^/sys/fs/cgroup' | sort)
	export HOST_CGROUP_MOUNTS
}

teardown() {
	common_teardown
	# Nothing cgx-exec did may show on the host.
	[ "$(findmnt -rn -o TARGET,FSTYPE | grep '^/sys/fs/cgroup' | sort)" = "$HOST_CGROUP_MOUNTS" ]
}

# Runs a bash script (or, with in_busybox, busybox sh) under cgx-exec on the scratch view.
in_exec() {
	"$CGX_EXEC" --mount "$MNT" -- bash -c "$1"
}

in_busybox() {
	"$CGX_EXEC" --mount "$MNT" -- /bin/busybox sh -c "$1"
}

# One line per hierarchy of the default layout, as a v1 kernel prints it.
EXPECTED_HIERARCHIES="cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb pids rdma misc systemd"

@test "/sys/fs/cgroup is a tmpfs with a directory per hierarchy and the alias symlinks" {
	run in_exec 'ls /sys/fs/cgroup | tr "\n" " "; echo; readlink /sys/fs/cgroup/cpu; readlink /sys/fs/cgroup/net_prio
		ls /sys/fs/cgroup/cpu,cpuacct/cpu.shares /sys/fs/cgroup/systemd/tasks'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "blkio cpu cpu,cpuacct cpuacct cpuset devices freezer hugetlb memory misc net_cls net_cls,net_prio net_prio perf_event pids rdma systemd " ]
	[ "${lines[1]}" = "cpu,cpuacct" ]
	[ "${lines[2]}" = "net_cls,net_prio" ]
	[ "${lines[3]}" = /sys/fs/cgroup/cpu,cpuacct/cpu.shares ]
}

@test "/proc/self/cgroup shows v1 lines with the groups the process was moved to through the view" {
	mkdir "$MNT/cpu,cpuacct/job" "$MNT/memory/other"
	run in_exec 'echo $$ >/sys/fs/cgroup/cpu,cpuacct/job/tasks
		echo $$ >/sys/fs/cgroup/memory/other/tasks
		cat /proc/self/cgroup'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "13:name=systemd:/
12:misc:/
11:rdma:/
10:pids:/
9:hugetlb:/
8:perf_event:/
7:net_cls,net_prio:/
6:freezer:/
5:devices:/
4:memory:/other
3:blkio:/
2:cpu,cpuacct:/job
1:cpuset:/" ]
}

@test "/proc/PID/cgroup of another process reads its groups; /proc/thread-self and relative opens too" {
	mkdir "$MNT/pids/p"
	spawn_sleeper
	echo "$pid" >"$MNT/pids/p/tasks"
	run in_exec "grep ':pids:' /proc/$pid/cgroup; grep ':pids:' /proc/$pid/task/$pid/cgroup
		grep -c '^0::' /proc/thread-self/cgroup; cd /proc/self && grep ':cpuset:' ./cgroup"
	echo "$output"
	[ "${lines[0]}" = "10:pids:/p" ]
	[ "${lines[1]}" = "10:pids:/p" ]
	[ "${lines[2]}" = 0 ]
	[ "${lines[3]}" = "1:cpuset:/" ]
}

@test "/proc/PID/cgroup and mountinfo in a pid namespace of the caller's own name its processes, not the host's" {
	mkdir "$MNT/pids/init" "$MNT/pids/other"
	# PID 1 of the new namespace joins pids:/init; a child of it, in
	# pids:/other, reads /proc/1 and its own number through the new /proc.
	run in_exec "unshare --pid --fork --mount-proc sh -c '
		echo \$\$ >/sys/fs/cgroup/pids/init/tasks
		sh -c \"echo \\\$\\\$ >/sys/fs/cgroup/pids/other/tasks; grep :pids: /proc/1/cgroup
			grep :pids: /proc/\\\$\\\$/cgroup; grep -c \\\" /sys/fs/cgroup/pids \\\" /proc/1/mountinfo\"'"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "10:pids:/init" ]
	[ "${lines[1]}" = "10:pids:/other" ]
	[ "${lines[2]}" = 1 ]
}

@test "/proc/PID/cpuset names the process's group of the cpuset hierarchy, as cpusets.rst's Charlie reads it" {
	# clone_children gives the new cpuset the machine's CPUs and nodes without
	# a cpuset write, which a host whose cpuset is bound to v1 refuses.
	echo 1 >"$MNT/cpuset/cgroup.clone_children"
	mkdir "$MNT/cpuset/Charlie"
	spawn_sleeper
	echo "$pid" >"$MNT/cpuset/Charlie/tasks"
	run in_exec "cat /proc/$pid/cpuset; cat /proc/self/cpuset
		echo \$\$ >/sys/fs/cgroup/cpuset/Charlie/tasks; cat /proc/self/cpuset"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = /Charlie ]
	[ "${lines[1]}" = / ]
	[ "${lines[2]}" = /Charlie ]
}

@test "/proc/self/mounts and /proc/mounts list every hierarchy with fstype cgroup and its options" {
	run in_exec "grep ' cgroup ' /proc/self/mounts; echo ==; grep ' cgroup ' /proc/mounts"
	echo "$output"
	[ "$status" -eq 0 ]
	local expected="" h opts
	for h in $EXPECTED_HIERARCHIES; do
		opts=$h
		[ "$h" = systemd ] && opts=name=systemd
		expected+="cgroup /sys/fs/cgroup/$h cgroup rw,nosuid,nodev,noexec,relatime,$opts 0 0"$'\n'
	done
	[ "$output" = "${expected}==
${expected%$'\n'}" ]
	# Nothing of the host's own hierarchies nor its cgroup2 mount is left in sight.
	run in_exec "grep -c -e ' cgroup2 ' -e fuse.cgxfs.*/sys/fs/cgroup/ /proc/self/mounts"
	[ "$output" = 0 ]
	run in_exec "grep '^tmpfs /sys/fs/cgroup ' /proc/self/mounts"
	[ "$output" = "tmpfs /sys/fs/cgroup tmpfs ro,nosuid,nodev,noexec,relatime,mode=755 0 0" ]
}

@test "a view under /sys/fs: the host's cgroup mounts left beneath cgxfs's tmpfs over /sys/fs are not listed" {
	# cgxfs lays a tmpfs over /sys/fs for a mount point there; the host's
	# /sys/fs/cgroup mounts stay underneath, out of reach but in the kernel's
	# mount table. Only ever inside a private mount namespace.
	run unshare -m --propagation private bash -c '
		"$0" --cgroup2 "$1" --base "$2-sys" --log "" /sys/fs/cgroup-exec-test || exit 10
		"$3" --mount /sys/fs/cgroup-exec-test -- bash -c "
			grep -E \" /sys/fs/cgroup[/ ]\" /proc/self/mounts | cut -d\" \" -f2 | sort | uniq -d
			grep -c \"^cgroup2 \" /proc/self/mounts
			grep -c \" /sys/fs/cgroup/memory \" /proc/self/mountinfo"
		# The supervisor holds the view open until its last process is gone.
		for i in $(seq 50); do fusermount3 -u /sys/fs/cgroup-exec-test 2>/dev/null && break; sleep 0.1; done
		' "$CGXFS" "$CG2" "$BASE" "$CGX_EXEC"
	for _ in $(seq 50); do
		find "$CG2/$BASE-sys" -depth -type d -exec rmdir {} + 2>/dev/null
		[ -d "$CG2/$BASE-sys" ] || break
		sleep 0.1
	done
	echo "$output"
	[ "${lines[0]}" = 0 ]
	[ "${lines[1]}" = 1 ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "/proc/self/mountinfo shows the hierarchies as cgroup mounts of their root" {
	run in_exec "grep ' - cgroup ' /proc/self/mountinfo | cut -d' ' -f4,5,7-"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 13 ]
	[ "${lines[1]}" = "/ /sys/fs/cgroup/cpu,cpuacct - cgroup cgroup rw,cpu,cpuacct" ]
	[ "${lines[12]}" = "/ /sys/fs/cgroup/systemd - cgroup cgroup rw,name=systemd" ]
}

@test "the mount table is watched as the kernel's: epoll on /proc/self/mountinfo fires on a mount, and reads stay v1" {
	# systemd (and any libmount monitor) waits on the table with EPOLLPRI;
	# a file that epoll refuses left systemd's mount units without state.
	run in_exec 'python3 - <<"PY"
import os, select, subprocess
f = open("/proc/self/mountinfo")
print("cgroup lines before:", sum(" - cgroup " in l for l in f))
ep = select.epoll()
ep.register(f.fileno(), select.EPOLLPRI | select.EPOLLERR)
print("quiet:", ep.poll(0) == [])
d = "/tmp/cgx-epoll-" + str(os.getpid())
os.mkdir(d)
subprocess.run(["mount", "-t", "tmpfs", "none", d], check=True)
print("after a mount:", bool(ep.poll(5)))
# Lazy: a namespace another test unshares meanwhile may hold a propagated
# copy (EBUSY once in CI); what is checked here is read before.
subprocess.run(["umount", "-l", d], check=True)
os.rmdir(d)
print("cgroup lines after:", sum(" - cgroup " in l for l in open("/proc/self/mountinfo")))
PY'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "cgroup lines before: 13" ]
	[ "${lines[1]}" = "quiet: True" ]
	[ "${lines[2]}" = "after a mount: True" ]
	[ "${lines[3]}" = "cgroup lines after: 13" ]
}

@test "a /proc file kept open and rewound reads the present, as the kernel's seq_file does" {
	# systemd rewinds /proc/self/mountinfo until its remounts show; a
	# snapshot made it give up with EBUSY.
	mkdir "$MNT/memory/rewound"
	run in_exec 'python3 - "$0" <<"PY"
import os, subprocess, sys
table = open("/proc/self/mountinfo")
cgroup = open("/proc/self/cgroup")
before = table.read()
print("memory before:", [l for l in cgroup.read().splitlines() if ":memory:" in l])
d = "/tmp/cgx-rewind-" + str(os.getpid())
os.mkdir(d)
subprocess.run(["mount", "-t", "tmpfs", "none", d], check=True)
with open("/sys/fs/cgroup/memory/rewound/cgroup.procs", "w") as f:
    f.write(str(os.getpid()))
table.seek(0)
after = table.read()
print("the new mount shows:", d in after and d not in before)
print("cgroup lines:", sum(" - cgroup " in l for l in after.splitlines()))
cgroup.seek(0)
print("memory after:", [l for l in cgroup.read().splitlines() if ":memory:" in l])
subprocess.run(["umount", d], check=True)
os.rmdir(d)
with open("/sys/fs/cgroup/memory/cgroup.procs", "w") as f:
    f.write(str(os.getpid()))
PY'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "memory before: ['4:memory:/']" ]
	[ "${lines[1]}" = "the new mount shows: True" ]
	[ "${lines[2]}" = "cgroup lines: 13" ]
	[ "${lines[3]}" = "memory after: ['4:memory:/rewound']" ]
}

@test "/proc/cgroups gives each controller its hierarchy id and group count" {
	mkdir "$MNT/memory/a" "$MNT/memory/a/b"
	run in_exec "cat /proc/cgroups"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "#subsys_name	hierarchy	num_cgroups	enabled" ]
	[ "${lines[1]}" = "cpuset	1	1	1" ]
	[ "${lines[2]}" = "cpu	2	1	1" ]
	[ "${lines[3]}" = "cpuacct	2	1	1" ]
	[ "${lines[5]}" = "memory	4	3	1" ]
	[ "${lines[14]}" = "misc	12	1	1" ]
}

@test "statfs says cgroupfs on a hierarchy and its files, tmpfs on /sys/fs/cgroup; fstatfs too" {
	run in_exec 'stat -f -c %T /sys/fs/cgroup/memory; stat -f -c %T /sys/fs/cgroup
		stat -f -c %T /sys/fs/cgroup/cpu/cpu.shares; cd /sys/fs/cgroup && stat -f -c %T pids
		python3 -c "import ctypes, os, struct
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(256)
fd = os.open(\"/sys/fs/cgroup/memory\", os.O_RDONLY)
assert libc.fstatfs(fd, buf) == 0
print(hex(struct.unpack(\"q\", buf.raw[:8])[0]))"'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "cgroupfs
tmpfs
cgroupfs
cgroupfs
0x27e0eb" ]
	# Outside cgx-exec the view is FUSE, as it is.
	[ "$(stat -f -c %t "$MNT/memory")" = 65735546 ]
}

@test "a static busybox and a dynamic bash see the same cgroups, mounts and magic" {
	ldd /bin/busybox 2>&1 | grep -q 'not a dynamic executable'
	mkdir "$MNT/cpu,cpuacct/both"
	local script='echo $$ >/sys/fs/cgroup/cpu,cpuacct/both/tasks; cat /proc/self/cgroup
		grep " cgroup " /proc/self/mounts; stat -f -c %t /sys/fs/cgroup/memory'
	run in_exec "$script"
	echo "$output"
	[ "$status" -eq 0 ]
	local from_bash=$output
	run in_busybox "$script"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$from_bash" ]
	echo "$output" | grep -qx '2:cpu,cpuacct:/both'
	[ "$(echo "$output" | grep -c ' cgroup ')" = 13 ]
	[ "${lines[-1]}" = 27e0eb ]
}

@test "mount -t cgroup -o freezer binds the freezer hierarchy of the view" {
	mkdir "$MNT/freezer/ice"
	local dir=$BATS_TEST_TMPDIR/f
	mkdir "$dir"
	run in_exec "mount -t cgroup -o freezer x $dir && ls $dir/ice/freezer.state && cat $dir/ice/freezer.state &&
		grep ' $dir ' /proc/self/mounts && stat -f -c %T $dir && umount $dir && ls $dir | wc -l"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$dir/ice/freezer.state
THAWED
x $dir cgroup rw,relatime,freezer 0 0
cgroupfs
0" ]
	# The bind lived in the command's namespace only.
	[ -z "$(findmnt -n "$dir")" ]
}

@test "mount -t cgroup makes a named hierarchy in the view, refuses a bound controller, needs CAP_SYS_ADMIN" {
	local dir=$BATS_TEST_TMPDIR/m
	mkdir "$dir"
	run in_busybox "mount -t cgroup -o none,name=jobs cgroup $dir && cat /proc/self/cgroup | head -1 &&
		mount -t cgroup -o cpu,memory cgroup $dir 2>&1; mount -t cgroup -o bogus cgroup $dir 2>&1
		mount -t cgroup -o cpu cgroup $dir 2>&1
		/usr/bin/setpriv --inh-caps=-all --bounding-set=-all mount -t cgroup -o freezer x $dir 2>&1; true"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "14:name=jobs:/" ]
	[ -d "$MNT/none,name=jobs" ]
	[ "$(ls "$MNT" | grep -c jobs)" = 1 ]
	echo "${lines[1]}" | grep -q 'Device or resource busy'
	echo "${lines[2]}" | grep -q 'Invalid argument'
	# cpu alone: the kernel makes no new hierarchy of a controller bound in another.
	echo "${lines[3]}" | grep -q 'Device or resource busy\|already mounted or mount point busy'
	echo "${lines[4]}" | grep -q -i 'permission\|not permitted\|must be superuser'
}

@test "fsopen(\"cgroup\") and LXC's fsopen(NULL) probe are ENOSYS, so libmount and LXC fall back to mount(2); other file systems keep it" {
	# fsopen is syscall 430 on x86_64 and aarch64 alike.
	run in_exec "python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for fs in (b\"cgroup\", b\"tmpfs\", None):
    fd = libc.syscall(430, fs, 0)
    print(fs.decode() if fs else \"NULL\", os.strerror(ctypes.get_errno()) if fd < 0 else \"fd\")
'"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "cgroup Function not implemented
tmpfs fd
NULL Function not implemented" ]
}

@test "a legacy script with hard-coded /sys/fs/cgroup/cpu,cpuacct paths runs unchanged" {
	local script=$BATS_TEST_TMPDIR/legacy.sh
	cat >"$script" <<'SCRIPT'
#!/bin/sh
set -e
CG=/sys/fs/cgroup/cpu,cpuacct/legacy
mkdir $CG
echo $$ > $CG/tasks
cat $CG/cpu.shares
grep -x "$$" $CG/tasks
grep cpu,cpuacct /proc/self/cgroup
SCRIPT
	chmod +x "$script"
	run "$CGX_EXEC" --mount "$MNT" -- "$script"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 1024 ]
	[ "${lines[2]}" = "2:cpu,cpuacct:/legacy" ]
	# The same group, seen from outside: the view's and its v2 leaf.
	[ -d "$MNT/cpu,cpuacct/legacy" ]
	[ "$(getfattr --only-values -n trusted.cgx.tuple "$CG2/$BASE/legacy")" = "cpu,cpuacct:/legacy" ]
}

@test "a descendant left running after the command ended is still served" {
	local out=$BATS_TEST_TMPDIR/late
	"$CGX_EXEC" --mount "$MNT" -- bash -c "(sleep 1; cat /proc/self/cgroup >$out.tmp; mv $out.tmp $out) </dev/null >/dev/null 2>&1 &"
	for _ in $(seq 50); do
		[ -e "$out" ] && break
		sleep 0.1
	done
	cat "$out"
	[ "$(head -n1 "$out")" = "13:name=systemd:/" ]
	! grep -q '^0::' "$out"
}

@test "a hierarchy made in the view shows in /proc/self/cgroup at once" {
	run in_exec "mkdir $MNT/none,name=late && grep name=late /proc/self/cgroup"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "14:name=late:/" ]
}

@test "the command's exit status is cgx-exec's; a mount point with no view is refused" {
	run "$CGX_EXEC" --mount "$MNT" -- sh -c 'exit 7'
	[ "$status" -eq 7 ]
	run -127 "$CGX_EXEC" --mount "$MNT" -- /nonexistent
	[ "$status" -eq 127 ]
	run "$CGX_EXEC" --mount "$BATS_TEST_TMPDIR" -- true
	echo "$output"
	[ "$status" -eq 125 ]
	echo "$output" | grep -q 'no running cgxfs view'
}

@test "cgroup-tools find the view as v1 hierarchies; cgget -g reads a whole group" {
	command -v cgget # scripts/install-deps installs cgroup-tools
	run in_exec 'cgcreate -g cpu,memory:/tools && lssubsys -m memory cpu && lscgroup memory:/ &&
		cgget -g memory:tools; echo "cgget $?"; cgdelete -g memory:/tools; cgdelete -g cpu:/tools'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(head -n5 <<<"$output")" = "cpu,cpuacct /sys/fs/cgroup/cpu,cpuacct
memory /sys/fs/cgroup/memory
memory:/
memory:/tools
tools:" ]
	# libcgroup keeps the status of the last file listed: the kernel's order ends on a memory file.
	echo "$output" | grep -qx 'memory.use_hierarchy: 1'
	[ "${lines[-1]}" = "cgget 0" ]
	[ ! -d "$MNT/memory/tools" ] && [ ! -d "$MNT/cpu,cpuacct/tools" ]
}
