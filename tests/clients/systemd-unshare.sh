# Client tier (tests/vm/README.md): systemd 252 in legacy mode as PID 1 of a
# Debian 12 container started by a plain unshare launcher, mounting its own
# hierarchies (systemd.bash, with effects.bash and debian-rootfs.bash).
LAUNCHER=unshare
. "$(dirname "$0")/systemd.bash"
