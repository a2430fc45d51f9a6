# Differential, run under cgx-exec (vm-differential-exec).
# Java's container detection (OpenJDK 17 hotspot, cgroupSubsystem_linux):
# it picks cgroup v1 from /proc/cgroups, finds its groups through
# /proc/self/cgroup and /proc/self/mountinfo, and reads
# memory.limit_in_bytes, cpu.cfs_quota_us, cpu.shares of them. What it
# reports must be what was written through the v1 files.
# -Xint: the JIT compilers would cost seconds of TCG time for nothing here;
# four JVM starts took 160 s of a loaded TCG guest, now three.
command -v java >/dev/null || { echo "java missing"; exit 1; }
cd /sys/fs/cgroup || exit 1
metrics() {
  java -Xint "$@" -XshowSettings:system -version 2>&1 |
    sed -n '/^Operating System Metrics/,/^$/p' | grep -vE '^ *$'
}
mkdir memory/jvm cpu,cpuacct/jvm
echo 512M >memory/jvm/memory.limit_in_bytes
echo 256M >memory/jvm/memory.soft_limit_in_bytes
echo 50000 >cpu,cpuacct/jvm/cpu.cfs_quota_us
echo 2048 >cpu,cpuacct/jvm/cpu.shares
echo $$ >memory/jvm/tasks
echo $$ >cpu,cpuacct/jvm/tasks
echo "-- in memory/jvm and cpu,cpuacct/jvm"
metrics
echo "-- the heap Java sizes from that limit"
java -Xint -XshowSettings:vm -version 2>&1 | grep -E 'Max\. Heap Size'
echo "-- a memory & swap limit and no cpu quota"
echo 768M >memory/jvm/memory.memsw.limit_in_bytes
echo -1 >cpu,cpuacct/jvm/cpu.cfs_quota_us
metrics | grep -E 'Memory|CPU'
echo $$ >memory/tasks
echo 0 >memory/jvm/memory.force_empty  # see cgroup-tools.sh
echo $$ >cpu,cpuacct/tasks
rmdir memory/jvm cpu,cpuacct/jvm
