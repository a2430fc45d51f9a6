# Client tier (tests/vm/README.md): an LXC busybox container without cgroup
# mounts inside (lxc.bash).
. "$(dirname "$0")/lxc.bash"
