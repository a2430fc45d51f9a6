# Client tier (tests/vm/README.md): runc's container with a cgroup namespace
# (runc.bash): inside, /proc/self/cgroup reads / in every hierarchy and the
# hierarchies runc mounts are the container's groups, as on v1.
RUNC_CGNS=1
. "$(dirname "$0")/runc.bash"
