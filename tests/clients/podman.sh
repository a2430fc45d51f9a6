# Client: rootful Podman 4.3 (cgroupfs manager, crun, vfs storage, no
# network) imports a busybox root file system, runs a container with memory,
# pids and cpu limits, reads them inside it, reports its stats, pauses and
# resumes it, removes it; then a container over its memory limit is killed
# and one over its pids limit cannot fork. In the v2 guest the container's
# leaf must carry memory.max, pids.max, cpu.weight and cgroup.freeze.
set -u
work=/tmp/cgx-podman
rm -rf $work
p() { podman --cgroup-manager=cgroupfs --events-backend=file --storage-driver=vfs \
  --root $work/root --runroot $work/run --runtime crun "$@"; }
ids() { sed -E 's/[0-9a-f]{64}/ID/g'; }
# shellcheck source=tests/clients/effects.bash
. "$(dirname "$0")/effects.bash"
# shellcheck source=tests/clients/rootfs.bash
. "$(dirname "$0")/rootfs.bash"

busybox_rootfs $work/rootfs sh cat sleep head tr ls
tar -C $work/rootfs -cf $work/bb.tar .
p import -q $work/bb.tar localhost/bb:1 >/dev/null && echo "import: ok"

echo "== run with --memory 32m --pids-limit 16 --cpu-shares 2"
p run -d --name c1 --network none --cgroups=enabled --memory 32m --pids-limit 16 \
  --cpu-shares 2 localhost/bb:1 sleep 1000 >/dev/null && echo "run: ok"
p exec c1 sh -c 'cat /proc/self/cgroup; ls /sys/fs/cgroup
  for f in memory/memory.limit_in_bytes pids/pids.max cpu/cpu.shares freezer/freezer.state; do
    echo "$f $(cat /sys/fs/cgroup/$f)"; done' | ids
pid=$(p inspect --format '{{.State.Pid}}' c1)
effect_cgroup cg "$pid"
effect_limit "$pid" memory.max 33554432
effect_limit "$pid" pids.max 16
effect_value "$pid" cpu.weight 1
echo "== stats"
p stats --no-stream --format '{{.Name}} {{.MemUsage}} {{.PIDs}}' c1 | sed -E 's/ [^ ]+ \/ / limit /'
echo "== pause"
p pause c1 | ids
p inspect --format '{{.State.Status}}' c1
echo "freezer.state $(cat /sys/fs/cgroup/freezer/libpod_parent/libpod-*/freezer.state)"
effect_frozen "$pid" 1
echo "== unpause"
p unpause c1 | ids
p inspect --format '{{.State.Status}}' c1
echo "freezer.state $(cat /sys/fs/cgroup/freezer/libpod_parent/libpod-*/freezer.state)"
effect_frozen "$pid" 0
echo "== rm"
p rm -f -t 0 c1
find /sys/fs/cgroup/memory/libpod_parent -mindepth 1 -type d | ids

effect_gone "$cg"

echo "== over --memory 32m"
p run --name c2 --network none --cgroups=enabled --memory 32m localhost/bb:1 \
  sh -c 'x=$(head -c 100000000 /dev/zero | tr "\0" a); echo survived'
echo "exit $?"
effect_event /libpod_parent memory.events oom_kill
p inspect --format 'OOMKilled {{.State.OOMKilled}} ExitCode {{.State.ExitCode}}' c2
p rm c2
echo "== over --pids-limit 5"
p run --rm --network none --cgroups=enabled --pids-limit 5 localhost/bb:1 \
  sh -c 'for i in 1 2 3 4 5 6; do sleep 30 & done; wait'
echo "exit $?"

echo "== clean up"
p ps -a --format '{{.Names}}'
p rmi -a -f | ids
# cgroupfs leaves its parent and conmon's groups; conmon may still be leaving.
for h in /sys/fs/cgroup/*; do
  [[ ! -L $h && -d $h/libpod_parent ]] || continue
  for g in $h/libpod_parent/conmon $h/libpod_parent; do
    for _ in $(seq 100); do rmdir "$g" 2>/dev/null && break; sleep 0.1; done
  done
done
rm -rf $work
find /sys/fs/cgroup -mindepth 2 -type d | ids
