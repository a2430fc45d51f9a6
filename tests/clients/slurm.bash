# tests/clients/slurm.bash: one Slurm 22.05 node for the client scripts.
# Sourced:  . "$(dirname "$0")/slurm.bash"
#
#   slurm_start   munged, slurmctld and slurmd (node "node1", one CPU) with
#                 cgroup.conf CgroupPlugin=cgroup/v1, task/cgroup,
#                 proctrack/cgroup, jobacct_gather/cgroup, ConstrainRAMSpace,
#                 ConstrainCores, ConstrainDevices; returns once the node is
#                 idle. Everything lives in $work (/tmp/cgx-slurm); no
#                 accounting database: sstat and jobcomp/filetxt ($work/jobcomp.txt).
#   slurm_stop    stops the daemons, removes the groups slurmd leaves
#                 (slurm_node1: Debian builds multiple-slurmd) and $work.
work=/tmp/cgx-slurm
export SLURM_CONF=$work/etc/slurm.conf

slurm_start() {
  local host _
  rm -rf $work
  mkdir -p $work/spool $work/state $work/etc
  host=$(hostname)
  # Slurm binds its ports with AI_ADDRCONFIG: glibc then needs an IPv4
  # address other than 127.0.0.1, and the guest has no network card.
  lo_was=$(cat /sys/class/net/lo/operstate)
  ip link set lo up
  ip addr add 10.254.0.1/32 dev lo

  dd if=/dev/urandom of=$work/munge.key bs=128 count=1 status=none
  chmod 600 $work/munge.key
  munged --force --key-file $work/munge.key --socket $work/munge.sock \
    --pid-file $work/munged.pid --log-file $work/munged.log --seed-file $work/munge.seed \
    2>$work/munged.err   # warns that the guest's hostname has no address
  cat >$work/etc/slurm.conf <<CONF
ClusterName=cgx
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
JobAcctGatherType=jobacct_gather/cgroup
JobAcctGatherFrequency=1
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
NodeName=node1 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=1 RealMemory=256 State=UNKNOWN
PartitionName=p Nodes=node1 Default=YES MaxTime=INFINITE State=UP
CONF
  cat >$work/etc/cgroup.conf <<CONF
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
ConstrainRAMSpace=yes
ConstrainCores=yes
ConstrainDevices=yes
CONF
  slurmctld -i
  slurmd -N node1
  for _ in $(seq 600); do
    [[ $(sinfo -h -o %t 2>/dev/null) == idle ]] && break; sleep 0.2
  done
}

slurm_stop() {
  local pids mpid p g _
  pids=$(cat $work/slurmctld.pid $work/slurmd.pid)
  scontrol shutdown
  mpid=$(cat $work/munged.pid)
  kill "$mpid"
  for p in $pids $mpid; do
    for _ in $(seq 300); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
  ps -eo comm | grep -x -e slurmctld -e slurmd -e slurmstepd -e munged
  # slurmd leaves its slurm_NODE groups (Debian builds multiple-slurmd).
  for g in /sys/fs/cgroup/*/slurm*; do
    [[ ! -L ${g%/*} ]] && find "$g" -depth -type d -exec rmdir {} \;
  done
  ip addr del 10.254.0.1/32 dev lo
  [[ $lo_was == down ]] && ip link set lo down
  rm -rf $work
}
