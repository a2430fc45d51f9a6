# Client tier (tests/vm/README.md): systemd 252 in legacy mode as PID 1 of a
# Debian 12 container booted by systemd-nspawn --boot (systemd.bash, with
# effects.bash and debian-rootfs.bash).
LAUNCHER=nspawn
. "$(dirname "$0")/systemd.bash"
