# Client tier, pending (tests/clients/README.md, "Known limits"): runc's
# container with a cgroup namespace, read with runc exec too (runc.bash).
# Back in tests/clients/, source "$(dirname "$0")/runc.bash".
RUNC_CGNS=1
. "$(dirname "$0")/../runc.bash"
