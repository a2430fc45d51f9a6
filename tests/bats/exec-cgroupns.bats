#!/usr/bin/env bats
# cgx-exec follows the kernel's cgroup namespaces (unshare -C, clone,
# setns, nsenter -C) and prints what a v1 kernel prints inside them:
# /proc/PID/cgroup, /proc/PID/cpuset and mountinfo's root field relative to
# the reading thread's namespace root in each hierarchy (kernfs_path_from_node:
# "/" at the root, "/.." per level up), and mount -t cgroup inside a
# namespace binds the namespace root's group (cgroup_do_get_tree).

load ../lib/helpers

bats_require_minimum_version 1.5.0

CGX_EXEC=${CGX_EXEC:-$(dirname "$CGXFS")/cgx-exec}

setup() {
	common_setup
	SCRIPT=$BATS_TEST_TMPDIR/script.sh
	TARGET=$(mktemp -d /tmp/cgx-cgns.XXXXXX)
	# mount(2) with its errno's name, or "ok": SOURCE TARGET FSTYPE OPTIONS.
	cat >"$BATS_TEST_TMPDIR/mnt.py" <<'PY'
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.mount(sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3].encode(), 0,
               sys.argv[4].encode())
print("ok" if r == 0 else errno.errorcode[ctypes.get_errno()])
PY
	MNTPY="python3 $BATS_TEST_TMPDIR/mnt.py"
}

teardown() {
	common_teardown
	rmdir "$TARGET" 2>/dev/null || true
}

# Runs $SCRIPT (bash) under cgx-exec on the scratch view.
run_script() {
	run timeout ${SCRIPT_TIMEOUT:-60} "$CGX_EXEC" --mount "$MNT" -- bash "$SCRIPT"
	echo "$output"
}

@test "unshare -C: every line of /proc/self/cgroup and /proc/self/cpuset is /" {
	mkdir "$MNT/memory/ctr1" "$MNT/cpu,cpuacct/ctr1" "$MNT/pids/ctr1"
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
for h in memory cpu,cpuacct pids; do echo $$ >$h/ctr1/cgroup.procs; done
grep -E ':(memory|pids):' /proc/self/cgroup; cat /proc/self/cpuset
unshare -C sh -c 'cat /proc/self/cgroup /proc/self/cpuset'
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "10:pids:/ctr1
4:memory:/ctr1
/
13:name=systemd:/
12:misc:/
11:rdma:/
10:pids:/
9:hugetlb:/
8:perf_event:/
7:net_cls,net_prio:/
6:freezer:/
5:devices:/
4:memory:/
3:blkio:/
2:cpu,cpuacct:/
1:cpuset:/
/" ]
}

@test "processes outside the namespace root read as /.. paths, /proc/1/cgroup too" {
	mkdir -p "$MNT/memory/a/b" "$MNT/memory/a/c/d" "$MNT/memory/e"
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
sleep 1000 & root=$!
sleep 1000 & sib=$!; echo $sib >memory/a/c/d/cgroup.procs
sleep 1000 & other=$!; echo $other >memory/e/cgroup.procs
echo $$ >memory/a/b/cgroup.procs
unshare -C sh -c "grep :memory: /proc/$root/cgroup /proc/$sib/cgroup /proc/$other/cgroup /proc/1/cgroup /proc/self/cgroup" |
	sed "s/^[^:]*://"
kill $root $sib $other
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "4:memory:/../..
4:memory:/../c/d
4:memory:/../../e
4:memory:/../..
4:memory:/" ]
}

@test "nested namespaces: each reader sees from its own root; a child sees its parent's root as /.." {
	mkdir -p "$MNT/memory/outer/inner"
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
echo $$ >memory/outer/cgroup.procs
unshare -C bash -c '
	sleep 1000 & outer=$!
	echo "outer ns: $(grep :memory: /proc/self/cgroup)"
	echo $$ >/sys/fs/cgroup/memory/outer/inner/cgroup.procs
	echo "moved, outer ns: $(grep :memory: /proc/self/cgroup)"
	unshare -C sh -c "echo \"inner ns: \$(grep :memory: /proc/self/cgroup)\"
		echo \"inner ns, outer sleeper: \$(grep :memory: /proc/$outer/cgroup)\""
	kill $outer'
echo "initial ns: $(grep :memory: /proc/self/cgroup)"
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "outer ns: 4:memory:/
moved, outer ns: 4:memory:/inner
inner ns: 4:memory:/
inner ns, outer sleeper: 4:memory:/..
initial ns: 4:memory:/outer" ]
}

@test "nsenter -C -t PID joins another's namespace: the joiner's paths are from that root" {
	mkdir -p "$MNT/memory/ctr1"
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
sh -c 'echo $$ >/sys/fs/cgroup/memory/ctr1/cgroup.procs; exec unshare -C sleep 1000' & ctr=$!
until grep -q ':memory:/ctr1$' /proc/$ctr/cgroup && [ "$(readlink /proc/$ctr/ns/cgroup)" != "$(readlink /proc/self/ns/cgroup)" ]; do :; done
echo "outside: $(grep :memory: /proc/$ctr/cgroup)"
nsenter -C -t $ctr sh -c "grep :memory: /proc/self/cgroup /proc/$ctr/cgroup" | sed "s/^[^:]*://"
kill $ctr
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "outside: 4:memory:/ctr1
4:memory:/..
4:memory:/" ]
}

@test "a thread that joins a namespace reads from its root; the other threads do not" {
	mkdir -p "$MNT/memory/ctr1"
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
sh -c 'echo $$ >/sys/fs/cgroup/memory/ctr1/cgroup.procs; exec unshare -C sleep 1000' & ctr=$!
until [ "$(readlink /proc/$ctr/ns/cgroup)" != "$(readlink /proc/self/ns/cgroup)" ]; do :; done
python3 - $ctr <<'PY'
import ctypes, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
def memory_line(pid):
    with open("/proc/%s/cgroup" % pid) as f:
        return [l.strip() for l in f if ":memory:" in l][0]
def joiner():
    fd = os.open("/proc/%s/ns/cgroup" % sys.argv[1], os.O_RDONLY)
    assert libc.setns(fd, 0x02000000) == 0
    print("thread in the ns: self %s, ctr %s" % (memory_line("self"), memory_line(sys.argv[1])))
t = threading.Thread(target=joiner); t.start(); t.join()
print("main thread: self %s, ctr %s" % (memory_line("self"), memory_line(sys.argv[1])))
PY
kill $ctr
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "thread in the ns: self 4:memory:/.., ctr 4:memory:/
main thread: self 4:memory:/, ctr 4:memory:/ctr1" ]
}

@test "mountinfo's root field of each hierarchy is relative to the reader's namespace root" {
	mkdir -p "$MNT/memory/a/b" "$MNT/pids/p"
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
roots() { awk '$5 ~ "^/sys/fs/cgroup/(memory|pids|cpuset)$" { print $5, $4 }' /proc/self/mountinfo | tr '\n' ' '; echo; }
echo $$ >memory/a/b/cgroup.procs; echo $$ >pids/p/cgroup.procs
echo "before: $(roots)"
unshare -C bash -c "$(declare -f roots); echo \"inside: \$(roots)\""
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "before: /sys/fs/cgroup/cpuset / /sys/fs/cgroup/memory / /sys/fs/cgroup/pids / 
inside: /sys/fs/cgroup/cpuset / /sys/fs/cgroup/memory /../.. /sys/fs/cgroup/pids /.. " ]
}

@test "mount -t cgroup inside a namespace binds its root group: / inside, the group outside" {
	mkdir -p "$MNT/memory/ctr1/sub" "$MNT/freezer/f g"
	cat >"$SCRIPT" <<SH
cd /sys/fs/cgroup
echo \$\$ >memory/ctr1/cgroup.procs; echo \$\$ >"freezer/f g/cgroup.procs"
grep :freezer: /proc/self/cgroup
unshare -C -m bash -c 'mount -t cgroup -o memory cgroup $TARGET &&
	ls $TARGET | grep -x -e sub -e tasks -e memory.limit_in_bytes | tr "\n" " " && echo
	grep -cx \$\$ $TARGET/cgroup.procs
	mount -t cgroup -o freezer,nosuid cgroup $TARGET
	ls $TARGET | grep -cx "f g"
	awk "\\\$5 == \"$TARGET\" { print \\\$4, \\\$NF }" /proc/self/mountinfo
	exec sleep 1000' & ns=\$!
until [ "\$(readlink /proc/\$ns/exe)" = "\$(readlink -f /bin/sleep)" ] || ! kill -0 \$ns; do :; done
awk '\$5 == "$TARGET" { print "from the initial ns:", \$4, \$NF }' /proc/\$ns/mountinfo
kill \$ns; wait \$ns || :
SH
	run_script
	[ "$status" -eq 0 ]
	# The root field is escaped as mountinfo escapes it, /proc/PID/cgroup is raw.
	[ "$output" = "6:freezer:/f g
memory.limit_in_bytes sub tasks 
1
0
/ rw,memory
/ rw,freezer
from the initial ns: /ctr1 rw,memory
from the initial ns: /f\\040g rw,freezer" ]
}

@test "inside a namespace a new hierarchy is EPERM, an unknown combination too; a removed root is ENOENT" {
	mkdir -p "$MNT/memory/ctr1"
	cat >"$SCRIPT" <<SH
cd /sys/fs/cgroup
sh -c 'echo \$\$ >memory/ctr1/cgroup.procs; exec unshare -C -m bash -c "\$0"' '$MNTPY cgroup $TARGET cgroup none,name=newh
	$MNTPY cgroup $TARGET cgroup cpu,memory
	$MNTPY cgroup $TARGET cgroup name=systemd,memory
	$MNTPY cgroup $TARGET cgroup name=newh
	grep :memory: /proc/self/cgroup
	echo \$\$ >/sys/fs/cgroup/memory/cgroup.procs && rmdir /sys/fs/cgroup/memory/ctr1
	grep :memory: /proc/self/cgroup
	$MNTPY cgroup $TARGET cgroup memory
	$MNTPY cgroup $TARGET cgroup pids'
$MNTPY cgroup $TARGET cgroup cpu,memory
ls /sys/fs/cgroup | grep -c newh || :
SH
	run_script
	[ "$status" -eq 0 ]
	[ "$output" = "EPERM
EPERM
EBUSY
EINVAL
4:memory:/
4:memory:/..
ENOENT
ok
EBUSY
0" ]
	[ ! -e "$MNT/name=newh" ]
}

@test "the namespace table is bounded: after 150 namespaces 128 stay pinned, a forgotten one is found again" {
	mkdir -p "$MNT/memory/first"
	SCRIPT_TIMEOUT=300
	cat >"$SCRIPT" <<'SH'
cd /sys/fs/cgroup
supervisor=$(pgrep -P $PPID -x cgx-exec)
sh -c 'echo $$ >/sys/fs/cgroup/memory/first/cgroup.procs; exec unshare -C sleep 1000' & first=$!
until [ "$(readlink /proc/$first/ns/cgroup)" != "$(readlink /proc/self/ns/cgroup)" ]; do :; done
nsenter -C -t $first grep :memory: /proc/self/cgroup
for i in $(seq 150); do unshare -C grep -c '^4:memory:/$' /proc/self/cgroup; done | sort | uniq -c | sed 's/^ *//'
echo "namespaces held: $(ls -l /proc/$supervisor/fd | grep -c 'cgroup:\[')"
nsenter -C -t $first grep :memory: /proc/self/cgroup /proc/$first/cgroup | sed "s/^[^:]*://"
kill $first
SH
	run_script
	[ "$status" -eq 0 ]
	# The table's 128 and the supervisor's own namespace.
	[ "$output" = "4:memory:/..
150 1
namespaces held: 129
4:memory:/..
4:memory:/" ]
}
