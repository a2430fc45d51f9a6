# Client tier (tests/vm/README.md): systemd-nspawn with the cgroup namespace
# it uses by default (nspawn.bash).
NSPAWN_CGNS=1
. "$(dirname "$0")/nspawn.bash"
