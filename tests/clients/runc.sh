# Client tier (tests/vm/README.md): runc's default container on a v1 host,
# no cgroup namespace, read from inside by its own process (runc.bash).
. "$(dirname "$0")/runc.bash"
