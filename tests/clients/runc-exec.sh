# Client tier: runc's default container read with runc exec too (runc.bash),
# which joins the container's hierarchies one by one and forks at once.
RUNC_EXEC=1
. "$(dirname "$0")/runc.bash"
