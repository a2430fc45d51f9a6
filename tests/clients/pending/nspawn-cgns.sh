# Client tier, pending (tests/clients/README.md, "Known limits"):
# systemd-nspawn with the cgroup namespace it uses by default (nspawn.bash).
# Back in tests/clients/, source "$(dirname "$0")/nspawn.bash".
NSPAWN_CGNS=1
. "$(dirname "$0")/../nspawn.bash"
