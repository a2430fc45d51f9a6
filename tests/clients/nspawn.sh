# Client tier (tests/vm/README.md): systemd-nspawn without a cgroup
# namespace, in v1 groups made for it (nspawn.bash).
. "$(dirname "$0")/nspawn.bash"
