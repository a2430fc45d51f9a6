# Client (pending): Slurm steps under --mem=32M that need 8, 12, 16 and 20
# MB. On kernel v1 the first three finish and the 20 MB one is OOM-killed.
# Under cgx the job's 32 MB are split between the job's directory and the
# leaf of slurmstepd (which stays in the step's memory group, above its
# task), about half each, so the task is killed from 12 MB on.
set -u
# shellcheck source=tests/clients/slurm.bash
. "$(dirname "$0")/../slurm.bash"
slurm_start
for size in 8000000 12000000 16000000 20000000; do
  srun --mem=32M -n1 sh -c "x=\$(head -c $size /dev/zero | tr '\\0' a); echo $size bytes: survived" 2>&1 |
    sed -E 's/^srun: error: [^:]+: task/srun: error: NODE: task/'
done
slurm_stop
