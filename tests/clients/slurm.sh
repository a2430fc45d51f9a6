# Client: Slurm 22.05 on one node (slurmctld, slurmd, munged) with
# cgroup.conf CgroupPlugin=cgroup/v1, task/cgroup, proctrack/cgroup and
# jobacct_gather/cgroup, ConstrainRAMSpace, ConstrainCores and
# ConstrainDevices. A job reads its own groups and limits; a step over its
# memory is killed by the kernel's OOM killer and slurmstepd reports it; a
# running job's MaxRSS comes from sstat (no accounting database here); scancel
# removes the job and its groups. In the v2 guest the step's leaf must carry
# memory.max and cpuset.cpus.
set -u
# shellcheck source=tests/clients/effects.bash
. "$(dirname "$0")/effects.bash"

# shellcheck source=tests/clients/slurm.bash
. "$(dirname "$0")/slurm.bash"

# slurmstepd stays in the step's memory group, above the task's: v1 allows
# it, so cgxfs gives it a leaf of its own beside the job's directory and
# splits the job's memory limit over the two (docs/mapping.md). The parts,
# the job directory's and each such leaf's (@memory=...:job_N...), add up
# to the v1 limit.
job_split_holds() {
  local job=$1 want=$2 base f v sum=0
  base=$(effect_base)
  for f in "$base"/slurm_node1/uid_0/job_"$job"/memory.max \
           "$base"/@memory=slurm_node1:uid_0:job_"$job"[\;:]*/memory.max; do
    [[ -e $f ]] || continue
    v=$(<"$f")
    [[ $v != max ]] || { effect_why="memory.max of ${f#"$base"} is max"; return 1; }
    sum=$((sum + v))
  done
  [[ $sum == "$want" ]] && return 0
  effect_why="memory.max of job $job's parts adds up to $sum, not $want"
  return 1
}

slurm_start
sinfo -h -o '%P %D %t'

echo "== a job reads its groups and limits"
srun --mem=32M -n1 sh -c 'cat /proc/self/cgroup
  cd /sys/fs/cgroup; g=$(grep :memory: /proc/self/cgroup | cut -d: -f3)
  echo "memory.limit_in_bytes of the step $(cat memory${g%/task_0}/memory.limit_in_bytes)"
  echo "memory.limit_in_bytes of the task $(cat memory$g/memory.limit_in_bytes)"
  c=$(grep :cpuset: /proc/self/cgroup | cut -d: -f3)
  echo "cpuset.cpus $(cat cpuset$c/cpuset.cpus)"
  d=$(grep :devices: /proc/self/cgroup | cut -d: -f3)
  echo "devices.list $(cat devices$d/devices.list)"'
echo "srun exit $?"

echo "== a step over its memory"
srun --mem=32M -n1 sh -c 'x=$(head -c 100000000 /dev/zero | tr "\0" a); echo survived' 2>&1 |
  sed -E 's/^srun: error: [^:]+: task/srun: error: NODE: task/'
echo "srun exit ${PIPESTATUS[0]}"
effect_event /slurm_node1 memory.events oom_kill

echo "== a running job, sstat, scancel"
jobid=$(sbatch --parsable --mem=32M -o /dev/null --wrap 'x=$(head -c 8000000 /dev/zero | tr "\0" a); touch '$work'/ready; sleep 1000')
echo "job $jobid"
for _ in $(seq 600); do [[ -e $work/ready ]] && break; sleep 0.2; done
squeue -h -o '%i %t %j'
pid=$(pgrep -f -n '^sleep 1000$')
effect_on && effect_until job_split_holds "$jobid" 33554432
effect_value "$pid" cpuset.cpus 0
for _ in $(seq 100); do
  rss=$(sstat -n -P -a -j "$jobid" -o MaxRSS 2>/dev/null | grep -v '^$' | sort | tail -1)
  [[ -n $rss && $rss != 0 ]] && break; sleep 0.2
done
rss=${rss%K}
echo "sstat MaxRSS over 8 MB: $(( rss > 8000 ))"
scancel "$jobid"
for _ in $(seq 600); do [[ -z $(squeue -h) ]] && break; sleep 0.2; done
squeue -h
for _ in $(seq 100); do [[ ! -e /sys/fs/cgroup/memory/slurm/uid_0/job_$jobid ]] && break; sleep 0.1; done
echo "job group gone: $([[ -e /sys/fs/cgroup/memory/slurm/uid_0/job_$jobid ]] && echo no || echo yes)"
sed -E 's/ (JobId|UserId|GroupId|Name|JobState|Partition|TimeLimit|NodeList|NodeCnt|ProcCnt|ExitCode)=/\n\1=/g' $work/jobcomp.txt |
  grep -E '^(JobId|JobState|ExitCode)=' | cut -d' ' -f1 | paste -sd' ' | sed 's/JobId=/\nJobId=/g' | grep .

echo "== clean up"
slurm_stop
find /sys/fs/cgroup -mindepth 2 -type d
