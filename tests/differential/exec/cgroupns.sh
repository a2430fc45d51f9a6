# Differential, run under cgx-exec: cgroup namespaces (unshare -C, nsenter -C,
# a thread's setns) and what a v1 kernel prints inside them: /proc/PID/cgroup,
# /proc/PID/cpuset and mountinfo's root field relative to the reader's
# namespace root, and mount -t cgroup inside a namespace (its root group;
# EPERM for a new hierarchy; ENOENT once the root group is removed).
cd /sys/fs/cgroup || exit 1
# Helpers as files: they run in shells started inside the namespaces.
h=/tmp/cgns-helpers; mkdir -p $h
# mount(2) of cgroup with OPTIONS at TARGET: "OPTIONS: ok" or the errno's name.
cat >$h/mnt <<'PY'
import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.mount(b"cgroup", sys.argv[1].encode(), b"cgroup", 0, sys.argv[2].encode())
print(sys.argv[2] + ": " + ("ok" if r == 0 else errno.errorcode[ctypes.get_errno()]))
PY
# mountinfo's root field of three hierarchies, as the reader sees them.
cat >$h/roots <<'SH'
awk '$5 ~ "^/sys/fs/cgroup/(memory|pids|cpuset)$" { print $5, $4 }' /proc/self/mountinfo | sort
SH
mnt="python3 $h/mnt"
mkdir -p memory/ctr1/sub memory/a/b memory/a/c/d memory/e pids/ctr1 cpu,cpuacct/ctr1 freezer/f
t=/tmp/cgns-mnt; mkdir -p $t

echo "-- unshare -C in memory,pids,cpu,cpuacct:/ctr1: own lines"
sh -c 'for h in memory pids cpu,cpuacct; do echo $$ >$h/ctr1/cgroup.procs; done
	exec unshare -C sh -c "cut -d: -f2- /proc/self/cgroup; cat /proc/self/cpuset"' | sort

echo "-- from memory:/a/b, others read as /.. paths"
sleep 1000 & root=$!
sleep 1000 & sib=$!; echo $sib >memory/a/c/d/cgroup.procs
sleep 1000 & other=$!; echo $other >memory/e/cgroup.procs
sh -c "echo \$\$ >memory/a/b/cgroup.procs; exec unshare -C sh -c '
	for p in $root $sib $other 1 self; do grep :memory: /proc/\$p/cgroup | cut -d: -f2-; done'"
kill $root $sib $other; wait $root $sib $other 2>/dev/null

echo "-- mountinfo roots from memory:/a/b, pids:/ctr1"
sh -c "echo \$\$ >memory/a/b/cgroup.procs; echo \$\$ >pids/ctr1/cgroup.procs
	sh $h/roots; echo inside:; exec unshare -C sh $h/roots"

echo "-- nested"
sh -c 'echo $$ >memory/a/cgroup.procs; exec unshare -C bash -c "
	sleep 1000 & outer=\$!
	grep :memory: /proc/self/cgroup | cut -d: -f2-
	echo \$\$ >/sys/fs/cgroup/memory/a/c/cgroup.procs
	grep :memory: /proc/self/cgroup | cut -d: -f2-
	unshare -C sh -c \"grep :memory: /proc/self/cgroup /proc/\$outer/cgroup | cut -d: -f3-\"
	kill \$outer; wait \$outer 2>/dev/null"'

echo "-- nsenter -C -t into memory:/ctr1's namespace, from memory:/"
sh -c 'echo $$ >memory/ctr1/cgroup.procs; exec unshare -C sleep 1000' & ctr=$!
until [ "$(readlink /proc/$ctr/ns/cgroup)" != "$(readlink /proc/self/ns/cgroup)" ]; do :; done
echo "outside: $(grep :memory: /proc/$ctr/cgroup | cut -d: -f2-)"
nsenter -C -t $ctr sh -c "grep :memory: /proc/self/cgroup /proc/$ctr/cgroup | cut -d: -f3-"

echo "-- a thread joins it, the main thread does not"
python3 - $ctr <<'PY'
import ctypes, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
def memory_line(pid):
    with open("/proc/%s/cgroup" % pid) as f:
        return [l.strip().split(":", 1)[1] for l in f if ":memory:" in l][0]
def joiner():
    fd = os.open("/proc/%s/ns/cgroup" % sys.argv[1], os.O_RDONLY)
    print("setns:", libc.setns(fd, 0x02000000))
    print("thread: self %s, ctr %s" % (memory_line("self"), memory_line(sys.argv[1])))
t = threading.Thread(target=joiner); t.start(); t.join()
print("main: self %s, ctr %s" % (memory_line("self"), memory_line(sys.argv[1])))
PY
kill $ctr; wait $ctr 2>/dev/null

echo "-- mount -t cgroup inside the namespace of memory:/ctr1, freezer:/f"
sh -c "echo \$\$ >memory/ctr1/cgroup.procs; echo \$\$ >freezer/f/cgroup.procs
	exec unshare -C -m bash -c '
	$mnt $t memory; ls $t | grep -x -e sub -e tasks -e memory.limit_in_bytes
	echo \"own pid listed: \$(grep -cx \$\$ $t/cgroup.procs)\"
	$mnt $t freezer
	awk \"\\\$5 == \\\"$t\\\" { print \\\$4, \\\$NF }\" /proc/self/mountinfo
	exec sleep 1000'" & ns=$!
until [ "$(readlink /proc/$ns/exe)" = "$(readlink -f /bin/sleep)" ] || ! kill -0 $ns; do :; done
echo "from the initial namespace:"
awk -v t=$t '$5 == t { print $4, $NF }' /proc/$ns/mountinfo
kill $ns; wait $ns 2>/dev/null

echo "-- refused inside the namespace of memory:/ctr1"
sh -c "echo \$\$ >memory/ctr1/cgroup.procs; exec unshare -C -m bash -c '
	$mnt $t none,name=newh; $mnt $t cpu,memory; $mnt $t name=systemd,memory; $mnt $t name=newh
	echo \$\$ >/sys/fs/cgroup/memory/cgroup.procs && rmdir /sys/fs/cgroup/memory/ctr1/sub /sys/fs/cgroup/memory/ctr1
	grep :memory: /proc/self/cgroup | cut -d: -f2-
	$mnt $t memory; $mnt $t pids'"
echo "from the initial namespace:"; $mnt $t cpu,memory; ls -d name=newh 2>&1 | sed 's/.*: //'

rmdir memory/a/c/d memory/a/c memory/a/b memory/a memory/e pids/ctr1 cpu,cpuacct/ctr1 freezer/f
rmdir $t; rm -r $h
