# Client tier, pending (tests/clients/README.md, "Known limits"): an LXC
# busybox container with the hierarchies mounted inside (lxc.bash).
# Back in tests/clients/, source "$(dirname "$0")/lxc.bash".
LXC_CGROUP_MOUNTS=1
. "$(dirname "$0")/../lxc.bash"
