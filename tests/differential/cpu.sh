# Differential: cpu and cpuacct files of a child group, the kernel's reference
# probes of cpu.shares, cpu.cfs_quota_us and cpu.cfs_period_us, the v1 rule
# that a child gets no more bandwidth than its parent, and cpuacct resets.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, show_head, bar
w() { echo "write $1 '$2': $(try put "cpu,cpuacct/$1" "$2") -> $(show_head "cpu,cpuacct/$1")"; }

mkdir -p cpu,cpuacct/p/c
echo "## files of a child group"
ls cpu,cpuacct/p | grep -E '^(cpu|cpuacct)\.'
files="cpu.cfs_burst_us cpu.cfs_period_us cpu.cfs_quota_us cpu.idle cpu.shares cpu.stat cpuacct.usage cpuacct.stat cpuacct.usage_sys cpuacct.usage_user"
mapfile -t modes < <(cd cpu,cpuacct/p && stat -c %a $files)   # one stat for all
i=0
for f in $files; do
  echo "$f: ${modes[i++]} $(bar cpu,cpuacct/p/$f)"
done
echo "percpu fields: $(wc -w < cpu,cpuacct/p/cpuacct.usage_percpu) usage_all lines: $(wc -l < cpu,cpuacct/p/cpuacct.usage_all)"

echo "## cpu.shares"
for v in 512 1 2 262144 262145 999999999 0 -1 abc " 700" "700 " 12x "" 0x400; do w p/cpu.shares "$v"; done
echo "## cpu.cfs_quota_us"
for v in 50000 500 1000 -1 -2 0 2000000 abc; do w p/cpu.cfs_quota_us "$v"; done
echo "## cpu.cfs_period_us"
for v in 50000 999 1000 1000000 1000001 0; do w p/cpu.cfs_period_us "$v"; done
echo 100000 > cpu,cpuacct/p/cpu.cfs_period_us
echo "## burst and idle"
for v in 1000 -1; do w p/cpu.cfs_burst_us "$v"; done
for v in 1 0 2 -1; do w p/cpu.idle "$v"; done
echo "## an idle group's shares are fixed at the least weight, and reset on leaving idle"
w p/cpu.shares 700
w p/cpu.idle 1
echo "idle shares: $(cat cpu,cpuacct/p/cpu.shares)"
w p/cpu.shares 800
w p/cpu.idle 1
echo "still idle shares: $(cat cpu,cpuacct/p/cpu.shares)"
w p/cpu.idle 0
echo "thawed shares: $(cat cpu,cpuacct/p/cpu.shares)"
w p/cpu.shares 700
w p/cpu.idle 0
echo "not idle again shares: $(cat cpu,cpuacct/p/cpu.shares)"
echo "## a child gets no more bandwidth than its parent"
w p/cpu.cfs_quota_us 50000
w p/c/cpu.cfs_quota_us 60000
w p/c/cpu.cfs_quota_us 40000
w p/cpu.cfs_quota_us 30000
w p/cpu.cfs_quota_us -1
echo "## the root"
for f in cpu.shares cpu.cfs_quota_us cpu.cfs_period_us cpu.idle; do echo "root $f: $(cat cpu,cpuacct/$f)"; done
w cpu.shares 512
w cpu.cfs_quota_us 50000
echo "## read-only and reset"
echo "write p/cpu.stat 1: $(try put cpu,cpuacct/p/cpu.stat 1)"
w p/cpuacct.usage 5
w p/cpuacct.usage 0
w p/cpuacct.stat 0
rmdir cpu,cpuacct/p/c cpu,cpuacct/p
