# Client: Docker 20.10 (dockerd with its own containerd, runc, cgroupfs
# driver, vfs storage, no iptables, no bridge) imports a busybox root file
# system, runs a container with memory, pids and cpu limits, reads them
# inside it, reports its stats, pauses and resumes it, removes it; then a
# container over its memory limit is killed and one over its pids limit
# cannot fork. In the v2 guest the container's leaf must carry memory.max,
# pids.max, cpu.weight and cgroup.freeze.
set -u
work=/tmp/cgx-docker
rm -rf $work
mkdir -p $work
sock=unix://$work/docker.sock
d() { /usr/bin/docker -H $sock "$@"; }
ids() { sed -E 's/[0-9a-f]{64}/ID/g'; }
# shellcheck source=tests/clients/effects.bash
. "$(dirname "$0")/effects.bash"
# shellcheck source=tests/clients/rootfs.bash
. "$(dirname "$0")/rootfs.bash"

dockerd -H $sock --data-root $work/root --exec-root $work/exec --pidfile $work/dockerd.pid \
  --exec-opt native.cgroupdriver=cgroupfs --storage-driver vfs --iptables=false \
  --ip6tables=false --ip-masq=false --bridge=none --userland-proxy=false \
  >$work/dockerd.log 2>&1 &
dockerd_pid=$!
for _ in $(seq 1200); do d version >/dev/null 2>&1 && break; sleep 0.1; done
d version --format 'dockerd {{.Server.Version}}' || { tail -20 $work/dockerd.log; exit 1; }
d info --format 'CgroupDriver {{.CgroupDriver}} CgroupVersion {{.CgroupVersion}}'

busybox_rootfs $work/rootfs sh cat sleep head tr ls
tar -C $work/rootfs -cf $work/bb.tar .
d import $work/bb.tar bb:1 >/dev/null && echo "import: ok"

echo "== run with --memory 32m --pids-limit 16 --cpu-shares 2"
d run -d --name c1 --network none --memory 32m --pids-limit 16 --cpu-shares 2 \
  bb:1 sleep 1000 >/dev/null && echo "run: ok"
d exec c1 sh -c 'cat /proc/self/cgroup; ls /sys/fs/cgroup
  for f in memory/memory.limit_in_bytes pids/pids.max cpu/cpu.shares freezer/freezer.state; do
    echo "$f $(cat /sys/fs/cgroup/$f)"; done' | ids
pid=$(d inspect --format '{{.State.Pid}}' c1)
effect_cgroup cg "$pid"
effect_limit "$pid" memory.max 33554432
effect_limit "$pid" pids.max 16
effect_value "$pid" cpu.weight 1
echo "== stats"
d stats --no-stream --format '{{.Name}} {{.MemUsage}} {{.PIDs}}' c1 | sed -E 's/ [^ ]+ \/ / limit /'
echo "== pause"
d pause c1
d inspect --format '{{.State.Status}}' c1
echo "freezer.state $(cat /sys/fs/cgroup/freezer/docker/*/freezer.state)"
effect_frozen "$pid" 1
echo "== unpause"
d unpause c1
d inspect --format '{{.State.Status}}' c1
echo "freezer.state $(cat /sys/fs/cgroup/freezer/docker/*/freezer.state)"
effect_frozen "$pid" 0
echo "== rm"
d rm -f c1
find /sys/fs/cgroup/memory/docker -mindepth 1 -type d | ids

effect_gone "$cg"

echo "== over --memory 32m"
d run --name c2 --network none --memory 32m bb:1 \
  sh -c 'x=$(head -c 100000000 /dev/zero | tr "\0" a); echo survived'
echo "exit $?"
effect_event /docker memory.events oom_kill
d inspect --format 'OOMKilled {{.State.OOMKilled}} ExitCode {{.State.ExitCode}}' c2
d rm c2
echo "== over --pids-limit 5"
d run --rm --network none --pids-limit 5 bb:1 \
  sh -c 'for i in 1 2 3 4 5 6; do sleep 30 & done; wait'
echo "exit $?"

echo "== clean up"
d ps -a --format '{{.Names}}'
d rmi -f bb:1 | ids
kill -TERM "$dockerd_pid"
wait "$dockerd_pid"
echo "dockerd exit $?"
for h in /sys/fs/cgroup/*; do
  [[ ! -L $h && -d $h/docker ]] || continue
  for _ in $(seq 100); do rmdir "$h/docker" 2>/dev/null && break; sleep 0.1; done
done
grep -c " $work" /proc/self/mountinfo
rm -rf $work
find /sys/fs/cgroup -mindepth 2 -type d | ids
