# Client tier: an LXC busybox container with the hierarchies mounted inside
# (lxc.bash), which LXC 5 does through mount(2) once it finds no new mount API.
LXC_CGROUP_MOUNTS=1
. "$(dirname "$0")/lxc.bash"
